// benchkit::Bench: the programmatic front of the engine.
#include <functional>
#include <optional>
#include <stdexcept>
#include <utility>

#include "benchkit/bench.hpp"
#include "measure/instances.hpp"
#include "session/runner.hpp"
#include "session/skips.hpp"

namespace benchkit {

struct Bench::Impl {
  session::RunSettings settings;
  std::vector<std::string> skip_tags;

  // The skipped entry of `name` when a rule's tag is among skip_tags (the rules checked first).
  std::optional<BenchmarkResult> skipped(const std::string& name, const std::string& kind,
                                         const std::vector<SkipRule>& skip_when) const {
    std::vector<SkipRule> rules;
    for (const SkipRule& rule : skip_when) {
      rules.push_back(measure::checked_skip_rule(name, rule.tag, rule.reason));
    }
    return session::skipped_by(name, kind, {}, rules, skip_tags);
  }
};

Bench::Bench() : impl_(new Impl()) {}
Bench::~Bench() {
  delete impl_;
}
Bench::Bench(Bench&& other) noexcept : impl_(std::exchange(other.impl_, nullptr)) {}
Bench& Bench::operator=(Bench&& other) noexcept {
  if (this != &other) {
    delete impl_;
    impl_ = std::exchange(other.impl_, nullptr);
  }
  return *this;
}

Bench& Bench::sample_size(std::size_t samples) {
  impl_->settings.engine.choose_sample_size(samples);
  return *this;
}
std::size_t Bench::sample_size() const {
  return impl_->settings.engine.min_samples;
}

Bench& Bench::set_time_budget_ns(std::int64_t budget) {
  impl_->settings.engine.time_budget_ns = budget;
  return *this;
}
std::int64_t Bench::time_budget() const {
  return impl_->settings.engine.time_budget_ns;
}

Bench& Bench::set_warm_up_ns(std::int64_t duration) {
  impl_->settings.engine.choose_warm_up(duration);
  return *this;
}
std::int64_t Bench::warm_up() const {
  return impl_->settings.engine.warm_up_ns;
}

Bench& Bench::precision(double relative_half_width) {
  if (!(relative_half_width > 0.0)) {
    throw std::invalid_argument("Bench::precision must be positive, e.g. 0.01 for ±1%");
  }
  impl_->settings.engine.precision = relative_half_width;
  return *this;
}
double Bench::precision() const {
  return impl_->settings.engine.precision;
}

Bench& Bench::seed(std::uint64_t value) {
  impl_->settings.seed = value;
  return *this;
}
std::uint64_t Bench::seed() const {
  return impl_->settings.seed;
}

Bench& Bench::test_mode(bool enabled) {
  impl_->settings.engine.test_mode = enabled;
  return *this;
}
bool Bench::test_mode() const {
  return impl_->settings.engine.test_mode;
}

Bench& Bench::repetitions(std::size_t count) {
  if (count == 0) throw std::invalid_argument("Bench::repetitions must be at least 1");
  impl_->settings.repetitions = count;
  return *this;
}
std::size_t Bench::repetitions() const {
  return impl_->settings.repetitions;
}

Bench& Bench::skip_tags(std::vector<std::string> tags) {
  impl_->skip_tags = std::move(tags);
  return *this;
}
const std::vector<std::string>& Bench::skip_tags() const {
  return impl_->skip_tags;
}

BenchmarkResult Bench::run(std::string name, detail::FunctionRef<void(Bencher&)> body) {
  return session::run_one(impl_->settings, name, body, session::process_probes());
}

BenchmarkResult Bench::run(std::string name, detail::FunctionRef<void(Bencher&)> body,
                           const std::vector<SkipRule>& skip_when) {
  if (auto skipped = impl_->skipped(name, "micro", skip_when)) return std::move(*skipped);
  return run(std::move(name), body);
}

std::vector<BenchmarkResult> Bench::run_scenario(std::string name,
                                                 detail::FunctionRef<void(Scenario&)> body) {
  return session::run_scenario(impl_->settings, name, body);
}

std::vector<BenchmarkResult> Bench::run_scenario(std::string name,
                                                 detail::FunctionRef<void(Scenario&)> body,
                                                 const std::vector<SkipRule>& skip_when) {
  if (auto skipped = impl_->skipped(name, "scenario", skip_when)) return {std::move(*skipped)};
  return run_scenario(std::move(name), body);
}

RunResult Bench::run_registered(const std::string& filter) {
  auto chosen = session::select(measure::expand_registered(), filter, false);
  std::vector<BenchmarkResult> skipped = session::take_skipped(chosen, impl_->skip_tags);
  std::size_t failures = 0;
  std::string first_error;
  session::Progress progress;
  progress.failed = [&](const std::string& name, const std::string& error) {
    if (first_error.empty()) first_error = name + ": " + error;
  };
  RunResult run = session::run_instances(impl_->settings, chosen, progress, failures);
  if (failures > 0) throw std::runtime_error(first_error);
  for (BenchmarkResult& result : skipped) run.benchmarks.push_back(std::move(result));
  return run;
}

}  // namespace benchkit
