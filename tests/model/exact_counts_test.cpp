#include "model/exact_counts.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace benchkit::model {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// A scenario phase "name" counting `rows` of `input`.
BenchmarkResult phase(const std::string& name, std::uint64_t rows, std::string input) {
  BenchmarkResult result;
  result.name = name;
  result.kind = "scenario";
  result.exact_counts.push_back({"rows", rows, std::move(input)});
  return result;
}

TEST(ExactCounts, ProcessesThatAgreeSayNothing) {
  const std::vector<ExactCount> counts = {{"rows", 10, "a.csv"}, {"batches", 2, ""}};
  EXPECT_FALSE(count_disagreement("process", counts, 0, counts, 1).has_value());
  EXPECT_FALSE(count_disagreement("process", {}, 0, {}, 1).has_value());
}

TEST(ExactCounts, AProcessThatCountsOtherwiseIsNamedWithBothValues) {
  EXPECT_EQ(count_disagreement("process", {{"rows", 10, "a.csv"}}, 0, {{"rows", 9, "a.csv"}}, 2),
            "exact count rows is not the same in every process: 10 for a.csv in process 1, 9 "
            "for a.csv in process 3");
  EXPECT_EQ(count_disagreement("process", {{"rows", 10, ""}}, 1, {}, 2),
            "exact count rows is not the same in every process: 10 in process 2, not set in "
            "process 3");
  EXPECT_EQ(count_disagreement("process", {{"rows", 10, "a.csv"}}, 0, {{"rows", 10, "b.csv"}}, 1),
            "exact count rows is not the same in every process: 10 for a.csv in process 1, 10 "
            "for b.csv in process 2");
}

// Several batch sizes reading one corpus: the scenario whose count is alone against the others
// fails; the others stay valid. Its three phases vote once (they carry the same counts).
TEST(ExactCounts, TheScenarioThatCountsOtherwiseThanTheOthersOfOneInputFails) {
  std::vector<BenchmarkResult> results = {
      phase("convert/batch=1000/parse", 4000, "corpus.csv"),
      phase("convert/batch=1000/encode", 4000, "corpus.csv"),
      phase("convert/batch=1000/write", 4000, "corpus.csv"),
      phase("convert/batch=5000/parse", 3999, "corpus.csv"),
      phase("convert/batch=9000/parse", 3999, "corpus.csv"),
      phase("convert/batch=8000/parse", 4000, "corpus.csv"),
      phase("convert/batch=7000/parse", 4000, "corpus.csv"),
      phase("other/parse", 12, "other.csv"),
  };
  check_exact_counts(results);
  for (std::size_t i : {0, 1, 2, 5, 6, 7}) EXPECT_THAT(results[i].failures, IsEmpty()) << i;
  for (std::size_t i : {3, 4}) {
    EXPECT_THAT(results[i].failures,
                ElementsAre("exact count rows for corpus.csv is not the same in every run: 3999 "
                            "here, 4000 in convert/batch=1000, convert/batch=7000, "
                            "convert/batch=8000"))
        << i;
  }
}

// Two scenarios, two values: neither can be taken for the right one, so both fail. Checking
// again adds nothing; counts without an input are left to the per-benchmark checks.
TEST(ExactCounts, ATieFailsEveryScenarioOnceAndCountsWithoutInputAreLeftAlone) {
  std::vector<BenchmarkResult> results = {
      phase("a/parse", 1, "x"),
      phase("b/parse", 2, "x"),
      phase("c/parse", 3, ""),
      phase("d/parse", 4, ""),
  };
  check_exact_counts(results);
  check_exact_counts(results);
  EXPECT_THAT(results[0].failures,
              ElementsAre("exact count rows for x is not the same in every run: 1 here, 2 in b"));
  EXPECT_THAT(results[1].failures,
              ElementsAre("exact count rows for x is not the same in every run: 2 here, 1 in a"));
  EXPECT_THAT(results[2].failures, IsEmpty());
  EXPECT_THAT(results[3].failures, IsEmpty());
}

TEST(ExactCounts, ManyOtherScenariosAreCountedNotAllNamed) {
  std::vector<BenchmarkResult> results = {phase("odd/parse", 1, "x")};
  for (const char* name : {"a/p", "b/p", "c/p", "d/p", "e/p"})
    results.push_back(phase(name, 2, "x"));
  check_exact_counts(results);
  EXPECT_THAT(results[0].failures,
              ElementsAre("exact count rows for x is not the same in every run: 1 here, 2 in a, "
                          "b, c and 2 more"));
}

}  // namespace
}  // namespace benchkit::model
