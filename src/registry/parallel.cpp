#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "boneyard/core/interrupt.h"

namespace boneyard::registry {

void run_parallel(std::size_t count, unsigned threads, const std::function<bool(std::size_t)>& work,
                  const std::function<void(std::size_t)>& finished, ReportOrder order) {
  std::atomic<std::size_t> next{0};
  std::mutex report;
  // Items finish in any order; by index, they are reported in index order, so that what a batch
  // prints does not depend on the threads (nor on the system: Linux and Windows print the same).
  enum : std::uint8_t { kPending, kReport, kSilent };
  std::vector<std::uint8_t> state(count, kPending);
  std::size_t reported = 0;
  auto worker = [&] {
    for (std::size_t i; !interrupted() && (i = next.fetch_add(1)) < count;) {
      const bool report_it = work(i);
      std::lock_guard lock(report);
      if (order == ReportOrder::completion) {
        if (report_it && finished) finished(i);
        continue;
      }
      state[i] = report_it ? kReport : kSilent;
      for (; reported < count && state[reported] != kPending; ++reported)
        if (state[reported] == kReport && finished) finished(reported);
    }
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(count, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

}  // namespace boneyard::registry
