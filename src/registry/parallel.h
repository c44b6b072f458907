// The registry's one thread pool: the batch of models and the batch of textures both run their
// items through it.
#pragma once

#include <cstddef>
#include <functional>

namespace boneyard::registry {

// Runs work(i) for every i in [0, count) on `threads` threads (0: all cores; never more than
// items), each taking the next item from a shared counter. Once interrupted() (core/interrupt.h)
// no new item is taken. finished(i) is called for each item whose work returned true, in index
// order (an item that finishes early waits for the ones before it), never concurrently (a lock is
// held around it).
void run_parallel(std::size_t count, unsigned threads, const std::function<bool(std::size_t)>& work,
                  const std::function<void(std::size_t)>& finished);

}  // namespace boneyard::registry
