#include "vcs/worktrees.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "vcs/revisions.hpp"
#include "vcs/worktree_lock.hpp"

namespace benchkit::vcs {
namespace {

namespace fs = std::filesystem;

std::string marker_of(const std::string& path) {
  return path + ".ready";
}

std::string trimmed(const std::string& text) {
  std::string out = text;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string removal_advice(const std::string& root, const std::string& path) {
  return fmt::format(
      "remove it with: git -C {} worktree remove --force {} (benchkit makes it "
      "again from the revision)",
      root, path);
}

// Whether the complete worktree at `path` still holds `checkout` exactly; else why not.
std::optional<std::string> changed_since(const std::string& path, const Checkout& checkout,
                                         const GitRunner& run) {
  const auto head = run(path, {"rev-parse", "HEAD"});
  if (!head || trimmed(*head) != checkout.commit) {
    return fmt::format("its HEAD is {} instead of {}", head ? trimmed(*head) : "unreadable",
                       checkout.commit);
  }
  if (!checkout.dirty()) {
    const auto status =
        run(path, {"--no-optional-locks", "status", "--porcelain", "--untracked-files=no"});
    if (!status) return std::string("git status fails in it");
    if (!trimmed(*status).empty()) {
      return fmt::format("its files were changed since it was made:\n{}", trimmed(*status));
    }
    return std::nullopt;
  }
  const std::string diff = path + ".diff-now";
  const auto written = write_uncommitted_diff(path, diff, run);
  const auto hash =
      written ? hash_file(path, diff, run) : model::Result<std::string>(written.error());
  std::error_code ignored;
  fs::remove(diff, ignored);
  if (!hash) return hash.error().message;
  if (*hash != checkout.diff_hash) {
    return std::string("its uncommitted changes are no longer the ones it was made with");
  }
  return std::nullopt;
}

}  // namespace

std::string benchkit_folder(const std::string& root) {
  return (fs::path(root) / ".benchkit").string();
}

std::string worktrees_folder(const std::string& root) {
  return (fs::path(benchkit_folder(root)) / "worktrees").string();
}

model::Result<std::string> make_ignored_folder(const std::string& folder) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) {
    return model::Error{
        fmt::format("cannot make the folder {}: {}; check that its parent can be "
                    "written",
                    folder, error.message())};
  }
  const fs::path ignore = fs::path(folder) / ".gitignore";
  if (!fs::exists(ignore)) {
    std::ofstream out(ignore);
    out << "# Made by benchkit: worktrees and builds of revisions, not part of the project.\n*\n";
    if (!out) return model::Error{fmt::format("cannot write {}", ignore.string())};
  }
  return folder;
}

std::string worktree_name(const Checkout& checkout) {
  std::string name = short_commit(checkout.commit);
  if (checkout.dirty()) name += "-dirty-" + checkout.diff_hash.substr(0, 12);
  return name;
}

model::Result<Worktree> prepare_worktree(const std::string& root, const Checkout& checkout,
                                         const GitRunner& run) {
  const auto folder = make_ignored_folder(worktrees_folder(root));
  if (!folder) return folder.error();
  Worktree tree;
  tree.name = worktree_name(checkout);
  tree.path = (fs::path(*folder) / tree.name).string();
  tree.checkout = checkout;
  const bool exists = fs::exists(tree.path);
  if (exists && !fs::exists(marker_of(tree.path))) {
    return model::Error{
        fmt::format("the worktree {} was left incomplete by an interrupted benchkit run; {}",
                    tree.path, removal_advice(root, tree.path))};
  }
  if (exists) {
    if (const auto why = changed_since(tree.path, checkout, run)) {
      return model::Error{fmt::format("the worktree {} no longer holds {}{}: {}; {}", tree.path,
                                      short_commit(checkout.commit),
                                      checkout.dirty() ? " with the uncommitted changes" : "", *why,
                                      removal_advice(root, tree.path))};
    }
    return tree;
  }
  // --force: a worktree git still lists at this path but whose folder is gone (removed by hand,
  // or by remove_worktree after a failure) is made again instead of refused. One `git worktree
  // add` at a time in a repository: two benchkit runs adding two revisions at once (each under
  // its own worktree lock) saw one of them fail, once, on a loaded machine
  // (tests/reliability/ab_concurrent.py); the lock is held only while git adds.
  bool added = false;
  {
    const auto adding = lock_worktree(root, ".add", nullptr, nullptr);
    if (!adding) return adding.error();
    added =
        run(root, {"worktree", "add", "--detach", "--force", "--quiet", tree.path, checkout.commit})
            .has_value();
  }
  if (!added) {
    remove_worktree(root, tree.path, run);
    return model::Error{fmt::format(
        "git worktree add cannot check out {} into {}: check that the commit exists and the "
        "folder can be written (git -C {} worktree add --detach {} {} shows git's message)",
        short_commit(checkout.commit), tree.path, root, tree.path, checkout.commit)};
  }
  if (checkout.dirty() &&
      !run(tree.path, {"apply", "--binary", "--whitespace=nowarn", checkout.diff_file})) {
    remove_worktree(root, tree.path, run);
    return model::Error{fmt::format(
        "the uncommitted changes ({}) do not apply to {} in {}: commit them, or give NEW as a "
        "revision",
        checkout.diff_file, short_commit(checkout.commit), tree.path)};
  }
  std::ofstream marker(marker_of(tree.path));
  marker << checkout.commit << (checkout.dirty() ? " " + checkout.diff_hash : "") << "\n";
  if (!marker) {
    remove_worktree(root, tree.path, run);
    return model::Error{fmt::format("cannot write {}", marker_of(tree.path))};
  }
  return tree;
}

void remove_worktree(const std::string& root, const std::string& path, const GitRunner& run) {
  run(root, {"worktree", "remove", "--force", "--force", path});
  std::error_code ignored;
  fs::remove_all(path, ignored);
  fs::remove(marker_of(path), ignored);
}

}  // namespace benchkit::vcs
