// The PostgreSQL history against the throwaway server of the test run (postgres_server.sh): the
// URL's password never shown, a refused connection or login, a schema newer than this benchkit.
#include "store/postgres_store.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <pqxx/pqxx>

#include "store/history_backends.hpp"
#include "support/history_runs.hpp"

namespace benchkit::store {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(PostgresUrl, HidesThePassword) {
  EXPECT_EQ(redact_url("postgresql://ci:s3cret@db.example:5432/bench"),
            "postgresql://ci:***@db.example:5432/bench");
  EXPECT_EQ(redact_url("postgres://ci@db/bench"), "postgres://ci@db/bench");
  EXPECT_EQ(redact_url("postgresql://db/bench?user=a"), "postgresql://db/bench?user=a");
  EXPECT_EQ(redact_url("postgresql://db/x@y"), "postgresql://db/x@y");
  EXPECT_TRUE(is_postgresql_url("postgresql://db/bench"));
  EXPECT_TRUE(is_postgresql_url("postgres://db/bench"));
  EXPECT_FALSE(is_postgresql_url(".benchkit/history.db"));
}

// A loopback port that nothing listens on (bound, then closed).
int closed_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t size = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  close(fd);
  return ntohs(address.sin_port);
}

TEST(PostgresStore, SaysWhenNoServerAnswersWithoutShowingThePassword) {
  const std::string url =
      "postgresql://ci:hunter2-secret@127.0.0.1:" + std::to_string(closed_port()) + "/bench";
  const auto refused = open_postgres_store(url);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("postgresql://ci:***@127.0.0.1"));
  EXPECT_THAT(refused.error().message, HasSubstr("check that the server runs"));
  EXPECT_THAT(refused.error().message, Not(HasSubstr("hunter2")));
}

TEST(PostgresStore, SaysWhenThePasswordIsRefused) {
  const std::string server = testing::fixture_postgres_url();
  BENCHKIT_NEED_POSTGRES(server);
  const std::size_t colon = server.find(':', std::string("postgresql://").size());
  const std::size_t at = server.find('@');
  const std::string wrong = server.substr(0, colon + 1) + "wrong-horse" + server.substr(at);
  const auto refused = open_postgres_store(wrong);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("password authentication failed"));
  EXPECT_THAT(refused.error().message, HasSubstr("check the user name and password"));
  EXPECT_THAT(refused.error().message, Not(HasSubstr("wrong-horse")));
}

TEST(PostgresStore, RefusesASchemaNewerThanItsOwnAndChangesNothing) {
  testing::PostgresBackend backend;
  BENCHKIT_NEED_POSTGRES(backend.server);
  {
    const auto store = open_postgres_store(backend.location());
    ASSERT_TRUE(store.ok()) << store.error().message;
    ASSERT_TRUE((*store)->add(make_stored_run(testing::made_run({}), "m", "b")).ok());
  }
  pqxx::connection connection(backend.server);
  pqxx::work work(connection);
  const std::string table = work.quote_name(backend.schema) + ".benchkit_schema";
  work.exec("UPDATE " + table + " SET version = 99");
  work.commit();
  const auto refused = open_postgres_store(backend.location());
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("schema version 99, newer than"));
  EXPECT_THAT(refused.error().message, HasSubstr("upgrade benchkit"));
  EXPECT_THAT(refused.error().message, HasSubstr("postgresql://benchkit:***@"));
  pqxx::work check(connection);
  EXPECT_EQ(check.exec1("SELECT version FROM " + table)[0].as<int>(), 99);
  EXPECT_EQ(check.exec1("SELECT count(*) FROM " + check.quote_name(backend.schema) + ".runs")[0]
                .as<int>(),
            1);
}

}  // namespace
}  // namespace benchkit::store
