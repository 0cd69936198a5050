#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

#include "clock/phase_trace.hpp"

namespace benchkit::clock {

namespace {

// The trace file's descriptor, opened on first use; -1 when the trace is off or cannot be opened.
int trace_fd() {
  static const int fd = [] {
    const char* path = std::getenv(kPhaseTraceVariable);
    if (!path || !*path) return -1;
    return ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }();
  return fd;
}

}  // namespace

bool phase_trace_enabled() {
  return trace_fd() >= 0;
}

std::int64_t trace_now_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

void trace_phase(std::string_view phase, std::int64_t start_ns, std::int64_t end_ns,
                 std::string_view detail) {
  const int fd = trace_fd();
  if (fd < 0) return;
  const std::string line =
      fmt::format("{}\t{}\t{}\t{}\t{}\n", ::getpid(), phase, start_ns, end_ns, detail);
  // One write per line: O_APPEND keeps lines from several processes whole.
  [[maybe_unused]] const ssize_t written = ::write(fd, line.data(), line.size());
}

TracedPhase::TracedPhase(std::string_view phase, std::string detail)
    : phase_(phase), detail_(std::move(detail)) {
  if (!phase_trace_enabled()) return;
  start_ns_ = trace_now_ns();
  open_ = true;
}

void TracedPhase::end() {
  if (!open_) return;
  open_ = false;
  trace_phase(phase_, start_ns_, trace_now_ns(), detail_);
}

}  // namespace benchkit::clock
