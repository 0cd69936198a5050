// The benchkit result JSON, both directions driven by one field table per struct.
//
// Each table (struct Table<T> below) lists the struct's fields once, in the order they are
// written: the JSON key, the member, a codec (how the value is written and checked when read:
// a number, a count, text, a nested object, ...) and a presence rule (required, always
// written, written only when set). Writing walks the table, and so does reading, so a field
// cannot be written and then forgotten by the reader, or the other way round.
#include "formats/result_json.hpp"

#include "formats/json_document.hpp"

#include "model/counters.hpp"
#include "model/failure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace benchkit::formats {

using model::Error;

namespace {

using nlohmann::ordered_json;

std::string join(const std::string& path, const char* key) {
  return path.empty() ? std::string(key) : path + "." + key;
}

// A member of `object`; a null value counts as absent, as does anything inside a non-object.
const ordered_json* member(const ordered_json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// ---- Codecs: how one C++ value is written and read ---------------------------------------
//
// `what` describes the expected JSON ("a number") in messages. `read` is given a value that is
// present and not null; it returns the value, or nothing to leave the member as it was.

struct Number {
  using Value = double;
  static constexpr const char* what = "a number";
  ordered_json write(double value) const { return value; }
  std::optional<double> read(const ordered_json& value, const std::string& path) const {
    if (!value.is_number()) {
      fail_at(path, fmt::format("expected a number, got {}", value.type_name()));
    }
    return value.get<double>();
  }
};

// A non-negative integer; an integral floating-point number (1e3) is accepted too.
template <class T>
struct Count {
  using Value = T;
  static constexpr const char* what = "a non-negative integer";
  ordered_json write(T value) const { return value; }
  std::optional<T> read(const ordered_json& value, const std::string& path) const {
    if (value.is_number_unsigned()) return static_cast<T>(value.get<std::uint64_t>());
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
      return static_cast<T>(value.get<std::int64_t>());
    }
    if (value.is_number_float()) {
      const double d = value.get<double>();
      // 2^64: the first double beyond std::uint64_t.
      if (d >= 0 && d < 18446744073709551616.0 &&
          d == static_cast<double>(static_cast<std::uint64_t>(d))) {
        return static_cast<T>(static_cast<std::uint64_t>(d));
      }
    }
    fail_at(path, fmt::format("expected a non-negative integer, got {}", value.dump()));
  }
};

// A signed integer that version 1 readers have always taken from any number, truncating a
// fraction (byte counts, fault counts, exit codes). A number beyond T's range is accepted too,
// as it always was, and saturates (converting it would be undefined behaviour).
template <class T>
struct Whole {
  using Value = T;
  static constexpr const char* what = "a number";
  ordered_json write(T value) const { return value; }
  std::optional<T> read(const ordered_json& value, const std::string& path) const {
    const double number = *Number{}.read(value, path);
    // T's lowest value is a power of two, so -lowest is exactly one beyond its highest.
    constexpr double lowest = static_cast<double>(std::numeric_limits<T>::min());
    if (number < lowest) return std::numeric_limits<T>::min();
    if (number >= -lowest) return std::numeric_limits<T>::max();
    return static_cast<T>(number);
  }
};

struct Text {
  using Value = std::string;
  static constexpr const char* what = "a string";
  ordered_json write(const std::string& value) const { return value; }
  std::optional<std::string> read(const ordered_json& value, const std::string& path) const {
    if (!value.is_string()) {
      fail_at(path, fmt::format("expected a string, got {}", value.type_name()));
    }
    return value.get<std::string>();
  }
};

// A failed benchmark's cause, by its name (model/failure.hpp).
struct Cause {
  using Value = Failure::Cause;
  static constexpr const char* what = "a cause";
  ordered_json write(Failure::Cause value) const {
    return std::string(model::failure_cause_name(value));
  }
  std::optional<Failure::Cause> read(const ordered_json& value, const std::string& path) const {
    const auto cause =
        value.is_string() ? model::failure_cause_from_name(value.get<std::string>()) : std::nullopt;
    if (!cause) {
      fail_at(path, "unknown cause (expected threw, crashed, timed_out, exited or interrupted)");
    }
    return cause;
  }
};

// true or false; version 1 readers have always ignored any other value here.
struct Flag {
  using Value = bool;
  static constexpr const char* what = "true or false";
  ordered_json write(bool value) const { return value; }
  std::optional<bool> read(const ordered_json& value, const std::string&) const {
    if (!value.is_boolean()) return std::nullopt;
    return value.get<bool>();
  }
};

struct Texts {
  using Value = std::vector<std::string>;
  static constexpr const char* what = "an array of strings";
  ordered_json write(const Value& value) const { return value; }
  std::optional<Value> read(const ordered_json& value, const std::string& path) const {
    if (!value.is_array()) fail_at(path, "expected an array of strings");
    Value result;
    result.reserve(value.size());  // a benchmark's thousands of samples, without regrowth
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string()) fail_at(fmt::format("{}[{}]", path, i), "expected a string");
      result.push_back(value[i].get<std::string>());
    }
    return result;
  }
};

// An object of text values; a value that is not a string is kept as its JSON text.
struct TextMap {
  using Value = std::map<std::string, std::string>;
  static constexpr const char* what = "an object";
  ordered_json write(const Value& value) const { return value; }
  std::optional<Value> read(const ordered_json& value, const std::string& path) const {
    if (!value.is_object()) fail_at(path, "expected an object");
    Value result;
    for (auto it = value.begin(); it != value.end(); ++it) {
      result[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
    }
    return result;
  }
};

struct NumberMap {
  using Value = std::map<std::string, double>;
  static constexpr const char* what = "an object of numbers";
  ordered_json write(const Value& value) const { return value; }
  std::optional<Value> read(const ordered_json& value, const std::string& path) const {
    if (!value.is_object()) fail_at(path, "expected an object of numbers");
    Value result;
    for (auto it = value.begin(); it != value.end(); ++it) {
      result[it.key()] = *Number{}.read(*it, path + "." + it.key());
    }
    return result;
  }
};

// The kinds of user counters (benchkit/counter.hpp): {"bytes": ["rate", "base_1024"]}.
struct CounterKinds {
  using Value = std::map<std::string, counter::Kind>;
  static constexpr const char* what = "an object of arrays of counter flags";
  ordered_json write(const Value& value) const {
    ordered_json out = ordered_json::object();
    for (const auto& [name, kind] : value) out[name] = model::counter_kind_names(kind);
    return out;
  }
  std::optional<Value> read(const ordered_json& value, const std::string& path) const {
    if (!value.is_object()) fail_at(path, "expected an object of arrays of counter flags");
    Value result;
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string here = path + "." + it.key();
      const std::vector<std::string> names = *Texts{}.read(*it, here);
      const auto kind = model::counter_kind_from_names(names);
      if (!kind) {
        fail_at(here,
                "unknown counter flag (expected rate, per_iteration, per_thread, base_1024 or "
                "invert)");
      }
      if (*kind != counter::plain) result[it.key()] = *kind;
    }
    return result;
  }
};

// ---- Fields and tables ----------------------------------------------------------------------

enum class Rule {
  required,        // always written; a document without it is refused
  always,          // always written; when absent, the member keeps its default
  unless_default,  // written only when set: not empty, not zero or false, not nullopt
  null_if_unset,   // an optional always written, as null when unset (unknown, not false)
};

template <class Owner, class Member, class Codec>
struct Field {
  using Value = typename Codec::Value;
  static_assert(std::is_same_v<Member, Value> || std::is_same_v<Member, std::optional<Value>>,
                "a field's codec reads the member's type (or what its optional holds)");

  const char* key;
  Member Owner::*member;
  Codec codec;
  Rule rule;
  // Says what is wrong with a value read (empty: nothing); may replace a value that stands for
  // the default (an empty kind).
  std::string (*check)(Value&) = nullptr;
  // Another member, read before this one, whose value this one takes when absent.
  Member Owner::*absent_as = nullptr;
  // When set, the member is written only where this says the owner knows it (read: absent
  // keeps the default).
  bool (*written_for)(const Owner&) = nullptr;

  constexpr Field checked(std::string (*rule_check)(Value&)) const {
    Field f = *this;
    f.check = rule_check;
    return f;
  }
  constexpr Field or_else(Member Owner::*other) const {
    Field f = *this;
    f.absent_as = other;
    return f;
  }
  constexpr Field only_when(bool (*known)(const Owner&)) const {
    Field f = *this;
    f.written_for = known;
    return f;
  }
};

template <class Owner, class Member, class Codec>
constexpr Field<Owner, Member, Codec> field(const char* key, Member Owner::*member, Codec codec,
                                            Rule rule = Rule::always) {
  return {key, member, codec, rule};
}

// A nested JSON object whose fields are members of the enclosing struct ("warm_up": {"iters",
// "ns"} on BenchmarkResult). Always written. `what` is null for the groups that version 1
// readers read as empty when they are not objects.
template <class... Fields>
struct Group {
  const char* key;
  const char* what;
  std::tuple<Fields...> fields;
};

template <class... Fields>
constexpr Group<Fields...> group(const char* key, const char* what, Fields... fields) {
  return {key, what, std::tuple<Fields...>{fields...}};
}

template <class T>
struct Table;  // static constexpr auto fields: a tuple of Field and Group, in written order

template <class Owner, class Fields>
void write_fields(ordered_json& out, const Owner& owner, const Fields& fields);
template <class Owner, class Fields>
void read_fields(const ordered_json& object, const std::string& path, Owner& owner,
                 const Fields& fields);

// A nested struct with its own table. `what` is null for the objects that version 1 readers
// read as empty when they are not objects.
template <class T>
struct Object {
  using Value = T;
  const char* what = "an object";
  ordered_json write(const T& value) const {
    ordered_json out = ordered_json::object();
    write_fields(out, value, Table<T>::fields);
    return out;
  }
  std::optional<T> read(const ordered_json& value, const std::string& path) const {
    T result{};
    if (!value.is_object()) {
      if (what == nullptr) return result;
      fail_at(path, fmt::format("expected {}, got {}", what, value.type_name()));
    }
    read_fields(value, path, result, Table<T>::fields);
    return result;
  }
};

template <class T>
struct List {
  using Value = std::vector<T>;
  const char* what;  // the array: "an array of benchmarks"
  Object<T> element;
  ordered_json write(const Value& values) const {
    ordered_json out = ordered_json::array();
    for (const T& value : values) out.push_back(element.write(value));
    return out;
  }
  std::optional<Value> read(const ordered_json& value, const std::string& path) const {
    if (!value.is_array())
      fail_at(path, fmt::format("expected {}, got {}", what, value.type_name()));
    Value result;
    result.reserve(value.size());  // a run's samples: no spare capacity, no copy while growing
    for (std::size_t i = 0; i < value.size(); ++i) {
      result.push_back(*element.read(value[i], fmt::format("{}[{}]", path, i)));
    }
    return result;
  }
};

template <class T>
constexpr bool is_optional = false;
template <class T>
constexpr bool is_optional<std::optional<T>> = true;

// Whether a value is its type's default (empty, zero, false); a struct never is: a field that
// holds one is always written.
template <class T>
bool is_default(const T& value) {
  if constexpr (requires { value.empty(); }) {
    return value.empty();
  } else if constexpr (std::equality_comparable<T>) {
    return value == T{};
  } else {
    return false;
  }
}

template <class Owner, class Member, class Codec>
void write_entry(ordered_json& out, const Owner& owner, const Field<Owner, Member, Codec>& f) {
  if (f.written_for && !f.written_for(owner)) return;
  const Member& value = owner.*f.member;
  if constexpr (is_optional<Member>) {
    if (value) {
      out[f.key] = f.codec.write(*value);
    } else if (f.rule == Rule::null_if_unset) {
      out[f.key] = nullptr;
    }
  } else {
    if (f.rule == Rule::unless_default && is_default(value)) return;
    out[f.key] = f.codec.write(value);
  }
}

template <class Owner, class... Fields>
void write_entry(ordered_json& out, const Owner& owner, const Group<Fields...>& g) {
  ordered_json nested = ordered_json::object();
  write_fields(nested, owner, g.fields);
  out[g.key] = std::move(nested);
}

template <class Owner, class Member, class Codec>
void read_entry(const ordered_json& object, const std::string& path, Owner& owner,
                const Field<Owner, Member, Codec>& f) {
  const std::string here = join(path, f.key);
  const ordered_json* json = member(object, f.key);
  if (!json) {
    if (f.rule == Rule::required)
      fail_at(here, fmt::format("missing ({} is required)", f.codec.what));
    if (f.absent_as) owner.*f.member = owner.*f.absent_as;
    return;
  }
  std::optional<typename Codec::Value> value = f.codec.read(*json, here);
  if (!value) return;
  if (f.check) {
    if (const std::string problem = f.check(*value); !problem.empty()) fail_at(here, problem);
  }
  owner.*f.member = std::move(*value);
}

template <class Owner, class... Fields>
void read_entry(const ordered_json& object, const std::string& path, Owner& owner,
                const Group<Fields...>& g) {
  const ordered_json* nested = member(object, g.key);
  if (!nested) return;
  const std::string here = join(path, g.key);
  if (!nested->is_object()) {
    if (g.what == nullptr) return;
    fail_at(here, fmt::format("expected {}, got {}", g.what, nested->type_name()));
  }
  read_fields(*nested, here, owner, g.fields);
}

template <class Owner, class Fields>
void write_fields(ordered_json& out, const Owner& owner, const Fields& fields) {
  std::apply([&](const auto&... entry) { (write_entry(out, owner, entry), ...); }, fields);
}

template <class Owner, class Fields>
void read_fields(const ordered_json& object, const std::string& path, Owner& owner,
                 const Fields& fields) {
  std::apply([&](const auto&... entry) { (read_entry(object, path, owner, entry), ...); }, fields);
}

// ---- Checks on values read ------------------------------------------------------------------

std::string at_least_one(std::uint64_t& iters) {
  return iters == 0 ? "must be at least 1" : "";
}

std::string at_least_one_thread(std::uint32_t& threads) {
  return threads == 0 ? "must be at least 1 (the threads that ran the benchmark)" : "";
}

std::string non_negative_ns(double& ns) {
  return ns >= 0 ? "" : "must be a non-negative number of nanoseconds";
}

std::string positive(double& value) {
  return value > 0 ? "" : "must be a positive number";
}

std::string non_empty_name(std::string& name) {
  return name.empty() ? "missing (every benchmark needs a non-empty name)" : "";
}

std::string known_kind(std::string& kind) {
  if (kind.empty()) kind = "micro";
  if (kind == "micro" || kind == "scenario" || kind == "command") return "";
  return fmt::format("unknown kind \"{}\" (expected micro, scenario or command)", kind);
}

std::string known_metric(std::string& metric) {
  if (metric.empty() || metric == "instructions") return "";
  return fmt::format("unknown metric \"{}\" (expected instructions, or no metric for time)",
                     metric);
}

// ---- The tables: every field of the format, once --------------------------------------------

template <>
struct Table<Diagnostic> {
  static constexpr auto fields = std::tuple{
      field("code", &Diagnostic::code, Text{}),
      field("severity", &Diagnostic::severity, Text{}),
      field("message", &Diagnostic::message, Text{}),
  };
};

constexpr List<Diagnostic> diagnostic_list{"an array of diagnostics",
                                           {"an object with code and message"}};

template <>
struct Table<Resources> {
  static constexpr auto fields = std::tuple{
      field("user_ns", &Resources::user_ns, Number{}, Rule::unless_default),
      field("system_ns", &Resources::system_ns, Number{}, Rule::unless_default),
      field("peak_rss_bytes", &Resources::peak_rss_bytes, Whole<std::int64_t>{},
            Rule::unless_default),
      field("rss_change_bytes", &Resources::rss_change_bytes, Whole<std::int64_t>{},
            Rule::unless_default),
      field("minor_faults", &Resources::minor_faults, Whole<std::int64_t>{}, Rule::unless_default),
      field("major_faults", &Resources::major_faults, Whole<std::int64_t>{}, Rule::unless_default),
      field("voluntary_switches", &Resources::voluntary_switches, Whole<std::int64_t>{},
            Rule::unless_default),
      field("involuntary_switches", &Resources::involuntary_switches, Whole<std::int64_t>{},
            Rule::unless_default),
      field("exit_code", &Resources::exit_code, Whole<int>{}, Rule::unless_default),
      field("signal", &Resources::signal, Whole<int>{}, Rule::unless_default),
      field("timed_out", &Resources::timed_out, Flag{}, Rule::unless_default),
  };
};

template <>
struct Table<Sample> {
  static constexpr auto fields = std::tuple{
      field("iters", &Sample::iters, Count<std::uint64_t>{}, Rule::required).checked(at_least_one),
      field("ns", &Sample::ns, Number{}, Rule::required).checked(non_negative_ns),
      field("process", &Sample::process, Count<std::uint32_t>{}, Rule::unless_default),
      field("round", &Sample::round, Count<std::uint32_t>{}, Rule::unless_default),
      field("turn", &Sample::turn, Count<std::uint32_t>{}, Rule::unless_default),
      field("probe_ns", &Sample::probe_ns, Number{}, Rule::unless_default).checked(positive),
      field("counters", &Sample::counters, NumberMap{}, Rule::unless_default),
      field("resources", &Sample::resources, Object<Resources>{}, Rule::unless_default),
  };
};

template <>
struct Table<Estimate> {
  // Bounds absent from a file equal the estimate: an estimate without an interval.
  static constexpr auto fields = std::tuple{
      field("value", &Estimate::value, Number{}, Rule::required),
      field("lower", &Estimate::lower, Number{}).or_else(&Estimate::value),
      field("upper", &Estimate::upper, Number{}).or_else(&Estimate::value),
      field("confidence", &Estimate::confidence, Number{}),
  };
};

constexpr Object<Estimate> estimate_object{"an object with value, lower, upper"};

template <>
struct Table<Estimates> {
  static constexpr auto fields = std::tuple{
      field("median", &Estimates::median, estimate_object),
      field("mean", &Estimates::mean, estimate_object),
      field("min", &Estimates::min, Number{}),
      field("max", &Estimates::max, Number{}),
      field("stddev", &Estimates::stddev, Number{}),
      field("mad", &Estimates::mad, Number{}),
      field("iqr", &Estimates::iqr, Number{}),
      field("mdape", &Estimates::mdape, Number{}),
      group("outliers", nullptr, field("low", &Estimates::outliers_low, Count<std::size_t>{}),
            field("high", &Estimates::outliers_high, Count<std::size_t>{}),
            field("severe", &Estimates::outliers_severe, Count<std::size_t>{}),
            field("variance_share", &Estimates::outlier_variance, Number{})),
      field("bytes_per_second", &Estimates::bytes_per_second, Number{}, Rule::unless_default),
      field("items_per_second", &Estimates::items_per_second, Number{}, Rule::unless_default),
      field("slow_samples", &Estimates::slow_samples, Count<std::size_t>{}, Rule::unless_default),
      field("between_process_share", &Estimates::between_process_share, Number{},
            Rule::unless_default),
  };
};

template <>
struct Table<Memory> {
  static constexpr auto fields = std::tuple{
      field("peak_rss_bytes", &Memory::peak_rss_bytes, Whole<std::int64_t>{}, Rule::unless_default),
      field("rss_growth_bytes", &Memory::rss_growth_bytes, Whole<std::int64_t>{},
            Rule::unless_default),
      field("peak_rss_method", &Memory::peak_rss_method, Text{}, Rule::unless_default),
  };
};

template <>
struct Table<Failure> {
  static constexpr auto fields = std::tuple{
      field("cause", &Failure::cause, Cause{}, Rule::required),
      field("signal", &Failure::signal, Whole<int>{}, Rule::unless_default),
      field("exit_code", &Failure::exit_code, Whole<int>{}, Rule::unless_default),
      field("stderr_tail", &Failure::stderr_tail, Text{}, Rule::unless_default),
  };
};

template <>
struct Table<Skipped> {
  static constexpr auto fields = std::tuple{
      field("tag", &Skipped::tag, Text{}, Rule::required),
      field("reason", &Skipped::reason, Text{}, Rule::required),
  };
};

template <>
struct Table<InputFile> {
  static constexpr auto fields = std::tuple{
      field("path", &InputFile::path, Text{}, Rule::required),
      field("bytes", &InputFile::bytes, Count<std::uint64_t>{}, Rule::required),
      field("sha256", &InputFile::sha256, Text{}, Rule::required),
  };
};

constexpr List<InputFile> input_list{"an array of data files",
                                     {"an object with path, bytes and sha256"}};

template <>
struct Table<ExactCount> {
  static constexpr auto fields = std::tuple{
      field("name", &ExactCount::name, Text{}, Rule::required).checked(non_empty_name),
      field("value", &ExactCount::value, Count<std::uint64_t>{}, Rule::required),
      field("input", &ExactCount::input, Text{}, Rule::unless_default),
  };
};

constexpr List<ExactCount> exact_count_list{"an array of exact counts",
                                            {"an object with name and value"}};

template <>
struct Table<ComplexityPoint> {
  static constexpr auto fields = std::tuple{
      field("family", &ComplexityPoint::family, Text{}, Rule::required),
      field("param", &ComplexityPoint::param, Text{}, Rule::required),
      field("n", &ComplexityPoint::n, Number{}, Rule::required).checked(positive),
      field("fit", &ComplexityPoint::fit, Text{}),
      field("custom", &ComplexityPoint::custom, Number{}, Rule::unless_default),
  };
};

template <>
struct Table<ComplexityCandidate> {
  static constexpr auto fields = std::tuple{
      field("big_o", &ComplexityCandidate::big_o, Text{}, Rule::required),
      field("coefficient", &ComplexityCandidate::coefficient, Number{}),
      field("rms", &ComplexityCandidate::rms, Number{}),
      field("akaike_weight", &ComplexityCandidate::akaike_weight, Number{}),
  };
};

template <>
struct Table<ComplexityResult> {
  using R = ComplexityResult;
  static constexpr auto fields = std::tuple{
      field("family", &R::family, Text{}, Rule::required),
      field("param", &R::param, Text{}),
      field("requested", &R::requested, Text{}),
      field("big_o", &R::big_o, Text{}, Rule::required),
      field("coefficient", &R::coefficient, estimate_object, Rule::required),
      field("interval_method", &R::interval_method, Text{}, Rule::unless_default),
      field("rms", &R::rms, Number{}),
      field("best", &R::best, Text{}, Rule::unless_default),
      field("indistinguishable", &R::indistinguishable, Texts{}, Rule::unless_default),
      field("stability", &R::stability, Number{}),
      field("sizes", &R::sizes, Count<std::size_t>{}, Rule::unless_default),
      field("candidates", &R::candidates,
            List<ComplexityCandidate>{"an array of fitted classes", {"an object with big_o"}},
            Rule::unless_default),
      field("source", &R::source, Text{}, Rule::unless_default),
  };
};

template <>
struct Table<BenchmarkResult> {
  using B = BenchmarkResult;
  static constexpr auto fields = std::tuple{
      field("name", &B::name, Text{}, Rule::required).checked(non_empty_name),
      field("kind", &B::kind, Text{}).checked(known_kind),
      field("metric", &B::metric, Text{}, Rule::unless_default).checked(known_metric),
      field("command", &B::command, Text{}, Rule::unless_default),
      field("failures", &B::failures, Texts{}, Rule::unless_default),
      field("failure", &B::failure, Object<Failure>{"an object with a cause"},
            Rule::unless_default),
      field("params", &B::params, TextMap{}, Rule::unless_default),
      field("skipped", &B::skipped, Object<Skipped>{"an object with tag and reason"},
            Rule::unless_default),
      field("samples", &B::samples,
            List<Sample>{"an array of {\"iters\": N, \"ns\": T}", {"an object with iters and ns"}},
            Rule::required),
      field("bytes_per_iteration", &B::bytes_per_iteration, Count<std::uint64_t>{},
            Rule::unless_default),
      field("items_per_iteration", &B::items_per_iteration, Count<std::uint64_t>{},
            Rule::unless_default),
      field("counters", &B::counters, NumberMap{}, Rule::unless_default),
      group("overhead", nullptr, field("ns_per_sample", &B::overhead_ns_per_sample, Number{})),
      group("warm_up", nullptr, field("iters", &B::warm_up_iters, Count<std::uint64_t>{}),
            field("ns", &B::warm_up_ns, Number{}),
            field("first_iteration_ns", &B::first_iteration_ns, Number{}, Rule::unless_default)),
      field("untimed_ns", &B::untimed_ns, Number{}),
      field("memory", &B::memory, Object<Memory>{nullptr}),
      field("estimates", &B::estimates, Object<Estimates>{}),
      field("diagnostics", &B::diagnostics, diagnostic_list),
      field("inputs", &B::inputs, input_list, Rule::unless_default),
      field("exact_counts", &B::exact_counts, exact_count_list, Rule::unless_default),
      field("complexity", &B::complexity,
            Object<ComplexityPoint>{"an object with family, param and n"}, Rule::unless_default),
      field("machine", &B::machine, TextMap{}, Rule::unless_default),
      field("counter_kinds", &B::counter_kinds, CounterKinds{}, Rule::unless_default),
      field("label", &B::label, Text{}, Rule::unless_default),
      field("threads", &B::threads, Count<std::uint32_t>{}, Rule::unless_default)
          .checked(at_least_one_thread),
  };
};

constexpr Object<BenchmarkResult> benchmark_object{"an object"};

template <>
struct Table<Shard> {
  static constexpr auto fields = std::tuple{
      field("index", &Shard::index, Count<std::uint32_t>{}, Rule::required),
      field("count", &Shard::count, Count<std::uint32_t>{}, Rule::required),
      field("by", &Shard::by, Text{}),
      field("benchmarks", &Shard::benchmarks, Count<std::uint64_t>{}),
      field("selected", &Shard::selected, Count<std::uint64_t>{}),
  };
};

// Whether a context knows how its benchmarks were built: a bench binary's does (its compiler);
// a Google Benchmark or hyperfine file's does not, and its `optimized` and `assertions` would
// only be the defaults (true, false), claims about a build nothing was read of.
bool knows_build(const Context& c) {
  return !c.compiler.empty() || !c.build_type.empty();
}

template <>
struct Table<Context> {
  using C = Context;
  static constexpr auto fields = std::tuple{
      field("date", &C::date, Text{}),
      field("tool_version", &C::tool_version, Text{}),
      field("hostname", &C::hostname, Text{}),
      field("os", &C::os, Text{}),
      field("kernel", &C::kernel, Text{}),
      field("cpu_model", &C::cpu_model, Text{}),
      field("logical_cpus", &C::logical_cpus, Count<int>{}),
      field("compiler", &C::compiler, Text{}),
      field("build_type", &C::build_type, Text{}),
      field("optimized", &C::optimized, Flag{}).only_when(&knows_build),
      field("assertions", &C::assertions, Flag{}).only_when(&knows_build),
      field("compile_flags", &C::compile_flags, Text{}),
      field("library_flags", &C::library_flags, Text{}),
      group("git", "an object", field("commit", &C::git_commit, Text{}),
            field("branch", &C::git_branch, Text{}),
            field("dirty", &C::git_dirty, Flag{}, Rule::null_if_unset)),
      field("executable", &C::executable, Text{}),
      field("executable_sha256", &C::executable_sha256, Text{}),
      field("command_line", &C::command_line, Text{}),
      field("seed", &C::seed, Count<std::uint64_t>{}),
      field("tags", &C::tags, TextMap{}),
      field("machine", &C::machine, TextMap{}),
      field("checks", &C::checks, TextMap{}),
      field("clock", &C::clock, TextMap{}),
      field("process_peak_rss_bytes", &C::process_peak_rss_bytes, Whole<std::int64_t>{},
            Rule::unless_default),
      field("warnings", &C::warnings, diagnostic_list),
      field("inputs", &C::inputs, input_list, Rule::unless_default),
      field("shard", &C::shard, Object<Shard>{"an object with index and count"},
            Rule::unless_default),
  };
};

// "schema" and "version" come first and are checked before anything else (read_run); they are
// constants of the format, not members.
template <>
struct Table<RunResult> {
  static constexpr auto fields = std::tuple{
      field("context", &RunResult::context, Object<Context>{}),
      field("benchmarks", &RunResult::benchmarks,
            List<BenchmarkResult>{"an array of benchmarks", benchmark_object}, Rule::required),
      field("complexity", &RunResult::complexity,
            List<ComplexityResult>{"an array of complexity fits",
                                   {"an object with family, big_o and coefficient"}},
            Rule::unless_default),
  };
};

// ---- Documents -------------------------------------------------------------------------------

ParsedRun read_run(const ordered_json& root) {
  if (!root.is_object()) fail_at("", "expected a JSON object");
  const ordered_json* schema = member(root, "schema");
  if (!schema || !schema->is_string()) {
    fail_at("schema",
            "missing: this is not a benchkit result (expected \"schema\": \"benchkit/result\"; "
            "Google Benchmark and hyperfine JSON are recognised by their own shape: see "
            "docs/interop.md)");
  }
  if (schema->get<std::string>() != RunResult::schema) {
    fail_at("schema", fmt::format("is \"{}\", expected \"{}\"", schema->get<std::string>(),
                                  RunResult::schema));
  }
  const ordered_json* version = member(root, "version");
  if (!version || !version->is_number_integer()) {
    fail_at("version", "missing (expected an integer format version)");
  }
  if (version->get<int>() != RunResult::version) {
    fail_at("version", fmt::format("format version {} is not supported: this benchkit reads "
                                   "version {}; use a benchkit that matches the file",
                                   version->get<int>(), RunResult::version));
  }
  ParsedRun parsed;
  read_fields(root, "", parsed.run, Table<RunResult>::fields);
  // Reading succeeded, so "benchmarks" is an array of objects.
  const ordered_json& benchmarks = root.at("benchmarks");
  parsed.estimates_present = !benchmarks.empty();
  for (const ordered_json& benchmark : benchmarks) {
    parsed.estimates_present = parsed.estimates_present && member(benchmark, "estimates");
  }
  return parsed;
}

}  // namespace

namespace {

// ---- Printing a document as it is made -----------------------------------------------------
//
// write_json prints what ordered_json::dump(2) (or dump()) prints for the document's tree,
// without making the tree: the objects and lists of the tables (a run, its benchmarks, their
// samples) are printed member by member and element by element, and only each leaf value (a number,
// a string, a map of counters) becomes a tree of its own. The largest tree at any time is then one
// sample's value, not the run with all its samples.

using Serializer = nlohmann::detail::serializer<ordered_json>;

template <class T>
constexpr bool is_list = false;
template <class T>
constexpr bool is_list<List<T>> = true;
template <class T>
constexpr bool is_object = false;
template <class T>
constexpr bool is_object<Object<T>> = true;

struct Printer {
  Serializer& serializer;
  std::ostream& out;
  bool indented;  // dump(2) when true, dump() (one line, no spaces) when false

  // A line break and `count` spaces before a member or element, when indented.
  void line(unsigned count) {
    if (!indented) return;
    out << '\n';
    std::fill_n(std::ostreambuf_iterator<char>(out), count, ' ');
  }
  void tree(const ordered_json& value, unsigned indent) {
    serializer.dump(value, indented, false, indented ? 2 : 0, indented ? indent : 0);
  }
};

// The members of one object at `indent`: opened by the first, closed by finish().
class Members {
 public:
  Members(Printer& printer, unsigned indent) : printer_(printer), indent_(indent) {}
  // Starts a member; its value follows at inner().
  void key(std::string_view key) {
    printer_.out << (first_ ? '{' : ',');
    printer_.line(inner());
    printer_.out << '"' << key << (printer_.indented ? "\": " : "\":");
    first_ = false;
  }
  unsigned inner() const { return indent_ + 2; }
  void finish() {
    if (first_) {
      printer_.out << "{}";
      return;
    }
    printer_.line(indent_);
    printer_.out << '}';
  }

 private:
  Printer& printer_;
  unsigned indent_;
  bool first_ = true;
};

template <class Owner, class Fields>
void print_fields(Printer& printer, Members& members, const Owner& owner, const Fields& fields);

// What write_entry adds to an object, printed: absent, null or one member.
template <class Owner, class Entry>
void print_as_tree(Printer& printer, Members& members, const Owner& owner, const Entry& entry) {
  ordered_json one = ordered_json::object();
  write_entry(one, owner, entry);
  for (const auto& [key, value] : one.items()) {
    members.key(key);
    printer.tree(value, members.inner());
  }
}

template <class T>
void print_value(Printer& printer, const Object<T>&, const T& value, unsigned indent) {
  Members members(printer, indent);
  print_fields(printer, members, value, Table<T>::fields);
  members.finish();
}

template <class T>
void print_value(Printer& printer, const List<T>& codec, const std::vector<T>& values,
                 unsigned indent) {
  if (values.empty()) {
    printer.out << "[]";
    return;
  }
  printer.out << '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) printer.out << ',';
    printer.line(indent + 2);
    print_value(printer, codec.element, values[i], indent + 2);
  }
  printer.line(indent);
  printer.out << ']';
}

template <class Owner, class Member, class Codec>
void print_entry(Printer& printer, Members& members, const Owner& owner,
                 const Field<Owner, Member, Codec>& f) {
  if (f.written_for && !f.written_for(owner)) return;
  if constexpr (!is_optional<Member> && (is_list<Codec> || is_object<Codec>)) {
    // write_entry's rules for a member that is not optional.
    const Member& value = owner.*f.member;
    if (f.rule == Rule::unless_default && is_default(value)) return;
    members.key(f.key);
    print_value(printer, f.codec, value, members.inner());
  } else {
    print_as_tree(printer, members, owner, f);
  }
}

template <class Owner, class... Fields>
void print_entry(Printer& printer, Members& members, const Owner& owner,
                 const Group<Fields...>& g) {
  print_as_tree(printer, members, owner, g);
}

template <class Owner, class Fields>
void print_fields(Printer& printer, Members& members, const Owner& owner, const Fields& fields) {
  std::apply([&](const auto&... entry) { (print_entry(printer, members, owner, entry), ...); },
             fields);
}

}  // namespace

void write_json(const RunResult& run, std::ostream& out, Layout layout) {
  Serializer serializer(nlohmann::detail::output_adapter<char>(out), ' ',
                        nlohmann::json::error_handler_t::replace);
  Printer printer{serializer, out, layout == Layout::indented};
  Members members(printer, 0);
  members.key("schema");
  printer.tree(RunResult::schema, members.inner());
  members.key("version");
  printer.tree(RunResult::version, members.inner());
  print_fields(printer, members, run, Table<RunResult>::fields);
  members.finish();
  if (layout == Layout::indented) out << '\n';
}

std::string to_json(const RunResult& run) {
  std::ostringstream out;
  write_json(run, out);
  return std::move(out).str();
}

model::Result<ParsedRun> from_json(std::string_view text, const std::string& origin) {
  return read_with_origin<ParsedRun>(origin,
                                     [&] { return read_run(parse_json_document(text, origin)); });
}

model::Result<ParsedRun> from_json_document(const ordered_json& root, const std::string& origin) {
  return read_with_origin<ParsedRun>(origin, [&] { return read_run(root); });
}

std::string benchmark_to_json(const BenchmarkResult& benchmark) {
  return benchmark_object.write(benchmark).dump(-1, ' ', false,
                                                nlohmann::json::error_handler_t::replace);
}

model::Result<BenchmarkResult> benchmark_from_json(std::string_view text,
                                                   const std::string& origin) {
  return read_with_origin<BenchmarkResult>(
      origin, [&] { return *benchmark_object.read(parse_json_document(text, origin), ""); });
}

}  // namespace benchkit::formats
