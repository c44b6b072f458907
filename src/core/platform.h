// The platform layer: the few file operations that Linux and Windows spell differently, for
// file_io.cpp (private to core). CMake compiles exactly one implementation:
// platform_posix.cpp (Linux and other POSIX systems) or platform_windows.cpp (Windows, wide-
// character API). Nothing else in boneyard includes an operating-system header; the public,
// portable part (UTF-8 paths, file identity, link targets) is boneyard/core/paths.h.
//
// Failures come back as `false` / kNoFile / nullopt with `error` set to the system's reason in
// the words Linux uses ("No such file or directory", "Permission denied", ...), so that messages
// read the same on both systems.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace boneyard::platform {

namespace fs = std::filesystem;

// An open file: a POSIX descriptor, or a Windows HANDLE.
using NativeFile = std::intptr_t;
inline constexpr NativeFile kNoFile = -1;

enum class FileKind { regular, directory, fifo, char_device, block_device, socket, other };

struct FileInfo {
  FileKind kind = FileKind::other;
  std::uint64_t size = 0;
  // What an in-place edit keeps: POSIX permission bits (07777) and owner; Windows file attributes
  // (hidden, system, archive, ...; owner unused).
  unsigned mode = 0;
  unsigned uid = 0, gid = 0;
};

// What `path` is, symlinks followed. Opens nothing that could block or have side effects (a FIFO,
// a device): POSIX stat(2); Windows refuses device names (CON, NUL, COM1, \\.\...) by name and
// otherwise opens the entry for its attributes only.
std::optional<FileInfo> stat_path(const fs::path& path, std::string& error);

// Opens `path` for reading without blocking (should it have become a FIFO since it was examined).
NativeFile open_for_reading(const fs::path& path, std::string& error);
// What the open file is.
std::optional<FileInfo> stat_open(NativeFile file, std::string& error);
// A read-only mapping of the first `size` bytes (size > 0), or nullptr when the file cannot be
// mapped (the caller reads it instead). The mapping outlives `file`.
const void* map_read_only(NativeFile file, std::size_t size);
void unmap(const void* address, std::size_t size);
// Up to `count` bytes; 0 at the end of the file, -1 on failure (interrupted calls are retried).
std::ptrdiff_t read_some(NativeFile file, void* buffer, std::size_t count, std::string& error);

// Creates `path`, which must not exist yet (O_EXCL / CREATE_NEW), for writing; POSIX gives it
// `posix_mode` (before the umask).
NativeFile create_new(const fs::path& path, unsigned posix_mode, std::string& error);
// Writes some of `data` (at most one slice of a few MiB); returns how much, or -1 on failure.
std::ptrdiff_t write_some(NativeFile file, const void* data, std::size_t count, std::string& error);
// Gives the open file `like`'s mode (exactly, no umask) and, with `owner`, its owner and group
// when allowed (POSIX); Windows: `like`'s file attributes. Applied before the file is renamed in.
// On failure `what` says which step failed ("cannot chmod") and `error` why.
bool copy_mode(NativeFile file, const FileInfo& like, bool owner, std::string& what, std::string& error);
bool close(NativeFile file, std::string& error);

// Renames `from` over `to`, replacing `to` atomically when it exists (rename(2); MoveFileExW with
// MOVEFILE_REPLACE_EXISTING). Windows cannot replace a file that some program still has mapped.
bool replace(const fs::path& from, const fs::path& to, std::string& error);
// Gives the file `temporary` the name `name` only if no file has that name yet, never replacing
// one (POSIX: link(2), or a rename after a check where the file system has no hard links;
// Windows: MoveFileExW without MOVEFILE_REPLACE_EXISTING, which fails on an existing name).
// On success `temporary` no longer exists.
enum class Claim { claimed, taken, failed };
Claim claim_name(const fs::path& temporary, const fs::path& name, std::string& error);
// Removes a file; failure is not reported (clean-up).
void remove_file(const fs::path& path) noexcept;

// May this process replace the regular file `path` (described by `info`)? A file without any write
// permission bit (POSIX 0444; Windows: the read-only attribute) is refused even for root, for whom
// access(2) always succeeds.
bool may_replace(const fs::path& path, const FileInfo& info, std::string& why);
// May this process create files in the folder `dir` (POSIX access(W_OK | X_OK); Windows: yes,
// a failure is reported when the temporary file is created)?
bool may_create_in(const fs::path& dir, std::string& error);

}  // namespace boneyard::platform
