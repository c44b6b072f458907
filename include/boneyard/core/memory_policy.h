// The process's allocator policy: a choice for applications (the boneyard CLI makes it at start),
// never made by the library behind its user's back.
#pragma once

namespace boneyard {

// Keeps freed memory for reuse and backs the heap with transparent huge pages where the system
// offers them (glibc on Linux; elsewhere nothing). A conversion touches tens of megabytes once
// (scene arrays, JSON text, write buffers): with 4 KiB pages each one is a page fault, and on a
// virtual machine a fault costs about 10 us, which was half of a one-model `convert`. Memory use
// grows by at most what the heap leaves unused in its last 2 MiB pages; up to 3 MiB of address
// space below the first huge page is held and never written. Call it once, early, before other
// threads start.
void use_large_reused_heap();

}  // namespace boneyard
