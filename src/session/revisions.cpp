#include "session/revisions.hpp"

#include <fmt/format.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "process/interrupt.hpp"
#include "vcs/revisions.hpp"
#include "vcs/worktree_lock.hpp"

namespace benchkit::session {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

model::Error interrupted(const std::string& what) {
  return model::Error{"interrupted while " + what, model::ErrorKind::interrupted};
}

}  // namespace

model::Result<vcs::BuildRecipe> build_recipe(const std::string& root, const BuildChoice& choice,
                                             std::string& description) {
  vcs::BuildRecipe recipe;
  const std::string ccache = vcs::find_in_path("ccache");
  if (!choice.command.empty()) {
    if (choice.binary.empty() && !choice.all_targets) {
      return model::Error{
          "--build \"CMD\" needs --binary PATH: the bench binary the command "
          "makes (e.g. --binary {build}/bench)",
          model::ErrorKind::usage};
    }
    recipe.command = choice.command;
    recipe.binary = choice.binary;
    description = fmt::format("built with `{}`", choice.command);
    return recipe;
  }
  if (!choice.binary.empty()) {
    return model::Error{
        "--binary goes with --build \"CMD\"; a CMake project's bench binaries "
        "are found from its targets (--target NAME)",
        model::ErrorKind::usage};
  }
  if (!fs::exists(fs::path(root) / "CMakeLists.txt") && choice.build_dir.empty()) {
    return model::Error{
        fmt::format(
            "{} has no CMakeLists.txt: say how a revision is built with --build \"CMD\" "
            "(placeholders "
            "{{src}}, the revision's worktree, and {{build}}, its build folder) and --binary PATH",
            root),
        model::ErrorKind::usage};
  }
  const auto folder = vcs::find_user_build_folder(root, choice.build_dir);
  if (!folder) return folder.error();
  const auto cache = vcs::parse_cmake_cache(read_file(fs::path(*folder) / "CMakeCache.txt"));
  recipe.cmake = vcs::settings_from_cache(cache, root, *folder, ccache);
  recipe.targets = choice.targets;
  recipe.all_targets = choice.all_targets && choice.targets.empty();
  std::string type;
  if (const auto found = cache.find("CMAKE_BUILD_TYPE"); found != cache.end()) {
    type = found->second.value;
  }
  description = fmt::format("configured like {} ({}{}{})", *folder, recipe.cmake->generator,
                            type.empty() ? "" : ", ", type);
  if (!ccache.empty()) {
    // ccache's base folder: the worktree being built (set per build in prepare_revision).
    description += ", through ccache";
  }
  return recipe;
}

std::string Revision::label() const {
  const std::string commit_text = vcs::short_commit(commit);
  if (name.empty()) {
    return dirty
               ? fmt::format("{} the working tree ({} + uncommitted changes {})", role, commit_text,
                             diff_hash.substr(0, 12))
               : fmt::format("{} the working tree ({}, no uncommitted changes)", role, commit_text);
  }
  if (name.starts_with(commit_text) || commit.starts_with(name)) {
    return fmt::format("{} {}", role, commit_text);
  }
  return fmt::format("{} {} ({})", role, name, commit_text);
}

model::Result<std::pair<Revision, vcs::Checkout>> resolve_revision(const std::string& root,
                                                                   const std::string& role,
                                                                   const std::string& name) {
  Revision revision;
  revision.role = role;
  revision.name = name;
  const auto commit = vcs::resolve_commit(root, name.empty() ? "HEAD" : name);
  if (!commit) return commit.error();
  revision.commit = *commit;
  revision.subject = vcs::commit_subject(root, *commit);
  vcs::Checkout checkout;
  checkout.commit = *commit;
  if (name.empty()) {
    const auto folder =
        vcs::make_ignored_folder((fs::path(vcs::benchkit_folder(root)) / "diffs").string());
    if (!folder) return folder.error();
    // One pending file per process: two benchkit ab runs at once would write each other's.
    const std::string pending =
        (fs::path(*folder) / fmt::format("pending.{}.diff", getpid())).string();
    const auto changed = vcs::write_uncommitted_diff(root, pending);
    if (!changed) return changed.error();
    if (*changed) {
      const auto hash = vcs::hash_file(root, pending);
      if (!hash) return hash.error();
      const std::string kept = (fs::path(*folder) / (*hash + ".diff")).string();
      std::error_code error;
      fs::rename(pending, kept, error);
      if (error)
        return model::Error{fmt::format("cannot keep the diff as {}: {}", kept, error.message())};
      revision.dirty = true;
      revision.diff_hash = *hash;
      checkout.diff_file = kept;
      checkout.diff_hash = *hash;
    } else {
      std::error_code ignored;
      fs::remove(pending, ignored);
    }
  }
  return std::pair{revision, checkout};
}

model::Result<Prepared> prepare_revision(const std::string& root, const Revision& revision,
                                         const vcs::Checkout& checkout,
                                         const vcs::BuildRecipe& recipe,
                                         const PrepareProgress& progress) {
  if (process::interrupt_requested()) return interrupted("preparing " + revision.label());
  Prepared prepared;
  prepared.revision = revision;
  // Held until the build is done: another benchkit preparing the same worktree waits.
  const auto lock = vcs::lock_worktree(
      root, vcs::worktree_name(checkout),
      [&] {
        if (progress) {
          progress(revision, "waiting for another benchkit that checks out or builds it (lock " +
                                 vcs::worktrees_folder(root) + "/" + vcs::worktree_name(checkout) +
                                 ".lock)");
        }
      },
      [] { return process::interrupt_requested(); });
  if (!lock) return lock.error();
  const auto tree = vcs::prepare_worktree(root, checkout);
  if (process::interrupt_requested()) {
    if (tree) vcs::remove_worktree(root, tree->path);
    return interrupted("checking out " + revision.label() + " (its worktree was removed)");
  }
  if (!tree) return tree.error();
  prepared.worktree = *tree;
  vcs::BuildRecipe this_one = recipe;
  // ccache rewrites paths under its base folder relative to the build folder, which lies in the
  // worktree: every revision's build asks for the same relative paths, and a file unchanged
  // between revisions is compiled once.
  this_one.env.push_back("CCACHE_BASEDIR=" + tree->path);
  this_one.env.push_back("CCACHE_NOHASHDIR=1");
  const auto built =
      vcs::build_revision(*tree, this_one, revision.label(), [&](const std::string& step) {
        if (progress) progress(revision, step);
      });
  if (!built) return built.error();
  prepared.built = *built;
  return prepared;
}

void record_revision(const Revision& revision, Context& context) {
  context.git_commit = revision.commit;
  context.git_branch.clear();
  context.git_dirty = revision.dirty;
}

}  // namespace benchkit::session
