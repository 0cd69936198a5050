// Parsers for the text formats of /proc and /sys, pure functions (no file access) so that each
// format's edge cases are tested on strings. Formats as documented in the kernel's
// Documentation/filesystems/proc.rst, admin-guide/kernel-parameters.txt and ABI/testing/sysfs-*.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace benchkit::system {

// Leading and trailing whitespace (spaces, tabs, newlines) removed.
std::string trim(std::string_view text);

// /proc/cpuinfo as one map of "key" -> "value" per processor (blocks separated by blank lines;
// keys and values trimmed). Lines without a colon are skipped.
std::vector<std::map<std::string, std::string>> parse_cpuinfo(std::string_view text);

// A kernel CPU list ("0-3,8,10-15:2/4", as in isolcpus= or /sys/devices/system/cpu/online):
// the set of CPU numbers; an empty string is the empty set; nullopt when malformed or when it
// uses a form whose meaning depends on the machine ("N" for the last CPU, "all").
std::optional<std::set<int>> parse_cpu_list(std::string_view text);

// The value of a kernel command-line parameter (/proc/cmdline): "2-3" for "isolcpus=2-3", ""
// for a bare "quiet"; nullopt when absent. Arguments after "--" belong to init and are ignored;
// when a parameter is given twice the last one counts, as for most kernel parameters.
std::optional<std::string> kernel_parameter(std::string_view cmdline, std::string_view name);

// The selected word of a sysfs choice such as "always [madvise] never" ("madvise"); nullopt
// when no word is in brackets.
std::optional<std::string> bracketed_choice(std::string_view text);

// A "Key:   1234 kB" line of /proc/meminfo, in bytes; nullopt when the key is absent.
std::optional<std::uint64_t> meminfo_bytes(std::string_view text, std::string_view key);

// /proc/loadavg: "0.08 0.12 0.10 1/612 12345".
struct LoadAverage {
  double one_minute = 0.0;
  double five_minutes = 0.0;
  double fifteen_minutes = 0.0;
  int runnable = 0;  // scheduling entities running or ready to run now, the reader included
  int total = 0;     // scheduling entities that exist
};
std::optional<LoadAverage> parse_loadavg(std::string_view text);

// A whole number; nullopt unless the trimmed text is one (an optional leading minus allowed).
std::optional<std::int64_t> parse_integer(std::string_view text);

// "31.3 GiB", "512.0 MiB", "900 KiB": binary units with one decimal from MiB up.
std::string format_bytes(std::uint64_t bytes);

// A frequency given in kHz (as cpufreq reports it) as "800 MHz".
std::string format_khz(std::int64_t khz);

}  // namespace benchkit::system
