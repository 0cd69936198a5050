// The threads of one threaded micro benchmark (Registration::threads) and how they keep in step.
//
// Protocol. Thread 0, the leader, runs the engine (warm-up, batch sizes, sampling, stopping) as
// an unthreaded benchmark does; threads 1 … N-1, the followers, run the same routine and take
// their batches from it:
//   1. The leader publishes each batch's iteration count (publish), then 0 once measuring is
//      over (finish). A follower waits for the next count (next_batch) and runs that many
//      iterations; 0 ends its loop.
//   2. Every start of the timer is a barrier of all N threads (arrive), and each thread brings
//      the time it arrived: all leave with the latest, the moment the last thread was ready,
//      which is the common start. Every stop is one too, each thread bringing the time it
//      stopped: all leave with the latest, so the leader's sample is the wall time from the
//      common start to the last thread's end (wherever a thread is woken late, the delay is in
//      the sample, never hidden by a late clock read of the leader).
//   3. Any thread that throws, or returns while the measurement is not over, aborts the group
//      (abort, leave): every thread waiting in it wakes with GroupAborted, so nothing deadlocks,
//      and the first reason given is the one reported.
// A follower cannot miss a batch: the leader publishes the next one only after every thread
// passed the stop barrier of the current one, and each thread takes one count per batch.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace benchkit::measure {

// Thrown in a thread whose group was aborted by another thread; the reason is the group's.
class GroupAborted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ThreadGroup {
 public:
  // `threads` at least 1; a group of one never waits.
  explicit ThreadGroup(std::size_t threads);

  std::size_t threads() const { return threads_; }

  // Leader: the next batch has `iterations` iterations (more than 0).
  void publish(std::uint64_t iterations);
  // Leader: no more batches; every follower's next_batch returns 0.
  void finish();
  // Follower: blocks until the batch after the one this thread ran last is published, and
  // returns its iteration count (0 after finish). `seen` is the thread's own counter of batches,
  // starting at 0. Throws GroupAborted.
  std::uint64_t next_batch(std::uint64_t& seen);

  // A barrier of all the threads; each brings a value and all leave with the largest of them
  // (a stop time; pass 0 where none matters). Throws GroupAborted.
  std::int64_t arrive(std::int64_t value);

  // Wakes every waiting thread with GroupAborted; the first reason is kept. Idempotent.
  void abort(const std::string& reason);
  // A thread's body returned: aborts the group unless the leader finished (a thread that
  // returns without measuring would leave the others waiting for it forever).
  void leave(std::size_t thread_index);

  bool finished() const;
  // The first reason given to abort; empty when not aborted.
  std::optional<std::string> abort_reason() const;

 private:
  void throw_if_aborted() const;  // with mutex_ held

  const std::size_t threads_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // Batches.
  std::uint64_t published_ = 0;  // how many batches the leader published
  std::uint64_t iterations_ = 0;
  bool finished_ = false;
  // The barrier: threads arrived in the current generation, and the largest value brought.
  std::size_t arrived_ = 0;
  std::uint64_t generation_ = 0;
  std::int64_t largest_ = 0;
  std::int64_t released_largest_ = 0;  // the largest of the generation just released
  std::optional<std::string> aborted_;
};

}  // namespace benchkit::measure
