#include "measure/thread_group.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace benchkit::measure {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ThreadGroup, AGroupOfOneNeverWaits) {
  ThreadGroup group(1);
  EXPECT_EQ(group.arrive(5), 5);
  EXPECT_EQ(group.arrive(3), 3);
  group.finish();
  EXPECT_TRUE(group.finished());
}

TEST(ThreadGroup, EveryThreadLeavesTheBarrierWithTheLargestValue) {
  constexpr std::size_t kThreads = 4;
  ThreadGroup group(kThreads);
  std::vector<std::int64_t> seen(kThreads * 3, -1);
  std::vector<std::thread> threads;
  for (std::size_t index = 0; index < kThreads; ++index) {
    threads.emplace_back([&, index] {
      // Three generations in a row: each must be released with its own largest value.
      for (std::size_t round = 0; round < 3; ++round) {
        const auto value = static_cast<std::int64_t>(100 * round + index);
        seen[round * kThreads + index] = group.arrive(value);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::size_t round = 0; round < 3; ++round) {
    for (std::size_t index = 0; index < kThreads; ++index) {
      EXPECT_EQ(seen[round * kThreads + index], static_cast<std::int64_t>(100 * round + 3))
          << "round " << round << ", thread " << index;
    }
  }
}

TEST(ThreadGroup, FollowersRunEveryPublishedBatchInOrderThenStop) {
  constexpr std::size_t kThreads = 3;
  ThreadGroup group(kThreads);
  const std::vector<std::uint64_t> batches = {1, 10, 100, 7};
  std::vector<std::vector<std::uint64_t>> ran(kThreads);
  std::vector<std::thread> followers;
  for (std::size_t index = 1; index < kThreads; ++index) {
    followers.emplace_back([&, index] {
      std::uint64_t seen = 0;
      while (const std::uint64_t iterations = group.next_batch(seen)) {
        group.arrive(0);  // start
        ran[index].push_back(iterations);
        group.arrive(0);  // stop
      }
    });
  }
  for (const std::uint64_t iterations : batches) {
    group.publish(iterations);
    group.arrive(0);
    ran[0].push_back(iterations);
    group.arrive(0);
  }
  group.finish();
  for (std::thread& follower : followers) follower.join();
  for (std::size_t index = 0; index < kThreads; ++index) {
    EXPECT_THAT(ran[index], ElementsAre(1, 10, 100, 7)) << "thread " << index;
  }
}

TEST(ThreadGroup, AbortWakesEveryWaitingThreadWithTheFirstReason) {
  ThreadGroup group(3);
  std::atomic<int> woken{0};
  std::thread at_barrier([&] {
    try {
      group.arrive(0);
    } catch (const GroupAborted& error) {
      EXPECT_THAT(error.what(), HasSubstr("thread 2 threw"));
      ++woken;
    }
  });
  std::thread waiting_for_batch([&] {
    std::uint64_t seen = 0;
    try {
      group.next_batch(seen);
    } catch (const GroupAborted&) {
      ++woken;
    }
  });
  group.abort("thread 2 threw: boom");
  group.abort("a later reason is not kept");
  at_barrier.join();
  waiting_for_batch.join();
  EXPECT_EQ(woken.load(), 2);
  EXPECT_EQ(group.abort_reason(), "thread 2 threw: boom");
  EXPECT_THROW(group.publish(1), GroupAborted);
  EXPECT_THROW(group.arrive(0), GroupAborted);
}

TEST(ThreadGroup, AThreadLeavingBeforeTheEndAbortsTheOthers) {
  ThreadGroup group(2);
  std::thread leader([&] { EXPECT_THROW(group.arrive(0), GroupAborted); });
  group.leave(1);
  leader.join();
  ASSERT_TRUE(group.abort_reason());
  EXPECT_THAT(*group.abort_reason(), HasSubstr("thread 1 of 2 returned before the measurement"));
}

TEST(ThreadGroup, LeavingAfterTheLeaderFinishedIsNormal) {
  ThreadGroup group(2);
  group.finish();
  group.leave(1);
  EXPECT_FALSE(group.abort_reason());
  std::uint64_t seen = 0;
  EXPECT_EQ(group.next_batch(seen), 0u);
}

}  // namespace
}  // namespace benchkit::measure
