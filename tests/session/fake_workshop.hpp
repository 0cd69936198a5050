// A workshop (session/workshop.hpp) without git, a compiler or processes: revisions resolve to
// themselves, builds succeed or fail on cue, and two builds' bench binaries give the runs a test
// makes (c0, c1, ... of a line of commits; commits from `first_slow` on are 15% slower).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "session/workshop.hpp"
#include "support/history_runs.hpp"

namespace benchkit::session::testing {

inline RunResult made(double ns, std::uint64_t seed) {
  benchkit::testing::MadeRun run;
  run.ns = ns;
  run.seed = seed;
  return benchkit::testing::made_run(run);
}

class FakeWorkshop final : public Workshop {
 public:
  model::Result<Workplace> open(const BuildChoice& /*choice*/) override {
    if (!open_error.empty()) return model::Error{open_error, model::ErrorKind::usage};
    return Workplace{root, vcs::BuildRecipe{}, "built by a fake"};
  }
  model::Result<std::pair<Revision, vcs::Checkout>> resolve(const std::string& /*root*/,
                                                            const std::string& role,
                                                            const std::string& name) override {
    if (name == "nope") return model::Error{"unknown revision \"nope\"", model::ErrorKind::input};
    Revision revision;
    revision.role = role;
    revision.name = name;
    revision.commit = name.empty() ? working_tree : name;
    revision.dirty = name.empty();
    return std::pair{revision, vcs::Checkout{revision.commit, "", ""}};
  }
  model::Result<Prepared> prepare(const std::string& /*root*/, const Revision& revision,
                                  const vcs::Checkout& /*checkout*/,
                                  const vcs::BuildRecipe& /*recipe*/,
                                  const PrepareProgress& progress) override {
    built.push_back(revision.commit);
    if (progress) progress(revision, "building bench");
    if (failing_builds.count(revision.commit)) {
      return model::Error{revision.label() + ": the build failed (exit status 7)",
                          model::ErrorKind::failed};
    }
    Prepared prepared;
    prepared.revision = revision;
    prepared.worktree.path = root + "/.benchkit/worktrees/" + revision.commit;
    prepared.built.build_folder = prepared.worktree.path + "/build";
    prepared.built.executables = {{"bench", prepared.built.build_folder + "/bench", true}};
    return prepared;
  }
  model::Result<AbRuns> measure_binaries(const AbRequest& request) override {
    requests.push_back(request);
    if (measure) return measure(request);
    // Binaries are named after their commit: ROOT/.benchkit/worktrees/COMMIT/build/bench.
    const auto commit = [this](const std::string& path) {
      const std::string tail = path.substr((root + "/.benchkit/worktrees/").size());
      return tail.substr(0, tail.find('/'));
    };
    const BinaryPair& pair = request.binaries.at(0);
    AbRuns runs;
    runs.baseline = made(ns_of(commit(pair.baseline)), ++seed);
    runs.candidate = made(ns_of(commit(pair.candidate)), ++seed);
    runs.rounds = std::to_string(request.rounds);
    return runs;
  }
  CommandOutcome measure_commands(const CommandRequest& request, const CommandPlan& /*plan*/,
                                  CommandObserver& observer) override {
    commands.push_back(request);
    return measure_command_rounds ? measure_command_rounds(request, observer) : CommandOutcome{};
  }
  model::Result<std::vector<vcs::CommitNode>> commits_between(const std::string& /*root*/,
                                                              const std::string& good,
                                                              const std::string& bad) override {
    std::vector<vcs::CommitNode> nodes;
    for (std::size_t i = std::stoul(bad.substr(1)); i > std::stoul(good.substr(1)); --i) {
      nodes.push_back({"c" + std::to_string(i), {"c" + std::to_string(i - 1)}});
    }
    return nodes;
  }
  std::string subject(const std::string& /*root*/, const std::string& commit) override {
    return "subject of " + commit;
  }

  // c<N> at or after c<first_slow> is 15% slower; the working tree is as fast as `working_ns`.
  double ns_of(const std::string& commit) const {
    if (commit == working_tree) return working_ns;
    return std::stoul(commit.substr(1)) >= first_slow ? 115.0 : 100.0;
  }

  std::string open_error;
  // The repository's folder: the bench binaries are files under it only if a test writes them
  // (their SHA-256 is then in the runs' contexts).
  std::string root = "/repo";
  std::string working_tree = "c99";
  double working_ns = 100.0;
  std::size_t first_slow = 1000;
  std::set<std::string> failing_builds;
  std::function<model::Result<AbRuns>(const AbRequest&)> measure;
  std::function<CommandOutcome(const CommandRequest&, CommandObserver&)> measure_command_rounds;
  std::vector<std::string> built;
  std::vector<AbRequest> requests;
  std::vector<CommandRequest> commands;
  std::uint64_t seed = 0;
};

}  // namespace benchkit::session::testing
