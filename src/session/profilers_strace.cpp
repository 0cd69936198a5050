// strace: the system calls of the measured region, cut out of the whole process's trace.
#include <fmt/format.h>

#include "clock/profile_markers.hpp"
#include "formats/profile_files.hpp"
#include "session/profilers.hpp"

namespace benchkit::session {
namespace {

class StraceProfiler final : public Profiler {
 public:
  model::ProfileTool tool() const override { return model::ProfileTool::strace; }

  std::vector<std::string> programs() const override { return {"strace"}; }

  std::string markers(const std::string& /*dir*/) const override { return "strace"; }

  // -f: every thread and child; -T: the time each call took.
  std::vector<std::string> command(const ProgramPaths& programs, const std::string& dir,
                                   const std::vector<std::string>& bench) const override {
    std::vector<std::string> argv = {programs.at("strace"), "-f", "-T", "-o", trace_file(dir)};
    argv.insert(argv.end(), bench.begin(), bench.end());
    return argv;
  }

  model::Result<bool> read(model::Profile& profile, const std::string& dir,
                           const std::string& /*converted*/) const override {
    auto table = formats::parse_strace_region(file_text(trace_file(dir)), clock::kStraceBegin,
                                              clock::kStraceEnd);
    if (!table) return table.error();
    profile.unit = "system calls";
    profile.system_calls = std::move(*table);
    profile.notes.push_back(fmt::format(
        "the measured region only: the bench binary calls access(\"{}\") when its set-up and "
        "warm-up are done and access(\"{}\") when the routine's loop ends, and the trace "
        "(strace -f -T, every thread) is cut between the two; times are strace's -T, inflated "
        "by tracing",
        clock::kStraceBegin, clock::kStraceEnd));
    profile.files.push_back(trace_file(dir));
    return true;
  }

 private:
  static std::string trace_file(const std::string& dir) { return dir + "/strace.txt"; }
};

}  // namespace

std::unique_ptr<Profiler> make_strace_profiler() {
  return std::make_unique<StraceProfiler>();
}

}  // namespace benchkit::session
