#include "process/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

namespace benchkit::process {
namespace {

constexpr std::size_t kMaxValues = 10'000;

// Shell syntax that spawning without a shell cannot honour.
constexpr std::string_view kShellOperators = "|&;<>()$`";

std::string shell_quote(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t\n'\"\\|&;<>()$`*?[]{}~#") == std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

model::Result<Parameter> scan_parameter(const std::string& name, double min, double max,
                                        double step) {
  if (!(step > 0)) {
    return model::Error{fmt::format("--parameter-step-size for {} must be positive", name)};
  }
  // strtod reads "nan" and "inf" as numbers; no count of values follows from them.
  if (!std::isfinite(min) || !std::isfinite(max) || !std::isfinite(step)) {
    return model::Error{fmt::format(
        "--parameter-scan {} {} {} (step {}): the bounds and the step must be finite numbers", name,
        min, max, step)};
  }
  if (max < min) {
    return model::Error{
        fmt::format("--parameter-scan {}: the maximum {} is below the minimum {}", name, max, min)};
  }
  const double count = std::floor((max - min) / step + 1e-9) + 1;
  if (count > static_cast<double>(kMaxValues)) {
    return model::Error{
        fmt::format("--parameter-scan {} would make {:.0f} values (at most {}); use a larger "
                    "--parameter-step-size",
                    name, count, kMaxValues)};
  }
  const bool integral = min == std::floor(min) && step == std::floor(step);
  // Decimals: as many as the step and the minimum need (0.1 -> 1, 0.25 -> 2), at most 9.
  int digits = 0;
  while (!integral && digits < 9) {
    const double scale = std::pow(10.0, digits);
    if (std::abs(step * scale - std::round(step * scale)) < 1e-9 &&
        std::abs(min * scale - std::round(min * scale)) < 1e-9) {
      break;
    }
    ++digits;
  }
  Parameter parameter{name, {}};
  for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
    const double value = min + static_cast<double>(i) * step;
    parameter.values.push_back(integral ? fmt::format("{:.0f}", value)
                                        : fmt::format("{:.{}f}", value, digits));
  }
  return parameter;
}

model::Result<Parameter> list_parameter(const std::string& name, const std::string& values) {
  Parameter parameter{name, {}};
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = values.find(',', start);
    const std::string item = values.substr(start, comma - start);
    if (item.empty()) {
      return model::Error{fmt::format(
          "--parameter-list {} \"{}\": an empty value (write the values as a,b,c)", name, values)};
    }
    parameter.values.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parameter;
}

std::string substitute(const std::string& text, const std::map<std::string, std::string>& values) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      const std::size_t close = text.find('}', i + 1);
      if (close != std::string::npos) {
        const auto found = values.find(text.substr(i + 1, close - i - 1));
        if (found != values.end()) {
          out += found->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

model::Result<std::vector<PlannedCommand>> expand(const std::vector<CommandSpec>& commands,
                                                  const std::vector<Parameter>& parameters,
                                                  const std::string& shell) {
  std::set<std::string> parameter_names;
  for (const Parameter& p : parameters) {
    if (!parameter_names.insert(p.name).second) {
      return model::Error{fmt::format("the parameter {} is given twice", p.name)};
    }
    if (p.values.empty())
      return model::Error{fmt::format("the parameter {} has no values", p.name)};
  }
  // Every combination, the first parameter varying slowest.
  std::vector<std::map<std::string, std::string>> combinations{{}};
  for (const Parameter& p : parameters) {
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& partial : combinations) {
      for (const std::string& value : p.values) {
        auto combined = partial;
        combined[p.name] = value;
        next.push_back(std::move(combined));
      }
    }
    combinations = std::move(next);
  }

  std::vector<PlannedCommand> planned;
  std::set<std::string> names;
  for (std::size_t c = 0; c < commands.size(); ++c) {
    const CommandSpec& spec = commands[c];
    std::string template_text = spec.shell_command;
    if (shell.empty()) {
      template_text.clear();
      for (const std::string& word : spec.argv)
        template_text += (template_text.empty() ? "" : " ") + word;
    }
    if (!parameters.empty()) {
      bool uses_any = false;
      for (const Parameter& p : parameters) {
        uses_any = uses_any || template_text.find("{" + p.name + "}") != std::string::npos ||
                   spec.name.find("{" + p.name + "}") != std::string::npos;
      }
      if (!uses_any) {
        return model::Error{fmt::format(
            "the command \"{}\" uses none of the parameters ({{{}}} would be replaced by each "
            "value); every combination would run the same thing",
            template_text, parameters.front().name)};
      }
    }
    for (const auto& values : combinations) {
      PlannedCommand out;
      out.command_index = c;
      out.params = values;
      out.env.reserve(spec.env.size());
      for (const std::string& e : spec.env) out.env.push_back(substitute(e, values));
      if (shell.empty()) {
        for (const std::string& word : spec.argv) {
          out.argv.push_back(substitute(word, values));
          out.display += (out.display.empty() ? "" : " ") + shell_quote(out.argv.back());
        }
      } else {
        out.argv = {shell, "-c", substitute(spec.shell_command, values)};
        out.display = out.argv.back();
      }
      if (spec.name.empty()) {
        out.name = out.display;
      } else {
        out.name = substitute(spec.name, values);
        if (out.name == spec.name) {
          for (const auto& [key, value] : values) out.name += "/" + key + "=" + value;
        }
      }
      if (!names.insert(out.name).second) {
        return model::Error{fmt::format(
            "two benchmarks would be named \"{}\"; give the commands different --name values",
            out.name)};
      }
      planned.push_back(std::move(out));
    }
  }
  return planned;
}

std::vector<std::size_t> round_order(std::size_t count, std::size_t round, Order order,
                                     std::uint64_t seed) {
  std::vector<std::size_t> indices(count);
  std::iota(indices.begin(), indices.end(), std::size_t{0});
  if (order == Order::alternate) {
    if (round % 2 == 1) std::reverse(indices.begin(), indices.end());
  } else {
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + round);
    std::shuffle(indices.begin(), indices.end(), rng);
  }
  return indices;
}

model::Result<std::vector<std::string>> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote == '\'') {
      if (c == '\'') {
        quote = 0;
      } else {
        word += c;
      }
    } else if (quote == '"') {
      if (c == '"') {
        quote = 0;
      } else if (c == '\\' && i + 1 < text.size() &&
                 std::string_view("\"\\$`").find(text[i + 1]) != std::string_view::npos) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (kShellOperators.find(c) != std::string_view::npos) {
      return model::Error{fmt::format(
          "\"{}\" uses shell syntax ({}) but commands are spawned without a shell; add --shell "
          "to run it through sh, or quote the character",
          text, c)};
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) {
    return model::Error{fmt::format("\"{}\" has an unterminated {} quote", text, quote)};
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) return model::Error{"an empty command"};
  return words;
}

}  // namespace benchkit::process
