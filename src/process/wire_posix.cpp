#include <limits.h>
#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "process/wire.hpp"

namespace benchkit::process::wire {
namespace {

constexpr std::uint32_t kLargestFrame = 64u << 20;

class Writer {
 public:
  template <class T>
  requires std::is_arithmetic_v<T>
  void put(T value) { bytes_.append(reinterpret_cast<const char*>(&value), sizeof value); }
  void put(std::string_view text) {
    put(static_cast<std::uint32_t>(text.size()));
    bytes_.append(text);
  }
  void put(const std::vector<std::string>& list) {
    put(static_cast<std::uint32_t>(list.size()));
    for (const std::string& s : list) put(std::string_view(s));
  }
  template <class T>
  void put(const std::optional<T>& value) {
    put(static_cast<std::uint8_t>(value.has_value()));
    if (value) put(*value);
  }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  requires std::is_arithmetic_v<T>
  bool get(T& value) {
    if (bytes_.size() < sizeof value) return false;
    std::memcpy(&value, bytes_.data(), sizeof value);
    bytes_.remove_prefix(sizeof value);
    return true;
  }
  bool get(std::string& text) {
    std::uint32_t size = 0;
    if (!get(size) || bytes_.size() < size) return false;
    text.assign(bytes_.data(), size);
    bytes_.remove_prefix(size);
    return true;
  }
  bool get(std::vector<std::string>& list) {
    std::uint32_t count = 0;
    if (!get(count) || count > bytes_.size()) return false;
    list.resize(count);
    for (std::string& s : list) {
      if (!get(s)) return false;
    }
    return true;
  }
  template <class T>
  bool get(std::optional<T>& value) {
    std::uint8_t present = 0;
    if (!get(present)) return false;
    if (!present) {
      value.reset();
      return true;
    }
    T inner{};
    if (!get(inner)) return false;
    value = inner;
    return true;
  }
  bool done() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
};

// After EAGAIN on a non-blocking descriptor: waits until it is ready for `events`.
bool wait_until_ready(int fd, short events) {
  pollfd watched{fd, events, 0};
  while (::poll(&watched, 1, -1) < 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

bool write_bytes(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      if (!wait_until_ready(fd, POLLOUT)) return false;
      continue;
    }
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::string encode(const RunRequest& r) {
  Writer w;
  w.put(r.argv);
  w.put(r.env);
  w.put(std::string_view(r.input_path));
  w.put(static_cast<std::uint8_t>(r.output));
  w.put(std::string_view(r.output_path));
  w.put(r.timeout_seconds);
  w.put(static_cast<std::uint32_t>(r.cpus.size()));
  for (int cpu : r.cpus) w.put(static_cast<std::int32_t>(cpu));
  return w.take();
}

std::optional<RunRequest> decode_request(std::string_view bytes) {
  Reader reader(bytes);
  RunRequest r;
  std::uint8_t output = 0;
  std::uint32_t cpus = 0;
  if (!reader.get(r.argv) || !reader.get(r.env) || !reader.get(r.input_path) ||
      !reader.get(output) || output > static_cast<std::uint8_t>(Output::file) ||
      !reader.get(r.output_path) || !reader.get(r.timeout_seconds) || !reader.get(cpus)) {
    return std::nullopt;
  }
  r.output = static_cast<Output>(output);
  for (std::uint32_t i = 0; i < cpus; ++i) {
    std::int32_t cpu = 0;
    if (!reader.get(cpu)) return std::nullopt;
    r.cpus.push_back(cpu);
  }
  if (!reader.done()) return std::nullopt;
  return r;
}

std::string encode(const RunRecord& r) {
  Writer w;
  w.put(static_cast<std::uint8_t>(r.started));
  w.put(std::string_view(r.error));
  w.put(r.wall_ns);
  const Resources& x = r.resources;
  w.put(x.user_ns);
  w.put(x.system_ns);
  w.put(x.peak_rss_bytes);
  w.put(x.rss_change_bytes);
  w.put(x.minor_faults);
  w.put(x.major_faults);
  w.put(x.voluntary_switches);
  w.put(x.involuntary_switches);
  w.put(x.exit_code);
  w.put(x.signal);
  w.put(static_cast<std::uint8_t>(x.timed_out));
  w.put(std::string_view(r.stderr_tail));
  w.put(r.stdout_bytes);
  w.put(static_cast<std::uint8_t>(r.interrupted));
  return w.take();
}

std::optional<RunRecord> decode_record(std::string_view bytes) {
  Reader reader(bytes);
  RunRecord r;
  Resources& x = r.resources;
  std::uint8_t started = 0;
  std::uint8_t timed_out = 0;
  std::uint8_t interrupted = 0;
  if (!reader.get(started) || !reader.get(r.error) || !reader.get(r.wall_ns) ||
      !reader.get(x.user_ns) || !reader.get(x.system_ns) || !reader.get(x.peak_rss_bytes) ||
      !reader.get(x.rss_change_bytes) || !reader.get(x.minor_faults) ||
      !reader.get(x.major_faults) || !reader.get(x.voluntary_switches) ||
      !reader.get(x.involuntary_switches) || !reader.get(x.exit_code) || !reader.get(x.signal) ||
      !reader.get(timed_out) || !reader.get(r.stderr_tail) || !reader.get(r.stdout_bytes) ||
      !reader.get(interrupted) || !reader.done()) {
    return std::nullopt;
  }
  r.started = started != 0;
  x.timed_out = timed_out != 0;
  r.interrupted = interrupted != 0;
  return r;
}

namespace {

// The length and the bytes in one writev: with two writes the reader, blocked in read, was woken
// for the 4-byte length alone and then again for the rest (a frame of up to PIPE_BUF bytes, every
// request and record of a run, now arrives whole, in one wake-up). Returns what writev returned;
// `wait`: after EAGAIN on a non-blocking pipe, waits for room and tries again.
ssize_t write_length_and_bytes(int fd, std::string_view bytes, bool wait) {
  const auto size = static_cast<std::uint32_t>(bytes.size());
  iovec parts[2] = {{const_cast<std::uint32_t*>(&size), sizeof size},
                    {const_cast<char*>(bytes.data()), bytes.size()}};
  ssize_t written = -1;
  do {
    written = ::writev(fd, parts, 2);
  } while (written < 0 &&
           (errno == EINTR || (wait && errno == EAGAIN && wait_until_ready(fd, POLLOUT))));
  return written;
}

}  // namespace

bool write_frame(int fd, std::string_view bytes) {
  const ssize_t written = write_length_and_bytes(fd, bytes, true);
  if (written < 0) return false;
  const auto size = static_cast<std::uint32_t>(bytes.size());
  // A partial write (a frame larger than the pipe's free space): the rest the usual way.
  std::size_t done = static_cast<std::size_t>(written);
  if (done < sizeof size) {
    return write_bytes(fd, reinterpret_cast<const char*>(&size) + done, sizeof size - done) &&
           write_bytes(fd, bytes.data(), bytes.size());
  }
  done -= sizeof size;
  return write_bytes(fd, bytes.data() + done, bytes.size() - done);
}

void append_frame(std::string& out, std::string_view bytes) {
  const auto size = static_cast<std::uint32_t>(bytes.size());
  out.append(reinterpret_cast<const char*>(&size), sizeof size);
  out.append(bytes);
}

bool try_write_frame(int fd, std::string_view bytes) {
  if (bytes.size() + sizeof(std::uint32_t) > PIPE_BUF) return false;
  // At most PIPE_BUF bytes to a non-blocking pipe: written whole, or not at all (EAGAIN).
  return write_length_and_bytes(fd, bytes, false) ==
         static_cast<ssize_t>(sizeof(std::uint32_t) + bytes.size());
}

bool write_all(int fd, std::string_view bytes) {
  return write_bytes(fd, bytes.data(), bytes.size());
}

bool FrameInput::buffered() const {
  const std::size_t held = buffer_.size() - start_;
  if (held < sizeof(std::uint32_t)) return false;
  std::uint32_t size = 0;
  std::memcpy(&size, buffer_.data() + start_, sizeof size);
  return held - sizeof size >= size;
}

bool FrameInput::next(std::string_view& frame, const std::function<void()>& idle) {
  while (!buffered()) {
    if (start_ > 0) {  // keep only the unread part: the buffer does not grow for ever
      buffer_.erase(0, start_);
      start_ = 0;
    }
    std::uint32_t size = 0;
    if (buffer_.size() >= sizeof size) std::memcpy(&size, buffer_.data(), sizeof size);
    if (size > kLargestFrame) return false;  // a damaged stream, not a frame
    char chunk[65536];
    const ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return false;  // end of file
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return false;
    if (idle) idle();
    if (!wait_until_ready(fd_, POLLIN)) return false;
  }
  std::uint32_t size = 0;
  std::memcpy(&size, buffer_.data() + start_, sizeof size);
  frame = std::string_view(buffer_).substr(start_ + sizeof size, size);
  start_ += sizeof size + size;
  return true;
}

bool read_frame(int fd, std::string& bytes) {
  std::uint32_t size = 0;
  if (!read_all(fd, reinterpret_cast<char*>(&size), sizeof size)) return false;
  if (size > kLargestFrame) return false;
  bytes.resize(size);
  return read_all(fd, bytes.data(), size);
}

}  // namespace benchkit::process::wire
