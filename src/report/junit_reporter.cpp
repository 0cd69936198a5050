// JUnit XML, the test-result format CI servers (GitLab, Jenkins, GitHub annotations) show:
// one <testsuites> document, one <testsuite> per part of the Document, one <testcase> per
// benchmark.
//   results:    a benchmark that failed to run (threw, crashed, hung) or failed its checks is an
//               <error>; its diagnostics and figures go to <system-out>.
//   comparison: `regressed` is a <failure>, `invalid` an <error>; the change with its interval,
//               the note and the new side's diagnostics go to <system-out>.
//   noise:      every benchmark passes; its spread and recommended threshold go to <system-out>.
// The time attribute is the benchmark's median in seconds. The elements and attributes used
// are those of the JUnit schema CI servers read (testsuites > testsuite[name, tests, failures,
// errors, skipped] > testcase[name, classname, time] > failure|error[message, type],
// system-out).
#include <fmt/format.h>

#include "analysis/compare.hpp"
#include "model/failure.hpp"
#include "report/comparison.hpp"
#include "report/counter_text.hpp"
#include "report/noise.hpp"
#include "report/parts.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

using analysis::Verdict;

struct TestCase {
  std::string name;
  double seconds = 0.0;
  std::string problem;  // "failure", "error" or ""
  std::string message;  // of the failure or error
  std::string type;     // of the failure or error: a verdict, a failure cause
  std::string output;   // system-out
};

std::string suite(const std::string& name, const std::vector<TestCase>& cases) {
  std::size_t failures = 0;
  std::size_t errors = 0;
  for (const TestCase& c : cases) {
    failures += c.problem == "failure";
    errors += c.problem == "error";
  }
  std::string out = fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\">\n",
      markup_escape(name), cases.size(), failures, errors);
  for (const TestCase& c : cases) {
    out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.9f}\"",
                       markup_escape(c.name), markup_escape(name), c.seconds);
    if (c.problem.empty() && c.output.empty()) {
      out += "/>\n";
      continue;
    }
    out += ">\n";
    if (!c.problem.empty()) {
      out += fmt::format("      <{} message=\"{}\" type=\"{}\"/>\n", c.problem,
                         markup_escape(c.message), markup_escape(c.type));
    }
    if (!c.output.empty()) {
      out += fmt::format("      <system-out>{}</system-out>\n", markup_escape(c.output));
    }
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n";
  return out;
}

// A benchmark's user counters ("counter NAME: VALUE", units included) and its label ("label:
// TEXT"), a line each for its <system-out>: the JUnit schema CI servers read (Jenkins', GitLab's)
// has no <properties> in a <testcase>, and a strict parser refuses the file. A command's counters
// are benchkit's own, not the user's.
std::string counter_lines(const BenchmarkResult& b) {
  std::string lines;
  if (b.kind == "command") return lines;
  for (const auto& [name, value] : b.counters) {
    lines += fmt::format("counter {}: {}\n", name, counter_cell(b, name));
  }
  if (!b.label.empty()) lines += fmt::format("label: {}\n", b.label);
  return lines;
}

std::vector<TestCase> result_cases(const RunResult& run) {
  std::vector<TestCase> cases;
  for (const BenchmarkResult& b : run.benchmarks) {
    TestCase c;
    c.name = b.name;
    c.seconds = b.failure ? 0.0 : b.estimates.median.value / 1e9;
    if (b.failure) {
      c.problem = "error";
      c.type = std::string(model::failure_cause_name(b.failure->cause));
      c.message = b.failures.empty() ? c.type : b.failures.front();
      if (!b.failure->stderr_tail.empty()) {
        c.output = "the last lines it wrote to stderr:\n" + b.failure->stderr_tail;
        if (c.output.back() != '\n') c.output += "\n";
      }
    } else {
      if (!b.valid()) {
        c.problem = "error";
        c.type = "invalid";
        c.message = b.failures.front();
      }
      if (!b.samples.empty()) {
        const Estimates& e = b.estimates;
        c.output = fmt::format("median {} [{} … {}], {} samples", format_duration(e.median.value),
                               format_duration(e.median.lower), format_duration(e.median.upper),
                               b.samples.size());
        const std::string throughput = format_throughput(e);
        if (!throughput.empty()) c.output += ", " + throughput;
        c.output += "\n";
      }
    }
    for (const Diagnostic& d : b.diagnostics) {
      c.output += fmt::format("{} {}: {}\n", d.severity, d.code, d.message);
    }
    c.output += counter_lines(b);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<TestCase> comparison_cases(const analysis::Comparison& comparison) {
  std::vector<TestCase> cases;
  for (const analysis::BenchmarkComparison& b : comparison.benchmarks) {
    TestCase c;
    c.name = b.name;
    c.type = analysis::to_string(b.verdict);
    const bool measured = b.verdict != Verdict::added && b.verdict != Verdict::removed &&
                          b.verdict != Verdict::invalid;
    c.seconds = b.verdict == Verdict::removed ? b.baseline_median / 1e9 : b.candidate_median / 1e9;
    const std::string change =
        measured
            ? fmt::format("{:+.1f}% [{:+.1f}%, {:+.1f}%] against the baseline", (b.ratio - 1) * 100,
                          (b.ratio_lower - 1) * 100, (b.ratio_upper - 1) * 100)
            : "";
    if (b.verdict == Verdict::regressed) {
      c.problem = "failure";
      c.message = fmt::format("regressed: {}", change);
    } else if (b.verdict == Verdict::invalid) {
      c.problem = "error";
      c.message = b.note.empty() ? "invalid: a side failed its checks" : "invalid: " + b.note;
    }
    c.output =
        fmt::format("{}{}{}\n", analysis::to_string(b.verdict), change.empty() ? "" : ": ", change);
    if (!b.note.empty()) c.output += b.note + "\n";
    for (const std::string& d : b.candidate_diagnostics) c.output += d + "\n";
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<TestCase> noise_cases(const NoiseReport& report) {
  std::vector<TestCase> cases;
  for (const analysis::BenchmarkNoise& b : report.analysis.benchmarks) {
    TestCase c;
    c.name = b.name;
    c.seconds = b.median / 1e9;
    if (b.analysed()) {
      c.output = fmt::format("median {} over {} processes, spread {:.1f}%, CV {:.2f}%\n",
                             format_duration(b.median), b.process_medians.size(), b.spread * 100,
                             b.cv * 100);
      if (b.recommendation) {
        c.output += fmt::format("needs --processes {} --noise-threshold {:.3f}\n",
                                b.recommendation->processes, b.recommendation->threshold);
      }
    }
    if (!b.note.empty()) c.output += b.note + "\n";
    cases.push_back(std::move(c));
  }
  return cases;
}

class JunitReporter final : public Reporter {
 private:
  Format format() const override { return Format::junit; }
  Capabilities capabilities() const override {
    return {{Part::results, Part::comparison, Part::noise}, true};
  }
  std::string render_accepted(const Document& document) const override {
    std::string out =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"benchkit\">\n";
    if (document.results) out += suite("benchkit.results", result_cases(*document.results));
    if (document.comparison) {
      out += suite("benchkit.comparison", comparison_cases(*document.comparison));
    }
    if (document.noise) out += suite("benchkit.noise", noise_cases(*document.noise));
    out += "</testsuites>\n";
    return out;
  }
};

}  // namespace

std::unique_ptr<Reporter> make_junit_reporter() {
  return std::make_unique<JunitReporter>();
}

}  // namespace benchkit::report
