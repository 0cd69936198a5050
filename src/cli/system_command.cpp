// `benchkit system`: the machine checks (status, value, advice) as a table or as JSON.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "benchkit_build_info.hpp"
#include "cli/commands.hpp"
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

// The format of `benchkit system --json`; raise the version when a key changes meaning.
constexpr const char* kSystemSchema = "benchkit/system";
constexpr int kSystemSchemaVersion = 1;

nlohmann::ordered_json fingerprint_json(const system::Fingerprint& fingerprint) {
  nlohmann::ordered_json fields = nlohmann::ordered_json::object();
  for (const auto& [field, value] : fingerprint.fields) fields[field] = value;
  return {{"id", fingerprint.id()}, {"fields", fields}};
}

}  // namespace

CommandRunner add_system_command(CLI::App& app) {
  auto options = std::make_shared<SystemOptions>();
  CLI::App* command = app.add_subcommand(
      "system",
      "Check this machine for what adds noise to measurements (frequency scaling, turbo, SMT, "
      "load, virtualisation, ...) and say how to fix it. Exit status 0: the checks are advice.");
  command->add_flag("--json", options->json,
                    "Print the checks as JSON (schema benchkit/system, version 1)");
  return [command, options]() -> int {
    if (!command->parsed()) return -1;
    const system::RootedMachineFiles files("/");
    const std::vector<system::Check> checks =
        system::run_checks(files, system::probe_hardware_counters);
    const std::map<std::string, std::string> facts = system::machine_facts(files);
    const system::Fingerprint machine =
        system::machine_fingerprint(system::collect_context(), facts);
    if (!options->json) {
      std::cout << system::render_checks_table(checks) << "\nmachine fingerprint " << machine.id()
                << "\n";
      return 0;
    }
    nlohmann::ordered_json document;
    document["schema"] = kSystemSchema;
    document["version"] = kSystemSchemaVersion;
    document["tool_version"] = build_info::version;
    document["checks"] = nlohmann::ordered_json::array();
    for (const system::Check& check : checks) {
      document["checks"].push_back({{"id", check.id},
                                    {"title", check.title},
                                    {"status", std::string(system::to_string(check.status))},
                                    {"value", check.value},
                                    {"advice", check.advice}});
    }
    nlohmann::ordered_json facts_json = nlohmann::ordered_json::object();
    for (const auto& [key, value] : facts) facts_json[key] = value;
    document["facts"] = facts_json;
    document["fingerprint"] = {{"machine", fingerprint_json(machine)}};
    std::cout << document.dump(2) << "\n";
    return 0;
  };
}

}  // namespace benchkit::cli
