#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "benchkit/registry.hpp"
#include "benchkit/scenario.hpp"
#include "measure/engine.hpp"
#include "measure/instances.hpp"

namespace benchkit::measure {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

void no_params(Bencher&) {}
void scenario_with_params(Scenario&, std::int64_t, std::string) {}
void two_params(Bencher&, int, std::string) {}
template <class T>
void typed(Bencher&, std::size_t) {}

std::vector<std::string> names(const std::vector<Instance>& instances) {
  std::vector<std::string> result;
  for (const auto& instance : instances) result.push_back(instance.name);
  return result;
}

Registration make(const std::string& name) {
  return Registration(name, "file.cpp", 1, detail::this_build_facts());
}

TEST(Registry, APlainFunctionIsOneBenchmark) {
  Registration r = make("no_params");
  r.add_function(&no_params);
  EXPECT_THAT(names(expand({&r})), ElementsAre("no_params"));
}

TEST(Registry, ParametersCombineAsACartesianProductLastFastest) {
  Registration r = make("two_params");
  r.add_function(&two_params).param("n", {1, 2}).param("kind", {"a", "b", "c"});
  EXPECT_THAT(names(expand({&r})), ElementsAre("two_params/n=1/kind=a", "two_params/n=1/kind=b",
                                               "two_params/n=1/kind=c", "two_params/n=2/kind=a",
                                               "two_params/n=2/kind=b", "two_params/n=2/kind=c"));
  const auto instances = expand({&r});
  EXPECT_EQ(instances[4].params.at("n"), "2");
  EXPECT_EQ(instances[4].params.at("kind"), "b");
}

TEST(Registry, TypesBecomeNameSuffixes) {
  Registration r = make("typed");
  r.add_function(&typed<int>, "<int>").add_function(&typed<double>, "<double>");
  r.param("size", {8});
  EXPECT_THAT(names(expand({&r})), ElementsAre("typed<int>/size=8", "typed<double>/size=8"));
}

TEST(Registry, ParameterValuesReachTheFunction) {
  static int seen_number = 0;
  static std::string seen_text;
  struct Local {
    static void capture(Bencher&, int number, std::string text) {
      seen_number = number;
      seen_text = text;
    }
  };
  Registration r = make("capture");
  r.add_function(&Local::capture).param("number", {42}).param("text", {"hello"});
  const auto instances = expand({&r});
  ASSERT_EQ(instances.size(), 1u);
  detail::BencherState state;
  Bencher bencher(state);
  instances[0].variant->invoker(instances[0].variant->function, bencher, instances[0].values);
  EXPECT_EQ(seen_number, 42);
  EXPECT_EQ(seen_text, "hello");
}

TEST(Registry, AMismatchedParameterCountNamesTheFunctionAndTheFix) {
  Registration r = make("two_params");
  r.add_function(&two_params).param("n", {1});
  try {
    expand({&r});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("two_params"));
    EXPECT_THAT(error.what(), HasSubstr("takes 2 parameter(s)"));
    EXPECT_THAT(error.what(), HasSubstr(".param"));
  }
}

TEST(Registry, DuplicateNamesAreRefused) {
  Registration a = make("same");
  a.add_function(&no_params);
  Registration b = make("same");
  b.add_function(&no_params);
  EXPECT_THROW(expand({&a, &b}), std::invalid_argument);
}

// A registration runs before main(), where a throw would end the program with no usable
// message (--help included): its first mistake is kept, and refused when the benchmarks are
// expanded, naming it and where it was registered.
TEST(Registry, BadParameterNamesAndEmptyValueListsAreRefusedWhenExpanded) {
  const auto refusal = [](Registration& r) {
    r.add_function(&no_params);
    try {
      expand({&r});
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("expanded");
  };
  Registration slash = make("bad");
  EXPECT_NO_THROW(slash.param("a/b", {1}));
  EXPECT_THAT(refusal(slash), HasSubstr("parameter name \"a/b\" must be non-empty"));
  Registration empty = make("bad");
  empty.param("", {1});
  EXPECT_THAT(refusal(empty), HasSubstr("parameter name \"\" must be non-empty"));
  Registration none = make("bad");
  none.param("n", std::vector<ParamValue>{});
  EXPECT_THAT(refusal(none), HasSubstr("parameter n has no values"));
  Registration threads = make("bad");
  threads.threads({2, 2}).skip_when("", "no tag");
  EXPECT_THAT(refusal(threads), HasSubstr(".threads gives 2 threads twice"));  // the first one
  Registration tag = make("bad");
  tag.skip_when("a b", "reason");
  EXPECT_THAT(refusal(tag), HasSubstr("skip_when tag \"a b\" must be a word"));
}

TEST(ParamValue, ConvertsToTheFunctionsTypesAndRefusesMismatches) {
  EXPECT_EQ(ParamValue(64).as<std::size_t>(), 64u);
  EXPECT_DOUBLE_EQ(ParamValue(0.5).as<double>(), 0.5);
  EXPECT_EQ(ParamValue("text").as<std::string>(), "text");
  EXPECT_EQ(ParamValue(0.5).to_string(), "0.5");
  EXPECT_EQ(ParamValue(1 << 20).to_string(), "1048576");
  EXPECT_THROW(ParamValue("text").as<int>(), std::invalid_argument);
  EXPECT_THROW(ParamValue(3).as<std::string>(), std::invalid_argument);
}

TEST(TypeName, SpellsTheType) {
  EXPECT_EQ(detail::type_name<int>(), "int");
  EXPECT_EQ(detail::type_name<std::vector<int>>(), "std::vector<int>");
}

TEST(Registry, ScenariosExpandLikeMicroBenchmarks) {
  Registration scenario = make("scaling");
  scenario.add_scenario(&scenario_with_params)
      .param("items", {1'000, 2'000})
      .param("payload", {"text", "json"});
  Registration micro = make("no_params");
  micro.add_function(&no_params);
  const auto instances = expand({&scenario, &micro});
  EXPECT_THAT(names(instances),
              ElementsAre("scaling/items=1000/payload=text", "scaling/items=1000/payload=json",
                          "scaling/items=2000/payload=text", "scaling/items=2000/payload=json",
                          "no_params"));
  EXPECT_TRUE(instances[0].is_scenario());
  EXPECT_FALSE(instances[4].is_scenario());
  EXPECT_TRUE(scenario.is_scenario());
  EXPECT_FALSE(micro.is_scenario());
}

TEST(Registry, AScenarioWithAMismatchedParameterCountNamesScenario) {
  Registration r = make("scaling");
  r.add_scenario(&scenario_with_params).param("items", {1});
  EXPECT_THAT([&] { expand({&r}); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("after Scenario&")));
}

TEST(Registry, AScenarioRefusesMicroBenchmarkSettings) {
  Registration r = make("scaling");
  r.add_scenario(&scenario_with_params).param("items", {1}).param("payload", {"x"});
  r.sample_size(5);
  EXPECT_THAT([&] { expand({&r}); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("--repetitions")));
}

TEST(Registry, OverridesReplaceAParametersValuesWherePresent) {
  Registration scenario = make("scaling");
  scenario.add_scenario(&scenario_with_params)
      .param("items", {1'000'000})
      .param("payload", {"text", "json"});
  Registration micro = make("two_params");
  micro.add_function(&two_params).param("n", {1}).param("kind", {"a"});
  const auto instances =
      expand({&scenario, &micro}, {{"items", {10'000'000, 100'000'000}}, {"kind", {"b"}}});
  EXPECT_THAT(
      names(instances),
      ElementsAre("scaling/items=10000000/payload=text", "scaling/items=10000000/payload=json",
                  "scaling/items=100000000/payload=text", "scaling/items=100000000/payload=json",
                  "two_params/n=1/kind=b"));
  EXPECT_EQ(instances[2].values[0].as<std::int64_t>(), 100'000'000);
}

TEST(Registry, AnOverrideOfAnUnknownOrEmptyParameterIsRefused) {
  Registration r = make("two_params");
  r.add_function(&two_params).param("n", {1}).param("kind", {"a"});
  EXPECT_THAT(
      [&] {
        expand({&r}, {{"size", {1}}});
      },
      ::testing::ThrowsMessage<std::invalid_argument>(
          HasSubstr("--param size: no benchmark has a parameter named size (the parameters are: "
                    "kind, n)")));
  EXPECT_THAT(
      [&] {
        expand({&r}, {{"n", {}}});
      },
      ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("at least one value")));
}

TEST(Registry, SkipRulesAreKeptInOrderAndNeedATagAndAReason) {
  Registration r = make("no_params");
  r.add_function(&no_params).skip_when("ci", "noisy on shared runners").skip_when("arm-64", "x");
  ASSERT_EQ(r.skip_rules().size(), 2u);
  EXPECT_EQ(r.skip_rules()[0].tag, "ci");
  EXPECT_EQ(r.skip_rules()[0].reason, "noisy on shared runners");
  EXPECT_EQ(r.skip_rules()[1].tag, "arm-64");
  // A bad rule is the registration's problem, refused when expanded (not thrown before main).
  const auto refused = [](const std::string& tag, const std::string& reason) {
    Registration bad = make("no_params");
    bad.add_function(&no_params).skip_when(tag, reason);
    EXPECT_EQ(bad.skip_rules().size(), 0u);
    return bad.problem();
  };
  EXPECT_THAT(refused("", "why"), HasSubstr("must be a word"));
  EXPECT_THAT(refused("two words", "why"), HasSubstr("must be a word"));
  EXPECT_THAT(refused("ci", ""), HasSubstr("needs a reason"));
}
}  // namespace
}  // namespace benchkit::measure

namespace benchkit::measure {
namespace {

void sized(Bencher&, std::size_t) {}
void sized_and_named(Bencher&, std::string, std::size_t) {}

TEST(Complexity, EachSizeIsAPointOfItsSweep) {
  Registration r = make("sized");
  r.add_function(&sized).param("size", {64, 4096}).complexity();
  const std::vector<Instance> instances = expand({&r});
  ASSERT_EQ(instances.size(), 2u);
  const auto point = complexity_point(instances[1]);
  ASSERT_TRUE(point);
  EXPECT_EQ(point->family, "sized");
  EXPECT_EQ(point->param, "size");
  EXPECT_DOUBLE_EQ(point->n, 4096.0);
  EXPECT_EQ(point->fit, "auto");
  EXPECT_FALSE(point->custom);
  Registration plain = make("plain");
  plain.add_function(&sized).param("size", {64});
  EXPECT_FALSE(complexity_point(expand({&plain})[0]));
}

TEST(Complexity, AFixedClassAndAUserFunction) {
  Registration fixed = make("sized");
  fixed.add_function(&sized).param("size", {8, 16}).complexity(Complexity::n_log_n);
  EXPECT_EQ(complexity_point(expand({&fixed})[0])->fit, "NlgN");
  Registration custom = make("sized");
  custom.add_function(&sized).param("size", {8, 16}).complexity([](double n) { return n * n + 1; });
  const auto point = complexity_point(expand({&custom})[1]);
  EXPECT_EQ(point->fit, "f(N)");
  EXPECT_DOUBLE_EQ(point->custom.value(), 257.0);
}

TEST(Complexity, TheOtherParametersNameTheSweep) {
  Registration r = make("hash");
  r.add_function(&sized_and_named)
      .param("kind", {"text", "json"})
      .param("size", {64, 4096})
      .complexity(Complexity::automatic, "size");
  const std::vector<Instance> instances = expand({&r});
  EXPECT_EQ(complexity_point(instances[0])->family, "hash/kind=text");
  EXPECT_EQ(complexity_point(instances[3])->family, "hash/kind=json");
}

TEST(Complexity, ASweepItCannotFitIsRefusedWithTheFix) {
  Registration unnamed = make("hash");
  unnamed.add_function(&sized_and_named).param("kind", {"text"}).param("size", {64}).complexity();
  EXPECT_THAT([&] { expand({&unnamed}); }, ::testing::ThrowsMessage<std::invalid_argument>(
                                               HasSubstr("needs the size parameter named")));
  Registration wrong = make("sized");
  wrong.add_function(&sized).param("size", {64}).complexity(Complexity::n, "n");
  EXPECT_THAT([&] { expand({&wrong}); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("does not have")));
  Registration text = make("hash");
  text.add_function(&sized_and_named)
      .param("kind", {"text"})
      .param("size", {64})
      .complexity(Complexity::n, "kind");
  EXPECT_THAT([&] { expand({&text}); },
              ::testing::ThrowsMessage<std::invalid_argument>(HasSubstr("positive numbers")));
}

void spread(Bencher&, int) {}

TEST(Registry, EachThreadCountIsABenchmarkNamedLast) {
  Registration r = make("spread");
  r.add_function(&spread).param("n", {8, 64}).threads({1, 2, 4});
  const auto instances = expand({&r});
  EXPECT_THAT(names(instances), ElementsAre("spread/n=8/threads=1", "spread/n=8/threads=2",
                                            "spread/n=8/threads=4", "spread/n=64/threads=1",
                                            "spread/n=64/threads=2", "spread/n=64/threads=4"));
  EXPECT_EQ(instances[2].threads, 4u);
  EXPECT_EQ(instances[2].params.at("threads"), "4");
  EXPECT_EQ(instances[2].params.at("n"), "8");
  // The function still takes its own parameters only.
  EXPECT_EQ(instances[2].values.size(), 1u);
}

TEST(Registry, WithoutThreadsTheNameAndCountAreUnchanged) {
  Registration r = make("spread");
  r.add_function(&spread).param("n", {8});
  const auto instances = expand({&r});
  EXPECT_THAT(names(instances), ElementsAre("spread/n=8"));
  EXPECT_EQ(instances[0].threads, 1u);
  EXPECT_EQ(instances[0].params.count("threads"), 0u);
}

TEST(Registry, ThreadCountsAreCheckedWhereTheyAreGiven) {
  const auto problem = [](std::vector<std::size_t> counts) {
    Registration r = make("spread");
    r.add_function(&spread).threads(std::move(counts));
    EXPECT_THAT([&] { expand({&r}); }, ::testing::Throws<std::invalid_argument>());
    return r.problem();
  };
  EXPECT_THAT(problem({}), HasSubstr("no thread count"));
  EXPECT_THAT(problem({1, 0}), HasSubstr("gives 0 threads"));
  EXPECT_THAT(problem({2, 4, 2}), HasSubstr("gives 2 threads twice"));
}

TEST(Registry, AScenarioOrAParameterNamedThreadsCannotHaveThreads) {
  Registration scenario = make("scenario_with_params");
  scenario.add_scenario(&scenario_with_params).param("a", {1}).param("b", {"x"}).threads({2});
  EXPECT_THAT([&] { expand({&scenario}); }, ::testing::ThrowsMessage<std::invalid_argument>(
                                                HasSubstr("applies to micro benchmarks only")));
  Registration clash = make("spread");
  clash.add_function(&spread).param("threads", {1}).threads({2});
  EXPECT_THAT([&] { expand({&clash}); }, ::testing::ThrowsMessage<std::invalid_argument>(
                                             HasSubstr("has a parameter named threads")));
}

TEST(Registry, AComplexitySweepIsOnePerThreadCount) {
  Registration r = make("spread");
  r.add_function(&spread).param("n", {8, 64}).threads({1, 2}).complexity();
  const auto instances = expand({&r});
  ASSERT_EQ(instances.size(), 4u);
  EXPECT_EQ(complexity_point(instances[0])->family, "spread/threads=1");
  EXPECT_EQ(complexity_point(instances[3])->family, "spread/threads=2");
}

}  // namespace
}  // namespace benchkit::measure
