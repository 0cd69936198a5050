// Where the memory of the next process started lands.
//
// The physical pages a process gets come from the kernel's free lists, which the processes
// that exited before it refilled. Processes started one after another in the same pattern (the
// workers of a side-by-side comparison, round after round) therefore tend to get the same
// physical pages, and on a virtual machine the speed of memory-bound code depends on those pages:
// two 64 MiB buffers in one process summed in turns differed by up to 9%. A build would keep
// its lucky or unlucky pages for every round of a comparison, and the rounds would agree on a
// difference the code does not have (docs/verdicts.md measured 2 false alarms in 6 A/A
// comparisons of a 64 MiB sum).
//
// PlacementShuffle takes a random amount of memory from the free lists while the next process
// sets up, so that its pages come from further down the lists by a random amount; it gives the
// memory back once that process has made its allocations. Taking memory costs about 0.6 ms per
// MiB on the development VM (populating and unmapping), so the amount should follow the size
// of what the next process allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>

namespace benchkit::process {

class PlacementShuffle {
 public:
  explicit PlacementShuffle(std::uint64_t seed = std::random_device{}());
  ~PlacementShuffle();
  PlacementShuffle(const PlacementShuffle&) = delete;
  PlacementShuffle& operator=(const PlacementShuffle&) = delete;

  // Releases what is held, then maps and touches a new random amount between 0 and max_bytes
  // (in whole pages). Failing to get the memory is not an error: the shuffle is then smaller.
  void hold(std::size_t max_bytes);
  // Gives the memory back.
  void release();
  // Bytes held now.
  std::size_t held() const { return bytes_; }

 private:
  std::mt19937_64 random_;
  void* memory_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace benchkit::process
