#include "vcs/revisions.hpp"

#include <fmt/format.h>

#include <sstream>

namespace benchkit::vcs {
namespace {

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

}  // namespace

model::Result<std::string> repository_root(const std::string& folder, const GitRunner& run) {
  const auto out = run(folder, {"rev-parse", "--show-toplevel"});
  if (!out || first_line(*out).empty()) {
    return model::Error{fmt::format(
        "{} is not inside a git repository (or git is not installed): run benchkit ab and "
        "bisect from inside the repository whose revisions they build",
        folder)};
  }
  return first_line(*out);
}

model::Result<std::string> resolve_commit(const std::string& root, const std::string& name,
                                          const GitRunner& run) {
  // --end-of-options: a name that starts with '-' is a revision, not a flag of rev-parse.
  const auto out =
      name.empty() || name.front() == '-'
          ? std::nullopt
          : run(root, {"rev-parse", "--verify", "--quiet", "--end-of-options", name + "^{commit}"});
  if (!out || first_line(*out).empty()) {
    return model::Error{fmt::format(
        "git does not know the revision \"{}\" in {}: give a commit, branch or tag it knows "
        "(git log --oneline and git tag list them), e.g. HEAD~1 or main",
        name, root)};
  }
  return first_line(*out);
}

std::string commit_subject(const std::string& root, const std::string& commit,
                           const GitRunner& run) {
  const auto out = run(root, {"log", "-1", "--format=%s", commit, "--"});
  return out ? first_line(*out) : std::string();
}

model::Result<bool> write_uncommitted_diff(const std::string& root, const std::string& diff_file,
                                           const GitRunner& run) {
  // --no-ext-diff and --no-textconv: the bytes must be a patch git apply takes; --full-index and
  // --binary: binary files too. --output writes it straight to the file (no size limit on a pipe).
  const auto out =
      run(root, {"-c", "core.quotePath=false", "diff", "HEAD", "--binary", "--full-index",
                 "--no-color", "--no-ext-diff", "--no-textconv", "--output=" + diff_file, "--"});
  if (!out) {
    return model::Error{fmt::format(
        "cannot write the uncommitted changes of {} (git diff HEAD) to {}: check that the "
        "repository has a commit and the folder can be written",
        root, diff_file)};
  }
  const auto stat = run(root, {"diff", "HEAD", "--quiet", "--"});
  // git diff --quiet exits with 1 (the runner's nothing) when there are changes.
  return !stat.has_value();
}

model::Result<std::string> hash_file(const std::string& root, const std::string& path,
                                     const GitRunner& run) {
  const auto out = run(root, {"hash-object", "--no-filters", "--", path});
  if (!out || first_line(*out).empty()) {
    return model::Error{fmt::format("cannot hash {} with git hash-object", path)};
  }
  return first_line(*out);
}

std::vector<CommitNode> parse_rev_list_parents(const std::string& text) {
  std::vector<CommitNode> nodes;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    CommitNode node;
    if (!(words >> node.commit)) continue;
    for (std::string parent; words >> parent;) node.parents.push_back(parent);
    nodes.push_back(std::move(node));
  }
  return nodes;
}

model::Result<std::vector<CommitNode>> commits_between(const std::string& root,
                                                       const std::string& good,
                                                       const std::string& bad,
                                                       const GitRunner& run) {
  const auto base = run(root, {"merge-base", good, bad});
  if (!base || first_line(*base) != good) {
    return model::Error{fmt::format(
        "{} (the good revision) is not an ancestor of {} (the bad one): give the older, good "
        "revision first (benchkit bisect GOOD BAD), both on one line of history",
        short_commit(good), short_commit(bad))};
  }
  const auto out = run(root, {"rev-list", "--parents", "--ancestry-path", good + ".." + bad, "--"});
  if (!out) {
    return model::Error{fmt::format("git rev-list cannot list the commits between {} and {}",
                                    short_commit(good), short_commit(bad))};
  }
  return parse_rev_list_parents(*out);
}

std::string short_commit(const std::string& commit) {
  return commit.substr(0, 12);
}

}  // namespace benchkit::vcs
