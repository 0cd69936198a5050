#include "process/worker_invocation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>

#include "model/duration.hpp"
#include "process/worker_protocol.hpp"

namespace benchkit::process {
namespace {

using Invocation = WorkerInvocation;
using Words = std::vector<std::string>;

// ---- Codecs: how one type is written as words and read from one value --------------------------
//
// write(flag, value, words) appends nothing when the value is its default, so that a field left
// alone costs nothing on the command line; read(text, value) is false when the text does not
// read as the type (the caller names the flag). `kTakesValue` is false for switches.

template <class Number>
bool read_number(std::string_view text, Number& value) {
  const char* end = text.data() + text.size();
  const auto [at, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && at == end && !text.empty();
}

struct Text {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, const std::string& value, Words& words) {
    if (!value.empty()) words.insert(words.end(), {flag, value});
  }
  static bool read(std::string_view text, std::string& value) {
    value = std::string(text);
    return true;
  }
};

struct Switch {
  static constexpr bool kTakesValue = false;
  static void write(const char* flag, bool value, Words& words) {
    if (value) words.emplace_back(flag);
  }
  static bool read(std::string_view, bool& value) {
    value = true;
    return true;
  }
};

// Repeatable: the flag once per element, in order.
struct Repeated {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, const Words& values, Words& words) {
    for (const std::string& value : values) words.insert(words.end(), {flag, value});
  }
  static bool read(std::string_view text, Words& values) {
    values.emplace_back(text);
    return true;
  }
};

// A count of at least 1 (0 = not given).
struct Count {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, std::size_t value, Words& words) {
    if (value > 0) words.insert(words.end(), {flag, std::to_string(value)});
  }
  static bool read(std::string_view text, std::size_t& value) {
    return read_number(text, value) && value > 0;
  }
};

struct OptionalCount {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, const std::optional<std::size_t>& value, Words& words) {
    if (value) words.insert(words.end(), {flag, std::to_string(*value)});
  }
  static bool read(std::string_view text, std::optional<std::size_t>& value) {
    std::size_t number = 0;
    if (!read_number(text, number)) return false;
    value = number;
    return true;
  }
};

struct Seed {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, const std::optional<std::uint64_t>& value, Words& words) {
    if (value) words.insert(words.end(), {flag, std::to_string(*value)});
  }
  static bool read(std::string_view text, std::optional<std::uint64_t>& value) {
    std::uint64_t number = 0;
    if (!read_number(text, number)) return false;
    value = number;
    return true;
  }
};

// A relative precision in (0, 1] (0 = not given); written with fmt's shortest exact form.
struct Fraction {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, double value, Words& words) {
    if (value > 0) words.insert(words.end(), {flag, fmt::format("{}", value)});
  }
  static bool read(std::string_view text, double& value) {
    return read_number(text, value) && value > 0 && value <= 1.0;
  }
};

// Written in nanoseconds ("2500000ns", what every driver has sent); read in any unit a user
// writes (model/duration.hpp).
struct Duration {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, const std::optional<std::int64_t>& value, Words& words) {
    if (value) words.insert(words.end(), {flag, fmt::format("{}ns", *value)});
  }
  static bool read(std::string_view text, std::optional<std::int64_t>& value) {
    value = model::parse_duration_ns(text);
    return value.has_value();
  }
};

// A descriptor (-1 = none).
struct Descriptor {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, int value, Words& words) {
    if (value >= 0) words.insert(words.end(), {flag, std::to_string(value)});
  }
  static bool read(std::string_view text, int& value) {
    return read_number(text, value) && value >= 0;
  }
};

// "0,2,5" (worker::format_selection); an empty selection is written too (a worker of nothing).
struct Selection {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, const std::optional<std::vector<std::size_t>>& value,
                    Words& words) {
    if (value) words.insert(words.end(), {flag, worker::format_selection(*value)});
  }
  static bool read(std::string_view text, std::optional<std::vector<std::size_t>>& value) {
    value = worker::parse_selection(text);
    return value.has_value();
  }
};

struct ModeCodec {
  static constexpr bool kTakesValue = true;
  static void write(const char* flag, const std::optional<model::Mode>& value, Words& words) {
    if (value) words.insert(words.end(), {flag, model::to_string(*value)});
  }
  static bool read(std::string_view text, std::optional<model::Mode>& value) {
    value = model::parse_mode(text);
    return value.has_value();
  }
};

// ---- The table ----------------------------------------------------------------------------------

// One flag: its spelling, whether it takes a value, and how a WorkerInvocation is written to and
// read from it. Made by field<Codec, &WorkerInvocation::member>(), so that the member, its codec
// and its spelling are named once, here, for both directions.
struct Field {
  const char* flag;
  bool takes_value;
  void (*write)(const Invocation&, const char* flag, Words&);
  bool (*read)(Invocation&, std::string_view text);
  // What the value must be, for the error of one that is not ("" for switches).
  const char* expected;
};

template <class Codec, auto Member>
constexpr Field field(const char* flag, const char* expected = "") {
  return Field{flag, Codec::kTakesValue,
               [](const Invocation& invocation, const char* name, Words& words) {
                 Codec::write(name, invocation.*Member, words);
               },
               [](Invocation& invocation, std::string_view text) {
                 return Codec::read(text, invocation.*Member);
               },
               expected};
}

// Accepted from older drivers, never written: --worker-progress (a stream worker's progress
// frames, gone since the supervisor announces each benchmark itself).
constexpr Field ignored_switch(const char* flag) {
  return Field{flag, false, [](const Invocation&, const char*, Words&) {},
               [](Invocation&, std::string_view) { return true; }, ""};
}

// Every flag a driver gives a worker, in the order written. The spellings are a protocol between
// builds of different versions (worker_invocation.hpp): never rename one, add new ones.
const std::array kFields = {
    // The role (role()), but for the descriptors, which come last.
    field<Switch, &Invocation::quiet>(worker::kQuietFlag),
    field<ModeCodec, &Invocation::mode>("--mode", "time, instructions or counters"),
    field<Text, &Invocation::callgrind_dumps>("--callgrind-dumps"),
    field<Switch, &Invocation::list>("--list"),
    field<Count, &Invocation::processes>(worker::kProcessesFlag, "a count of at least 1"),
    // Selection.
    field<Text, &Invocation::filter>(worker::kFilterFlag),
    field<Switch, &Invocation::exact>(worker::kExactFlag),
    field<Repeated, &Invocation::skip_tags>("--skip-tag"),
    field<Selection, &Invocation::shard_positions>("--worker-shard",
                                                   "a list of benchmark numbers (0,3,7)"),
    // Profiling.
    field<Duration, &Invocation::profile_time_ns>("--profile-time", "a duration (30s)"),
    field<Text, &Invocation::profile_markers>("--profile-markers"),
    field<Text, &Invocation::profile_summary>("--profile-summary"),
    // Budgets.
    field<Switch, &Invocation::test>("--test"),
    field<Duration, &Invocation::time_budget_ns>(worker::kTimeBudgetFlag, "a duration (2s, 500ms)"),
    field<Count, &Invocation::sample_size>(worker::kSampleSizeFlag, "a count of at least 1"),
    field<Fraction, &Invocation::precision>(worker::kPrecisionFlag, "a fraction in (0, 1]"),
    field<Duration, &Invocation::warm_up_ns>("--warm-up", "a duration (50ms)"),
    field<Duration, &Invocation::timeout_ns>("--timeout", "a duration (300s)"),
    field<Seed, &Invocation::seed>("--seed", "a non-negative integer"),
    field<Count, &Invocation::repetitions>("--repetitions", "a count of at least 1"),
    // What is measured and recorded.
    field<Switch, &Invocation::no_counters>("--no-counters"),
    field<Switch, &Invocation::no_machine_warnings>("--no-machine-warnings"),
    field<Repeated, &Invocation::tags>("--tag"),
    field<Repeated, &Invocation::params>("--param"),
    field<Repeated, &Invocation::keep_env>("--keep-env"),
    // Where the results go.
    field<Text, &Invocation::out>(worker::kOutFlag),
    field<Descriptor, &Invocation::turns_fd>(worker::kTurnsFlag, "a file descriptor"),
    field<Selection, &Invocation::indices>(worker::kSelectFlag,
                                           "a list of benchmark numbers (0,2,5)"),
    field<OptionalCount, &Invocation::index>(worker::kIndexFlag, "a process number"),
    field<Descriptor, &Invocation::stream_fd>(worker::kStreamFlag, "a file descriptor"),
    ignored_switch(worker::kProgressFlag),
};

const Field* find_field(std::string_view flag) {
  if (flag == "-q") flag = worker::kQuietFlag;
  const auto found =
      std::find_if(kFields.begin(), kFields.end(), [&](const Field& f) { return flag == f.flag; });
  return found == kFields.end() ? nullptr : &*found;
}

model::Error usage(std::string message) {
  return model::Error{std::move(message), model::ErrorKind::usage};
}

}  // namespace

WorkerInvocation::Role WorkerInvocation::role() const {
  if (turns_fd >= 0) return Role::turns;
  if (!callgrind_dumps.empty()) return Role::counted;
  if (stream_fd >= 0) return Role::stream;
  if (!profile_markers.empty() || !profile_summary.empty()) return Role::profiled;
  if (list) return Role::lister;
  return Role::run;
}

std::vector<std::string> WorkerInvocation::to_argv() const {
  Words words;
  for (const Field& f : kFields) f.write(*this, f.flag, words);
  return words;
}

std::vector<std::string> WorkerInvocation::command(const std::string& executable) const {
  Words words = to_argv();
  words.insert(words.begin(), executable);
  return words;
}

model::Result<WorkerInvocation> WorkerInvocation::parse(std::span<const std::string> argv) {
  WorkerInvocation invocation;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string_view word = argv[i];
    std::optional<std::string_view> value;
    if (const auto equals = word.find('='); word.starts_with("--") && equals != word.npos) {
      value = word.substr(equals + 1);
      word = word.substr(0, equals);
    }
    const Field* f = find_field(word);
    if (f == nullptr) {
      return usage(fmt::format(
          "a worker does not take {}: a bench binary started as a worker (with {}, {} or "
          "--callgrind-dumps) takes the flags its driver gives it; run it without those to use "
          "the others",
          word, worker::kStreamFlag, worker::kTurnsFlag));
    }
    if (!f->takes_value) {
      if (value) return usage(fmt::format("{} takes no value (given \"{}\")", word, *value));
      f->read(invocation, {});
      continue;
    }
    if (!value) {
      if (i + 1 == argv.size()) return usage(fmt::format("{} needs a value", word));
      value = argv[++i];
    }
    if (!f->read(invocation, *value)) {
      return usage(fmt::format("{} \"{}\" is not {}", word, *value,
                               *f->expected ? f->expected : "a valid value"));
    }
  }
  return invocation;
}

bool WorkerInvocation::is_worker(std::span<const std::string> argv) {
  return std::any_of(argv.begin(), argv.end(), [](std::string_view word) {
    word = word.substr(0, word.find('='));
    return word == worker::kStreamFlag || word == worker::kTurnsFlag ||
           word == "--callgrind-dumps" || word == "--profile-markers" ||
           word == "--profile-summary";
  });
}

}  // namespace benchkit::process
