#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "boneyard/core/interrupt.h"

namespace boneyard::registry {

void run_parallel(std::size_t count, unsigned threads, const std::function<bool(std::size_t)>& work,
                  const std::function<void(std::size_t)>& finished) {
  std::atomic<std::size_t> next{0};
  std::mutex report;
  auto worker = [&] {
    for (std::size_t i; !interrupted() && (i = next.fetch_add(1)) < count;) {
      if (!work(i)) continue;
      std::lock_guard lock(report);
      if (finished) finished(i);
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
