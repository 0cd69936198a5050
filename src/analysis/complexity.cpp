#include "analysis/complexity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

namespace benchkit::analysis {

namespace {

struct Family {
  std::string name;
  std::string param;
  std::string fit;
  std::vector<BenchmarkResult*> members;
};

std::vector<Family> families_of(RunResult& run) {
  std::vector<Family> families;
  for (BenchmarkResult& b : run.benchmarks) {
    if (!b.complexity) continue;
    auto found = std::find_if(families.begin(), families.end(),
                              [&](const Family& f) { return f.name == b.complexity->family; });
    if (found == families.end()) {
      families.push_back({b.complexity->family, b.complexity->param, b.complexity->fit, {}});
      found = std::prev(families.end());
    }
    found->members.push_back(&b);
  }
  return families;
}

// Why a family cannot be fitted, or empty when it can.
std::string unfit_reason(const Family& family) {
  std::set<double> sizes;
  for (const BenchmarkResult* b : family.members) {
    if (!b->valid() || b->failure || b->skipped || b->samples.empty()) {
      return fmt::format("{} has no valid samples", b->name);
    }
    sizes.insert(b->complexity->n);
  }
  if (sizes.size() < 2) {
    return fmt::format("it has {} size{} of {} (at least 2 are needed)", sizes.size(),
                       sizes.size() == 1 ? "" : "s", family.param);
  }
  if (family.fit == "f(N)") {
    for (const BenchmarkResult* b : family.members) {
      if (!b->complexity->custom) return fmt::format("{} has no value of the function", b->name);
    }
  } else if (family.fit != "auto" && !growth_named(family.fit)) {
    return fmt::format("\"{}\" is not a class (expected auto, (1), lgN, N, NlgN, N^2, N^3, f(N))",
                       family.fit);
  }
  return {};
}

ComplexityResult result_of(const Family& family, const stats::ComplexityFit& fit) {
  ComplexityResult out;
  out.family = family.name;
  out.param = family.param;
  out.requested = family.fit;
  out.big_o = big_o_name(fit.selected().growth);
  out.coefficient = Estimate{fit.coefficient, fit.lower, fit.upper, 0.95};
  out.interval_method = fit.bootstrapped ? "bootstrap" : "regression";
  out.rms = fit.selected().rms;
  out.best = big_o_name(fit.best().growth);
  for (stats::Growth growth : fit.indistinguishable) {
    out.indistinguishable.push_back(big_o_name(growth));
  }
  out.stability = fit.stability;
  out.sizes = family.members.size();
  for (const stats::GrowthFit& candidate : fit.candidates) {
    out.candidates.push_back({big_o_name(candidate.growth), candidate.coefficient, candidate.rms,
                              candidate.akaike_weight});
  }
  return out;
}

}  // namespace

std::string big_o_name(stats::Growth growth) {
  switch (growth) {
    case stats::Growth::constant:
      return "(1)";
    case stats::Growth::log_n:
      return "lgN";
    case stats::Growth::n:
      return "N";
    case stats::Growth::n_log_n:
      return "NlgN";
    case stats::Growth::n_squared:
      return "N^2";
    case stats::Growth::n_cubed:
      return "N^3";
    case stats::Growth::custom:
      return "f(N)";
  }
  return "?";
}

std::optional<stats::Growth> growth_named(std::string_view name) {
  for (stats::Growth growth :
       {stats::Growth::constant, stats::Growth::log_n, stats::Growth::n, stats::Growth::n_log_n,
        stats::Growth::n_squared, stats::Growth::n_cubed, stats::Growth::custom}) {
    if (big_o_name(growth) == name) return growth;
  }
  return std::nullopt;
}

std::string big_o_words(std::string_view big_o) {
  if (big_o == "(1)") return "O(1)";
  if (big_o == "lgN") return "O(log n)";
  if (big_o == "N") return "O(n)";
  if (big_o == "NlgN") return "O(n log n)";
  if (big_o == "N^2") return "O(n²)";
  if (big_o == "N^3") return "O(n³)";
  if (big_o == "f(N)") return "O(f(n))";
  return "O(" + std::string(big_o) + ")";
}

double fitted_value(const ComplexityResult& fit, double n, std::optional<double> custom) {
  const auto growth = growth_named(fit.big_o);
  if (!growth) return 0.0;
  if (*growth == stats::Growth::custom) return custom ? fit.coefficient.value * *custom : 0.0;
  return fit.coefficient.value * stats::growth_term(*growth, n);
}

void fit_complexity(RunResult& run) {
  std::erase_if(run.complexity, [](const ComplexityResult& fit) { return fit.source.empty(); });
  for (Family& family : families_of(run)) {
    const std::string reason = unfit_reason(family);
    if (!reason.empty()) {
      std::vector<Diagnostic>& diagnostics = family.members.front()->diagnostics;
      std::erase_if(diagnostics,
                    [](const Diagnostic& d) { return d.code == "complexity_not_fitted"; });
      diagnostics.push_back({"complexity_not_fitted", "info",
                             fmt::format("No complexity fit for {}: {}; give .param(\"{}\", ...) "
                                         "several sizes, spread over a factor of 16 or more",
                                         family.name, reason, family.param)});
      continue;
    }
    std::vector<stats::SizeSamples> sizes;
    for (const BenchmarkResult* b : family.members) {
      sizes.push_back({b->complexity->n, b->per_iteration_ns(), b->complexity->custom});
    }
    stats::ComplexityRequest request;
    if (family.fit != "auto") request.fixed = growth_named(family.fit);
    if (run.context.seed != 0) request.seed = run.context.seed;
    run.complexity.push_back(result_of(family, stats::fit_complexity(sizes, request)));
  }
}

}  // namespace benchkit::analysis
