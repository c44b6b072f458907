#include "boneyard/core/interrupt.h"

#include <atomic>
#include <mutex>
#include <set>
#include <system_error>

namespace boneyard {

namespace {

// Lock-free so that the store in request_interrupt is safe inside a signal handler.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

struct TemporaryRegistry {
  std::mutex lock;
  std::set<std::filesystem::path> paths;
};

TemporaryRegistry& registry() {
  static TemporaryRegistry r;
  return r;
}

}  // namespace

void request_interrupt(int signal_number) noexcept { g_signal.store(signal_number, std::memory_order_relaxed); }

int interrupt_signal() noexcept { return g_signal.load(std::memory_order_relaxed); }

void clear_interrupt() noexcept { g_signal.store(0, std::memory_order_relaxed); }

void register_temporary(const std::filesystem::path& path) {
  auto& r = registry();
  std::lock_guard guard(r.lock);
  r.paths.insert(path);
}

void unregister_temporary(const std::filesystem::path& path) {
  auto& r = registry();
  std::lock_guard guard(r.lock);
  r.paths.erase(path);
}

std::size_t remove_temporaries() {
  auto& r = registry();
  std::lock_guard guard(r.lock);
  std::size_t removed = 0;
  for (const auto& p : r.paths) {
    std::error_code ec;
    if (std::filesystem::remove(p, ec)) ++removed;
  }
  r.paths.clear();
  return removed;
}

}  // namespace boneyard
