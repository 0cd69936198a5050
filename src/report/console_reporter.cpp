// The terminal: for results, a table with one row per benchmark, one block per scenario run
// with a row per phase, then the diagnostics in full (or the whole-process table of `benchkit
// run` for commands); then each other part of the document in its terminal form.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/compare.hpp"
#include "model/counters.hpp"
#include "model/failure.hpp"
#include "model/threads.hpp"
#include "report/counter_text.hpp"
#include "report/machine_checks.hpp"
#include "report/parts.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {
namespace {

std::optional<double> cpu_ns(const Resources& r) {
  if (!r.user_ns || !r.system_ns) return std::nullopt;
  return *r.user_ns + *r.system_ns;
}

// "812", "18.4 k", "2.10 M": counts of faults.
std::string format_count(double count) {
  if (count < 1e3) return fmt::format("{:.0f}", count);
  if (count < 1e6) return fmt::format("{:.3g} k", count / 1e3);
  return fmt::format("{:.3g} M", count / 1e6);
}

std::string signed_bytes(double bytes) {
  return (bytes < 0 ? "-" : "+") + format_bytes(std::fabs(bytes));
}

// The scenario a phase result belongs to: its name without the last "/phase".
std::string scenario_of(const BenchmarkResult& phase) {
  return phase.name.substr(0, phase.name.rfind('/'));
}

std::string phase_of(const BenchmarkResult& phase) {
  return phase.name.substr(phase.name.rfind('/') + 1);
}

// A scenario counter as its block shows it: a plain one with 4 significant digits, one with a
// kind (Scenario::counter's base_1024, phase_counter's rate) as every report shows counters.
std::string scenario_counter(const BenchmarkResult& phase, const std::string& name, double value) {
  return model::counter_kind(phase, name) == counter::plain
             ? fmt::format("{} {:.4g}", name, value)
             : name + " " + counter_cell(phase, name);
}

// The counters of a scenario's phases: those every phase has alike (Scenario::counter) on one
// line, then each phase's own (Scenario::phase_counter), its rates over its own time.
std::string scenario_counters(const std::vector<const BenchmarkResult*>& phases) {
  const BenchmarkResult& first = *phases.front();
  auto shared = [&](const std::string& name, double value) {
    return std::all_of(phases.begin(), phases.end(), [&](const BenchmarkResult* phase) {
      const auto found = phase->counters.find(name);
      return found != phase->counters.end() && found->second == value &&
             model::counter_kind(*phase, name) == model::counter_kind(first, name);
    });
  };
  std::string out;
  std::string line;
  for (const auto& [name, value] : first.counters) {
    if (!shared(name, value)) continue;
    line += (line.empty() ? "" : ", ") + scenario_counter(first, name, value);
  }
  if (!line.empty()) out += "  counters: " + line + "\n";
  for (const BenchmarkResult* phase : phases) {
    line.clear();
    for (const auto& [name, value] : phase->counters) {
      if (shared(name, value)) continue;
      line += (line.empty() ? "" : ", ") + scenario_counter(*phase, name, value);
    }
    if (!line.empty()) out += "  counters of " + phase_of(*phase) + ": " + line + "\n";
  }
  return out;
}

// One scenario run: a row per phase with time, throughput, CPU and memory, then its counters,
// its failed checks and, with a single run, how to get an interval.
std::string scenario_block(const std::vector<const BenchmarkResult*>& phases, bool color) {
  const BenchmarkResult& first = *phases.front();
  std::size_t runs = 0;
  for (const BenchmarkResult* phase : phases) runs = std::max(runs, phase->samples.size());
  const bool interval = runs > 1;
  std::string out =
      fmt::format("scenario {}: {} run{}", scenario_of(first), runs, runs == 1 ? "" : "s");
  if (!first.valid()) {
    out += color ? "  \033[31;1mINVALID\033[0m" : "  INVALID";
  }
  out += "\n";

  std::vector<std::string> headers = {"phase", interval ? "median" : "time"};
  if (interval) headers.push_back("95% CI");
  for (const char* header : {"throughput", "CPU", "peak RSS", "RSS change", "faults"}) {
    headers.push_back(header);
  }
  std::vector<bool> right = {false, true};
  if (interval) right.push_back(false);
  for (bool r : {false, true, true, true, true}) right.push_back(r);

  std::vector<std::vector<std::string>> rows;
  for (const BenchmarkResult* phase : phases) {
    const Estimates& e = phase->estimates;
    std::vector<std::string> row = {phase_of(*phase), format_duration(e.median.value)};
    if (interval) {
      std::string cell = phase->samples.size() > 1
                             ? fmt::format("[{} … {}]", format_duration(e.median.lower),
                                           format_duration(e.median.upper))
                             : "";
      // Fewer than 6 runs cannot reach 95%: say what the interval does cover.
      if (phase->samples.size() > 1 && e.median.confidence < 0.95) {
        cell += fmt::format(" {:.0f}%", 100.0 * e.median.confidence);
      }
      row.push_back(cell);
    }
    row.push_back(format_throughput(e));
    const auto cpu =
        median_over_samples(*phase, [](const Sample&, const Resources& r) { return cpu_ns(r); });
    // CPU over wall time, run by run: above 100% the phase kept several cores busy.
    const auto share = median_over_samples(*phase, [](const Sample& sample, const Resources& r) {
      const auto total = cpu_ns(r);
      return total && sample.ns > 0 ? std::optional<double>(*total / sample.ns) : std::nullopt;
    });
    row.push_back(cpu ? format_duration(*cpu) +
                            (share ? fmt::format(" ({:.0f}%)", 100.0 * *share) : std::string())
                      : "");
    row.push_back(phase->memory.peak_rss_bytes
                      ? format_bytes(static_cast<double>(*phase->memory.peak_rss_bytes))
                      : "");
    const auto change = median_over_samples(
        *phase, [](const Sample&, const Resources& r) { return r.rss_change_bytes; });
    row.push_back(change ? signed_bytes(*change) : "");
    const auto minor = median_over_samples(
        *phase, [](const Sample&, const Resources& r) { return r.minor_faults; });
    const auto major = median_over_samples(
        *phase, [](const Sample&, const Resources& r) { return r.major_faults; });
    std::string faults = minor ? format_count(*minor) : "";
    if (major && *major > 0) faults += fmt::format(" + {} major", format_count(*major));
    row.push_back(faults);
    rows.push_back(std::move(row));
  }
  out += render_table(headers, rows, right, "  ", [&](std::size_t column, std::string cell) {
    return color && column == 1 ? "\033[1m" + cell + "\033[0m" : cell;
  });

  out += scenario_counters(phases);
  if (!first.exact_counts.empty()) {
    std::string counts;
    for (const ExactCount& count : first.exact_counts) {
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", count.name, count.value);
      if (!count.input.empty()) counts += " (" + count.input + ")";
    }
    out += "  exact counts: " + counts + "\n";
  }
  if (!first.memory.peak_rss_method.empty()) {
    out += "  peak RSS: " + first.memory.peak_rss_method + "\n";
  }
  for (const std::string& failure : first.failures) {
    out += fmt::format("  invalid, kept out of comparisons: {}\n", failure);
  }
  if (!interval) {
    out +=
        "  one run per phase, so no interval: repeat it (--repetitions 5) or run fresh "
        "processes (--processes 5, or benchkit run --processes 5)\n";
  }
  return out;
}

// The mean of a per-sample counter per iteration over the samples, when every sample has it.
std::optional<double> per_iteration(const BenchmarkResult& b, const char* counter) {
  double total = 0.0;
  double iterations = 0.0;
  for (const Sample& sample : b.samples) {
    const auto found = sample.counters.find(counter);
    if (found == sample.counters.end()) return std::nullopt;
    total += found->second;
    iterations += static_cast<double>(sample.iters);
  }
  if (iterations <= 0.0) return std::nullopt;
  return total / iterations;
}

// Counted benchmarks (--mode instructions): what the simulated caches saw per iteration, the
// estimated cycles and the system calls inside the region.
std::string counted_table(const RunResult& run) {
  std::vector<std::vector<std::string>> rows;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.metric.empty() || b.failure) continue;
    const auto l1 = per_iteration(b, "l1_hits");
    if (!l1) continue;
    auto cell = [&](const char* counter) {
      const auto value = per_iteration(b, counter);
      return value ? format_count(*value) : std::string();
    };
    rows.push_back({b.name, cell("l1_hits"), cell("ll_hits"), cell("ram_hits"),
                    cell("estimated_cycles"), cell("system_calls")});
  }
  if (rows.empty()) return "";
  return "\nper iteration, simulated (valgrind callgrind; cycles = L1 + 5 LL + 35 RAM; system "
         "calls counted, not timed):\n" +
         render_table({"benchmark", "L1 hits", "LL hits", "RAM hits", "est. cycles", "syscalls"},
                      rows, {false, true, true, true, true, true}, "",
                      [](std::size_t, std::string cell) { return cell; });
}

// Threaded benchmarks (Registration::threads): the table's median is one thread's time per
// iteration while N run; this paragraph adds the time per iteration of all the threads together
// (the median divided by N, Google Benchmark's figure). Empty when the run has none.
std::string threads_text(const RunResult& run) {
  std::string out;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (!model::is_threaded(b) || b.samples.empty() || b.failure || !b.valid()) continue;
    const double median = b.estimates.median.value;
    const double threads = model::thread_count(b);
    out += fmt::format("{}: {} per iteration of one thread, {} per iteration of all {} together\n",
                       b.name, format_measure(median, b.metric),
                       format_measure(median / threads, b.metric), model::thread_count(b));
  }
  if (out.empty()) return out;
  return "\nthreads (each runs every iteration; a sample lasts from their common start to the "
         "last one's end):\n" +
         out;
}

// The user counters and labels of the benchmarks that have any: a column per counter name
// (its kind applied, with its units), then the label; nothing when none has one, so that the
// main table keeps its width.
std::string counter_table(const RunResult& run) {
  const std::vector<const BenchmarkResult*> results = with_counters(run);
  if (results.empty()) return "";
  std::vector<std::string> headers = {"benchmark"};
  const std::vector<std::string> names = counter_names(results);
  headers.insert(headers.end(), names.begin(), names.end());
  const bool labels = any_label(results);
  if (labels) headers.push_back("label");
  std::vector<bool> right(headers.size(), true);
  right.front() = false;
  if (labels) right.back() = false;
  std::vector<std::vector<std::string>> rows;
  for (const BenchmarkResult* b : results) rows.push_back(counter_row(*b, names, labels));
  return "\nuser counters" + std::string(labels ? " and labels" : "") + ":\n" +
         render_table(headers, rows, right);
}

// A row of the benchmark table: a measured benchmark's figures, or why it has none (skipped,
// failed: the reason follows the table); with `between`, the share of the variance between
// processes before the flags.
std::vector<std::string> benchmark_row(const BenchmarkResult& b, bool between) {
  std::vector<std::string> row;
  if (b.skipped) {
    row = {b.name, "skipped", "", "", "", "", "--skip-tag " + b.skipped->tag};
  } else if (model::failed_unmeasured(b)) {
    // No measurement (it crashed, or another tool reported an error for it).
    row = {b.name, "failed", "", "", "", "", std::string(model::unmeasured_cause(b))};
  } else {
    const Estimates& e = b.estimates;
    // Spread: MAD relative to the median, the robust counterpart of the CV.
    // One sample has no interval and no spread: said, not shown as [x … x] and ±0.0%.
    const bool one = b.samples.size() == 1;
    const std::string spread =
        e.median.value > 0 && !one ? fmt::format("±{:.1f}%", 100.0 * e.mad / e.median.value) : "";
    std::string flags;
    for (const Diagnostic& d : b.diagnostics) {
      if (!flags.empty()) flags += ",";
      flags += d.code;
    }
    row = {b.name,
           format_measure(e.median.value, b.metric),
           one ? std::string("no interval (1 sample)")
               : fmt::format("[{} … {}]{}", format_measure(e.median.lower, b.metric),
                             format_measure(e.median.upper, b.metric), confidence_suffix(e.median)),
           format_throughput(e),
           format_samples(b),
           spread,
           flags};
  }
  if (between) row.insert(row.end() - 1, format_between_processes(b.estimates));
  return row;
}

// "NAME failed, kept out of comparisons: CAUSE", then the last lines it wrote to stderr, when
// they were kept, as a block: not also the one-line tail a process's failure carries
// (session/gbench_binary.cpp), which printed them twice.
std::string failure_lines(const BenchmarkResult& b) {
  const bool tail = b.failure && !b.failure->stderr_tail.empty();
  std::string message = b.failures.front();
  if (const auto inline_tail = message.find(model::kStderrTailJoint);
      tail && inline_tail != std::string::npos) {
    message.resize(inline_tail);
  }
  std::string out = fmt::format("{} failed, kept out of comparisons: {}\n", b.name, message);
  if (!tail) return out;
  out += "  the last lines it wrote to stderr:\n";
  const std::string& lines = b.failure->stderr_tail;
  for (std::size_t start = 0; start < lines.size();) {
    const std::size_t end = std::min(lines.find('\n', start), lines.size());
    out += "  | " + lines.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

// The benchmark table, scenario blocks, failures, diagnostics and the run's warnings.
std::string benchmark_table(const RunResult& run, Options options) {
  // With samples from several processes, the share of the variance between them, before flags.
  const bool between = any_between_processes(run);
  std::vector<std::string> headers = {"benchmark", "median", "95% CI", "throughput",
                                      "samples",   "spread", "flags"};
  if (between) headers.insert(headers.end() - 1, "between processes");
  std::vector<std::vector<std::string>> rows;
  // Scenario phases, grouped by scenario run in the order they come.
  std::vector<std::vector<const BenchmarkResult*>> scenarios;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.kind == "scenario" && !b.failure && !b.skipped) {
      if (scenarios.empty() || scenario_of(*scenarios.back().front()) != scenario_of(b)) {
        scenarios.emplace_back();
      }
      scenarios.back().push_back(&b);
      continue;
    }
    rows.push_back(benchmark_row(b, between));
  }
  std::string out;
  if (!rows.empty() || scenarios.empty()) {
    std::vector<bool> right = {false, true, false, false, true, true, false};
    if (between) right.insert(right.end() - 1, true);
    drop_empty_column(headers, rows, 3, &right);  // no benchmark declares bytes or items
    const std::size_t flags_column = headers.size() - 1;
    out += render_table(headers, rows, right, "", [&](std::size_t c, std::string cell) {
      if (options.color && c == 1 && cell.find("failed") != std::string::npos) {
        return "\033[31;1m" + cell + "\033[0m";
      }
      if (options.color && c == 1) return "\033[1m" + cell + "\033[0m";
      if (options.color && c == flags_column && cell.find_first_not_of(' ') != std::string::npos) {
        return "\033[33m" + cell + "\033[0m";
      }
      return cell;
    });
  }
  out += counted_table(run);
  out += counter_table(run);
  for (const auto& phases : scenarios) {
    if (!out.empty()) out += "\n";
    out += scenario_block(phases, options.color);
  }
  out += threads_text(run);
  out += parts::complexity_text(run);

  bool any_diagnostic = false;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (!model::failed_unmeasured(b)) continue;
    if (!any_diagnostic) out += "\n";
    any_diagnostic = true;
    out += failure_lines(b);
  }
  for (const BenchmarkResult& b : run.benchmarks) {
    if (!b.skipped) continue;
    if (!any_diagnostic) out += "\n";
    any_diagnostic = true;
    out +=
        fmt::format("{} skipped (--skip-tag {}): {}\n", b.name, b.skipped->tag, b.skipped->reason);
  }
  // A diagnostic said alike of several benchmarks (a suite whose code asks every benchmark for
  // the same thing) is said once, with how many and the first of them; the table's flags column
  // marks each.
  std::vector<std::pair<const Diagnostic*, std::vector<const std::string*>>> said;
  for (const BenchmarkResult& b : run.benchmarks) {
    for (const Diagnostic& d : b.diagnostics) {
      const auto same = std::find_if(said.begin(), said.end(), [&](const auto& entry) {
        return entry.first->code == d.code && entry.first->message == d.message;
      });
      if (same == said.end()) {
        said.push_back({&d, {&b.name}});
      } else {
        same->second.push_back(&b.name);
      }
    }
  }
  for (const auto& [d, names] : said) {
    if (!any_diagnostic) out += "\n";
    any_diagnostic = true;
    const std::string who =
        names.size() == 1 ? *names.front()
                          : fmt::format("{} benchmarks ({} and {} more, flagged in the table)",
                                        names.size(), *names.front(), names.size() - 1);
    out += fmt::format("{} [{}]: {}\n", who, d->code, d->message);
  }
  if (!run.context.warnings.empty()) {
    out += "\n";
    for (const Diagnostic& warning : run.context.warnings) {
      out += fmt::format("{} [{}]: {}\n", warning.severity, warning.code, warning.message);
    }
  }
  return out;
}

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(Options options) : options_(options) {}

 private:
  Format format() const override { return Format::console; }
  Capabilities capabilities() const override {
    return {{Part::results, Part::comparison, Part::noise, Part::machine_checks, Part::warnings},
            true};
  }
  std::string render_accepted(const Document& document) const override {
    std::vector<std::string> rendered;
    if (document.results) rendered.push_back(parts::results_console(*document.results, options_));
    if (document.comparison) {
      rendered.push_back(parts::comparison_console(*document.comparison, options_));
    }
    if (document.noise) rendered.push_back(parts::noise_console(*document.noise));
    if (document.machine_checks) {
      rendered.push_back(parts::machine_checks_console(*document.machine_checks));
    }
    if (document.warnings) rendered.push_back(format_machine_warnings(*document.warnings));
    // Names, notes and failures come from files and commands anyone wrote.
    return terminal_safe(parts::join(rendered), options_.color);
  }

  Options options_;
};

}  // namespace

std::string parts::results_console(const RunResult& run, Options options) {
  return parts::all_commands(run) ? command_table(run, options) : benchmark_table(run, options);
}

std::unique_ptr<Reporter> make_console_reporter(Options options) {
  return std::make_unique<ConsoleReporter>(options);
}

}  // namespace benchkit::report
