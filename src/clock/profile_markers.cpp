#include "clock/profile_markers.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

namespace benchkit::clock {
namespace {

class NoMarkers final : public ProfileMarkers {
 public:
  void begin_region() override {}
  void start() override {}
  void stop() override {}
  void end_region() override {}
};

class CallgrindMarkers final : public ProfileMarkers {
 public:
  void begin_region() override { CALLGRIND_START_INSTRUMENTATION; }
  void start() override { CALLGRIND_TOGGLE_COLLECT; }
  void stop() override { CALLGRIND_TOGGLE_COLLECT; }
  void end_region() override { CALLGRIND_STOP_INSTRUMENTATION; }
};

class StraceMarkers final : public ProfileMarkers {
 public:
  void begin_region() override { (void)::access(kStraceBegin, F_OK); }
  void start() override {}
  void stop() override {}
  void end_region() override { (void)::access(kStraceEnd, F_OK); }
};

class PerfMarkers final : public ProfileMarkers {
 public:
  PerfMarkers(int control, int ack) : control_(control), ack_(ack) {}
  ~PerfMarkers() override {
    ::close(control_);
    ::close(ack_);
  }
  void begin_region() override { command("enable\n"); }
  void start() override {}
  void stop() override {}
  void end_region() override { command("disable\n"); }

 private:
  // Writes the command and waits for perf's "ack\n", so that the events are on (or off) before
  // the routine runs (or the harness goes on).
  void command(const std::string& text) {
    if (::write(control_, text.data(), text.size()) < 0) return;
    char reply[8];
    (void)::read(ack_, reply, sizeof reply);
  }
  int control_;
  int ack_;
};

}  // namespace

std::unique_ptr<ProfileMarkers> make_profile_markers(const std::string& spec, std::string& error) {
  if (spec == "none" || spec.empty()) return std::make_unique<NoMarkers>();
  if (spec == "callgrind") return std::make_unique<CallgrindMarkers>();
  if (spec == "strace") return std::make_unique<StraceMarkers>();
  if (spec.starts_with("perf:")) {
    const std::string fifos = spec.substr(5);
    const auto comma = fifos.find(',');
    if (comma == std::string::npos) {
      error = "--profile-markers perf:CTL,ACK needs two fifos, got \"" + spec + "\"";
      return nullptr;
    }
    const std::string control_path = fifos.substr(0, comma);
    const std::string ack_path = fifos.substr(comma + 1);
    const int control = ::open(control_path.c_str(), O_WRONLY | O_CLOEXEC);
    if (control < 0) {
      error = "cannot open perf's control fifo " + control_path;
      return nullptr;
    }
    const int ack = ::open(ack_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (ack < 0) {
      ::close(control);
      error = "cannot open perf's ack fifo " + ack_path;
      return nullptr;
    }
    return std::make_unique<PerfMarkers>(control, ack);
  }
  error = "--profile-markers takes callgrind, strace, perf:CTL,ACK or none, not \"" + spec + "\"";
  return nullptr;
}

}  // namespace benchkit::clock
