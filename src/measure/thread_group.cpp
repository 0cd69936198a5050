#include "measure/thread_group.hpp"

#include <algorithm>
#include <limits>

namespace benchkit::measure {

ThreadGroup::ThreadGroup(std::size_t threads)
    : threads_(std::max<std::size_t>(1, threads)),
      largest_(std::numeric_limits<std::int64_t>::min()) {}

void ThreadGroup::publish(std::uint64_t iterations) {
  {
    const std::lock_guard lock(mutex_);
    throw_if_aborted();
    iterations_ = iterations;
    ++published_;
  }
  changed_.notify_all();
}

void ThreadGroup::finish() {
  {
    const std::lock_guard lock(mutex_);
    finished_ = true;
  }
  changed_.notify_all();
}

std::uint64_t ThreadGroup::next_batch(std::uint64_t& seen) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return aborted_ || finished_ || published_ > seen; });
  throw_if_aborted();
  if (published_ > seen) {
    // One batch ahead at most (see the protocol): this is the batch after `seen`.
    ++seen;
    return iterations_;
  }
  return 0;
}

std::int64_t ThreadGroup::arrive(std::int64_t value) {
  std::unique_lock lock(mutex_);
  throw_if_aborted();
  largest_ = std::max(largest_, value);
  if (++arrived_ == threads_) {
    // The last to arrive releases the others.
    const std::int64_t largest = largest_;
    released_largest_ = largest;
    largest_ = std::numeric_limits<std::int64_t>::min();
    arrived_ = 0;
    ++generation_;
    lock.unlock();
    changed_.notify_all();
    return largest;
  }
  const std::uint64_t generation = generation_;
  changed_.wait(lock, [&] { return aborted_ || generation_ != generation; });
  // A barrier that completed before the abort still counts: this thread was released.
  if (generation_ == generation) throw_if_aborted();
  return released_largest_;
}

void ThreadGroup::abort(const std::string& reason) {
  {
    const std::lock_guard lock(mutex_);
    if (!aborted_) aborted_ = reason;
  }
  changed_.notify_all();
}

void ThreadGroup::leave(std::size_t thread_index) {
  if (finished()) return;
  abort("thread " + std::to_string(thread_index) + " of " + std::to_string(threads_) +
        " returned before the measurement ended: every thread must run the same routine "
        "(b.iter(...) or b.with_inputs(...)) once, whatever its b.thread_index()");
}

bool ThreadGroup::finished() const {
  const std::lock_guard lock(mutex_);
  return finished_;
}

std::optional<std::string> ThreadGroup::abort_reason() const {
  const std::lock_guard lock(mutex_);
  return aborted_;
}

void ThreadGroup::throw_if_aborted() const {
  if (aborted_) throw GroupAborted(*aborted_);
}

}  // namespace benchkit::measure
