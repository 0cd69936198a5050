#include "report/command_table.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "report/parts.hpp"

namespace benchkit::report {
namespace {

std::string cpu_cell(const BenchmarkResult& b) {
  const auto user =
      median_over_samples(b, [](const Sample&, const Resources& r) { return r.user_ns; });
  const auto sys =
      median_over_samples(b, [](const Sample&, const Resources& r) { return r.system_ns; });
  if (user || sys) {
    return fmt::format("{} / {}", user ? format_duration(*user) : "?",
                       sys ? format_duration(*sys) : "?");
  }
  // A hyperfine export keeps only the mean user and system times of the runs, as counters.
  const auto user_mean = b.counters.find("user_ns");
  const auto sys_mean = b.counters.find("system_ns");
  if (user_mean == b.counters.end() && sys_mean == b.counters.end()) return "";
  return fmt::format("{} / {} (means)",
                     user_mean != b.counters.end() ? format_duration(user_mean->second) : "?",
                     sys_mean != b.counters.end() ? format_duration(sys_mean->second) : "?");
}

}  // namespace

bool parts::all_commands(const RunResult& run) {
  return !run.benchmarks.empty() &&
         std::all_of(run.benchmarks.begin(), run.benchmarks.end(),
                     [](const BenchmarkResult& b) { return b.kind == "command"; });
}

parts::CommandCells parts::command_cells(const RunResult& run) {
  CommandCells cells;
  cells.headers = {"command",   "median",     "95% CI",   "mean ± σ",
                   "min … max", "user / sys", "peak RSS", "runs"};
  // Numbers align right: the median and the columns from user / sys on.
  cells.right = {false, true, false, false, false, true, true, true};
  std::vector<std::vector<std::string>>& rows = cells.rows;
  for (const BenchmarkResult& b : run.benchmarks) {
    const Estimates& e = b.estimates;
    if (b.samples.empty()) {
      rows.push_back({b.name, "", "", "", "", "", "", "0"});
      continue;
    }
    // A counted command (benchkit run --mode instructions -- CMD) holds counts, not times.
    const auto value = [&b](double v) { return format_measure(v, b.metric); };
    // One run has no interval and no spread: said, not shown as [x … x] and ± 0.
    const bool one = b.samples.size() == 1;
    rows.push_back(
        {b.name, value(e.median.value),
         one ? std::string("no interval (1 run)")
             : fmt::format("[{} … {}]", value(e.median.lower), value(e.median.upper)),
         one ? value(e.mean.value) : fmt::format("{} ± {}", value(e.mean.value), value(e.stddev)),
         fmt::format("{} … {}", value(e.min), value(e.max)), cpu_cell(b),
         b.memory.peak_rss_bytes ? format_bytes(static_cast<double>(*b.memory.peak_rss_bytes)) : "",
         std::to_string(b.samples.size())});
  }
  return cells;
}

std::string parts::command_table(const RunResult& run, Options options) {
  const CommandCells cells = command_cells(run);
  std::string out = render_table(
      cells.headers, cells.rows, cells.right, "", [&](std::size_t c, std::string cell) {
        return options.color && c == 1 ? "\033[1m" + cell + "\033[0m" : cell;
      });

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

std::string render_command_table(const RunResult& run, Options options) {
  return terminal_safe(parts::command_table(run, options), options.color);
}

}  // namespace benchkit::report
