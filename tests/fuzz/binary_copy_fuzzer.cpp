// libFuzzer entry for the reader of PostgreSQL's binary COPY (store/binary_copy.hpp: the rows of
// a history's series, as `history trend` and `check` read them). The first byte sets the size of
// the pieces the rest arrives in, as libpq hands a COPY over message by message. Any bytes give
// rows or a refusal, never a crash, a hang or undefined behaviour; the rows are the same however
// the bytes are cut.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/binary_copy.hpp"

namespace {

using benchkit::store::BinaryCopyReader;

struct Read {
  std::vector<std::string> rows;
  bool refused = false;
  bool ended = false;
};

Read read(const char* bytes, std::size_t size, std::size_t piece) {
  Read result;
  BinaryCopyReader reader;
  try {
    bool more = true;
    for (std::size_t at = 0; at < size && more; at += piece) {
      more = reader.feed(
          bytes + at, std::min(piece, size - at), [&](const BinaryCopyReader::Row& row) {
            result.rows.push_back(std::to_string(row.run) + " " + std::string(row.benchmark) + " " +
                                  std::to_string(row.median) + " " + std::string(row.verdict));
          });
    }
    result.ended = !more;  // the trailer came (what follows it in its piece is not read)
  } catch (const std::runtime_error&) {
    result.refused = true;
  }
  return result;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t piece = 1 + data[0] % 64;
  const char* bytes = reinterpret_cast<const char*>(data + 1);
  const Read pieces = read(bytes, size - 1, piece);
  const Read whole = read(bytes, size - 1, size);
  // A stream the whole reader accepted is read the same in pieces (a refusal may come at another
  // row, so only accepted streams are compared).
  if (!whole.refused && !pieces.refused &&
      (pieces.rows != whole.rows || pieces.ended != whole.ended)) {
    std::abort();
  }
  return 0;
}
