#include <fmt/format.h>

#include <charconv>
#include <cstring>

#include "process/wire.hpp"
#include "process/worker_protocol.hpp"

namespace benchkit::process::worker {

bool send(int fd, FrameKind kind, std::string_view payload) {
  std::string bytes;
  bytes.reserve(payload.size() + 1);
  bytes.push_back(static_cast<char>(kind));
  bytes.append(payload);
  return wire::write_frame(fd, bytes);
}

std::optional<Frame> FrameReader::next() {
  // A result of a few thousand samples is a few hundred KiB; 256 MiB is a broken stream.
  constexpr std::uint32_t kLargest = 256u << 20;
  if (broken_) return std::nullopt;
  if (buffer_.size() - offset_ < sizeof(std::uint32_t)) return std::nullopt;
  std::uint32_t size = 0;
  std::memcpy(&size, buffer_.data() + offset_, sizeof size);
  if (size == 0 || size > kLargest) {
    broken_ = true;
    return std::nullopt;
  }
  if (buffer_.size() - offset_ - sizeof size < size) return std::nullopt;
  const char* start = buffer_.data() + offset_ + sizeof size;
  const char kind = start[0];
  if (kind != 'S' && kind != 'R' && kind != 'F') {
    broken_ = true;
    return std::nullopt;
  }
  const std::size_t end = offset_ + sizeof size + size;
  if (end == buffer_.size()) {
    // The last frame that has arrived (a result is one large frame): its bytes are moved out,
    // not copied, so a result is held once, not twice, while it is parsed.
    Frame frame{static_cast<FrameKind>(kind), std::move(buffer_)};
    frame.payload.erase(0, offset_ + sizeof size + 1);
    buffer_ = std::string();
    offset_ = 0;
    return frame;
  }
  Frame frame{static_cast<FrameKind>(kind), std::string(start + 1, size - 1)};
  offset_ = end;
  // Drop what was read once it is most of the buffer, so the buffer does not grow for ever.
  if (offset_ > 4096 && offset_ * 2 > buffer_.size()) {
    buffer_.erase(0, offset_);
    offset_ = 0;
  }
  return frame;
}

std::string format_selection(const std::vector<std::size_t>& indices) {
  return fmt::format("{}", fmt::join(indices, ","));
}

std::optional<std::vector<std::size_t>> parse_selection(std::string_view text) {
  std::vector<std::size_t> indices;
  if (text.empty()) return indices;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::size_t value = 0;
    const char* first = text.data() + start;
    const char* last = text.data() + comma;
    const auto [end, error] = std::from_chars(first, last, value);
    if (error != std::errc() || end != last || first == last) return std::nullopt;
    indices.push_back(value);
    start = comma + 1;
  }
  return indices;
}

}  // namespace benchkit::process::worker
