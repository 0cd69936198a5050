// Whether the CPUs this process may use run the same code at the same speed. On a virtual
// machine they may not, for minutes at a time (a neighbour busy on the physical core behind one
// of them): a process then measures a different speed depending on where it lands
// (docs/interop.md, "One CPU a round"). Nothing in /proc or /sys says so; running a loop on each
// CPU in turn does.
#pragma once

#include <functional>
#include <vector>

namespace benchkit::system {

struct CpuSpeeds {
  std::vector<int> cpus;  // the CPUs measured, in increasing order
  // ns[t][k]: the loop's time on cpus[k] in turn t. The turns alternate between the CPUs, so a
  // change of the whole machine's speed falls on all of them alike.
  std::vector<std::vector<double>> ns;
};

// Injectable so that the check can be tested without this machine's CPUs.
using CpuSpeedProbe = std::function<CpuSpeeds()>;

// Runs a fixed loop (table lookups, as a checksum does; a few milliseconds) on each CPU this
// process may use, `turns` times in turn, pinning the calling thread to each CPU and giving it back
// its CPUs afterwards. With one CPU, or when the thread cannot be moved, `ns` is empty. Never
// throws.
CpuSpeeds probe_cpu_speeds(int turns = 7);

}  // namespace benchkit::system
