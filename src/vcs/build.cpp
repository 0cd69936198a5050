#include "vcs/build.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "process/interrupt.hpp"
#include "process/run.hpp"
#include "vcs/revisions.hpp"

namespace benchkit::vcs {
namespace {

namespace fs = std::filesystem;

// Lines of a failed step's log shown in the error: enough for a compiler's error and the
// command that failed, short enough to read in a terminal.
constexpr std::size_t kLogLinesShown = 25;
constexpr const char* kConfiguredMarker = "benchkit-configured";
constexpr const char* kBuiltMarker = "benchkit-built.txt";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool inside(const std::string& path, const std::string& folder) {
  if (folder.empty()) return false;
  const std::string base = fs::weakly_canonical(folder).string();
  const std::string full = fs::weakly_canonical(path).string();
  return full == base || full.starts_with(base + "/");
}

// 64-bit FNV-1a: a stable name for a text (not a security hash: it names cache folders).
std::string fnv1a_hex(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return fmt::format("{:016x}", hash);
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::vector<std::string> read_lines(const fs::path& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// One build step, its standard output appended to `log` (its standard error kept and added
// after). The error names the step, the revision, and shows the end of the log.
model::Result<bool> run_step(const std::vector<std::string>& argv, const std::string& log,
                             const std::vector<std::string>& env, const std::string& what,
                             const std::string& label) {
  process::RunRequest request;
  request.argv = argv;
  request.env = env;
  request.output = process::Output::file;
  request.output_path = log;
  const process::RunRecord record = process::run_one(request);
  if (!record.stderr_tail.empty()) {
    std::ofstream(log, std::ios::app) << record.stderr_tail;
  }
  if (record.interrupted || process::interrupt_requested()) {
    return model::Error{fmt::format("interrupted while {} {}: its build was stopped", what, label),
                        model::ErrorKind::interrupted};
  }
  if (!record.started) {
    return model::Error{
        fmt::format("cannot start {} to build {}: {}", argv.front(), label, record.error),
        model::ErrorKind::failed};
  }
  if (!record.ok()) {
    return model::Error{
        fmt::format("{} {} failed ({}); the end of its log {}:\n{}\nFix the build of that "
                    "revision, or choose another one",
                    what, label, record.describe(), log,
                    process::last_lines(read_file(log), kLogLinesShown)),
        model::ErrorKind::failed};
  }
  return true;
}

std::string names_of(const std::vector<ExecutableTarget>& executables) {
  std::vector<std::string> names;
  for (const auto& e : executables) names.push_back(e.name);
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

model::Result<Built> build_cmake(const Worktree& worktree, const BuildRecipe& recipe,
                                 const std::string& folder, const std::string& label,
                                 const BuildProgress& progress) {
  const CMakeSettings& settings = *recipe.cmake;
  Built built;
  built.build_folder = folder;
  const auto started = std::chrono::steady_clock::now();
  bool ran = false;
  if (!fs::exists(fs::path(folder) / kConfiguredMarker)) {
    std::error_code error;
    fs::create_directories(fs::path(folder) / ".cmake/api/v1/query", error);
    std::ofstream(fs::path(folder) / ".cmake/api/v1/query/codemodel-v2");
    const std::string source = (fs::path(worktree.path) / settings.source_subfolder).string();
    std::vector<std::string> argv = {"cmake", "-S", source, "-B", folder};
    if (!settings.generator.empty()) argv.insert(argv.end(), {"-G", settings.generator});
    for (const auto& [name, value] : settings.definitions) {
      argv.push_back("-D" + name + "=" + value);
    }
    if (progress) progress("configuring");
    const auto configured = run_step(argv, (fs::path(folder) / "benchkit-configure.log").string(),
                                     recipe.env, "configuring", label);
    if (!configured) return configured.error();
    std::ofstream(fs::path(folder) / kConfiguredMarker) << "\n";
    ran = true;
  }
  const auto model = read_code_model(folder);
  if (!model) return model.error();
  for (const ExecutableTarget& e : *model) {
    if (e.links_benchkit_main) built.bench_targets.push_back(e.name);
  }
  const bool everything = recipe.all_targets && recipe.targets.empty();
  std::vector<std::string> targets = !recipe.targets.empty() ? recipe.targets
                                     : everything            ? std::vector<std::string>{"all"}
                                                             : built.bench_targets;
  if (targets.empty()) {
    return model::Error{
        fmt::format("{} has no bench target: none of its executables links benchkit::main "
                    "(executables: {}); link one with target_link_libraries(NAME PRIVATE "
                    "benchkit::main), or name the bench targets with --target (a Google "
                    "Benchmark target too: it is compared as benchkit compare OLD NEW does)",
                    label, names_of(*model)),
        model::ErrorKind::input};
  }
  for (const std::string& target : targets) {
    if (everything) break;
    const auto found = std::find_if(model->begin(), model->end(),
                                    [&](const ExecutableTarget& e) { return e.name == target; });
    if (found == model->end()) {
      return model::Error{fmt::format("the bench target {} does not exist at {} (its executables: "
                                      "{}); choose a revision that has it, or other --target",
                                      target, label, names_of(*model)),
                          model::ErrorKind::input};
    }
    built.executables.push_back(*found);
  }
  const std::vector<std::string> done = read_lines(fs::path(folder) / kBuiltMarker);
  std::vector<std::string> missing;
  for (const std::string& target : targets) {
    if (std::find(done.begin(), done.end(), target) == done.end()) missing.push_back(target);
  }
  if (!missing.empty()) {
    std::vector<std::string> argv = {"cmake", "--build", folder};
    if (!everything) {
      argv.push_back("--target");
      argv.insert(argv.end(), missing.begin(), missing.end());
    }
    if (progress) progress(fmt::format("building {}", fmt::join(missing, " ")));
    const auto made = run_step(argv, (fs::path(folder) / "benchkit-build.log").string(), recipe.env,
                               "building", label);
    if (!made) return made.error();
    std::ofstream marker(fs::path(folder) / kBuiltMarker, std::ios::app);
    for (const std::string& target : missing) marker << target << "\n";
    ran = true;
  }
  built.cached = !ran;
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return built;
}

model::Result<Built> build_command(const Worktree& worktree, const BuildRecipe& recipe,
                                   const std::string& folder, const std::string& label,
                                   const BuildProgress& progress) {
  Built built;
  built.build_folder = folder;
  std::string binary = fill_placeholders(recipe.binary, worktree.path, folder, false);
  if (fs::path(binary).is_relative()) binary = (fs::path(folder) / binary).string();
  const auto started = std::chrono::steady_clock::now();
  const bool done = !read_lines(fs::path(folder) / kBuiltMarker).empty();
  if (!done) {
    std::error_code error;
    fs::create_directories(folder, error);
    const std::string command =
        fmt::format("cd {} && {}", shell_quote(worktree.path),
                    fill_placeholders(recipe.command, worktree.path, folder, true));
    if (progress) progress("building (" + recipe.command + ")");
    const auto made =
        run_step({"/bin/sh", "-c", command}, (fs::path(folder) / "benchkit-build.log").string(),
                 recipe.env, "building", label);
    if (!made) return made.error();
  }
  if (::access(binary.c_str(), X_OK) != 0) {
    return model::Error{fmt::format("the build of {} made no executable {} (--binary): give the "
                                    "path the --build command writes, e.g. {{build}}/NAME",
                                    label, binary),
                        model::ErrorKind::input};
  }
  if (!done) std::ofstream(fs::path(folder) / kBuiltMarker) << binary << "\n";
  built.executables.push_back({"binary", binary, true});
  built.cached = done;
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return built;
}

}  // namespace

std::map<std::string, CacheEntry> parse_cmake_cache(const std::string& text) {
  std::map<std::string, CacheEntry> entries;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.starts_with("#") || line.starts_with("//")) continue;
    const std::size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    const std::string head = line.substr(0, equals);
    const std::size_t colon = head.rfind(':');
    if (colon == std::string::npos) continue;
    std::string name = head.substr(0, colon);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
      name = name.substr(1, name.size() - 2);
    }
    entries[name] = CacheEntry{head.substr(colon + 1), line.substr(equals + 1)};
  }
  return entries;
}

CMakeSettings settings_from_cache(const std::map<std::string, CacheEntry>& cache,
                                  const std::string& root, const std::string& user_build_folder,
                                  const std::string& ccache) {
  CMakeSettings settings;
  const auto value_of = [&](const std::string& name) -> std::string {
    const auto found = cache.find(name);
    return found == cache.end() ? std::string() : found->second.value;
  };
  settings.generator = value_of("CMAKE_GENERATOR");
  const std::string home = value_of("CMAKE_HOME_DIRECTORY");
  // Every setting a user can make (-D, ccmake): build type, compilers, flags, launchers, the
  // project's options, where find_package found each package. INTERNAL and STATIC entries are
  // CMake's own bookkeeping (UNINITIALIZED is a -D given without a type: the user's own); a path
  // into the user's build folder or checkout would build the revision against the user's files.
  const std::set<std::string> settable = {"BOOL", "STRING", "PATH", "FILEPATH", "UNINITIALIZED"};
  bool launcher = false;
  for (const auto& [name, entry] : cache) {
    if (!settable.count(entry.type)) continue;
    if (entry.type != "BOOL" && entry.value.starts_with("/") &&
        (inside(entry.value, user_build_folder) || inside(entry.value, root) ||
         (!home.empty() && inside(entry.value, home)))) {
      continue;
    }
    if (name == "CMAKE_INSTALL_PREFIX") continue;  // nothing is installed
    if (name == "CMAKE_CXX_COMPILER_LAUNCHER" && !entry.value.empty()) launcher = true;
    settings.definitions.emplace_back(name, entry.value);
  }
  if (!launcher && !ccache.empty()) {
    settings.definitions.emplace_back("CMAKE_CXX_COMPILER_LAUNCHER", ccache);
    settings.definitions.emplace_back("CMAKE_C_COMPILER_LAUNCHER", ccache);
  }
  // A project whose CMakeLists.txt is in a subfolder of the repository: the same subfolder of
  // each worktree.
  if (!home.empty() && inside(home, root)) {
    const fs::path relative =
        fs::weakly_canonical(home).lexically_relative(fs::weakly_canonical(root));
    if (relative != ".") settings.source_subfolder = relative.string();
  }
  std::sort(settings.definitions.begin(), settings.definitions.end());
  return settings;
}

model::Result<std::string> find_user_build_folder(const std::string& root,
                                                  const std::string& given) {
  if (!given.empty()) {
    if (!fs::exists(fs::path(given) / "CMakeCache.txt")) {
      return model::Error{fmt::format(
          "--build-dir {} holds no CMakeCache.txt: give the folder you build the project in "
          "(the one cmake -B made)",
          given)};
    }
    return fs::absolute(given).lexically_normal().string();
  }
  std::vector<std::string> found;
  auto consider = [&](const fs::path& folder) {
    const fs::path cache = folder / "CMakeCache.txt";
    std::error_code error;
    if (!fs::exists(cache, error)) return;
    const auto entries = parse_cmake_cache(read_file(cache));
    const auto home = entries.find("CMAKE_HOME_DIRECTORY");
    if (home != entries.end() && inside(home->second.value, root)) found.push_back(folder.string());
  };
  consider(root);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root, error)) {
    if (entry.is_directory() && entry.path().filename() != ".benchkit" &&
        entry.path().filename() != ".git") {
      consider(entry.path());
    }
  }
  std::sort(found.begin(), found.end());
  if (found.size() == 1) return found.front();
  if (found.empty()) {
    return model::Error{fmt::format(
        "no CMake build folder of {} was found (a folder directly in it holding a "
        "CMakeCache.txt): configure one (cmake -S {} -B {}/build -DCMAKE_BUILD_TYPE=Release) "
        "and run again, give yours with --build-dir, or build some other way with --build "
        "\"CMD\" --binary PATH",
        root, root, root)};
  }
  return model::Error{fmt::format(
      "{} has several build folders ({}): say which one's settings the revisions are built with, "
      "e.g. --build-dir {}",
      root, fmt::join(found, ", "), found.front())};
}

model::Result<std::vector<ExecutableTarget>> read_code_model(const std::string& build_folder) {
  const fs::path reply = fs::path(build_folder) / ".cmake/api/v1/reply";
  std::vector<fs::path> indexes;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(reply, error)) {
    if (entry.path().filename().string().starts_with("index-")) indexes.push_back(entry.path());
  }
  if (indexes.empty()) {
    return model::Error{fmt::format("CMake left no file API reply in {}: CMake 3.14 or newer is "
                                    "needed to find the bench targets",
                                    reply.string()),
                        model::ErrorKind::failed};
  }
  std::sort(indexes.begin(), indexes.end());  // the newest sorts last (its name holds the time)
  std::vector<ExecutableTarget> executables;
  try {
    const auto index = nlohmann::json::parse(read_file(indexes.back()));
    const std::string model_file = index.at("reply").at("codemodel-v2").at("jsonFile");
    const auto model = nlohmann::json::parse(read_file(reply / model_file));
    const std::string top = model.at("paths").at("build");
    for (const auto& target : model.at("configurations").at(0).at("targets")) {
      const auto detail = nlohmann::json::parse(read_file(reply / target.at("jsonFile")));
      if (detail.value("type", "") != "EXECUTABLE") continue;
      ExecutableTarget executable;
      executable.name = detail.at("name");
      if (detail.contains("artifacts") && !detail["artifacts"].empty()) {
        const fs::path path = detail["artifacts"][0].at("path").get<std::string>();
        executable.artifact = (path.is_absolute() ? path : fs::path(top) / path).string();
      }
      // benchkit::main from a benchkit build or install is a library file on the link line;
      // built in the same project, it is a dependency on the benchkit_main target.
      if (detail.contains("link")) {
        for (const auto& fragment : detail["link"].value("commandFragments", nlohmann::json())) {
          if (fragment.value("fragment", "").find("benchkit_main") != std::string::npos) {
            executable.links_benchkit_main = true;
          }
        }
      }
      for (const auto& dependency : detail.value("dependencies", nlohmann::json::array())) {
        if (dependency.value("id", "").starts_with("benchkit_main::")) {
          executable.links_benchkit_main = true;
        }
      }
      executables.push_back(std::move(executable));
    }
  } catch (const std::exception& problem) {
    return model::Error{
        fmt::format("cannot read CMake's code model in {}: {}", reply.string(), problem.what()),
        model::ErrorKind::failed};
  }
  std::sort(executables.begin(), executables.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return executables;
}

std::string recipe_key(const BuildRecipe& recipe) {
  std::string text;
  if (recipe.cmake) {
    text = "cmake\n" + recipe.cmake->generator + "\n" + recipe.cmake->source_subfolder + "\n";
    for (const auto& [name, value] : recipe.cmake->definitions) text += name + "=" + value + "\n";
  } else {
    text = "command\n" + recipe.command + "\n" + recipe.binary + "\n";
  }
  return fnv1a_hex(text).substr(0, 12);
}

model::Result<Built> build_revision(const Worktree& worktree, const BuildRecipe& recipe,
                                    const std::string& label, const BuildProgress& progress) {
  // Inside the worktree, so that ccache (its base folder the worktree) sees the same relative
  // paths in every revision's build, and an unchanged file compiles once for all of them.
  // Untracked: git status of the worktree does not see it (it is listed in no revision).
  const std::string folder =
      (fs::path(worktree.path) / (".benchkit-build-" + recipe_key(recipe))).string();
  if (recipe.cmake) return build_cmake(worktree, recipe, folder, label, progress);
  return build_command(worktree, recipe, folder, label, progress);
}

std::string find_in_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::istringstream folders(path);
  for (std::string folder; std::getline(folders, folder, ':');) {
    if (folder.empty()) continue;
    const fs::path candidate = fs::path(folder) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

std::string fill_placeholders(const std::string& text, const std::string& src,
                              const std::string& build, bool quote) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 5, "{src}") == 0) {
      out += quote ? shell_quote(src) : src;
      i += 5;
    } else if (text.compare(i, 7, "{build}") == 0) {
      out += quote ? shell_quote(build) : build;
      i += 7;
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace benchkit::vcs
