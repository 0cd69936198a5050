#include "session/noise.hpp"

#include <fmt/format.h>

#include "process/capture.hpp"
#include "process/temporary_folder.hpp"
#include "session/result_files.hpp"

namespace benchkit::session {

std::vector<std::string> noise_command(const NoiseRequest& request, const std::string& out) {
  std::vector<std::string> argv = {request.executable, "--processes",
                                   std::to_string(request.processes), "--out", out};
  argv.insert(argv.end(), request.flags.begin(), request.flags.end());
  return argv;
}

model::Result<NoiseRun> run_noise_experiment(const NoiseRequest& request) {
  const auto folder = process::make_temporary_folder("benchkit-noise");
  if (!folder) return folder.error();
  const process::FolderRemover remover(*folder);
  const std::string out = *folder + "/result.json";
  const std::vector<std::string> argv = noise_command(request, out);
  // Not --quiet: the binary then shows its own worker progress when stderr is a terminal; its
  // table on stdout is discarded (the caller's report replaces it).
  process::CaptureOptions spawn;
  spawn.out = process::Stream::discard;
  spawn.err = process::Stream::inherit;
  const auto finished = process::run_captured(argv, spawn);
  auto loaded = load_result_file(out);
  if (!finished) return model::Error{finished.error().message, model::ErrorKind::failed};
  // Exit status 1 with a result: some benchmarks failed (said by the binary), the others are
  // measured.
  const bool partial = finished->exit.exit_code == 1 && loaded;
  if (!finished->exit.ok() && !partial) {
    return model::Error{
        fmt::format("{} {} while running in {} fresh processes (its messages are above); the "
                    "command was: {}",
                    request.name, finished->exit.describe(), request.processes,
                    fmt::join(argv, " ")),
        model::ErrorKind::failed};
  }
  if (!loaded) {
    return model::Error{
        fmt::format("{} left no readable result: {}", request.name, loaded.error().message),
        model::ErrorKind::failed};
  }
  return NoiseRun{std::move(*loaded), partial};
}

}  // namespace benchkit::session
