#include "measure/speed_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "benchkit/black_box.hpp"

namespace benchkit::measure {
namespace {

class ReferenceProbe final : public SpeedProbe {
 public:
  explicit ReferenceProbe(clock::Clock& clock) : clock_(clock), source_(256), work_(256) {
    // A fixed xorshift sequence: the same input in every process and on every run.
    std::uint64_t state = 0x2545F4914F6CDD1DULL;
    for (std::uint32_t& value : source_) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      value = static_cast<std::uint32_t>(state >> 32);
    }
  }

  double read_ns() override {
    double best = std::numeric_limits<double>::infinity();
    for (int run = 0; run < 5; ++run) {
      std::copy(source_.begin(), source_.end(), work_.begin());
      const std::int64_t start = clock_.now_ns();
      std::sort(work_.begin(), work_.end());
      do_not_optimize(work_.data());
      clobber_memory();
      const std::int64_t stop = clock_.now_ns();
      best = std::min(best, static_cast<double>(stop - start));
    }
    return std::max(best, 1.0);
  }

 private:
  clock::Clock& clock_;
  std::vector<std::uint32_t> source_;
  std::vector<std::uint32_t> work_;
};

}  // namespace

std::unique_ptr<SpeedProbe> make_reference_probe(clock::Clock& clock) {
  return std::make_unique<ReferenceProbe>(clock);
}

}  // namespace benchkit::measure
