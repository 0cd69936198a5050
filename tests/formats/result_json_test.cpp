#include "formats/result_json.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/estimates.hpp"
#include "support/golden.hpp"
#include "support/sample_run.hpp"

namespace benchkit::formats {
namespace {

using ::testing::HasSubstr;

TEST(ResultJson, MatchesTheGoldenFile) {
  testing::expect_golden("result.json", to_json(testing::sample_run()));
}

// What the JSON library itself prints for a document, indented as a result file is.
std::string printed_by_the_library(const std::string& text) {
  return nlohmann::ordered_json::parse(text).dump(2) + "\n";
}

// The result is printed as it is made, without a tree of the whole run: the text is the
// library's own printing of the same document, a name that is not UTF-8 included.
TEST(ResultJson, TheTextIsWhatTheJsonLibraryPrintsForIt) {
  RunResult run = testing::sample_run();
  run.benchmarks[1].name = "bad\xff";
  std::ostringstream out;
  write_json(run, out);
  EXPECT_EQ(out.str(), to_json(run));
  EXPECT_EQ(out.str(), printed_by_the_library(out.str()));
  EXPECT_THAT(out.str(), HasSubstr("bad\xef\xbf\xbd"));
}

// Empty lists and a benchmark with every member at its default.
TEST(ResultJson, TheTextOfARunWithoutBenchmarksIsWhatTheJsonLibraryPrints) {
  RunResult run = testing::sample_run();
  run.benchmarks.clear();
  EXPECT_EQ(to_json(run), printed_by_the_library(to_json(run)));
  run.benchmarks.resize(1);
  EXPECT_EQ(to_json(run), printed_by_the_library(to_json(run)));
}

// A name that is not UTF-8 (a command's argument, a --name from a shell in another encoding)
// aborted the whole `benchkit run` when its result was written (nlohmann's dump throws on
// invalid UTF-8; tests/reliability/hostile_input.py): the byte is written as U+FFFD instead.
TEST(ResultJson, WritesANameThatIsNotUtf8WithAReplacementCharacter) {
  RunResult run = testing::sample_run();
  run.benchmarks[0].name =
      "bad\xff"
      "name";
  const std::string text = to_json(run);
  auto parsed = from_json(text, "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->run.benchmarks[0].name,
            "bad\xef\xbf\xbd"
            "name");
  const auto one = benchmark_from_json(benchmark_to_json(run.benchmarks[0]), "line");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(one->name,
            "bad\xef\xbf\xbd"
            "name");
}

TEST(ResultJson, RoundTripsEveryField) {
  const RunResult original = testing::sample_run();
  const std::string text = to_json(original);
  auto parsed = from_json(text, "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_TRUE(parsed->estimates_present);
  // Writing what was read gives the same document: nothing was lost or changed.
  EXPECT_EQ(to_json(parsed->run), text);
  EXPECT_EQ(parsed->run.benchmarks[0].samples[3].ns, original.benchmarks[0].samples[3].ns);
  EXPECT_EQ(parsed->run.context.git_dirty, std::optional<bool>(false));
}

TEST(ResultJson, RoundTripsSkippedBenchmarksAndCheckedInputs) {
  RunResult run;
  BenchmarkResult skipped;
  skipped.name = "noisy";
  skipped.skipped = Skipped{"ci", "8% between runners"};
  BenchmarkResult reader;
  reader.name = "reader";
  reader.samples.push_back(Sample{});
  reader.inputs.push_back(InputFile{"corpus/rows.csv", 12, std::string(64, 'a')});
  run.benchmarks = {skipped, reader};
  run.context.inputs = reader.inputs;
  const std::string text = to_json(run);
  EXPECT_THAT(text, HasSubstr("\"skipped\": {\n        \"tag\": \"ci\",\n        \"reason\": "
                              "\"8% between runners\"\n      }"));
  auto parsed = from_json(text, "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(to_json(parsed->run), text);
  ASSERT_TRUE(parsed->run.benchmarks[0].skipped);
  EXPECT_EQ(parsed->run.benchmarks[0].skipped->reason, "8% between runners");
  EXPECT_FALSE(parsed->run.benchmarks[1].skipped);
  ASSERT_EQ(parsed->run.context.inputs.size(), 1u);
  EXPECT_EQ(parsed->run.context.inputs[0].path, "corpus/rows.csv");
  EXPECT_EQ(parsed->run.benchmarks[1].inputs[0].bytes, 12u);
  // Both fields are left out when empty: older files and readers see no change.
  EXPECT_THAT(to_json(testing::sample_run()), ::testing::Not(HasSubstr("\"inputs\"")));
  EXPECT_THAT(to_json(testing::sample_run()), ::testing::Not(HasSubstr("\"skipped\"")));
  const auto bad = from_json(R"({"schema":"benchkit/result","version":1,"benchmarks":[)"
                             R"({"name":"a","samples":[],"skipped":{"tag":"ci"}}]})",
                             "r.json");
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.error().message, HasSubstr("benchmarks[0].skipped.reason: missing"));
}

TEST(ResultJson, RoundTripsResourcesAndFailuresOfCommands) {
  RunResult run;
  BenchmarkResult b;
  b.name = "zstd/level=3";
  b.kind = "command";
  b.command = "zstd -3 -c input.bin";
  b.failures = {"run 4 exited with status 1"};
  Sample s;
  s.ns = 5e6;
  Resources r;
  r.user_ns = 4e6;
  r.system_ns = 1e6;
  r.peak_rss_bytes = 3 << 20;
  r.minor_faults = 120;
  r.exit_code = 1;
  r.timed_out = true;
  s.resources = r;
  b.samples = {s, Sample{}};
  run.benchmarks.push_back(b);
  auto parsed = from_json(to_json(run), "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const BenchmarkResult& back = parsed->run.benchmarks.at(0);
  EXPECT_EQ(back.command, b.command);
  EXPECT_EQ(back.failures, b.failures);
  EXPECT_FALSE(back.valid());
  ASSERT_TRUE(back.samples[0].resources.has_value());
  EXPECT_EQ(back.samples[0].resources->peak_rss_bytes, r.peak_rss_bytes);
  EXPECT_EQ(back.samples[0].resources->user_ns, r.user_ns);
  EXPECT_EQ(back.samples[0].resources->exit_code, std::optional<int>(1));
  EXPECT_FALSE(back.samples[0].resources->signal.has_value());
  EXPECT_TRUE(back.samples[0].resources->timed_out);
  EXPECT_FALSE(back.samples[1].resources.has_value());
  EXPECT_EQ(to_json(parsed->run), to_json(run));
}

TEST(ResultJson, RoundTripsMachineSpeedReadingsAndTheSlowSampleCount) {
  RunResult run;
  BenchmarkResult b;
  b.name = "sort";
  Sample fast;
  fast.iters = 10;
  fast.ns = 1000;
  fast.probe_ns = 1800.5;
  Sample unread;
  unread.iters = 10;
  unread.ns = 1100;
  b.samples = {fast, unread};
  b.estimates.slow_samples = 7;
  run.benchmarks.push_back(b);
  auto parsed = from_json(to_json(run), "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const BenchmarkResult& back = parsed->run.benchmarks.at(0);
  EXPECT_EQ(back.samples[0].probe_ns, std::optional<double>(1800.5));
  EXPECT_FALSE(back.samples[1].probe_ns.has_value());
  EXPECT_EQ(back.estimates.slow_samples, 7u);
  EXPECT_EQ(to_json(parsed->run), to_json(run));
}

TEST(ResultJson, TheSmallestValidDocumentGetsItsEstimatesRecomputed) {
  const std::string minimal = R"({"schema": "benchkit/result", "version": 1,
    "benchmarks": [{"name": "external", "samples": [{"iters": 10, "ns": 1000},
                                                    {"iters": 10, "ns": 3000},
                                                    {"iters": 10, "ns": 2000}]}]})";
  auto parsed = from_json(minimal, "minimal.json");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_FALSE(parsed->estimates_present);
  RunResult run = parsed->run;
  analysis::compute_estimates(run);
  EXPECT_EQ(run.benchmarks[0].kind, "micro");
  EXPECT_DOUBLE_EQ(run.benchmarks[0].estimates.median.value, 200.0);
  EXPECT_DOUBLE_EQ(run.benchmarks[0].estimates.min, 100.0);
}

// ---- Every field, compared member by member ----------------------------------------------------
//
// Each result struct as a tuple of references to all its members, in declaration order. A
// structured binding must name every member, so a member added to a struct stops this file
// compiling until it is listed here, and then the round trip below shows whether the format
// carries it.
auto members(const Resources& r) {
  const auto& [a, b, c, d, e, f, g, h, i, j, k] = r;
  return std::tie(a, b, c, d, e, f, g, h, i, j, k);
}
auto members(const Sample& s) {
  const auto& [a, b, c, d, e, f, g, h] = s;
  return std::tie(a, b, c, d, e, f, g, h);
}
auto members(const Estimate& e) {
  const auto& [a, b, c, d] = e;
  return std::tie(a, b, c, d);
}
auto members(const Estimates& e) {
  const auto& [a, b, c, d, f, g, h, i, j, k, l, m, n, o, p, q] = e;
  return std::tie(a, b, c, d, f, g, h, i, j, k, l, m, n, o, p, q);
}
auto members(const Diagnostic& d) {
  const auto& [a, b, c] = d;
  return std::tie(a, b, c);
}
auto members(const Memory& m) {
  const auto& [a, b, c] = m;
  return std::tie(a, b, c);
}
auto members(const Failure& f) {
  const auto& [a, b, c, d] = f;
  return std::tie(a, b, c, d);
}
auto members(const Skipped& s) {
  const auto& [a, b] = s;
  return std::tie(a, b);
}
auto members(const InputFile& f) {
  const auto& [a, b, c] = f;
  return std::tie(a, b, c);
}
auto members(const ExactCount& count) {
  const auto& [a, b, c] = count;
  return std::tie(a, b, c);
}
auto members(const ComplexityPoint& point) {
  const auto& [a, b, c, d, e] = point;
  return std::tie(a, b, c, d, e);
}
auto members(const ComplexityCandidate& candidate) {
  const auto& [a, b, c, d] = candidate;
  return std::tie(a, b, c, d);
}
auto members(const ComplexityResult& fit) {
  const auto& [a, b, c, d, e, f, g, h, i, j, k, l, m] = fit;
  return std::tie(a, b, c, d, e, f, g, h, i, j, k, l, m);
}
auto members(const BenchmarkResult& r) {
  const auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, t, u, v, w, x, y, z, aa, ab, ac] =
      r;
  return std::tie(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, t, u, v, w, x, y, z, aa, ab,
                  ac);
}
auto members(const Shard& shard) {
  const auto& [a, b, c, d, e] = shard;
  return std::tie(a, b, c, d, e);
}
auto members(const Context& c) {
  const auto& [a, b, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, aa, ab,
               ac] = c;
  return std::tie(a, b, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, aa, ab,
                  ac);
}
auto members(const RunResult& run) {
  const auto& [a, b, c] = run;
  return std::tie(a, b, c);
}

template <class T>
concept HasMembers = requires(const T& value) {
  members(value);
};

// Paths of the members that differ, as "benchmarks[0].samples[1]#4" (#: the member's index).
using Differences = std::vector<std::string>;

template <class T>
void compare(Differences& out, const std::string& path, const T& a, const T& b);

template <class T>
void compare(Differences& out, const std::string& path, const std::optional<T>& a,
             const std::optional<T>& b) {
  if (a.has_value() != b.has_value()) {
    out.push_back(path + (a ? " (lost)" : " (appeared)"));
  } else if (a) {
    compare(out, path, *a, *b);
  }
}

template <class T>
void compare(Differences& out, const std::string& path, const std::vector<T>& a,
             const std::vector<T>& b) {
  if (a.size() != b.size()) {
    out.push_back(fmt::format("{} ({} elements, then {})", path, a.size(), b.size()));
    return;
  }
  for (std::size_t i = 0; i < a.size(); ++i)
    compare(out, fmt::format("{}[{}]", path, i), a[i], b[i]);
}

template <class T>
void compare(Differences& out, const std::string& path, const T& a, const T& b) {
  if constexpr (HasMembers<T>) {
    const auto left = members(a);
    const auto right = members(b);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (compare(out, fmt::format("{}#{}", path, I), std::get<I>(left), std::get<I>(right)), ...);
    }
    (std::make_index_sequence<std::tuple_size_v<decltype(left)>>{});
  } else if (!(a == b)) {
    out.push_back(path);
  }
}

Differences differences(const RunResult& a, const RunResult& b) {
  Differences out;
  compare(out, "run", a, b);
  return out;
}

// A run in which every member of every struct differs from its default (and bounds differ from
// their estimate), so a field that the format drops or reads back wrong shows.
RunResult every_field_run() {
  RunResult run;
  Context& c = run.context;
  c.date = "2026-11-29T12:00:00Z";
  c.tool_version = "9.8.7";
  c.hostname = "host";
  c.os = "os";
  c.kernel = "kernel";
  c.cpu_model = "cpu";
  c.logical_cpus = 12;
  c.compiler = "compiler";
  c.build_type = "RelWithDebInfo";
  c.optimized = false;
  c.assertions = true;
  c.compile_flags = "-O2 -g";
  c.library_flags = "-O3";
  c.git_commit = "abc";
  c.git_branch = "topic";
  c.git_dirty = true;
  c.executable = "/bin/bench";
  c.executable_sha256 = "ff00";
  c.command_line = "bench --seed 3";
  c.seed = 3;
  c.tags = {{"team", "core"}};
  c.machine = {{"memory", "ok: 16 GiB"}};
  c.checks = {{"governor", "warning: powersave"}};
  c.clock = {{"name", "tsc"}};
  c.process_peak_rss_bytes = 123456;
  c.warnings = {{"debug_build", "warning", "built without optimisation"}};
  c.inputs = {{"corpus/rows.csv", 12, std::string(64, 'a')}};
  c.shard = Shard{2, 4, "history", 12, 47};

  Resources r;
  r.user_ns = 1.5e6;
  r.system_ns = 2.5e5;
  r.peak_rss_bytes = 4096;
  r.rss_change_bytes = -512;
  r.minor_faults = 11;
  r.major_faults = 2;
  r.voluntary_switches = 3;
  r.involuntary_switches = 4;
  r.exit_code = 5;
  r.signal = 9;
  r.timed_out = true;

  Sample s;
  s.iters = 1000;
  s.ns = 123456.5;
  s.counters = {{"instructions", 1e6}};
  s.process = 2;
  s.round = 7;
  s.resources = r;
  s.probe_ns = 1800.25;
  s.turn = 1;

  BenchmarkResult b;
  b.name = "codec/size=64";
  b.kind = "command";
  b.metric = "instructions";
  b.params = {{"size", "64"}};
  b.samples = {s, Sample{3, 99.0, {}, 1, 0, std::nullopt, 2.0, std::nullopt}};
  b.bytes_per_iteration = 64;
  b.items_per_iteration = 8;
  b.counters = {{"ratio", 2.5}, {"bytes", 64}};
  b.counter_kinds = {{"bytes", counter::rate | counter::base_1024 | counter::per_thread}};
  b.label = "compact";
  b.threads = 4;
  b.overhead_ns_per_sample = 21.5;
  b.warm_up_iters = 500;
  b.warm_up_ns = 25000;
  b.first_iteration_ns = 900;
  b.untimed_ns = 77;
  b.memory = {1 << 20, 4096, "VmHWM"};
  Estimates& e = b.estimates;
  e.median = {120, 110, 130, 0.96};
  e.mean = {121, 111, 131, 0.9};
  e.min = 100;
  e.max = 150;
  e.stddev = 5.5;
  e.mad = 4.5;
  e.iqr = 6.5;
  e.mdape = 0.02;
  e.outliers_low = 1;
  e.outliers_high = 2;
  e.outliers_severe = 3;
  e.outlier_variance = 0.25;
  e.bytes_per_second = 5e8;
  e.items_per_second = 6e7;
  e.slow_samples = 4;
  e.between_process_share = 0.625;
  b.diagnostics = {{"drift", "warning", "the samples drift"}};
  b.failures = {"run 4 exited with status 5"};
  b.failure = Failure{Failure::Cause::exited, 9, 5, "the last line\nof its stderr"};
  b.command = "codec --size 64";
  b.skipped = Skipped{"ci", "noisy on shared runners"};
  b.inputs = {{"corpus/rows.csv", 12, std::string(64, 'a')}};
  b.exact_counts = {{"rows", 4'000'000, "corpus/rows.csv"}, {"batches", 40, ""}};
  b.complexity = ComplexityPoint{"codec", "size", 64, "f(N)", 4096.5};
  b.machine = {{"hostname", "runner-7"}, {"cpu_model", "Example CPU"}, {"fingerprint", "ab12"}};
  run.benchmarks = {b};
  ComplexityResult fit;
  fit.family = "codec";
  fit.param = "size";
  fit.requested = "f(N)";
  fit.big_o = "f(N)";
  fit.coefficient = {2.5, 2.25, 2.75, 0.9};
  fit.interval_method = "bootstrap";
  fit.rms = 0.04;
  fit.best = "N^2";
  fit.indistinguishable = {"N^3"};
  fit.stability = 0.75;
  fit.sizes = 5;
  fit.candidates = {{"N^2", 0.5, 0.03, 0.6}, {"f(N)", 2.5, 0.04, 0.4}};
  fit.source = "Google Benchmark";
  run.complexity = {fit};
  return run;
}

// Every list and object of every table, printed as it is made.
TEST(ResultJson, TheTextOfARunWithEveryFieldSetIsWhatTheJsonLibraryPrints) {
  const RunResult run = every_field_run();
  EXPECT_EQ(to_json(run), printed_by_the_library(to_json(run)));
}

// The compact layout is dump()'s one line, and reads back as the same run.
TEST(ResultJson, TheCompactLayoutIsOneLineThatReadsBack) {
  const RunResult run = every_field_run();
  std::ostringstream out;
  write_json(run, out, Layout::compact);
  EXPECT_EQ(out.str(), nlohmann::ordered_json::parse(to_json(run)).dump());
  EXPECT_EQ(out.str().find('\n'), std::string::npos);
  auto parsed = from_json(out.str(), "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(to_json(parsed->run), to_json(run));
  std::ostringstream empty;
  write_json(RunResult{}, empty, Layout::compact);
  EXPECT_EQ(empty.str(), nlohmann::ordered_json::parse(to_json(RunResult{})).dump());
}

TEST(ResultJson, RoundTripsARunWithEveryFieldSet) {
  const RunResult original = every_field_run();
  auto parsed = from_json(to_json(original), "memory");
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_TRUE(parsed->estimates_present);
  EXPECT_THAT(differences(original, parsed->run), ::testing::IsEmpty());
}

TEST(ResultJson, TheComparisonNoticesAFieldLeftAtItsDefault) {
  // What a reader that skipped a field would give: the comparison above must notice it.
  RunResult skipped = every_field_run();
  skipped.benchmarks[0].samples[0].resources->minor_faults.reset();
  skipped.benchmarks[0].estimates.mean.confidence = 0.95;
  skipped.context.git_dirty.reset();
  EXPECT_THAT(
      differences(every_field_run(), skipped),
      ::testing::ElementsAre("run#0#15 (lost)", "run#1[0]#4[0]#5#4 (lost)", "run#1[0]#14#1#3"));
}

// Every key the writer produces, as a JSON pointer, objects and arrays included.
void collect_keys(const nlohmann::ordered_json& node,
                  const nlohmann::ordered_json::json_pointer& at,
                  std::vector<nlohmann::ordered_json::json_pointer>& out) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      out.push_back(at / it.key());
      collect_keys(*it, at / it.key(), out);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) collect_keys(node[i], at / i, out);
  }
}

TEST(ResultJson, TheReaderUsesEveryKeyTheWriterWrites) {
  // A field that the reader dropped (or a key that only the writer knows) reads back the same
  // whether its key is in the document or not.
  const std::string text = to_json(every_field_run());
  const auto whole = from_json(text, "memory");
  ASSERT_TRUE(whole) << whole.error().message;
  const auto document = nlohmann::ordered_json::parse(text);
  std::vector<nlohmann::ordered_json::json_pointer> keys;
  collect_keys(document, nlohmann::ordered_json::json_pointer(), keys);
  ASSERT_GT(keys.size(), 100u);
  for (const auto& key : keys) {
    auto without = document;
    without[key.parent_pointer()].erase(key.back());
    auto parsed = from_json(without.dump(), "memory");
    if (!parsed) continue;  // a required key: refused without it
    EXPECT_THAT(differences(whole->run, parsed->run), ::testing::Not(::testing::IsEmpty()))
        << "deleting " << key.to_string() << " changed nothing: the reader ignores it";
  }
}

TEST(ResultJson, WritesOneBenchmarkOnOneLineAsInARun) {
  const RunResult run = every_field_run();
  const std::string line = benchmark_to_json(run.benchmarks[0]);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  // The same object as the run's entry, compact.
  EXPECT_EQ(line, nlohmann::ordered_json::parse(to_json(run))["benchmarks"][0].dump());
  auto back = benchmark_from_json(line, "worker 1");
  ASSERT_TRUE(back) << back.error().message;
  RunResult again;
  again.context = run.context;
  again.benchmarks = {*back};
  again.complexity = run.complexity;  // the run's, not the benchmark's
  EXPECT_THAT(differences(run, again), ::testing::IsEmpty());
}

TEST(ResultJson, ReadsTheSmallestBenchmarkAndNamesThePlaceOfAProblem) {
  auto smallest =
      benchmark_from_json(R"({"name": "a", "samples": [{"iters": 2, "ns": 10}]})", "worker 1");
  ASSERT_TRUE(smallest) << smallest.error().message;
  EXPECT_EQ(smallest->kind, "micro");
  EXPECT_EQ(smallest->samples.at(0).iters, 2u);

  auto no_ns = benchmark_from_json(R"({"name": "a", "samples": [{"iters": 1}]})", "worker 1");
  ASSERT_FALSE(no_ns);
  EXPECT_EQ(no_ns.error().message, "worker 1: samples[0].ns: missing (a number is required)");
  auto not_object = benchmark_from_json("[1]", "worker 1");
  ASSERT_FALSE(not_object);
  EXPECT_EQ(not_object.error().message, "worker 1: (top level): expected an object, got array");
  auto damaged = benchmark_from_json(R"({"name": "a", "sam)", "worker 1");
  ASSERT_FALSE(damaged);
  EXPECT_THAT(damaged.error().message, HasSubstr("worker 1: not valid JSON"));
}

struct BadInput {
  const char* label;
  std::string text;
  std::string expected;
};

class ResultJsonErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(ResultJsonErrors, NameTheFileThePlaceAndTheProblem) {
  auto parsed = from_json(GetParam().text, "base.json");
  ASSERT_FALSE(parsed) << GetParam().label;
  EXPECT_THAT(parsed.error().message, HasSubstr("base.json"));
  EXPECT_THAT(parsed.error().message, HasSubstr(GetParam().expected));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ResultJsonErrors,
    ::testing::Values(
        BadInput{"truncated", R"({"schema": "benchkit/result", "version": 1, "benchm)",
                 "truncated"},
        BadInput{"not json", "hello", "line 1, column 1"},
        BadInput{"wrong schema", R"({"schema": "other", "version": 1, "benchmarks": []})",
                 "schema: is \"other\""},
        BadInput{"no schema", R"({"benchmarks": []})", "docs/interop.md"},
        BadInput{"future version",
                 R"({"schema": "benchkit/result", "version": 9, "benchmarks": []})",
                 "version 9 is not supported"},
        BadInput{"missing ns",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1}]}]})",
                 "benchmarks[0].samples[0].ns: missing"},
        BadInput{"text ns",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1, "ns": "5"}]}]})",
                 "expected a number, got string"},
        BadInput{"zero iters",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 0, "ns": 5}]}]})",
                 "iters: must be at least 1"},
        BadInput{"negative ns",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1, "ns": -5}]}]})",
                 "non-negative"},
        BadInput{"zero probe",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [{"iters": 1, "ns": 5,
                                                               "probe_ns": 0}]}]})",
                 "samples[0].probe_ns: must be a positive number"},
        BadInput{"no name",
                 R"({"schema": "benchkit/result", "version": 1, "benchmarks": [{"samples": []}]})",
                 "benchmarks[0].name: missing"},
        BadInput{"bad kind",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "kind": "macro", "samples": []}]})",
                 "unknown kind \"macro\""},
        BadInput{"unknown counter flag",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [], "counters": {"b": 1},
                                     "counter_kinds": {"b": ["rate", "per_second"]}}]})",
                 "benchmarks[0].counter_kinds.b: unknown counter flag"},
        BadInput{"negative exact count",
                 R"({"schema": "benchkit/result", "version": 1,
                     "benchmarks": [{"name": "a", "samples": [],
                                     "exact_counts": [{"name": "rows", "value": -1}]}]})",
                 "benchmarks[0].exact_counts[0].value: expected a non-negative integer"}),
    [](const ::testing::TestParamInfo<BadInput>& info) {
      std::string name = info.param.label;
      for (char& c : name) {
        if (c == ' ') c = '_';
      }
      return name;
    });

TEST(ResultJson, KeepsCounterKindsAndLabelsAndReadsFilesWithoutThem) {
  RunResult run;
  BenchmarkResult b;
  b.name = "hash";
  b.samples.push_back(Sample{});
  b.counters = {{"bytes", 64}, {"hits", 3000}, {"size", 4096}};
  b.counter_kinds = {{"bytes", counter::rate | counter::base_1024},
                     {"hits", counter::per_iteration | counter::invert}};
  b.label = "text payload";
  run.benchmarks.push_back(b);
  const std::string text = to_json(run);
  EXPECT_THAT(text, HasSubstr(R"("bytes": [)"));
  EXPECT_THAT(text, HasSubstr(R"("label": "text payload")"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr(R"("size": [)")))
      << "a plain counter has no kind written";
  auto parsed = from_json(text, "kinds.json");
  ASSERT_TRUE(parsed) << parsed.error().message;
  const BenchmarkResult& read = parsed->run.benchmarks.at(0);
  EXPECT_EQ(read.counters, b.counters) << "the values stay as the benchmark set them";
  EXPECT_EQ(read.counter_kinds, b.counter_kinds);
  EXPECT_EQ(read.label, "text payload");

  // A file written before kinds and labels existed: every counter plain, no label.
  auto old = from_json(R"({"schema": "benchkit/result", "version": 1, "benchmarks": [
      {"name": "a", "samples": [{"iters": 1, "ns": 5}], "counters": {"ratio": 2.5}}]})",
                       "old.json");
  ASSERT_TRUE(old) << old.error().message;
  EXPECT_DOUBLE_EQ(old->run.benchmarks.at(0).counters.at("ratio"), 2.5);
  EXPECT_TRUE(old->run.benchmarks.at(0).counter_kinds.empty());
  EXPECT_TRUE(old->run.benchmarks.at(0).label.empty());
}

TEST(ResultJson, CarriesTheMetricOfCountsAndRefusesAnUnknownOne) {
  RunResult run;
  BenchmarkResult counted;
  counted.name = "steady";
  counted.metric = "instructions";
  counted.samples.push_back(Sample{});
  run.benchmarks.push_back(counted);
  const std::string text = to_json(run);
  EXPECT_THAT(text, HasSubstr("\"metric\": \"instructions\""));
  auto parsed = from_json(text, "counted.json");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->run.benchmarks[0].metric, "instructions");
  const auto wrong = from_json(
      R"({"schema": "benchkit/result", "version": 1, "benchmarks": [{"name": "a", "metric": "joules", "samples": [{"iters": 1, "ns": 1}]}]})",
      "wrong.json");
  ASSERT_FALSE(wrong);
  EXPECT_THAT(wrong.error().message, HasSubstr("benchmarks[0].metric: unknown metric"));
}
}  // namespace
}  // namespace benchkit::formats
