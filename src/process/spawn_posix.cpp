#include <unistd.h>

#include <array>

#include "process/capture.hpp"
#include "process/spawn.hpp"

namespace benchkit::process {

model::Result<Exit> run_and_wait(const std::vector<std::string>& argv) {
  CaptureOptions options;
  options.out = Stream::inherit;
  options.err = Stream::inherit;
  auto finished = run_captured(argv, options);
  if (!finished) return finished.error();
  return finished->exit;
}

std::string self_executable() {
  std::array<char, 4096> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  return length > 0 ? std::string(path.data(), static_cast<std::size_t>(length)) : std::string();
}

}  // namespace benchkit::process
