#include "vcs/bisection.hpp"

#include <algorithm>
#include <map>

namespace benchkit::vcs {

Bisection::Bisection(std::vector<CommitNode> candidates, std::string bad)
    : nodes_(std::move(candidates)), bad_(std::move(bad)) {
  const std::set<std::string> kept = ancestors(bad_);
  std::erase_if(nodes_, [&](const CommitNode& n) { return !kept.count(n.commit); });
}

std::set<std::string> Bisection::ancestors(const std::string& commit) const {
  std::map<std::string, const CommitNode*> by_hash;
  for (const CommitNode& node : nodes_) by_hash[node.commit] = &node;
  std::set<std::string> seen;
  std::vector<std::string> open = {commit};
  while (!open.empty()) {
    const std::string next = open.back();
    open.pop_back();
    const auto found = by_hash.find(next);
    if (found == by_hash.end() || !seen.insert(next).second) continue;
    for (const std::string& parent : found->second->parents) open.push_back(parent);
  }
  return seen;
}

std::optional<std::string> Bisection::next() const {
  const std::size_t total = nodes_.size();
  std::optional<std::string> best;
  std::size_t best_score = 0;
  for (const CommitNode& node : nodes_) {
    if (node.commit == bad_ || skipped_.count(node.commit)) continue;
    // Bad: `below` commits remain; good: total - below. The worse case is what counts.
    const std::size_t below = ancestors(node.commit).size();
    const std::size_t score = std::min(below, total - below);
    if (!best || score > best_score) {
      best = node.commit;
      best_score = score;
    }
  }
  return best;
}

void Bisection::mark_good(const std::string& commit) {
  const std::set<std::string> gone = ancestors(commit);
  std::erase_if(nodes_, [&](const CommitNode& n) { return gone.count(n.commit) > 0; });
}

void Bisection::mark_bad(const std::string& commit) {
  const std::set<std::string> kept = ancestors(commit);
  std::erase_if(nodes_, [&](const CommitNode& n) { return !kept.count(n.commit); });
  bad_ = commit;
}

void Bisection::mark_skipped(const std::string& commit) {
  skipped_.insert(commit);
}

std::optional<std::string> Bisection::first_bad() const {
  if (nodes_.size() == 1 && nodes_.front().commit == bad_) return bad_;
  return std::nullopt;
}

std::vector<std::string> Bisection::remaining() const {
  std::vector<std::string> out;
  for (const CommitNode& node : nodes_) out.push_back(node.commit);
  return out;
}

}  // namespace benchkit::vcs
