// Small helpers shared by the detectors (machine_detectors.cpp), the rules (rules_*.cpp) and
// machine_facts.cpp: building a Check, reading a file without its surrounding whitespace, and
// the few string operations the rules need.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "system/checks.hpp"
#include "system/machine_files.hpp"

namespace benchkit::system::detail {

inline constexpr const char* kCpu = "/sys/devices/system/cpu";
inline constexpr const char* kCpufreq = "/sys/devices/system/cpu/cpufreq";

Check make_check(std::string id, std::string title, Status status, std::string value,
                 std::string advice = {});

// The file's text, trimmed; nullopt when it cannot be read.
std::optional<std::string> read_trimmed(const MachineFiles& files, const std::string& path);

std::string lowercase(std::string text);

bool contains(std::string_view text, std::string_view part);

std::string join(const std::vector<std::string>& parts, std::string_view separator);

// {0, 1, 2, 5} -> "0-2,5", the kernel's CPU list notation.
std::string format_cpu_set(const std::set<int>& cpus);

}  // namespace benchkit::system::detail
