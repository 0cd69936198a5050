// `benchkit system` run as a real process on this machine. Only what holds on every machine is
// asserted: valid JSON, the documented keys, every status in the allowed set.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "system/check_ids.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "support/run_command.hpp"

namespace benchkit {
namespace {

using ::testing::HasSubstr;
using testing::run_command;

const std::string kBenchkit = std::string(BENCHKIT_BINARY_DIR) + "/benchkit";

const std::set<std::string> kIds(system::kDocumentedCheckIds.begin(),
                                 system::kDocumentedCheckIds.end());

TEST(SystemCommand, JsonIsValidWithEveryCheckAndAllowedStatuses) {
  const auto result = run_command(kBenchkit + " system --json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto document = nlohmann::json::parse(result.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(document.is_discarded()) << result.out;
  EXPECT_EQ(document.at("schema"), "benchkit/system");
  EXPECT_EQ(document.at("version"), 1);
  ASSERT_TRUE(document.at("checks").is_array());
  std::set<std::string> ids;
  for (const auto& check : document.at("checks")) {
    for (const char* key : {"id", "title", "status", "value", "advice"}) {
      ASSERT_TRUE(check.contains(key) && check.at(key).is_string()) << key << " in " << check;
    }
    const std::string id = check.at("id");
    EXPECT_TRUE(ids.insert(id).second) << "duplicate " << id;
    const std::string status = check.at("status");
    EXPECT_TRUE(status == "ok" || status == "warning" || status == "unknown") << id << status;
    EXPECT_FALSE(check.at("value").get<std::string>().empty()) << id;
    if (status == "warning") {
      EXPECT_FALSE(check.at("advice").get<std::string>().empty()) << id;
    }
  }
  EXPECT_EQ(ids, kIds);
  ASSERT_TRUE(document.at("facts").is_object());
  for (const auto& [key, value] : document.at("facts").items()) {
    EXPECT_TRUE(value.is_string()) << key;
  }
  const auto& machine = document.at("fingerprint").at("machine");
  const std::string id = machine.at("id");
  EXPECT_EQ(id.size(), 16u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos);
  ASSERT_TRUE(machine.at("fields").is_object());
  // Every Linux machine has a kernel and at least one CPU.
  EXPECT_FALSE(machine.at("fields").at("kernel").get<std::string>().empty());
  EXPECT_GE(std::stoi(machine.at("fields").at("logical_cpus").get<std::string>()), 1);
}

TEST(SystemCommand, TableListsTheChecks) {
  const auto result = run_command(kBenchkit + " system");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("status   check"));
  EXPECT_THAT(result.out, HasSubstr("Frequency governor"));
  EXPECT_THAT(result.out, HasSubstr("machine fingerprint "));
}

TEST(SystemCommand, UnknownOptionIsAUsageError) {
  const auto result = run_command(kBenchkit + " system --no-such-option");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("no-such-option"));
}

}  // namespace
}  // namespace benchkit
