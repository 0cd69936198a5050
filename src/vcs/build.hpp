// Building a revision's worktree the way the user builds the project, in a build folder of its
// own that is kept as a cache: WORKTREE/.benchkit-build-KEY, KEY a hash of the build
// settings. A build folder whose marker (benchkit-build.json) lists the targets asked for is
// used as it is: nothing runs. Every step runs through process::run_one (its own process group,
// killed on Ctrl-C), its output in a log file in the build folder.
//
// CMake projects are configured with the generator, build type, compilers, launcher, flags and
// package folders (*_DIR, CMAKE_PREFIX_PATH) of the user's build folder (its CMakeCache.txt),
// with the CMake file API asked for the code model, which says what each target is, where its
// executable lands and what it links. Other projects give a shell command with {src} and
// {build} placeholders and the path of the binary it makes.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "vcs/worktrees.hpp"

namespace benchkit::vcs {

// CMakeCache.txt entries: NAME:TYPE=VALUE, by name (comments and blank lines skipped).
struct CacheEntry {
  std::string type;
  std::string value;
};
std::map<std::string, CacheEntry> parse_cmake_cache(const std::string& text);

// The -D settings and generator a revision's build folder is configured with, taken from the
// user's CMakeCache.txt.
struct CMakeSettings {
  std::string generator;
  // Where the project's top CMakeLists.txt is, relative to the repository's root ("" for the
  // root itself).
  std::string source_subfolder;
  std::vector<std::pair<std::string, std::string>> definitions;  // NAME, VALUE (sorted)
  friend bool operator==(const CMakeSettings&, const CMakeSettings&) = default;
};

// From the user's cache: CMAKE_GENERATOR (and platform, toolset), CMAKE_BUILD_TYPE, the C and
// C++ compilers, their launchers, CMAKE_{C,CXX}_FLAGS and their per-type forms, linker flags,
// CMAKE_PREFIX_PATH and every PATH entry NAME_DIR (where find_package found a package, benchkit
// included) that lies outside the user's build folder. `ccache` (its path; empty when absent)
// becomes the C++ and C compiler launcher when the user's build has none.
CMakeSettings settings_from_cache(const std::map<std::string, CacheEntry>& cache,
                                  const std::string& root, const std::string& user_build_folder,
                                  const std::string& ccache);

// The user's build folder: `given` when not empty (it must hold a CMakeCache.txt); else the one
// folder directly under `root` (or `root`/build) whose CMakeCache.txt names `root` as its
// source. The error names what was looked at, the candidates when there are several, and the fix
// (--build-dir, or how to configure one).
model::Result<std::string> find_user_build_folder(const std::string& root,
                                                  const std::string& given);

// An executable target of a CMake build, from the file API's code model.
struct ExecutableTarget {
  std::string name;
  std::string artifact;  // the executable's path (absolute)
  bool links_benchkit_main = false;
  friend bool operator==(const ExecutableTarget&, const ExecutableTarget&) = default;
};
// The executables in a file API reply folder (BUILD/.cmake/api/v1/reply); the error names it.
model::Result<std::vector<ExecutableTarget>> read_code_model(const std::string& build_folder);

// How to build a revision.
struct BuildRecipe {
  // CMake: the settings and the targets to build (empty: the bench targets found, those that
  // link benchkit::main).
  std::optional<CMakeSettings> cmake;
  std::vector<std::string> targets;
  // With no targets: build every target (for whole commands, whose binaries are not known).
  bool all_targets = false;
  // Otherwise: a shell command with {src} (the worktree) and {build} (its build folder), and
  // the binary it makes ({src}/{build} allowed; relative to {build}).
  std::string command;
  std::string binary;
  // Added to every build step's environment (KEY=VALUE): ccache's base folder, for instance.
  std::vector<std::string> env;
};

// A hash of what makes two builds of one worktree differ: the CMake settings, or the command and
// binary. Targets are not in it: one build folder builds any of them.
std::string recipe_key(const BuildRecipe& recipe);

// A built revision: the executables by target name ("binary" for a --build command).
struct Built {
  std::string build_folder;
  std::vector<ExecutableTarget> executables;  // the targets built, in the order asked
  std::vector<std::string> bench_targets;     // every target linking benchkit::main (CMake)
  bool cached = false;                        // nothing was run
  double seconds = 0.0;                       // spent building
};

// Says what the build does as it goes ("configuring", "building bench").
using BuildProgress = std::function<void(const std::string& step)>;

// Builds `worktree` as `recipe` says, in WORKTREE/.benchkit-build-KEY; `label` names the revision
// in errors ("BASE v1.0 (1a2b3c4d5e6f)"). Errors: a failed step (its last log lines and the
// log's path), a target missing at this revision (the ones it has), Ctrl-C (kind interrupted;
// the build folder is not marked built, so the cache never holds half a build).
model::Result<Built> build_revision(const Worktree& worktree, const BuildRecipe& recipe,
                                    const std::string& label, const BuildProgress& progress = {});

// The path of `program` found in PATH; empty when it is not there.
std::string find_in_path(const std::string& program);

// `text` with {src} and {build} replaced by the paths, each quoted for a POSIX shell.
std::string fill_placeholders(const std::string& text, const std::string& src,
                              const std::string& build, bool shell_quote);

}  // namespace benchkit::vcs
