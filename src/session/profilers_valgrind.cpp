// The two valgrind tools: callgrind (instructions, by function and line, and a flame graph of
// its call graph) and massif (the peak heap and its allocation sites).
#include <fmt/format.h>

#include "formats/profile_files.hpp"
#include "session/launcher.hpp"
#include "session/profilers.hpp"

namespace benchkit::session {
namespace {

// What both share: valgrind runs the bench binary, its own messages go to valgrind.log (kept,
// and quoted when the run fails), the tool's to one output file.
class ValgrindProfiler : public Profiler {
 public:
  std::vector<std::string> programs() const override { return {"valgrind"}; }

  std::vector<std::string> stale_files(const std::string& dir) const override {
    return {out_file(dir)};
  }

  std::vector<std::string> command(const ProgramPaths& programs, const std::string& dir,
                                   const std::vector<std::string>& bench) const override {
    std::vector<std::string> argv = {programs.at("valgrind"),
                                     fmt::format("--tool={}", model::profile_tool_name(tool())),
                                     "--log-file=" + log_file(dir)};
    const std::vector<std::string> options = tool_options(dir);
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), bench.begin(), bench.end());
    return argv;
  }

  model::Error explain_failure(model::Error failure, const std::string& dir) const override {
    const std::string log = stderr_tail(file_text(log_file(dir)));
    if (!log.empty()) failure.message += "\nvalgrind's log ends:\n" + log;
    return failure;
  }

 protected:
  static std::string log_file(const std::string& dir) { return dir + "/valgrind.log"; }
  // The file the tool writes.
  virtual std::string out_file(const std::string& dir) const = 0;
  // The tool's own options (after --tool and --log-file).
  virtual std::vector<std::string> tool_options(const std::string& dir) const = 0;
};

class CallgrindProfiler final : public ValgrindProfiler {
 public:
  model::ProfileTool tool() const override { return model::ProfileTool::callgrind; }

  std::string markers(const std::string& /*dir*/) const override { return "callgrind"; }

  model::Result<bool> read(model::Profile& profile, const std::string& dir,
                           const std::string& /*converted*/) const override {
    auto parsed = formats::parse_callgrind_profile(file_text(out_file(dir)), "Ir");
    if (!parsed) return parsed.error();
    profile.unit = "instructions";
    profile.total = parsed->total;
    profile.stacks = formats::fold_call_graph(*parsed);
    profile.functions = std::move(parsed->functions);
    profile.notes.push_back(
        "instructions counted by valgrind's callgrind between the region's marks "
        "(--instr-atstart=no; collection on only while the routine's timer runs): set-up, the "
        "warm-up iteration, inputs, drops and the harness are not in it");
    profile.notes.push_back(
        "the flame graph is drawn from callgrind's call graph: each function's inclusive cost "
        "is split among its callers in proportion to the calls, so a stack is an estimate "
        "where a function is called from several places");
    profile.files.push_back(out_file(dir));
    profile.files.push_back(log_file(dir));
    return true;
  }

 protected:
  std::string out_file(const std::string& dir) const override { return dir + "/callgrind.out"; }

  // Instrumentation and collection off at start: the bench binary's markers switch them on for
  // the region only (clock/profile_markers.hpp). --dump-line: each function's hottest file:line.
  std::vector<std::string> tool_options(const std::string& dir) const override {
    return {"--instr-atstart=no", "--collect-atstart=no",
            "--dump-line=yes",    "--compress-strings=no",
            "--compress-pos=no",  "--callgrind-out-file=" + out_file(dir)};
  }
};

class MassifProfiler final : public ValgrindProfiler {
 public:
  model::ProfileTool tool() const override { return model::ProfileTool::massif; }

  // No region: massif sees the whole process, its stacks tell the routine apart.
  std::string markers(const std::string& /*dir*/) const override { return "none"; }

  model::Result<bool> read(model::Profile& profile, const std::string& dir,
                           const std::string& /*converted*/) const override {
    auto parsed = formats::parse_massif_peak(file_text(out_file(dir)));
    if (!parsed) return parsed.error();
    profile.unit = "bytes";
    profile.peak_heap_bytes = parsed->bytes;
    profile.peak_sites = std::move(parsed->sites);
    explain_routine_sites(profile);
    profile.notes.push_back(
        "massif sees the whole process: the peak heap includes what the set-up allocated and "
        "still holds, and an allocation site's stack shows whether the routine or the set-up "
        "made it");
    profile.files.push_back(out_file(dir));
    profile.files.push_back(log_file(dir));
    return true;
  }

  bool profiles_heap() const override { return true; }

 protected:
  std::string out_file(const std::string& dir) const override { return dir + "/massif.out"; }

  // --read-inline-info=yes: with debug information, the functions inlined into the routine are
  // frames of their own, so a site can name them (explain_routine_sites).
  std::vector<std::string> tool_options(const std::string& dir) const override {
    return {"--depth=40", "--read-inline-info=yes", "--massif-out-file=" + out_file(dir)};
  }
};

}  // namespace

std::unique_ptr<Profiler> make_callgrind_profiler() {
  return std::make_unique<CallgrindProfiler>();
}

std::unique_ptr<Profiler> make_massif_profiler() {
  return std::make_unique<MassifProfiler>();
}

}  // namespace benchkit::session
