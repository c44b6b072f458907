// The registry's one thread pool: the batch of models and the batch of textures both run their
// items through it.
#pragma once

#include <cstddef>
#include <functional>

namespace boneyard::registry {

// In which order run_parallel reports its items: by index (what a batch prints is then the same
// on every run and system), or as they finish (a caller that may stop the batch from its callback,
// as Python's progress does, then stops it after the items in progress, not after every item a
// thread finished while an earlier one was still running).
enum class ReportOrder { index, completion };

// Runs work(i) for every i in [0, count) on `threads` threads (0: all cores; never more than
// items), each taking the next item from a shared counter. Once interrupted() (core/interrupt.h)
// no new item is taken. finished(i) is called for each item whose work returned true, in `order`
// (by index, an item that finishes early waits for the ones before it), never concurrently (a
// lock is held around it).
void run_parallel(std::size_t count, unsigned threads, const std::function<bool(std::size_t)>& work,
                  const std::function<void(std::size_t)>& finished, ReportOrder order = ReportOrder::index);

}  // namespace boneyard::registry
