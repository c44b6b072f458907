// The registry's thread pool reports items in index order whatever order they finish in, so a
// batch prints the same on every run and system.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>
#include <vector>

#include "boneyard/core/interrupt.h"
#include "registry/parallel.h"

namespace boneyard {
namespace {

TEST(RunParallel, ReportsInIndexOrderWhateverFinishesFirst) {
  constexpr std::size_t kItems = 64;
  std::vector<std::size_t> reported;
  registry::run_parallel(kItems, 4, [&](std::size_t i) {
    // Early items take longest: with several threads, later ones finish first.
    std::this_thread::sleep_for(std::chrono::microseconds(50 * (kItems - i)));
    return i % 7 != 3;  // these are done but not reported
  }, [&](std::size_t i) { reported.push_back(i); });
  std::vector<std::size_t> want;
  for (std::size_t i = 0; i < kItems; ++i)
    if (i % 7 != 3) want.push_back(i);
  EXPECT_EQ(reported, want);
}

// As they finish: a callback that stops the batch at the first item reported stops it after the
// items in progress (at most one per thread), however long the first item takes.
TEST(RunParallel, AsTheyFinishAStopFromTheFirstReportLeavesOnlyTheItemsInProgress) {
  constexpr std::size_t kItems = 64;
  constexpr unsigned kThreads = 4;
  std::atomic<std::size_t> started{0};
  std::vector<std::size_t> reported;
  registry::run_parallel(kItems, kThreads, [&](std::size_t i) {
    ++started;
    std::this_thread::sleep_for(std::chrono::microseconds(i == 0 ? 20000 : 50));
    return true;
  }, [&](std::size_t i) {
    reported.push_back(i);
    request_interrupt(SIGINT);
  }, registry::ReportOrder::completion);
  clear_interrupt();
  EXPECT_LE(started.load(), kThreads);
  EXPECT_EQ(reported.size(), started.load());  // every item in progress still finishes and is reported
}

}  // namespace
}  // namespace boneyard

