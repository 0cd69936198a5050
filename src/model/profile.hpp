// What `benchkit profile` found (docs/profiling.md): one benchmark's measured routine under one
// tool, summarised. Each tool fills its part; the reporters print the parts that are filled.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchkit::model {

// The profilers `benchkit profile --tool` runs. Here rather than in session/profile.hpp because
// a Profile carries it and the reporters (report/, which may not include session/) print it and
// show a tool's own parts by it; the command line parses the flag into it and nothing below
// compares a tool's name as text.
enum class ProfileTool { callgrind, massif, heaptrack, strace, perf };

// Every tool, in the order the help and the errors list them.
inline constexpr ProfileTool kProfileTools[] = {ProfileTool::callgrind, ProfileTool::massif,
                                                ProfileTool::heaptrack, ProfileTool::strace,
                                                ProfileTool::perf};

// "callgrind", "massif", "heaptrack", "strace", "perf": as --tool, the reports and the default
// folder name spell it.
std::string_view profile_tool_name(ProfileTool tool);
// The tool a name stands for (exactly as profile_tool_name spells it); nothing for another name.
std::optional<ProfileTool> parse_profile_tool(std::string_view name);
// "callgrind, massif, heaptrack, strace or perf": the choice, for an error message.
std::string profile_tool_choices();

// A function of a call profile (callgrind: instructions; perf: samples of the cpu-clock).
struct ProfileFunction {
  std::string name;
  std::string file;  // "" when the binary has no line information for it
  int line = 0;      // its hottest line (the most exclusive cost), 0 when unknown
  double exclusive = 0.0;
  double inclusive = 0.0;
};

// One stack of a flame graph, root first, with its cost ("folded stacks": a;b;c 120).
struct FoldedStack {
  std::vector<std::string> frames;
  double value = 0.0;
};

// An allocation site behind the peak heap: its innermost function and where it is, the bytes it
// held at the peak, and the stack from it outwards.
struct AllocationSite {
  std::string function;
  std::string location;  // file:line, or the object file
  double bytes = 0.0;
  std::vector<std::string> stack;
};

// A row of the system call table of the measured region.
struct SystemCallRow {
  std::string name;
  std::uint64_t calls = 0;
  std::uint64_t errors = 0;
  double seconds = 0.0;  // the time the calls took, as strace -T reads it
};

struct Profile {
  ProfileTool tool = ProfileTool::callgrind;
  std::string benchmark;  // the benchmark's full name
  std::string binary;
  std::string unit;              // what the costs count: "instructions", "samples (cpu-clock)"
  std::uint64_t iterations = 0;  // of the routine in the profiled region
  double routine_seconds = 0.0;  // the timed stretches' total (under the tool: its time)
  double total = 0.0;            // the costs' total in the region
  std::vector<ProfileFunction> functions;  // by exclusive cost, largest first
  std::vector<FoldedStack> stacks;         // for the flame graph
  std::optional<double> peak_heap_bytes;
  std::vector<AllocationSite> peak_sites;  // by bytes, largest first
  std::optional<double> allocations_per_iteration;
  std::optional<double> allocated_bytes_per_iteration;
  std::vector<SystemCallRow> system_calls;  // by calls, most first
  std::vector<std::string> notes;           // how it was measured, what it cannot see
  std::vector<std::string> files;           // the raw profiler files kept
  std::string out_dir;
};

}  // namespace benchkit::model
