#include "session/run_groups.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "session/history.hpp"
#include "session/shard_merge.hpp"

namespace benchkit::session {

std::string run_group(const RunResult& run, const std::string& chosen, const std::string& ci_run) {
  if (!chosen.empty()) return chosen;
  if (!run.context.shard) return {};
  if (!ci_run.empty()) return ci_run;
  const std::string& commit = run.context.git_commit;
  return fmt::format("{}+{}", commit.empty() ? "no-commit" : commit, build_id(run.context));
}

namespace {

std::size_t expected_of(const JoinedRun& joined, std::size_t expect) {
  return std::max(expect, joined.info.shard_count);
}

std::set<std::size_t> present_shards(const JoinedRun& joined) {
  std::set<std::size_t> present;
  for (const store::RunInfo& member : joined.members) {
    if (member.shard_index > 0) present.insert(member.shard_index);
  }
  return present;
}

// The members of one group and commit as one RunInfo; `members` in shard order, a shard
// recorded twice already reduced to its newest recording.
store::RunInfo joined_info(const std::vector<store::RunInfo>& members) {
  store::RunInfo info = members.front();
  info.shard_index = 0;
  info.benchmarks = 0;
  for (const store::RunInfo& member : members) {
    info.benchmarks += member.benchmarks;
    info.shard_count = std::max(info.shard_count, member.shard_count);
    if (member.date < info.date) info.date = member.date;
    for (const auto& [name, value] : member.tags) info.tags.emplace(name, value);
  }
  return info;
}

}  // namespace

std::string JoinedRun::shards_text(std::size_t expect) const {
  const std::size_t expected = expected_of(*this, expect);
  if (expected == 0) return {};
  return fmt::format("{}/{}", present_shards(*this).size(), expected);
}

std::vector<std::size_t> JoinedRun::missing_shards(std::size_t expect) const {
  const std::set<std::size_t> present = present_shards(*this);
  std::vector<std::size_t> missing;
  for (std::size_t k = 1; k <= expected_of(*this, expect); ++k) {
    if (!present.count(k)) missing.push_back(k);
  }
  return missing;
}

std::vector<JoinedRun> join_groups(const std::vector<store::RunInfo>& runs) {
  // (group, commit) -> the members so far, and the position of the newest.
  std::map<std::pair<std::string, std::string>, std::size_t> slot_of;
  std::vector<std::vector<store::RunInfo>> slots;
  std::vector<std::size_t> newest;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const store::RunInfo& run = runs[i];
    std::size_t slot = slots.size();
    if (!run.group.empty()) {
      const auto [at, fresh] = slot_of.emplace(std::pair{run.group, run.commit}, slots.size());
      slot = at->second;
      if (!fresh) {
        // A shard recorded again (a rerun job) replaces its earlier recording.
        std::erase_if(slots[slot], [&](const store::RunInfo& member) {
          return run.shard_index > 0 && member.shard_index == run.shard_index;
        });
        slots[slot].push_back(run);
        newest[slot] = i;
        continue;
      }
    }
    slots.push_back({run});
    newest.push_back(i);
  }
  std::vector<std::size_t> order(slots.size());
  for (std::size_t slot = 0; slot < slots.size(); ++slot) order[slot] = slot;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return newest[a] < newest[b]; });
  std::vector<JoinedRun> joined;
  joined.reserve(slots.size());
  for (const std::size_t slot : order) {
    std::vector<store::RunInfo>& members = slots[slot];
    std::stable_sort(members.begin(), members.end(),
                     [](const store::RunInfo& a, const store::RunInfo& b) {
                       return a.shard_index < b.shard_index;
                     });
    joined.push_back(JoinedRun{.info = joined_info(members), .members = std::move(members)});
  }
  return joined;
}

model::Result<JoinedRun> find_joined(store::Store& store, std::string_view id_prefix) {
  const auto found = store.find(id_prefix);
  if (!found) return found.error();
  if (found->group.empty()) {
    const store::RunInfo& info = *found;
    return JoinedRun{.info = info, .members = {info}};
  }
  const auto runs = store.list({});
  if (!runs) return runs.error();
  std::vector<store::RunInfo> group;
  for (const store::RunInfo& run : *runs) {
    if (run.group == found->group && run.commit == found->commit) group.push_back(run);
  }
  for (JoinedRun& joined : join_groups(group)) {
    for (const store::RunInfo& member : joined.members) {
      if (member.id == found->id) return std::move(joined);
    }
  }
  // Replaced by a newer recording of its shard: the group as it stands.
  auto joined = join_groups(group);
  if (joined.empty()) return model::Error{"run " + found->id + " vanished while it was read"};
  return std::move(joined.front());
}

model::Result<RunResult> load_joined_run(store::Store& store, const JoinedRun& joined) {
  if (joined.members.size() == 1) return load_stored_run(store, joined.members.front().id);
  std::vector<ShardFile> shards;
  for (const store::RunInfo& member : joined.members) {
    auto run = load_stored_run(store, member.id);
    if (!run) return run.error();
    shards.push_back(ShardFile{"stored run " + member.id.substr(0, 12), std::move(*run)});
  }
  auto merged = merge_shard_runs(std::move(shards), /*allow_mixed_machines=*/true);
  if (!merged) {
    return model::Error{fmt::format("cannot join run group {} of commit {}: {}", joined.info.group,
                                    joined.info.commit, merged.error().message),
                        merged.error().kind};
  }
  return std::move(merged->run);
}

std::optional<model::Error> incomplete_group(const JoinedRun& joined, std::size_t expect,
                                             const std::string& location) {
  const std::vector<std::size_t> missing = joined.missing_shards(expect);
  if (missing.empty()) return std::nullopt;
  const std::size_t expected = expected_of(joined, expect);
  std::vector<std::string> present;
  for (const store::RunInfo& member : joined.members) {
    if (member.shard_index > 0) {
      present.push_back(
          fmt::format("{}/{} (run {})", member.shard_index, expected, member.id.substr(0, 12)));
    }
  }
  std::vector<std::string> absent;
  for (const std::size_t k : missing) absent.push_back(fmt::format("{}/{}", k, expected));
  const std::string group =
      joined.info.group.empty() ? "run " + joined.info.id.substr(0, 12) : joined.info.group;
  const std::string recorded = present.empty()
                                   ? "no shard of it is recorded"
                                   : fmt::format("recorded: {}", fmt::join(present, ", "));
  return model::Error{
      fmt::format("run group {} of commit {} in {} is incomplete: shard{} {} {} not recorded "
                  "({}); check it once every shard's job has recorded its run (a job that "
                  "needs them all), give --wait DURATION to wait for them, or rerun the "
                  "missing shards' jobs",
                  group, joined.info.commit.empty() ? "none" : joined.info.commit, location,
                  absent.size() == 1 ? "" : "s", fmt::join(absent, ", "),
                  absent.size() == 1 ? "was" : "were", recorded),
      model::ErrorKind::input};
}

}  // namespace benchkit::session
