#include "report/flame_graph.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(FlameGraph, FramesAreAsWideAsTheStacksThroughThem) {
  const std::vector<model::FoldedStack> stacks = {
      {{"main", "work"}, 30.0}, {{"main", "helper"}, 10.0}, {{"main"}, 5.0}, {{"other"}, 5.0}};
  double total = 0.0;
  const auto frames = layout_flame_graph(stacks, total);
  EXPECT_EQ(total, 50.0);
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[0].name, "main");
  EXPECT_EQ(frames[0].value, 45.0);
  EXPECT_EQ(frames[0].depth, 0u);
  // Children in name order from their parent's left edge.
  EXPECT_EQ(frames[1].name, "helper");
  EXPECT_EQ(frames[1].start, 0.0);
  EXPECT_EQ(frames[2].name, "work");
  EXPECT_EQ(frames[2].start, 10.0);
  EXPECT_EQ(frames[2].depth, 1u);
  EXPECT_EQ(frames[3].name, "other");
  EXPECT_EQ(frames[3].start, 45.0);
}

TEST(FlameGraph, TheSvgEscapesEveryName) {
  const std::vector<model::FoldedStack> stacks = {
      {{"main", "</text><script>alert(1)</script>"}, 10.0}};
  const std::string svg = flame_graph_svg(stacks, "t <&>", "instructions");
  EXPECT_THAT(svg, HasSubstr("<svg"));
  EXPECT_THAT(svg, Not(HasSubstr("<script>")));
  EXPECT_THAT(svg, HasSubstr("&lt;script&gt;"));
  EXPECT_THAT(svg, HasSubstr("t &lt;&amp;&gt;"));
}

TEST(FlameGraph, AProfilesGraphIsTitledWithItsBenchmarkToolAndUnit) {
  model::Profile profile;
  profile.benchmark = "codec/level=3";
  profile.tool = model::ProfileTool::perf;
  profile.unit = "samples";
  profile.stacks = {{{"main", "encode"}, 12.0}};
  const std::string svg = profile_flame_graph(profile);
  EXPECT_THAT(svg, HasSubstr("codec/level=3 · perf · samples"));
  EXPECT_THAT(svg, HasSubstr("encode"));
}

}  // namespace
}  // namespace benchkit::report
