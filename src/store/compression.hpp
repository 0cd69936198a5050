// zstd compression of stored result documents (samples make them large and very repetitive).
#pragma once

#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::store {

// zstd at level 3 (zstd's default: a 100,000-sample result, 9 MB of JSON, compresses to about
// 12% in under 50 ms; higher levels save little on this text for several times the time).
std::string compress(std::string_view text);

// The error names `what` (a run's identity) and says the stored data is damaged.
model::Result<std::string> decompress(std::string_view data, std::string_view what);

}  // namespace benchkit::store
