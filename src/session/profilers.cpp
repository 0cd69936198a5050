#include "session/profilers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "formats/profile_files.hpp"

namespace benchkit::session {

std::vector<std::string> Profiler::stale_files(const std::string& /*dir*/) const {
  return {};
}

model::Result<std::unique_ptr<RunSetUp>> Profiler::prepare(const std::string& /*dir*/) const {
  return std::unique_ptr<RunSetUp>();
}

model::Error Profiler::explain_failure(model::Error failure, const std::string& /*dir*/) const {
  return failure;
}

model::Result<std::optional<Conversion>> Profiler::conversion(const ProgramPaths& /*programs*/,
                                                              const std::string& /*dir*/) const {
  return std::optional<Conversion>();
}

bool Profiler::profiles_heap() const {
  return false;
}

std::unique_ptr<Profiler> make_profiler(model::ProfileTool tool) {
  switch (tool) {
    case model::ProfileTool::callgrind:
      return make_callgrind_profiler();
    case model::ProfileTool::massif:
      return make_massif_profiler();
    case model::ProfileTool::heaptrack:
      return make_heaptrack_profiler();
    case model::ProfileTool::strace:
      return make_strace_profiler();
    case model::ProfileTool::perf:
      return make_perf_profiler();
  }
  return nullptr;
}

std::string file_text(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

void explain_routine_sites(model::Profile& profile) {
  const bool folded = std::any_of(
      profile.peak_sites.begin(), profile.peak_sites.end(),
      [](const model::AllocationSite& site) { return site.function == formats::kRoutineSite; });
  if (!folded) return;
  profile.notes.push_back(fmt::format(
      "{}: those allocations were made by code the compiler inlined into the benchmark's "
      "routine (its lambda and what the lambda calls inline, e.g. a container's insert), and "
      "the bench binary's debug information does not tell those functions apart, so the "
      "profiler sees only benchkit's call of the routine. Build the bench binary with -g (CMake: "
      "RelWithDebInfo, or add -g to Release) to see them as inlined frames with their "
      "file:line, or with -fno-inline to keep them functions of their own (the code is then "
      "slower; its allocations are the same)",
      formats::kRoutineSite));
}

}  // namespace benchkit::session
