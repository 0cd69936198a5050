// open_postgres_store in libbenchkit: loads libbenchkit-postgres.so (store/postgres_module.hpp
// says why it is a module) and hands the URL to it.
#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "benchkit_build_info.hpp"
#include "store/postgres_module.hpp"
#include "store/postgres_store.hpp"

namespace benchkit::store {

namespace {

// The places the module is looked for, in order. An explicit $BENCHKIT_POSTGRES_MODULE is the
// only place looked at when set.
std::vector<std::string> module_candidates() {
  if (const char* chosen = std::getenv(kPostgresModuleVariable); chosen && *chosen) {
    return {chosen};
  }
  std::vector<std::string> candidates;
  std::error_code failed;
  const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", failed);
  if (!failed) {
    const std::filesystem::path folder = executable.parent_path();
    // An installed tree moved elsewhere (bin/benchkit beside lib/benchkit/), and the build tree
    // (benchkit and the module both at its top).
    candidates.push_back(
        (folder.parent_path() / build_info::module_from_prefix / kPostgresModuleFile).string());
    candidates.push_back((folder / kPostgresModuleFile).string());
  }
  candidates.push_back(build_info::module_install_path);
  candidates.push_back(build_info::module_build_path);
  return candidates;
}

// The module at `path` (loaded once: it is never closed, every Store it opens runs its code),
// or why it cannot be used.
model::Result<const PostgresModule*> load_module(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    return model::Error{
        fmt::format("cannot load benchkit's PostgreSQL module {}: {}; install "
                    "libpqxx (Debian: apt-get install libpqxx-6.4) or reinstall "
                    "benchkit",
                    path, dlerror())};
  }
  using Entry = const PostgresModule* (*)();
  const auto entry = reinterpret_cast<Entry>(dlsym(handle, kPostgresModuleSymbol));
  const PostgresModule* module = entry ? entry() : nullptr;
  if (!module) {
    return model::Error{
        fmt::format("{} is not benchkit's PostgreSQL module (it has no {}); set "
                    "{} to the {} of this benchkit",
                    path, kPostgresModuleSymbol, kPostgresModuleVariable, kPostgresModuleFile)};
  }
  if (std::string(module->build) != build_info::module_build) {
    return model::Error{fmt::format(
        "benchkit's PostgreSQL module {} comes from another build ({}) than this benchkit ({}); "
        "reinstall benchkit, or set {} to the module built with it",
        path, module->build, build_info::module_build, kPostgresModuleVariable)};
  }
  return module;
}

// The first candidate that exists, loaded; modules already loaded are kept by path.
model::Result<const PostgresModule*> find_module() {
  static std::mutex guard;
  static std::map<std::string, const PostgresModule*> loaded;
  std::string looked;
  for (const std::string& candidate : module_candidates()) {
    std::error_code failed;
    if (!std::filesystem::exists(candidate, failed)) {
      looked += (looked.empty() ? "" : ", ") + candidate;
      continue;
    }
    const std::lock_guard lock(guard);
    if (const auto known = loaded.find(candidate); known != loaded.end()) return known->second;
    auto module = load_module(candidate);
    if (module) loaded.emplace(candidate, *module);
    return module;
  }
  return model::Error{
      fmt::format("a PostgreSQL history needs benchkit's PostgreSQL module ({}), "
                  "which is not in {}; build or install benchkit with it, set {} "
                  "to its path, or use an SQLite history (a file path as --store)",
                  kPostgresModuleFile, looked, kPostgresModuleVariable)};
}

}  // namespace

model::Result<std::unique_ptr<Store>> open_postgres_store(const std::string& url) {
  const auto module = find_module();
  if (!module) return module.error();
  return (*module)->open(url);
}

}  // namespace benchkit::store
