// Digests of the small files the data tests write, computed once with sha256sum.
#pragma once

#include <string>

namespace benchkit::testing {

// SHA-256 of "hello world\n", the hello.txt of the data tests.
inline const std::string kHelloWorldSha256 =
    "a948904f2f0f479b8f8197694b30184b0d2ed1c1cd2a1ec0fb85d299a192a447";

}  // namespace benchkit::testing
