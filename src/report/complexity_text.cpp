// The complexity fits of a run in words, for the terminal and Markdown: one paragraph per sweep.
#include <fmt/format.h>

#include "analysis/complexity.hpp"
#include "report/parts.hpp"
#include "report/reporter.hpp"

namespace benchkit::report {

namespace {

// "1.23 ns", "0.000456 ns": a coefficient, which can be far below a nanosecond; from a
// microsecond up in the unit that reads best ("16.1 ms", not "1.61e+07 ns").
std::string coefficient_text(double value) {
  if (value >= 1000.0) return format_duration(value);
  return fmt::format("{:.3g} ns", value);
}

// A fit's RMS (a fraction) as a percentage: "5%", "0.45%" (not "0%"), "0%" below 0.01%.
std::string rms_text(double rms) {
  const double percent = rms * 100.0;
  if (percent >= 1.0) return fmt::format("{:.0f}%", percent);
  if (percent < 0.01) return "0%";
  return fmt::format("{:.2g}%", percent);
}

std::string fit_line(const ComplexityResult& fit) {
  const std::string term = fit.big_o == "(1)" ? "" : " × " + fit.big_o;
  std::string line =
      fmt::format("{} over {}: {}, {}{}", fit.family, fit.param, analysis::big_o_words(fit.big_o),
                  coefficient_text(fit.coefficient.value), term);
  if (!fit.source.empty()) {
    return line + fmt::format(", RMS {} (fitted by {})\n", rms_text(fit.rms), fit.source);
  }
  line += fmt::format(" [{} … {}] ({}), RMS {}, {} sizes", coefficient_text(fit.coefficient.lower),
                      coefficient_text(fit.coefficient.upper), fit.interval_method,
                      rms_text(fit.rms), fit.sizes);
  if (fit.requested == "auto") {
    double weight = 0.0;
    for (const ComplexityCandidate& c : fit.candidates) {
      if (c.big_o == fit.best) weight = c.akaike_weight;
    }
    line += fmt::format("; Akaike weight {:.2f}", weight);
    if (fit.interval_method == "bootstrap") {
      line += fmt::format(", chosen in {:.0f}% of resamples", fit.stability * 100.0);
    }
  } else if (fit.best != fit.big_o) {
    line += fmt::format("; {} was asked for, the data fit {} better",
                        analysis::big_o_words(fit.big_o), analysis::big_o_words(fit.best));
  }
  line += "\n";
  if (!fit.indistinguishable.empty()) {
    std::string others;
    for (const std::string& other : fit.indistinguishable) {
      others += (others.empty() ? "" : ", ") + analysis::big_o_words(other);
    }
    line += fmt::format(
        "  the data cannot tell {} from {} (within 2 of the best AIC): measure sizes spread over "
        "a wider range, or more samples per size\n",
        analysis::big_o_words(fit.best), others);
  }
  return line;
}

}  // namespace

std::string parts::complexity_markdown(const RunResult& run) {
  if (run.complexity.empty()) return {};
  std::string out = "\n**Complexity** (time per iteration ≈ coefficient × g(size), 95% CI):\n\n";
  for (const ComplexityResult& fit : run.complexity) {
    // The console's lines, each a list item; a continuation line nests under its fit.
    std::string lines = fit_line(fit);
    std::size_t start = 0;
    while (start < lines.size()) {
      const std::size_t end = lines.find('\n', start);
      const std::string line = lines.substr(start, end - start);
      const bool nested = line.rfind("  ", 0) == 0;
      out += fmt::format("{}- {}\n", nested ? "  " : "",
                         markdown_escape(nested ? line.substr(2) : line));
      start = end == std::string::npos ? lines.size() : end + 1;
    }
  }
  return out;
}

std::string parts::complexity_text(const RunResult& run) {
  if (run.complexity.empty()) return {};
  std::string out = "\ncomplexity (time per iteration ≈ coefficient × g(size), 95% CI):\n";
  for (const ComplexityResult& fit : run.complexity) out += fit_line(fit);
  return out;
}

}  // namespace benchkit::report
