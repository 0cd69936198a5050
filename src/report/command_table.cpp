#include "report/command_table.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace benchkit::report {
namespace {

// Median of one resource over the runs that have it.
std::optional<double> median_of(const BenchmarkResult& b,
                                std::optional<double> (*pick)(const Resources&)) {
  std::vector<double> values;
  for (const Sample& s : b.samples) {
    if (!s.resources) continue;
    if (const auto v = pick(*s.resources)) values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::string cpu_cell(const BenchmarkResult& b) {
  const auto user = median_of(b, [](const Resources& r) { return r.user_ns; });
  const auto sys = median_of(b, [](const Resources& r) { return r.system_ns; });
  if (!user && !sys) return "";
  return fmt::format("{} / {}", user ? format_duration(*user) : "?",
                     sys ? format_duration(*sys) : "?");
}

}  // namespace

std::string render_command_table(const RunResult& run, Options options) {
  const std::vector<std::string> headers = {"command",   "median",     "95% CI",   "mean ± σ",
                                            "min … max", "user / sys", "peak RSS", "runs"};
  std::vector<std::vector<std::string>> rows;
  for (const BenchmarkResult& b : run.benchmarks) {
    const Estimates& e = b.estimates;
    if (b.samples.empty()) {
      rows.push_back({b.name, "", "", "", "", "", "", "0"});
      continue;
    }
    rows.push_back(
        {b.name, format_duration(e.median.value),
         fmt::format("[{} … {}]", format_duration(e.median.lower), format_duration(e.median.upper)),
         fmt::format("{} ± {}", format_duration(e.mean.value), format_duration(e.stddev)),
         fmt::format("{} … {}", format_duration(e.min), format_duration(e.max)), cpu_cell(b),
         b.memory.peak_rss_bytes ? format_bytes(static_cast<double>(*b.memory.peak_rss_bytes)) : "",
         std::to_string(b.samples.size())});
  }
  std::vector<std::size_t> widths(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) widths[c] = display_width(headers[c]);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  }
  std::string out;
  auto emit = [&](const std::vector<std::string>& cells, bool header) {
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool right = c == 1 || c >= 5;
      std::string cell = pad(cells[c], widths[c], right && !header);
      if (options.color && !header && c == 1) cell = "\033[1m" + cell + "\033[0m";
      line += (c == 0 ? "" : "  ") + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  emit(headers, true);
  for (const auto& row : rows) emit(row, false);

  std::string notes;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.first_iteration_ns && b.warm_up_iters > 0) {
      notes += fmt::format("{}: warm-up {} run{}, first {}\n", b.name, b.warm_up_iters,
                           b.warm_up_iters == 1 ? "" : "s", format_duration(*b.first_iteration_ns));
    }
    if (const auto shell = b.counters.find("shell_startup_ns"); shell != b.counters.end()) {
      notes += fmt::format("{}: shell start-up {} subtracted (its uncertainty is in the CI)\n",
                           b.name, format_duration(shell->second));
    }
    for (const std::string& failure : b.failures) {
      notes += fmt::format("{}: FAILED: {}\n", b.name, failure);
    }
    for (const Diagnostic& d : b.diagnostics) {
      notes += fmt::format("{} [{}]: {}\n", b.name, d.code, d.message);
    }
  }
  if (!notes.empty()) out += "\n" + notes;
  return out;
}

}  // namespace benchkit::report
