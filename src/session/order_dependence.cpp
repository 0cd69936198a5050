#include "session/order_dependence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "process/capture.hpp"
#include "process/temporary_folder.hpp"
#include "session/result_files.hpp"

namespace benchkit::session {

std::size_t OrderReport::moved() const {
  return static_cast<std::size_t>(std::count_if(benchmarks.begin(), benchmarks.end(),
                                                [](const OrderMove& move) { return move.moved; }));
}

OrderReport compare_orders(const RunResult& forward, const RunResult& reverse, double threshold) {
  OrderReport report;
  report.threshold = threshold;
  std::map<std::string, const BenchmarkResult*> reversed;
  for (const BenchmarkResult& benchmark : reverse.benchmarks) {
    if (!benchmark.failure && !benchmark.metric.empty()) reversed[benchmark.name] = &benchmark;
  }
  for (const BenchmarkResult& benchmark : forward.benchmarks) {
    if (benchmark.metric.empty() && !benchmark.failure) continue;
    const auto found = reversed.find(benchmark.name);
    if (benchmark.failure || found == reversed.end()) {
      report.missing.push_back(benchmark.name);
      continue;
    }
    OrderMove move;
    move.name = benchmark.name;
    move.forward = benchmark.estimates.median.value;
    move.reverse = found->second->estimates.median.value;
    move.change = move.forward != 0.0 ? move.reverse / move.forward - 1.0 : 0.0;
    move.moved = std::fabs(move.change) > threshold;
    report.benchmarks.push_back(move);
    reversed.erase(found);
  }
  for (const auto& [name, benchmark] : reversed) report.missing.push_back(name);
  return report;
}

CountInOrder count_in_order(const std::string& binary, const std::vector<std::string>& flags,
                            const std::string& folder) {
  return [binary, flags, folder](const std::string& order) -> model::Result<RunResult> {
    const std::string out = fmt::format("{}/{}.json", folder, order);
    std::vector<std::string> argv = {binary, "--mode",  "instructions", "--counted-order",
                                     order,  "--quiet", "--out",        out};
    argv.insert(argv.end(), flags.begin(), flags.end());
    process::CaptureOptions options;
    options.out = process::Stream::discard;
    options.err = process::Stream::inherit;
    const auto ran = process::run_captured(argv, options);
    auto loaded = load_result_file(out);
    if (!ran || !loaded) {
      return model::Error{
          fmt::format("{} --mode instructions --counted-order {} did not run ({})", binary, order,
                      !ran ? ran.error().message : loaded.error().message),
          model::ErrorKind::failed};
    }
    return loaded;
  };
}

model::Result<OrderReport> measure_order_dependence(const CountInOrder& count, double threshold) {
  auto forward = count("forward");
  if (!forward) return forward.error();
  auto reverse = count("reverse");
  if (!reverse) return reverse.error();
  return compare_orders(*forward, *reverse, threshold);
}

model::Result<OrderReport> measure_order_dependence(const std::string& binary,
                                                    const std::vector<std::string>& flags,
                                                    double threshold) {
  const auto folder = process::make_temporary_folder("benchkit-order");
  if (!folder) return folder.error();
  const process::FolderRemover remover(*folder);
  return measure_order_dependence(count_in_order(binary, flags, *folder), threshold);
}

}  // namespace benchkit::session
