// Inside cli/: the pieces of `benchkit history` shared by its files (history_command.cpp for
// recording and reading, history_gate_command.cpp for check and report).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "session/history_options.hpp"
#include "store/history_store.hpp"

namespace CLI {
class App;
}

namespace benchkit::cli {

// The flags of every subcommand, plain data (session/history_options.hpp).
using session::HistoryOptions;

using HistoryAction = std::function<int(const HistoryOptions&)>;
using HistoryActions = std::vector<std::pair<CLI::App*, HistoryAction>>;

// Opens the history of --store (or its default) and runs `body` on it; a history that cannot be
// opened is reported (exit status 2) and `body` not run.
int with_store(const HistoryOptions& options, const std::function<int(store::Store&)>& body);

// --format FORMAT, one of `formats` ("markdown" also as "md"), and --out FILE.
void add_output(CLI::App& command, HistoryOptions& options,
                const std::vector<model::Format>& formats);

// --machine and --branch (default: the newest run's), and with `dates` --since and --before.
void add_selection(CLI::App& command, HistoryOptions& options, bool dates);

void add_reading_subcommands(CLI::App& history, const std::shared_ptr<HistoryOptions>& options,
                             HistoryActions& actions);
void add_gate_subcommands(CLI::App& history, const std::shared_ptr<HistoryOptions>& options,
                          HistoryActions& actions);

}  // namespace benchkit::cli
