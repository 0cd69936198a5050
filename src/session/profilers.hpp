// The profilers of `benchkit profile` (docs/profiling.md), one class per tool behind one
// interface. run_profile (session/profile.hpp) takes the same steps with each:
//
//   1. programs()         what must be installed; each is looked up in PATH before anything
//                         runs, and a missing one is named with its Debian package;
//   2. stale_files(DIR)   an earlier run's files that the tool would not overwrite, removed
//                         first so that they cannot be read as this run's;
//   3. prepare(DIR)       a set-up held until the tool has ended (perf's control fifos);
//   4. command(...)       the tool's command line around the bench binary's, which marks the
//                         measured region as markers(DIR) says (--profile-markers);
//   5. explain_failure    a failed run's error, with what the tool adds (valgrind's log);
//   6. conversion(...)    the program that turns the tool's raw file into text, if it needs one
//                         (heaptrack_print, perf script);
//   7. read(...)          the files (or that text) into the model::Profile: its unit, costs,
//                         notes and the raw files kept.
//
// Every step but prepare only builds values or reads files, so each profiler is tested without
// its tool (tests/session/profilers_test.cpp); the real tools run in tests/valgrind/.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/profile.hpp"

namespace benchkit::session {

// The programs a profiler runs, by name, where PATH has them ("valgrind" → "/usr/bin/valgrind").
using ProgramPaths = std::map<std::string, std::string>;

// A program run after the tool on what it wrote, whose standard output read() reads.
struct Conversion {
  std::vector<std::string> argv;
  std::size_t limit = 0;  // bytes of its output kept: the text of a long run's stacks is large
  std::string what;       // its error names it so: "perf script -i DIR/perf.data"
};

// What prepare() set up, undone when destroyed (after the tool has ended).
class RunSetUp {
 public:
  virtual ~RunSetUp() = default;
};

class Profiler {
 public:
  virtual ~Profiler() = default;

  virtual model::ProfileTool tool() const = 0;
  // The programs it runs (the tool, and the converter if any), as found in PATH.
  virtual std::vector<std::string> programs() const = 0;
  // Files in `dir` from an earlier run that the tool would not replace (default: none).
  virtual std::vector<std::string> stale_files(const std::string& dir) const;
  // Made before the tool starts, held until it ends (default: nothing).
  virtual model::Result<std::unique_ptr<RunSetUp>> prepare(const std::string& dir) const;
  // How the bench binary marks the region for it: --profile-markers (clock/profile_markers.hpp).
  virtual std::string markers(const std::string& dir) const = 0;
  // The whole command line: the tool, found at `programs`, writing into `dir`, running `bench`.
  virtual std::vector<std::string> command(const ProgramPaths& programs, const std::string& dir,
                                           const std::vector<std::string>& bench) const = 0;
  // The error of a run that failed, with what the tool adds (default: as it is).
  virtual model::Error explain_failure(model::Error failure, const std::string& dir) const;
  // The program that turns the tool's file into text for read() (default: none, read() reads the
  // files). The error says what the tool did not write.
  virtual model::Result<std::optional<Conversion>> conversion(const ProgramPaths& programs,
                                                              const std::string& dir) const;
  // Fills the profile's unit, costs and notes from the files in `dir` (or `converted`, the
  // conversion's output), and names the raw files kept. The error names the file that does not
  // read.
  virtual model::Result<bool> read(model::Profile& profile, const std::string& dir,
                                   const std::string& converted) const = 0;
  // It profiles the heap: allocations per iteration belong beside its peak, and a note says how
  // to get them when the bench binary did not count them.
  virtual bool profiles_heap() const;
};

// The profiler of `tool`.
std::unique_ptr<Profiler> make_profiler(model::ProfileTool tool);

// One per tool (session/profilers_*.cpp).
std::unique_ptr<Profiler> make_callgrind_profiler();
std::unique_ptr<Profiler> make_massif_profiler();
std::unique_ptr<Profiler> make_heaptrack_profiler();
std::unique_ptr<Profiler> make_strace_profiler();
std::unique_ptr<Profiler> make_perf_profiler();

// Shared by the profilers.

// A file's text; "" when it cannot be read (then the parser of what should be in it says so).
std::string file_text(const std::string& path);

// A heap profile whose sites include the routine itself (formats::kRoutineSite) gets a note that
// says why and how to see further in.
void explain_routine_sites(model::Profile& profile);

}  // namespace benchkit::session
