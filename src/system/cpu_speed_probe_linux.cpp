#include <sched.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "system/cpu_speed_probe.hpp"

namespace benchkit::system {
namespace {

// Table lookups in four independent chains over 16 KiB of data, as a table-driven checksum does
// (the code in which this project's VM showed its two CPUs 40% apart): loads and the L1 cache,
// which a neighbour on the same physical core shares, besides the clock.
double loop_ns() {
  constexpr std::size_t kBytes = 16 * 1024;
  constexpr int kPasses = 120;
  static const auto tables = [] {
    std::array<std::uint32_t, 256> table{};
    std::array<unsigned char, kBytes> data{};
    std::uint32_t x = 12345;
    for (auto& entry : table) entry = x = x * 1664525u + 1013904223u;
    for (auto& byte : data)
      byte = static_cast<unsigned char>((x = x * 1664525u + 1013904223u) >> 24);
    return std::pair(table, data);
  }();
  const auto& [table, data] = tables;
  volatile std::uint32_t sink = 0;
  std::array<std::uint32_t, 4> crc = {sink, 1, 2, 3};
  const auto start = std::chrono::steady_clock::now();
  for (int pass = 0; pass < kPasses; ++pass) {
    for (std::size_t i = 0; i < kBytes; i += 4) {
      for (std::size_t s = 0; s < 4; ++s)
        crc[s] = table[(crc[s] ^ data[i + s]) & 0xff] ^ (crc[s] >> 8);
    }
  }
  const auto end = std::chrono::steady_clock::now();
  sink = crc[0] ^ crc[1] ^ crc[2] ^ crc[3];
  return std::chrono::duration<double, std::nano>(end - start).count();
}

}  // namespace

CpuSpeeds probe_cpu_speeds(int turns) {
  CpuSpeeds speeds;
  cpu_set_t own;
  CPU_ZERO(&own);
  if (sched_getaffinity(0, sizeof(own), &own) != 0) return speeds;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &own)) speeds.cpus.push_back(cpu);
  }
  if (speeds.cpus.size() < 2) return speeds;
  bool moved = true;
  const std::size_t count = speeds.cpus.size();
  for (int turn = 0; turn < turns && moved; ++turn) {
    // Every other turn in the reverse order, so that no CPU always comes first.
    std::vector<double> row(count);
    for (std::size_t step = 0; step < count; ++step) {
      const std::size_t k = turn % 2 == 0 ? step : count - 1 - step;
      cpu_set_t only;
      CPU_ZERO(&only);
      CPU_SET(speeds.cpus[k], &only);
      moved = sched_setaffinity(0, sizeof(only), &only) == 0;
      if (!moved) break;
      loop_ns();  // the first run after a move warms the caches and the branch predictor
      row[k] = loop_ns();
    }
    if (moved) speeds.ns.push_back(std::move(row));
  }
  sched_setaffinity(0, sizeof(own), &own);
  if (!moved) speeds.ns.clear();
  return speeds;
}

}  // namespace benchkit::system
