// `benchkit system`: the machine checks (status, value, advice) as a table or as JSON. system/
// reads the machine, report/machine_checks renders it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "benchkit_build_info.hpp"
#include "cli/commands.hpp"
#include "report/machine_checks.hpp"
#include "report/reporter.hpp"
#include "system/checks.hpp"
#include "system/context.hpp"
#include "system/counter_probe.hpp"
#include "system/fingerprint.hpp"
#include "system/machine_files.hpp"

namespace benchkit::cli {

namespace {

struct SystemOptions {
  bool json = false;
};

}  // namespace

CommandRunner add_system_command(CLI::App& app) {
  auto options = std::make_shared<SystemOptions>();
  CLI::App* command = app.add_subcommand("system");
  command->add_flag("--json", options->json);
  return when_parsed(command, [options]() -> int {
    const system::RootedMachineFiles files("/");
    const std::vector<system::Check> checks = system::run_checks(
        files, system::probe_hardware_counters, [] { return system::probe_cpu_speeds(); });
    const std::map<std::string, std::string> facts = system::machine_facts(files);
    const system::Fingerprint machine =
        system::machine_fingerprint(system::collect_context(), facts);
    const report::SystemReport report{checks, facts, machine.id(), machine.fields,
                                      build_info::version};
    const report::Format format = options->json ? report::Format::json : report::Format::console;
    std::cout << report::make_reporter(format)->render(report::Document{.machine_checks = &report});
    return 0;
  });
}

}  // namespace benchkit::cli
