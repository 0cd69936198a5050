// Golden files: expected output kept in tests/golden/. Regenerate all of them with
//   BENCHKIT_UPDATE_GOLDEN=1 make test     (or `make golden`)
// and review the diff before committing.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace benchkit::testing {

inline void expect_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(BENCHKIT_TEST_GOLDEN) + "/" + name;
  const char* update = std::getenv("BENCHKIT_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "golden file " << path
                  << " is missing: run with BENCHKIT_UPDATE_GOLDEN=1 to create it";
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "output differs from " << path
                                    << "; if the change is intended, regenerate with "
                                       "BENCHKIT_UPDATE_GOLDEN=1 and review the diff";
}

}  // namespace benchkit::testing
