// The golden inputs written by Google Benchmark and hyperfine themselves
// (tests/fixtures/interop/regenerate.sh), read whole.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace benchkit::testing {

inline std::string interop_fixture(const std::string& name) {
  std::ifstream in(std::string(BENCHKIT_TEST_FIXTURES) + "/interop/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << "missing fixture tests/fixtures/interop/" << name;
  return text.str();
}

}  // namespace benchkit::testing
