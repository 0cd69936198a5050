#include "session/profile_options.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::session {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ProfileOptions, TheRequestCarriesTheDurationAndParams) {
  ProfileOptions o;
  o.binary = "./bench";
  o.benchmark = "sort/n=10";
  o.tool = model::ProfileTool::massif;
  o.profile_time = "2s";
  o.params = {"n=10", "kind=text"};
  const auto request = profile_request(o);
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->duration_ns, 2'000'000'000);
  EXPECT_EQ(request->tool, model::ProfileTool::massif);
  EXPECT_THAT(request->bench_flags, ElementsAre("--param", "n=10", "--param", "kind=text"));
}

TEST(ProfileOptions, ADurationThatIsNotPositiveIsRefused) {
  ProfileOptions o;
  o.profile_time = "0s";
  const auto request = profile_request(o);
  ASSERT_FALSE(request);
  EXPECT_EQ(request.error().kind, model::ErrorKind::usage);
  EXPECT_THAT(request.error().message, HasSubstr("--profile-time \"0s\""));
}

}  // namespace
}  // namespace benchkit::session
