// benchkit::data: deterministic payloads. The generator is splitmix64 (Steele, Lea & Flood
// 2014), written out here so that the bytes do not depend on the standard library's
// distributions, which differ between implementations.
#include <array>
#include <stdexcept>
#include <string>

#include "benchkit/data.hpp"

namespace benchkit::data {
namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) for bound < 2^32: multiply-shift of the high 32 bits (Lemire 2019),
  // bias below bound / 2^32, negligible for the small bounds used here.
  std::uint64_t below(std::uint64_t bound) { return ((next() >> 32) * bound) >> 32; }

 private:
  std::uint64_t state_;
};

// A small vocabulary with a skewed (Zipf-like) choice, so text compresses like prose (about
// 3:1 with zstd), not like a repeated word.
constexpr std::array<const char*, 48> kWords = {
    "the",     "of",      "and",     "to",       "in",       "is",      "that",   "for",
    "it",      "as",      "was",     "with",     "be",       "by",      "on",     "not",
    "this",    "are",     "from",    "at",       "which",    "but",     "or",     "have",
    "measure", "time",    "sample",  "machine",  "result",   "change",  "median", "process",
    "buffer",  "segment", "payload", "interval", "baseline", "compare", "noise",  "memory",
    "thread",  "file",    "record",  "column",   "row",      "batch",   "worker", "signal"};

std::string make_text(std::size_t bytes, SplitMix64& rng) {
  std::string out;
  out.reserve(bytes + 16);
  std::size_t words_in_sentence = 0;
  bool capitalise = true;
  while (out.size() < bytes) {
    // Squaring a uniform index skews choices toward the frequent words at the front.
    const std::uint64_t u = rng.below(kWords.size());
    const std::uint64_t index = (u * u) / kWords.size();
    std::string word = kWords[index];
    if (capitalise) {
      word[0] = static_cast<char>(word[0] - 'a' + 'A');
      capitalise = false;
    }
    out += word;
    ++words_in_sentence;
    if (words_in_sentence > 6 + rng.below(10)) {
      out += rng.below(5) == 0 ? "? " : ". ";
      words_in_sentence = 0;
      capitalise = true;
    } else {
      out += rng.below(12) == 0 ? ", " : " ";
    }
  }
  out.resize(bytes);
  return out;
}

std::string make_json(std::size_t bytes, SplitMix64& rng) {
  std::string out = "[";
  out.reserve(bytes + 128);
  std::uint64_t id = 0;
  while (out.size() < bytes) {
    if (id > 0) out += ",";
    out += "{\"id\":" + std::to_string(id++);
    out += ",\"name\":\"" + std::string(kWords[rng.below(kWords.size())]) + "_" +
           std::to_string(rng.below(100000)) + "\"";
    out +=
        ",\"value\":" + std::to_string(rng.below(1000000)) + "." + std::to_string(rng.below(1000));
    out += ",\"active\":";
    out += rng.below(2) ? "true" : "false";
    out += ",\"tags\":[\"" + std::string(kWords[rng.below(kWords.size())]) + "\",\"" +
           std::string(kWords[rng.below(kWords.size())]) + "\"]}";
  }
  out += "]";
  // Keep the requested size exactly; a truncated tail is still valid input for a byte codec.
  out.resize(bytes);
  return out;
}

}  // namespace

std::string_view to_string(Kind kind) {
  switch (kind) {
    case Kind::uniform:
      return "uniform";
    case Kind::text:
      return "text";
    case Kind::json:
      return "json";
    case Kind::random:
      return "random";
  }
  return "unknown";
}

Kind kind_from_string(std::string_view name) {
  for (Kind kind : {Kind::uniform, Kind::text, Kind::json, Kind::random}) {
    if (to_string(kind) == name) return kind;
  }
  throw std::invalid_argument("unknown payload kind \"" + std::string(name) +
                              "\" (expected uniform, text, json or random)");
}

std::string payload(Kind kind, std::size_t bytes, std::uint64_t seed) {
  SplitMix64 rng(seed);
  switch (kind) {
    case Kind::uniform:
      return std::string(bytes, 'a');
    case Kind::text:
      return make_text(bytes, rng);
    case Kind::json:
      return make_json(bytes, rng);
    case Kind::random: {
      std::string out(bytes, '\0');
      std::size_t i = 0;
      while (i < bytes) {
        std::uint64_t word = rng.next();
        for (int b = 0; b < 8 && i < bytes; ++b, ++i) {
          out[i] = static_cast<char>(word & 0xFF);
          word >>= 8;
        }
      }
      return out;
    }
  }
  throw std::invalid_argument("payload: unknown kind");
}

std::vector<int> random_ints(std::size_t count, std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<int> values(count);
  for (int& value : values) value = static_cast<int>(static_cast<std::uint32_t>(rng.next() >> 32));
  return values;
}

}  // namespace benchkit::data
