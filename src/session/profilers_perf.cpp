// perf: cpu-clock samples of the measured region, switched on and off by the bench binary
// through perf's control fifos, and their stacks as a flame graph.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "formats/profile_files.hpp"
#include "session/profilers.hpp"

namespace benchkit::session {
namespace {

// perf's two fifos, made before perf starts and opened here read-write (which never blocks on a
// fifo) for as long as perf runs, so that neither perf's open of one end nor the bench binary's
// of the other waits for the other. Closed and removed when perf has ended.
class ControlFifos final : public RunSetUp {
 public:
  explicit ControlFifos(std::vector<std::string> paths) : paths_(std::move(paths)) {}
  ControlFifos(const ControlFifos&) = delete;
  ControlFifos& operator=(const ControlFifos&) = delete;
  ~ControlFifos() override {
    for (const int fd : fds_) ::close(fd);
    std::error_code ignored;
    for (const std::string& path : made_) std::filesystem::remove(path, ignored);
  }

  model::Result<bool> make() {
    for (const std::string& path : paths_) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
      if (::mkfifo(path.c_str(), 0600) != 0) {
        return model::Error{fmt::format("cannot make the fifo {} for perf's control", path),
                            model::ErrorKind::failed};
      }
      made_.push_back(path);
      if (const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC); fd >= 0) fds_.push_back(fd);
    }
    return true;
  }

 private:
  std::vector<std::string> paths_;
  std::vector<std::string> made_;
  std::vector<int> fds_;
};

class PerfProfiler final : public Profiler {
 public:
  model::ProfileTool tool() const override { return model::ProfileTool::perf; }

  std::vector<std::string> programs() const override { return {"perf"}; }

  model::Result<std::unique_ptr<RunSetUp>> prepare(const std::string& dir) const override {
    auto fifos =
        std::make_unique<ControlFifos>(std::vector<std::string>{control_fifo(dir), ack_fifo(dir)});
    if (auto made = fifos->make(); !made) return made.error();
    return std::unique_ptr<RunSetUp>(std::move(fifos));
  }

  std::string markers(const std::string& dir) const override {
    return "perf:" + control_fifo(dir) + "," + ack_fifo(dir);
  }

  // The software clock (cpu-clock): this machine (a VM) has no hardware counters, and cpu-clock
  // samples on a timer wherever perf_event_open works at all. 999 Hz rather than 1000, so that
  // sampling does not run in lockstep with work driven by a 1 kHz timer. --delay=-1: events off
  // at start; the bench binary enables them for the region through the control fifo.
  std::vector<std::string> command(const ProgramPaths& programs, const std::string& dir,
                                   const std::vector<std::string>& bench) const override {
    std::vector<std::string> argv = {programs.at("perf"),
                                     "record",
                                     "-e",
                                     "cpu-clock",
                                     "-F",
                                     "999",
                                     "-g",
                                     "-o",
                                     data_file(dir),
                                     "--delay=-1",
                                     "--control=fifo:" + control_fifo(dir) + "," + ack_fifo(dir),
                                     "--"};
    argv.insert(argv.end(), bench.begin(), bench.end());
    return argv;
  }

  // perf record fails mostly where perf_event_open is not allowed: a usage error with the way
  // out, not a failed run.
  model::Error explain_failure(model::Error failure, const std::string& /*dir*/) const override {
    failure.kind = model::ErrorKind::usage;
    failure.message = "perf cannot sample here: " + failure.message +
                      "\n(perf needs perf_event_open: check /proc/sys/kernel/perf_event_paranoid "
                      "(at most 2 for your own processes) and, in a container, that the "
                      "system call is allowed; --tool callgrind profiles without it)";
    return failure;
  }

  model::Result<std::optional<Conversion>> conversion(const ProgramPaths& programs,
                                                      const std::string& dir) const override {
    return std::optional<Conversion>(
        Conversion{.argv = {programs.at("perf"), "script", "-i", data_file(dir)},
                   .limit = 256u << 20,
                   .what = "perf script -i " + data_file(dir)});
  }

  model::Result<bool> read(model::Profile& profile, const std::string& dir,
                           const std::string& converted) const override {
    const formats::SampledProfile sampled = formats::parse_perf_script(converted);
    if (sampled.total == 0.0) {
      return model::Error{
          "perf recorded no samples of the routine: perf_event_open works but the cpu-clock "
          "event delivered nothing here; use --tool callgrind",
          model::ErrorKind::usage};
    }
    profile.unit = "samples (cpu-clock)";
    profile.total = sampled.total;
    profile.stacks = sampled.stacks;
    profile.functions = sampled.functions;
    profile.notes.push_back(
        "perf record -e cpu-clock (the software clock: no hardware counters here), events on "
        "only between the region's marks (--delay=-1 and perf's control fifo), stacks by frame "
        "pointers (-g): code built without -fno-omit-frame-pointer shows shorter stacks");
    profile.files.push_back(data_file(dir));
    return true;
  }

 private:
  static std::string data_file(const std::string& dir) { return dir + "/perf.data"; }
  static std::string control_fifo(const std::string& dir) { return dir + "/perf-control.fifo"; }
  static std::string ack_fifo(const std::string& dir) { return dir + "/perf-ack.fifo"; }
};

}  // namespace

std::unique_ptr<Profiler> make_perf_profiler() {
  return std::make_unique<PerfProfiler>();
}

}  // namespace benchkit::session
