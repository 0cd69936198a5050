// Run groups in the history (docs/history.md): the shards of one suite (--shard K/N), each
// measured and recorded by its own CI runner, are one run there. Prints nothing.
//
// A run's group is chosen when it is recorded (run_group below) and kept in the history beside
// the run (store::RunInfo::group), not in its result. The runs of one
// group and one commit are joined: `history list`, `show`, `check`, `report` and `prune` see
// them as one run, whose benchmarks are theirs together (a shard recorded twice counts once: its
// newest recording). A run without a group is a run of its own. `history trend` needs no join:
// its points are per benchmark and commit already.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "benchkit/result.hpp"
#include "model/error.hpp"
#include "store/history_store.hpp"

namespace benchkit::session {

// The group `run` is recorded under: `chosen` when given (--group ID); else, for a shard only,
// `ci_run` (the CI run's id, system/ci_run.hpp) or, outside a CI, "COMMIT+BUILD" (the commit and
// the build fingerprint: the shards of one build of one commit). A run of the whole selection gets
// no group unless chosen: two whole runs of one CI job (ab's two revisions) stay two runs.
std::string run_group(const RunResult& run, const std::string& chosen, const std::string& ci_run);

// One run as the history shows it: a stored run of its own, or the members of one group and
// commit joined.
struct JoinedRun {
  // The joined run: the identity of its first member (in shard order), the earliest date, the
  // benchmarks of all members together, shard_count the N the members recorded (0: no shard).
  store::RunInfo info = {};
  std::vector<store::RunInfo> members = {};  // in shard order (one for a lone run)

  // "2/4", "4/4": shards present of the N expected (the largest of `expect` and the N the
  // shards recorded); "" for a run that is no shard and none was expected.
  std::string shards_text(std::size_t expect = 0) const;
  // The shards K (1..N) of the N expected that no member measured.
  std::vector<std::size_t> missing_shards(std::size_t expect = 0) const;
};

// The runs of `runs` (oldest first, as Store::list returns them) joined by group and commit,
// in the order of each joined run's newest member: the last is the run recorded last.
std::vector<JoinedRun> join_groups(const std::vector<store::RunInfo>& runs);

// The joined run that holds stored run `id_prefix` (and every other member of its group).
model::Result<JoinedRun> find_joined(store::Store& store, std::string_view id_prefix);

// The joined run's result: its members' results merged as `benchkit merge` does
// (session/shard_merge.hpp), machines allowed to differ; the error names the group.
model::Result<RunResult> load_joined_run(store::Store& store, const JoinedRun& joined);

// Why the joined run is missing shards, or nullopt: "run group G of commit C in STORE has
// shards 1/4, 2/4 of 4: shards 3/4, 4/4 were not recorded...", with the fix; of kind input.
std::optional<model::Error> incomplete_group(const JoinedRun& joined, std::size_t expect,
                                             const std::string& location);

}  // namespace benchkit::session
