// libFuzzer entry for the worker wire protocol (process/wire.hpp: the requests and records between
// benchkit and its spawner helper; process/worker_protocol.hpp: the result stream of a worker).
// The first byte picks the reader; the rest is what arrived on the pipe. Any bytes give a value
// or a refusal, never a crash, a hang or undefined behaviour; what decodes encodes and decodes
// to the same value; a stream cut into arbitrary pieces yields the same frames as read whole.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/result_json.hpp"
#include "process/wire.hpp"
#include "process/worker_protocol.hpp"

namespace {

namespace wire = benchkit::process::wire;
namespace worker = benchkit::process::worker;

void request(std::string_view bytes) {
  const auto decoded = wire::decode_request(bytes);
  if (!decoded) return;
  const std::string encoded = wire::encode(*decoded);
  const auto again = wire::decode_request(encoded);
  if (!again || wire::encode(*again) != encoded) std::abort();
}

void record(std::string_view bytes) {
  const auto decoded = wire::decode_record(bytes);
  if (!decoded) return;
  (void)decoded->describe(1.5);
  const std::string encoded = wire::encode(*decoded);
  const auto again = wire::decode_record(encoded);
  if (!again || wire::encode(*again) != encoded) std::abort();
}

std::vector<worker::Frame> frames_of(worker::FrameReader& reader) {
  std::vector<worker::Frame> frames;
  while (auto frame = reader.next()) frames.push_back(std::move(*frame));
  return frames;
}

// The result stream, fed once whole and once in pieces whose sizes come from the bytes; each
// finished benchmark is read as the driver reads it.
void stream(std::string_view bytes) {
  worker::FrameReader whole;
  whole.feed(bytes);
  const std::vector<worker::Frame> expected = frames_of(whole);

  worker::FrameReader pieces;
  std::vector<worker::Frame> got;
  for (std::size_t at = 0, step = 1; at < bytes.size(); at += step) {
    step = 1 + static_cast<unsigned char>(bytes[at]) % 61;
    pieces.feed(bytes.substr(at, step));
    for (auto& frame : frames_of(pieces)) got.push_back(std::move(frame));
  }
  if (got.size() != expected.size() || pieces.broken() != whole.broken()) std::abort();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i].kind != expected[i].kind || got[i].payload != expected[i].payload) std::abort();
    if (got[i].kind == worker::FrameKind::finished) {
      const auto result = benchkit::formats::benchmark_from_json(got[i].payload, "worker");
      if (!result && result.error().message.rfind("worker", 0) != 0) std::abort();
    }
  }
}

void selection(std::string_view bytes) {
  const auto indices = worker::parse_selection(bytes);
  if (!indices) return;
  const auto again = worker::parse_selection(worker::format_selection(*indices));
  if (!again || *again != *indices) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      request(bytes);
      break;
    case 1:
      record(bytes);
      break;
    case 2:
      stream(bytes);
      break;
    default:
      selection(bytes);
      break;
  }
  return 0;
}
