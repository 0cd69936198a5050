// The clock speed: the cpufreq governor, driver, turbo and range, and the power supply that
// caps the clock on battery.
#include "system/rules.hpp"

#include <optional>

#include "system/machine_parse.hpp"
#include "system/rule_helpers.hpp"

namespace benchkit::system::detail {

constexpr const char* kNoCpufreq =
    "No cpufreq interface: the hypervisor or the firmware sets the frequency, and nothing can "
    "be changed from here. On a cloud machine, an instance type with dedicated cores is the "
    "steadiest choice.";

Check check_governor(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Frequency governor";
  std::map<std::string, int> governors;
  for (const std::string& folder : folders) {
    if (auto governor = read_trimmed(files, folder + "/scaling_governor")) ++governors[*governor];
  }
  if (governors.empty()) {
    return make_check("frequency_governor", title, Status::unknown, "no cpufreq governor reported",
                      kNoCpufreq);
  }
  std::vector<std::string> parts;
  int total = 0;
  for (const auto& [name, count] : governors) total += count;
  for (const auto& [name, count] : governors) {
    parts.push_back(governors.size() == 1
                        ? name
                        : name + " on " + std::to_string(count) + " of " + std::to_string(total));
  }
  const std::string value = join(parts, ", ") + " (" + std::to_string(total) +
                            (total == 1 ? " cpufreq policy)" : " cpufreq policies)");
  if (governors.size() == 1 && governors.count("performance")) {
    return make_check("frequency_governor", title, Status::ok, value);
  }
  // Any governor but performance moves the clock with the load, so the first samples of a
  // benchmark run slower than the rest and short benchmarks never reach full speed.
  return make_check(
      "frequency_governor", title, Status::warning, value,
      "The clock speed follows the load, so timings depend on what ran just before. Set the "
      "performance governor: sudo cpupower frequency-set --governor performance (or: echo "
      "performance | sudo tee /sys/devices/system/cpu/cpufreq/policy*/scaling_governor)");
}

Check check_driver(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Frequency driver";
  std::optional<std::string> driver;
  if (!folders.empty()) driver = read_trimmed(files, folders.front() + "/scaling_driver");
  if (!driver) {
    return make_check("frequency_driver", title, Status::unknown, "no cpufreq driver reported");
  }
  std::string value = *driver;
  if (auto status = read_trimmed(files, std::string(kCpu) + "/intel_pstate/status")) {
    value += " (intel_pstate mode: " + *status + ")";
  }
  return make_check("frequency_driver", title, Status::ok, value);
}

Check check_turbo(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Turbo / boost";
  // Turbo lets the clock exceed its base speed while power and temperature allow, so the
  // speed of a benchmark depends on how hot the chip is and on how many cores are busy.
  const std::string why =
      "Turbo raises the clock while power and temperature allow, so timings drift as the chip "
      "heats and change with the number of busy cores. ";
  // intel_pstate has its own switch; no_turbo = 1 means turbo is off.
  if (auto no_turbo = read_trimmed(files, std::string(kCpu) + "/intel_pstate/no_turbo")) {
    if (*no_turbo == "1") {
      return make_check("turbo", title, Status::ok, "off (intel_pstate/no_turbo = 1)");
    }
    if (*no_turbo == "0") {
      return make_check("turbo", title, Status::warning, "on (intel_pstate/no_turbo = 0)",
                        why +
                            "Turn it off: echo 1 | sudo tee "
                            "/sys/devices/system/cpu/intel_pstate/no_turbo");
    }
  }
  // acpi-cpufreq and amd-pstate: one global boost switch, or one per policy on newer kernels.
  std::vector<std::string> boost_files = {std::string(kCpufreq) + "/boost"};
  for (const std::string& folder : folders) boost_files.push_back(folder + "/boost");
  for (const std::string& path : boost_files) {
    const auto boost = read_trimmed(files, path);
    if (!boost) continue;
    const std::string where = path.substr(std::string(kCpu).size() + 1);
    if (*boost == "0") return make_check("turbo", title, Status::ok, "off (" + where + " = 0)");
    if (*boost == "1") {
      return make_check("turbo", title, Status::warning, "on (" + where + " = 1)",
                        why + "Turn it off: echo 0 | sudo tee /sys/devices/system/cpu/" + where);
    }
  }
  return make_check("turbo", title, Status::unknown,
                    "neither intel_pstate/no_turbo nor cpufreq boost reported",
                    folders.empty() ? "Without cpufreq, the host or the firmware decides."
                                    : "This driver exposes no turbo switch; the firmware setup "
                                      "(BIOS) may have one.");
}

Check check_frequency_range(const MachineFiles& files, const std::vector<std::string>& folders) {
  const std::string title = "Frequency range";
  if (folders.empty()) {
    return make_check("frequency_range", title, Status::unknown, "no cpufreq limits reported");
  }
  const std::string& folder = folders.front();
  auto khz = [&](const char* name) -> std::optional<std::int64_t> {
    auto text = read_trimmed(files, folder + "/" + name);
    return text ? parse_integer(*text) : std::nullopt;
  };
  const auto low = khz("scaling_min_freq");
  const auto high = khz("scaling_max_freq");
  if (!low || !high) {
    return make_check("frequency_range", title, Status::unknown,
                      "scaling_min_freq / scaling_max_freq not reported");
  }
  std::string value = format_khz(*low) + " to " + format_khz(*high);
  const auto hardware_low = khz("cpuinfo_min_freq");
  const auto hardware_high = khz("cpuinfo_max_freq");
  if (hardware_low && hardware_high) {
    value += " (hardware " + format_khz(*hardware_low) + " to " + format_khz(*hardware_high) + ")";
  }
  value += ", " + folder.substr(folder.rfind('/') + 1);
  // Informational: the governor and turbo checks say whether the clock will move within it.
  return make_check("frequency_range", title, Status::ok, value);
}

Check check_power_supply(const MachineFiles& files) {
  const std::string title = "Power supply";
  const std::string folder = "/sys/class/power_supply";
  bool mains_online = false;
  bool mains_offline = false;
  bool discharging = false;
  std::vector<std::string> seen;
  for (const std::string& name : files.list(folder)) {
    const std::string base = folder + "/" + name + "/";
    const auto type = read_trimmed(files, base + "type");
    if (!type) continue;
    if (*type == "Mains" || *type == "USB") {
      const auto online = read_trimmed(files, base + "online");
      if (online == "1") mains_online = true;
      if (online == "0") mains_offline = true;
      seen.push_back(name + ": " + *type + (online ? " online=" + *online : ""));
    } else if (*type == "Battery") {
      const auto status = read_trimmed(files, base + "status");
      if (status == "Discharging") discharging = true;
      seen.push_back(name + ": Battery" + (status ? " " + *status : ""));
    }
  }
  if (seen.empty()) {
    return make_check("power_supply", title, Status::unknown,
                      "not reported (no mains adapter or battery in /sys/class/power_supply)");
  }
  const std::string value = join(seen, "; ");
  if (discharging || (mains_offline && !mains_online)) {
    // On battery, power profiles and firmware cap the power, so clocks are lower and vary.
    return make_check("power_supply", title, Status::warning, "on battery (" + value + ")",
                      "On battery the firmware and the power profile limit the clock speed. Plug "
                      "in the charger and choose the performance profile: powerprofilesctl set "
                      "performance");
  }
  return make_check("power_supply", title, Status::ok,
                    (mains_online ? "mains (" : "not discharging (") + value + ")");
}

}  // namespace benchkit::system::detail
