// Loading the PostgreSQL module (store/postgres_module.hpp): the real module of this build is
// found and runs; a missing file, a file that is not a shared object, and a shared object that
// is not benchkit's module are each refused with a message naming the file and the fix.
#include <dlfcn.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "store/postgres_module.hpp"
#include "store/postgres_store.hpp"

namespace benchkit::store {
namespace {

using ::testing::HasSubstr;

// Sets $BENCHKIT_POSTGRES_MODULE for one test and puts back what was there.
class ModuleVariable {
 public:
  explicit ModuleVariable(const std::string& value) {
    if (const char* was = std::getenv(kPostgresModuleVariable)) before_ = was;
    setenv(kPostgresModuleVariable, value.c_str(), 1);
  }
  ~ModuleVariable() {
    if (before_) {
      setenv(kPostgresModuleVariable, before_->c_str(), 1);
    } else {
      unsetenv(kPostgresModuleVariable);
    }
  }
  ModuleVariable(const ModuleVariable&) = delete;
  ModuleVariable& operator=(const ModuleVariable&) = delete;

 private:
  std::optional<std::string> before_;
};

// Nothing listens on port 1 of loopback: connecting fails at once, after the module is loaded.
constexpr const char* kNoServer = "postgresql://ci@127.0.0.1:1/bench";

TEST(PostgresModule, TheModuleOfThisBuildIsLoadedAndConnects) {
  const ModuleVariable chosen(std::string(BENCHKIT_BINARY_DIR) + "/" + kPostgresModuleFile);
  const auto refused = open_postgres_store(kNoServer);
  ASSERT_FALSE(refused.ok());
  // The module's own message: it was loaded and tried the server.
  EXPECT_THAT(refused.error().message, HasSubstr("cannot connect to history"));
}

TEST(PostgresModule, TheModuleIsFoundWithoutTheVariable) {
  if (std::getenv(kPostgresModuleVariable)) GTEST_SKIP() << "the variable is set for this run";
  const auto refused = open_postgres_store(kNoServer);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("cannot connect to history"));
}

TEST(PostgresModule, AMissingModuleNamesWhereItLookedAndTheWayOut) {
  const std::string missing = "/nonexistent/benchkit/libbenchkit-postgres.so";
  const ModuleVariable chosen(missing);
  const auto refused = open_postgres_store(kNoServer);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr(missing));
  EXPECT_THAT(refused.error().message, HasSubstr(kPostgresModuleVariable));
  EXPECT_THAT(refused.error().message, HasSubstr("SQLite history"));
}

TEST(PostgresModule, AFileThatIsNotASharedObjectIsRefused) {
  const std::filesystem::path text = std::filesystem::temp_directory_path() /
                                     ("benchkit-not-a-module-" + std::to_string(getpid()) + ".so");
  std::ofstream(text) << "not an ELF file\n";
  const ModuleVariable chosen(text.string());
  const auto refused = open_postgres_store(kNoServer);
  std::filesystem::remove(text);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message,
              HasSubstr("cannot load benchkit's PostgreSQL module " + text.string()));
}

TEST(PostgresModule, ASharedObjectWithoutTheEntryIsRefused) {
  // The C library: a real shared object that is not benchkit's module (libzstd, which this
  // test used, is now linked from its static archive).
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&::getpid), &info), 0);
  const ModuleVariable chosen(info.dli_fname);
  const auto refused = open_postgres_store(kNoServer);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("is not benchkit's PostgreSQL module"));
  EXPECT_THAT(refused.error().message, HasSubstr(kPostgresModuleSymbol));
}

}  // namespace
}  // namespace benchkit::store
