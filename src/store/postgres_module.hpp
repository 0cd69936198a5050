// The PostgreSQL history lives in a module of its own (libbenchkit-postgres.so), loaded with
// dlopen the first time a postgresql:// store is opened. Linking libpq into libbenchkit made
// every bench binary and every `benchkit` command load libpq, libssl, libcrypto, GnuTLS and
// Kerberos at start: 21 more shared libraries and about 5 MiB more resident memory, for a store
// most runs never open.
#pragma once

#include <memory>
#include <string>

#include "model/error.hpp"
#include "store/history_store.hpp"

namespace benchkit::store {

// What the module exports (by the C name kPostgresModuleSymbol): the build it was compiled in,
// so that a module from another benchkit is refused rather than called, and its opener.
struct PostgresModule {
  const char* build;
  model::Result<std::unique_ptr<Store>> (*open)(const std::string& url);
};

inline constexpr const char* kPostgresModuleSymbol = "benchkit_postgres_module_v1";
inline constexpr const char* kPostgresModuleFile = "libbenchkit-postgres.so";
// Set to a module's path to load that one rather than search for it.
inline constexpr const char* kPostgresModuleVariable = "BENCHKIT_POSTGRES_MODULE";

}  // namespace benchkit::store
