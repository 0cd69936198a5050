// The history in a PostgreSQL database, for a team whose CI runners are many machines writing to
// one place: `--store postgresql://user@host/db` or BENCHKIT_STORE. Each run is one transaction;
// runs recorded by several machines at once never wait on each other beyond their own rows.
#pragma once

#include <memory>
#include <string>

#include "model/error.hpp"
#include "store/history_store.hpp"

namespace benchkit::store {

// Whether `location` names a PostgreSQL database (postgresql:// or postgres://).
bool is_postgresql_url(std::string_view location);

// `url` with its password, if any, replaced by *** (for every message that shows the URL).
std::string redact_url(std::string_view url);

// Whether an error of SQLSTATE `sqlstate` means the server ended the session, so that the
// connection is lost whatever statement met it: class 08 (connection exception) and 57P01-57P03
// (administrator command, crash, cannot connect now; a restart's "terminating connection due to
// administrator command" reached a writer inside a COPY as a plain SQL error, and it gave up).
bool session_ended(std::string_view sqlstate);

// How long a connection may take before it is given up: a CI job must not hang on a database
// host that does not answer (libpq waits for the system's TCP timeout, minutes, without one).
inline constexpr int kConnectTimeoutSeconds = 5;

// `url` with connect_timeout=kConnectTimeoutSeconds added to its parameters, unless it sets
// connect_timeout itself.
std::string with_connect_timeout(std::string_view url);

// Connects (within kConnectTimeoutSeconds, unless the URL sets connect_timeout) and migrates the
// database to kSchemaVersion (concurrent first connections take turns through an advisory lock).
// Errors, each naming the URL without its password and the fix: a server that cannot be reached or
// refuses the login, a schema newer than this benchkit.
model::Result<std::unique_ptr<Store>> open_postgres_store(const std::string& url);

}  // namespace benchkit::store
