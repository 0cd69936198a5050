#include "system/machine_parse.hpp"

#include <charconv>
#include <cstdio>
#include <sstream>

namespace benchkit::system {

std::string trim(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const auto end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

std::vector<std::map<std::string, std::string>> parse_cpuinfo(std::string_view text) {
  std::vector<std::map<std::string, std::string>> processors;
  std::map<std::string, std::string> current;
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    if (trim(line).empty()) {
      if (!current.empty()) processors.push_back(std::move(current));
      current.clear();
      continue;
    }
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    current[trim(std::string_view(line).substr(0, colon))] =
        trim(std::string_view(line).substr(colon + 1));
  }
  if (!current.empty()) processors.push_back(std::move(current));
  return processors;
}

namespace {

std::optional<int> parse_cpu_number(std::string_view text) {
  int value = 0;
  const auto* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end || value < 0) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::set<int>> parse_cpu_list(std::string_view text) {
  std::set<int> cpus;
  const std::string whole = trim(text);
  std::string_view rest = whole;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    std::string_view group = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (group.empty()) return std::nullopt;
    // "a-b:used/size": of each block of `size` CPUs in a..b, the first `used`.
    int used = 1;
    int size = 1;
    if (const auto colon = group.find(':'); colon != std::string_view::npos) {
      const std::string_view stride = group.substr(colon + 1);
      group = group.substr(0, colon);
      const auto slash = stride.find('/');
      if (slash == std::string_view::npos) return std::nullopt;
      const auto parsed_used = parse_cpu_number(stride.substr(0, slash));
      const auto parsed_size = parse_cpu_number(stride.substr(slash + 1));
      if (!parsed_used || !parsed_size || *parsed_size == 0 || *parsed_used > *parsed_size) {
        return std::nullopt;
      }
      used = *parsed_used;
      size = *parsed_size;
    }
    const auto dash = group.find('-');
    const auto first = parse_cpu_number(group.substr(0, dash));
    const auto last =
        dash == std::string_view::npos ? first : parse_cpu_number(group.substr(dash + 1));
    // Far above the largest CPU count Linux builds for (CONFIG_NR_CPUS is at most 8192 with
    // MAXSMP): a bigger number is garbage, and expanding it would exhaust memory.
    constexpr int kMaxCpu = 1 << 16;
    if (!first || !last || *last < *first || *last > kMaxCpu) return std::nullopt;
    if (size == 1) used = 1;
    for (int cpu = *first; cpu <= *last; ++cpu) {
      if ((cpu - *first) % size < used) cpus.insert(cpu);
    }
  }
  return cpus;
}

std::optional<std::string> kernel_parameter(std::string_view cmdline, std::string_view name) {
  std::optional<std::string> found;
  std::istringstream words{std::string(cmdline)};
  std::string word;
  while (words >> word) {
    if (word == "--") break;
    const auto equals = word.find('=');
    if (std::string_view(word).substr(0, equals) != name) continue;
    std::string value = equals == std::string::npos ? std::string() : word.substr(equals + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    found = value;
  }
  return found;
}

std::optional<std::string> bracketed_choice(std::string_view text) {
  const auto open = text.find('[');
  if (open == std::string_view::npos) return std::nullopt;
  const auto close = text.find(']', open);
  if (close == std::string_view::npos) return std::nullopt;
  return std::string(text.substr(open + 1, close - open - 1));
}

std::optional<std::uint64_t> meminfo_bytes(std::string_view text, std::string_view key) {
  std::istringstream lines{std::string(text)};
  std::string line;
  while (std::getline(lines, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || std::string_view(line).substr(0, colon) != key) continue;
    std::istringstream fields(line.substr(colon + 1));
    std::uint64_t amount = 0;
    std::string unit;
    if (!(fields >> amount)) return std::nullopt;
    fields >> unit;
    // The kernel writes "kB" and means KiB (show_val_kb in fs/proc/meminfo.c shifts by 10).
    return unit == "kB" ? amount * 1024 : amount;
  }
  return std::nullopt;
}

std::optional<LoadAverage> parse_loadavg(std::string_view text) {
  std::istringstream fields{std::string(text)};
  LoadAverage load;
  std::string tasks;
  if (!(fields >> load.one_minute >> load.five_minutes >> load.fifteen_minutes >> tasks)) {
    return std::nullopt;
  }
  const auto slash = tasks.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const auto runnable = parse_integer(std::string_view(tasks).substr(0, slash));
  const auto total = parse_integer(std::string_view(tasks).substr(slash + 1));
  if (!runnable || !total) return std::nullopt;
  load.runnable = static_cast<int>(*runnable);
  load.total = static_cast<int>(*total);
  return load;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  const std::string trimmed = trim(text);
  if (trimmed.empty()) return std::nullopt;
  std::int64_t value = 0;
  const char* end = trimmed.data() + trimmed.size();
  const auto [stop, error] = std::from_chars(trimmed.data(), end, value);
  if (error != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::string format_bytes(std::uint64_t bytes) {
  constexpr double kKiB = 1024.0;
  const double amount = static_cast<double>(bytes);
  char text[32];
  if (amount >= kKiB * kKiB * kKiB) {
    std::snprintf(text, sizeof(text), "%.1f GiB", amount / (kKiB * kKiB * kKiB));
  } else if (amount >= kKiB * kKiB) {
    std::snprintf(text, sizeof(text), "%.1f MiB", amount / (kKiB * kKiB));
  } else {
    std::snprintf(text, sizeof(text), "%.0f KiB", amount / kKiB);
  }
  return text;
}

std::string format_khz(std::int64_t khz) {
  return std::to_string(khz / 1000) + " MHz";
}

}  // namespace benchkit::system
