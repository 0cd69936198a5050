#include "clock/callgrind.hpp"

#include <unistd.h>
#include <valgrind/callgrind.h>
#include <valgrind/valgrind.h>

#include <fstream>
#include <sstream>
#include <vector>

namespace benchkit::clock {

bool running_on_valgrind() {
  return RUNNING_ON_VALGRIND != 0;
}

std::optional<CallgrindEvents> parse_callgrind_totals(std::string_view text) {
  std::vector<std::string> names;
  std::optional<std::vector<double>> values;
  std::optional<std::vector<double>> totals;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    auto words_after = [&](std::string_view key) {
      std::istringstream words{std::string(line.substr(key.size()))};
      return words;
    };
    if (line.starts_with("events:")) {
      auto words = words_after("events:");
      names.clear();
      for (std::string word; words >> word;) names.push_back(word);
    } else if (line.starts_with("summary:") || line.starts_with("totals:")) {
      auto words = words_after(line.starts_with("summary:") ? "summary:" : "totals:");
      std::vector<double> numbers;
      // Callgrind writes costs as unsigned 64-bit integers; a counter that went below zero
      // (the termination dump after a zeroing) reads as a huge number and is kept as it is.
      for (std::string word; words >> word;) {
        try {
          numbers.push_back(static_cast<double>(std::stoull(word)));
        } catch (const std::exception&) {
          return std::nullopt;
        }
      }
      (line.starts_with("summary:") ? values : totals) = std::move(numbers);
    }
  }
  if (!values) values = std::move(totals);
  if (names.empty() || !values || values->size() > names.size()) return std::nullopt;
  CallgrindEvents events;
  for (std::size_t i = 0; i < names.size(); ++i) {
    events[names[i]] = i < values->size() ? (*values)[i] : 0.0;
  }
  return events;
}

CountedMetrics counted_metrics(const CallgrindEvents& events) {
  auto get = [&](const char* name) {
    const auto found = events.find(name);
    return found == events.end() ? 0.0 : found->second;
  };
  CountedMetrics metrics;
  metrics.instructions = get("Ir");
  const double accesses = get("Ir") + get("Dr") + get("Dw");
  const double l1_misses = get("I1mr") + get("D1mr") + get("D1mw");
  const double ll_misses = get("ILmr") + get("DLmr") + get("DLmw");
  metrics.ram_hits = ll_misses;
  metrics.ll_hits = l1_misses - ll_misses;
  metrics.l1_hits = accesses - l1_misses;
  metrics.estimated_cycles = metrics.l1_hits + kLastLevelHitCycles * metrics.ll_hits +
                             kMemoryAccessCycles * metrics.ram_hits;
  metrics.system_calls = get("sysCount");
  return metrics;
}

namespace {

class CallgrindRegion final : public CountedRegion {
 public:
  explicit CallgrindRegion(std::string dump_prefix) : dump_prefix_(std::move(dump_prefix)) {
    const std::string pid = std::to_string(::getpid());
    if (const auto at = dump_prefix_.find("%p"); at != std::string::npos) {
      dump_prefix_.replace(at, 2, pid);
    }
  }

  void begin_sample() override {
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
  }
  void start() override { CALLGRIND_TOGGLE_COLLECT; }
  void stop() override { CALLGRIND_TOGGLE_COLLECT; }

  std::optional<CountedMetrics> end_sample(const std::string& label) override {
    CALLGRIND_DUMP_STATS_AT(label.c_str());
    CALLGRIND_STOP_INSTRUMENTATION;
    ++dumps_;
    const std::string path = dump_prefix_ + "." + std::to_string(dumps_);
    std::ifstream file(path);
    if (!file) {
      error_ = "callgrind wrote no dump at " + path +
               ": is this process running under valgrind --tool=callgrind with "
               "--callgrind-out-file=" +
               dump_prefix_ + "?";
      return std::nullopt;
    }
    std::ostringstream text;
    text << file.rdbuf();
    const auto events = parse_callgrind_totals(text.str());
    if (!events) {
      error_ = "callgrind's dump " + path + " has no events and totals";
      return std::nullopt;
    }
    return counted_metrics(*events);
  }

  const std::string& error() const override { return error_; }

 private:
  std::string dump_prefix_;
  std::size_t dumps_ = 0;
  std::string error_;
};

}  // namespace

std::unique_ptr<CountedRegion> callgrind_region(std::string dump_prefix) {
  return std::make_unique<CallgrindRegion>(std::move(dump_prefix));
}

}  // namespace benchkit::clock
