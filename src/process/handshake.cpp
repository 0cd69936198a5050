#include "process/handshake.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "benchkit_build_info.hpp"
#include "process/capture.hpp"

namespace benchkit::process {

std::string bench_info_line() {
  return fmt::format("{{\"benchkit\": \"{}\", \"protocol\": {}, \"turns\": true}}\n",
                     build_info::version, kBenchProtocol);
}

bool links_google_benchmark(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  // Built at run time from two pieces: benchkit's own binary holds this code, and must not
  // hold the name it looks for.
  const std::string kMark = std::string("_ZN") + "9benchmark";
  // Read in blocks, keeping the last bytes of each so that a name across two blocks is found.
  std::string window;
  std::vector<char> block(1 << 16);
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    window.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (window.find(kMark) != std::string::npos) return true;
    if (window.size() > kMark.size()) window.erase(0, window.size() - kMark.size());
  }
  return false;
}

model::Result<Handshake> probe_bench_binary(const std::string& path) {
  if (links_google_benchmark(path)) {
    Handshake handshake;
    handshake.problem =
        "it links Google Benchmark, so it was not asked --benchkit-info (a suite with its own "
        "main() would run all its benchmarks)";
    return handshake;
  }
  CaptureOptions options;
  // A bench binary answers in milliseconds (no benchmark runs); 10 s leaves room for a loaded
  // machine and still stops a program that took the flag as a request to do real work.
  options.timeout = std::chrono::seconds(10);
  options.limit = 64 * 1024;  // the answer is one short line
  const auto answered = run_captured({path, "--benchkit-info"}, options);
  if (!answered) return model::Error{answered.error().message};
  Handshake handshake;
  if (answered->timed_out) {
    handshake.problem = "it did not answer --benchkit-info within 10 s";
    return handshake;
  }
  if (!answered->exit.ok()) {
    handshake.problem = "it " + answered->exit.describe() + " when asked --benchkit-info";
    return handshake;
  }
  const std::string& out = answered->out;
  const nlohmann::json answer =
      nlohmann::json::parse(out.substr(0, out.find('\n')), nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object() || !answer.contains("benchkit") || !answer["benchkit"].is_string() ||
      !answer.contains("protocol") || !answer["protocol"].is_number_integer()) {
    handshake.problem = out.empty()
                            ? "it exited without answering --benchkit-info"
                            : "its answer to --benchkit-info was not the benchkit handshake";
    return handshake;
  }
  handshake.benchkit = true;
  handshake.version = answer["benchkit"].get<std::string>();
  handshake.protocol = answer["protocol"].get<int>();
  handshake.turns = answer.contains("turns") && answer["turns"] == true;
  return handshake;
}

}  // namespace benchkit::process
