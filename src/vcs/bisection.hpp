// Bisection on git's commit graph, as git bisect does it, with no checkout: the candidates are
// the commits between GOOD and BAD (git rev-list --ancestry-path GOOD..BAD, BAD included), and
// each test picks the commit that splits them most evenly: the one whose ancestors among the
// candidates are closest to half of them. A bad commit keeps its ancestors (itself included); a
// good one removes its own; a skipped one is never picked again. Pure: no git, no I/O.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "vcs/revisions.hpp"

namespace benchkit::vcs {

class Bisection {
 public:
  // `candidates` as commits_between gives them (newest first); `bad` is one of them.
  Bisection(std::vector<CommitNode> candidates, std::string bad);

  // The commit to test next; none when the first bad commit is known or only skipped commits
  // are left to test.
  std::optional<std::string> next() const;
  void mark_good(const std::string& commit);
  void mark_bad(const std::string& commit);
  void mark_skipped(const std::string& commit);

  // The first bad commit, once every other candidate is ruled out.
  std::optional<std::string> first_bad() const;
  // The commits that may still be the first bad one (the current bad included), newest first.
  std::vector<std::string> remaining() const;
  const std::string& bad() const { return bad_; }

 private:
  // `commit` and its ancestors among the remaining candidates.
  std::set<std::string> ancestors(const std::string& commit) const;

  std::vector<CommitNode> nodes_;  // the remaining candidates, newest first
  std::string bad_;
  std::set<std::string> skipped_;
};

}  // namespace benchkit::vcs
