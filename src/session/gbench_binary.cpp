#include "session/gbench_binary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>
#include <optional>

#include "analysis/estimates.hpp"
#include "model/merge.hpp"
#include "process/capture.hpp"
#include "process/interrupt.hpp"
#include "process/placement.hpp"
#include "process/temporary_folder.hpp"
#include "session/result_files.hpp"

namespace benchkit::session {
namespace {

constexpr std::array<const char*, 2> kSideNames = {"baseline", "new"};

// What a run holds while it lasts: the Ctrl-C handler (the processes it starts are stopped and
// its temporary folder still removed; a second Ctrl-C ends this process at once), and that folder.
class RunScope {
 public:
  explicit RunScope(std::string_view prefix) {
    process::install_interrupt_handler();
    folder_ = process::make_temporary_folder(prefix);
    if (folder_) remover_.emplace(*folder_);
  }
  ~RunScope() { process::restore_default_interrupt_action(); }
  RunScope(const RunScope&) = delete;
  RunScope& operator=(const RunScope&) = delete;
  const model::Result<std::string>& folder() const { return folder_; }

 private:
  model::Result<std::string> folder_ = model::Error{"no folder"};
  std::optional<process::FolderRemover> remover_;
};

// One process of a Google Benchmark binary writing its results to `out`, read back.
model::Result<RunResult> run_one_process(const std::string& executable,
                                         const std::vector<std::string>& flags,
                                         const std::string& out, const std::string& what) {
  std::vector<std::string> argv = {executable};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("--benchmark_out=" + out);
  argv.push_back("--benchmark_out_format=json");
  process::CaptureOptions options;
  options.out = process::Stream::discard;
  options.err = process::Stream::inherit;
  const auto ran = process::run_captured(argv, options);
  if (!ran) return ran.error();
  if (process::interrupt_requested()) {
    return model::Error{fmt::format("interrupted while {} ran", what),
                        model::ErrorKind::interrupted};
  }
  if (!ran->exit.ok()) {
    return model::Error{
        fmt::format("{} ({}) {}; its standard error above says why (a flag it does not "
                    "know, a benchmark that aborted)",
                    what, executable, ran->exit.describe()),
        model::ErrorKind::failed};
  }
  auto run = load_result_file(out);
  if (!run) {
    return model::Error{fmt::format("{} ({}) exited without a readable result: {}", what,
                                    executable, run.error().message),
                        model::ErrorKind::failed};
  }
  return run;
}

}  // namespace

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

model::Result<std::vector<std::string>> list_gbench_benchmarks(
    const std::string& path, const std::vector<std::string>& flags) {
  process::CaptureOptions options;
  options.timeout = std::chrono::seconds(10);  // listing is instant; a hang is not a suite
  std::vector<std::string> argv = {path, "--benchmark_list_tests=true"};
  for (const std::string& flag : flags) {
    if (flag.rfind("--benchmark_filter=", 0) == 0) argv.push_back(flag);
  }
  const auto ran = process::run_captured(argv, options);
  if (!ran) return ran.error();
  if (ran->timed_out) {
    return model::Error{fmt::format("{} --benchmark_list_tests did not answer within 10 s", path)};
  }
  if (!ran->exit.ok()) {
    return model::Error{fmt::format("{} --benchmark_list_tests {}", path, ran->exit.describe())};
  }
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start < ran->out.size()) {
    std::size_t end = ran->out.find('\n', start);
    if (end == std::string::npos) end = ran->out.size();
    std::string line = ran->out.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) names.push_back(std::move(line));
    start = end + 1;
  }
  // A program that ignores the flag and prints something else is not a suite: Google
  // Benchmark names have no spaces (a family name is a C++ identifier, its arguments
  // "/key:value").
  for (const std::string& name : names) {
    if (name.find(' ') != std::string::npos) {
      return model::Error{fmt::format(
          "{} --benchmark_list_tests printed \"{}\", which is not a benchmark name", path, name)};
    }
  }
  if (names.empty()) {
    return model::Error{fmt::format("{} --benchmark_list_tests listed no benchmark", path)};
  }
  return names;
}

std::string exact_gbench_filter(const std::string& name) {
  std::string pattern = "^";
  for (const char c : name) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  return pattern + "$";
}

model::Result<RunResult> run_gbench_processes(const GbenchProcesses& plan) {
  const RunScope scope("benchkit-gbench");
  const auto& made = scope.folder();
  if (!made) return made.error();
  const std::size_t total = std::max<std::size_t>(1, plan.processes);
  std::vector<RunResult> runs;
  for (std::size_t index = 0; index < total; ++index) {
    if (plan.progress) plan.progress(index, total);
    auto run = run_one_process(plan.executable, plan.flags,
                               fmt::format("{}/process-{}.json", *made, index),
                               fmt::format("process {} of {}", index + 1, total));
    if (!run) return run.error();
    runs.push_back(std::move(*run));
  }
  RunResult merged = model::merge_processes(runs);
  analysis::compute_estimates(merged);
  return merged;
}

model::Result<SideBySideRuns> run_gbench_side_by_side(const GbenchSideBySide& plan) {
  const RunScope scope("benchkit-gbench-side-by-side");
  if (!scope.folder()) return scope.folder().error();
  const std::string folder = *scope.folder();
  process::PlacementShuffle shuffle;
  std::array<std::string, 2> executables;
  // Per side, per benchmark: every round's result, samples numbered by round.
  std::array<std::vector<BenchmarkResult>, 2> merged;
  std::array<Context, 2> contexts;
  for (std::size_t side = 0; side < 2; ++side) {
    for (const std::string& name : plan.benchmarks) {
      BenchmarkResult result;
      result.name = name;
      merged[side].push_back(std::move(result));
    }
  }
  // A benchmark that a build does not list fails on that side before anything runs (Google
  // Benchmark writes no result for a filter that matches nothing).
  const std::string sources[] = {plan.baseline_executable, plan.candidate_executable};
  for (std::size_t side = 0; side < 2; ++side) {
    const auto listed = list_gbench_benchmarks(sources[side], plan.flags);
    if (!listed) return listed.error();
    for (BenchmarkResult& result : merged[side]) {
      if (std::find(listed->begin(), listed->end(), result.name) == listed->end()) {
        result.failures.push_back(fmt::format(
            "the {} build {} has no benchmark named {} (its --benchmark_list_tests does not list "
            "it)",
            kSideNames[side], sources[side], result.name));
      }
    }
  }
  const std::size_t rounds = std::max<std::size_t>(1, plan.rounds);
  for (std::size_t round = 0; round < rounds; ++round) {
    if (auto failed =
            copy_builds(folder, round, {plan.baseline_executable, plan.candidate_executable},
                        shuffle, executables)) {
      return *failed;
    }
    for (std::size_t index = 0; index < plan.benchmarks.size(); ++index) {
      const std::string& name = plan.benchmarks[index];
      if (plan.progress) plan.progress(round, rounds, index, plan.benchmarks.size(), name);
      // Neither build always runs first: the order alternates by round and by benchmark.
      const std::size_t first = (round + index) % 2;
      for (const std::size_t side : {first, 1 - first}) {
        BenchmarkResult& into = merged[side][index];
        if (!into.valid()) continue;
        std::vector<std::string> flags = plan.flags;
        flags.push_back("--benchmark_filter=" + exact_gbench_filter(name));
        auto run =
            run_one_process(executables[side], flags,
                            fmt::format("{}/{}-{}-{}.json", folder, kSideNames[side], round, index),
                            fmt::format("the {} build {} (round {} of {}, {})", kSideNames[side],
                                        sources[side], round + 1, rounds, name));
        if (!run) return run.error();
        if (contexts[side].date.empty()) contexts[side] = run->context;
        const auto found = std::find_if(run->benchmarks.begin(), run->benchmarks.end(),
                                        [&](const BenchmarkResult& b) { return b.name == name; });
        if (found == run->benchmarks.end()) {
          into.failures.push_back(fmt::format(
              "the {} build has no benchmark named {} (its --benchmark_filter matched nothing)",
              kSideNames[side], name));
          continue;
        }
        if (!found->valid()) {
          into.failures = found->failures;
          continue;
        }
        for (Sample sample : found->samples) {
          sample.round = static_cast<std::uint32_t>(round);
          sample.process = static_cast<std::uint32_t>(round);
          into.samples.push_back(std::move(sample));
        }
        into.bytes_per_iteration = found->bytes_per_iteration;
        into.items_per_iteration = found->items_per_iteration;
        into.counters = found->counters;
        into.params = found->params;
        into.diagnostics = found->diagnostics;
      }
    }
  }
  SideBySideRuns runs;
  std::array<RunResult*, 2> sides = {&runs.baseline, &runs.candidate};
  for (std::size_t side = 0; side < 2; ++side) {
    sides[side]->context = contexts[side];
    sides[side]->context.executable =
        side == 0 ? plan.baseline_executable : plan.candidate_executable;
    for (BenchmarkResult& result : merged[side]) {
      if (!result.valid()) result.samples.clear();
      sides[side]->benchmarks.push_back(std::move(result));
    }
    analysis::compute_estimates(*sides[side]);
  }
  return runs;
}

}  // namespace benchkit::session
