// The registry's thread pool reports items in index order whatever order they finish in, so a
// batch prints the same on every run and system.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

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

}  // namespace
}  // namespace boneyard
