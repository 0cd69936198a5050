// The bench binary's flags: what a user types, bound to session::BenchOptions.
#pragma once

#include "report/reporter.hpp"
#include "session/bench_options.hpp"

namespace CLI {
class App;
}

namespace benchkit::cli {

// The user's flags, bound to the fields of session::BenchOptions (plain data, and what it
// becomes: session/bench_options.hpp).
using BenchFlags = session::BenchOptions;

// Registers every flag of the bench binary on `app`.
void add_bench_flags(CLI::App& app, BenchFlags& flags);

// --format, or console (json when --out is given).
report::Format output_format(const BenchFlags& flags);

}  // namespace benchkit::cli
