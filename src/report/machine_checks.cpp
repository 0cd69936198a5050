#include "report/machine_checks.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/parts.hpp"

namespace benchkit::report {
namespace {

// The format of `benchkit system --json`; raise the version when a key changes meaning.
constexpr const char* kSystemSchema = "benchkit/system";
constexpr int kSystemSchemaVersion = 1;

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word;
  std::string line;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

nlohmann::ordered_json string_map_json(const std::map<std::string, std::string>& values) {
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  for (const auto& [key, value] : values) object[key] = value;
  return object;
}

}  // namespace

std::string render_checks_table(const std::vector<model::MachineCheck>& checks) {
  std::size_t title_width = 5;
  for (const model::MachineCheck& check : checks) {
    title_width = std::max(title_width, check.title.size());
  }
  constexpr std::size_t kStatusWidth = 9;  // "warning" and two spaces
  // Advice is wrapped to 100 columns, the width benchkit's other tables keep to.
  constexpr std::size_t kLineWidth = 100;
  const std::string indent(kStatusWidth, ' ');
  auto pad = [](std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
  };
  std::string table = pad("status", kStatusWidth) + pad("check", title_width + 2) + "value\n";
  for (const model::MachineCheck& check : checks) {
    table += pad(std::string(model::to_string(check.status)), kStatusWidth) +
             pad(check.title, title_width + 2) + check.value + "\n";
    for (const std::string& line : wrap_words(check.advice, kLineWidth - kStatusWidth - 2)) {
      table += indent + "  " + line + "\n";
    }
  }
  return table;
}

std::string format_machine_warnings(const std::vector<model::MachineWarning>& warnings) {
  std::string text;
  for (const model::MachineWarning& warning : warnings) {
    text += "warning: " + warning.message + "\n";
    if (!warning.advice.empty()) text += "  " + warning.advice + "\n";
  }
  return text;
}

std::string parts::machine_checks_console(const SystemReport& report) {
  return render_checks_table(report.checks) + "\nmachine fingerprint " + report.fingerprint_id +
         "\n";
}

std::string parts::machine_checks_json(const SystemReport& report) {
  nlohmann::ordered_json document;
  document["schema"] = kSystemSchema;
  document["version"] = kSystemSchemaVersion;
  document["tool_version"] = report.tool_version;
  document["checks"] = nlohmann::ordered_json::array();
  for (const model::MachineCheck& check : report.checks) {
    document["checks"].push_back({{"id", check.id},
                                  {"title", check.title},
                                  {"status", std::string(model::to_string(check.status))},
                                  {"value", check.value},
                                  {"advice", check.advice}});
  }
  document["facts"] = string_map_json(report.facts);
  const nlohmann::ordered_json machine = {{"id", report.fingerprint_id},
                                          {"fields", string_map_json(report.fingerprint_fields)}};
  document["fingerprint"] = {{"machine", machine}};
  return document.dump(2) + "\n";
}

std::string render_system_console(const SystemReport& report) {
  return make_reporter(Format::console)->render(Document{.machine_checks = &report});
}

std::string render_system_json(const SystemReport& report) {
  return make_reporter(Format::json)->render(Document{.machine_checks = &report});
}

}  // namespace benchkit::report
