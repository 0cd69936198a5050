// zstd compression of stored result documents (samples make them large and very repetitive) and
// of the packed series (store/packed_series.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/error.hpp"

namespace benchkit::store {

// How zstd stores the bytes its matches leave (the literals): Huffman-coded (`coded`, zstd's
// choice), or as they are (`raw`: for data that is mostly numbers, whose bytes Huffman coding
// shrinks by a few percent for four times the time to read them back; still a standard zstd
// frame, read by any zstd).
enum class Literals { coded, raw };

// zstd at level 3 by default (zstd's default: a 100,000-sample result, 9 MB of JSON, compresses
// to about 12% in under 50 ms; higher levels save little on this text for several times the
// time). The packed series use level 1 and raw literals (packed_series.cpp says why).
std::string compress(std::string_view text, int level = 3, Literals literals = Literals::coded);

// `data`, one zstd frame, decompressed into `out` (its buffer reused); nullopt when it was, else
// why not: not a frame, a frame that claims more than `most` bytes (refused before anything is
// allocated), or a frame cut short or damaged. Each thread reuses one decompression context.
std::optional<std::string> decompress_into(std::string_view data, std::string& out,
                                           std::size_t most = SIZE_MAX);

// The error names `what` (a run's identity) and says the stored data is damaged.
model::Result<std::string> decompress(std::string_view data, std::string_view what);

}  // namespace benchkit::store
