#include "session/order_dependence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "process/capture.hpp"
#include "process/temporary_folder.hpp"
#include "session/result_files.hpp"

namespace benchkit::session {

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
