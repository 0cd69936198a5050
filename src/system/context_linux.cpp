#include <sys/utsname.h>
#include <unistd.h>

#include <sha2.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <string_view>
#include <thread>

#include "system/context.hpp"

namespace benchkit::system {
namespace {

std::string trim(std::string text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return {};
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return trim(line.substr(colon + 1));
    }
  }
  return {};
}

std::string os_name() {
  std::ifstream in("/etc/os-release");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("PRETTY_NAME=", 0) == 0) {
      std::string value = line.substr(12);
      if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
      return value;
    }
  }
  return "Linux";
}

}  // namespace

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

// libmd (Debian's libmd0, 70 KiB) rather than OpenSSL's libcrypto: mapped in every bench binary
// and every `benchkit` command, libcrypto's relocations and start-up alone kept 2.8 MiB resident
// (smaps of bench/peers/benchkit_peers), 30% of a small suite's peak RSS.
std::string sha256_of_file(const std::string& path) {
  std::array<char, SHA256_DIGEST_STRING_LENGTH> hex{};
  if (SHA256File(path.c_str(), hex.data()) == nullptr) return {};
  return hex.data();
}

std::string sha256_of_text(std::string_view text) {
  std::array<char, SHA256_DIGEST_STRING_LENGTH> hex{};
  SHA256Data(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), hex.data());
  return hex.data();
}

Context collect_context(bool identify_executable) {
  Context context;
  context.date = utc_now_iso8601();
  std::array<char, 256> host{};
  if (gethostname(host.data(), host.size() - 1) == 0) context.hostname = host.data();
  context.os = os_name();
  utsname names{};
  if (uname(&names) == 0) {
    context.kernel = std::string(names.sysname) + " " + names.release + " " + names.machine;
  }
  context.cpu_model = cpu_model();
  context.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
  if (!identify_executable) return context;
  std::array<char, 4096> exe{};
  const ssize_t length = readlink("/proc/self/exe", exe.data(), exe.size() - 1);
  if (length > 0) {
    context.executable.assign(exe.data(), static_cast<std::size_t>(length));
    context.executable_sha256 = sha256_of_file(context.executable);
  }
  return context;
}

}  // namespace benchkit::system
