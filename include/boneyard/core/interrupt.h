// Stopping cleanly on SIGINT/SIGTERM. The signal handler only records the signal (an atomic
// store, which is async-signal-safe); long work polls interrupted() and stops at a safe point,
// and the temporary files being written are registered so that none is left behind.
#pragma once

#include <cstddef>
#include <filesystem>

namespace boneyard {

// Records that `signal_number` asked the program to stop. Async-signal-safe (a lock-free atomic
// store and nothing else), so a signal handler may call it.
void request_interrupt(int signal_number) noexcept;
// The signal that asked to stop, or 0 when none did.
int interrupt_signal() noexcept;
inline bool interrupted() noexcept { return interrupt_signal() != 0; }
// Forgets a recorded signal (tests, or a program that handles several jobs in turn).
void clear_interrupt() noexcept;

// The temporary files being written right now (write_file_atomic registers each one before it
// creates it and unregisters it once renamed or removed). Thread-safe; not for signal handlers.
void register_temporary(const std::filesystem::path& path);
void unregister_temporary(const std::filesystem::path& path);
// Removes every registered temporary file that still exists; returns how many were removed. For a
// program that stops after an interruption, once its workers have returned.
std::size_t remove_temporaries();

}  // namespace boneyard
