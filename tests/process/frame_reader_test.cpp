#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "process/worker_protocol.hpp"

namespace benchkit::process::worker {
namespace {

// One frame as the worker writes it: a 4-byte length, then the kind and the payload.
std::string frame_bytes(char kind, const std::string& payload) {
  const auto size = static_cast<std::uint32_t>(payload.size() + 1);
  std::string bytes(sizeof size, '\0');
  std::memcpy(bytes.data(), &size, sizeof size);
  bytes.push_back(kind);
  return bytes + payload;
}

std::vector<Frame> drain(FrameReader& reader) {
  std::vector<Frame> frames;
  while (auto frame = reader.next()) frames.push_back(std::move(*frame));
  return frames;
}

// The last frame of what has arrived is moved out of the buffer rather than copied; the
// frames before it, and what arrives after it, must come out whole all the same.
TEST(FrameReader, FramesComeOutWholeWhetherTheyEndTheBufferOrNot) {
  const std::string big(300'000, 'x');
  FrameReader reader;
  reader.feed(frame_bytes('S', "first") + frame_bytes('R', big));
  std::vector<Frame> frames = drain(reader);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].kind, FrameKind::started);
  EXPECT_EQ(frames[0].payload, "first");
  EXPECT_EQ(frames[1].kind, FrameKind::finished);
  EXPECT_EQ(frames[1].payload, big);

  const std::string next = frame_bytes('F', "fact") + frame_bytes('S', "second");
  reader.feed(next.substr(0, 7));  // a frame cut in two by the pipe
  EXPECT_TRUE(drain(reader).empty());
  reader.feed(next.substr(7));
  frames = drain(reader);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].payload, "fact");
  EXPECT_EQ(frames[1].payload, "second");
  EXPECT_FALSE(reader.broken());
}

TEST(FrameReader, AnUnknownKindBreaksTheStream) {
  FrameReader reader;
  reader.feed(frame_bytes('Z', "what"));
  EXPECT_FALSE(reader.next());
  EXPECT_TRUE(reader.broken());
  reader.feed(frame_bytes('S', "later"));
  EXPECT_FALSE(reader.next());
}

}  // namespace
}  // namespace benchkit::process::worker
