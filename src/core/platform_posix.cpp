// The platform layer on POSIX systems (Linux): file descriptors, stat(2), mmap(2), rename(2),
// link(2), glibc's allocator settings (memory_policy.h). Paths are bytes, taken to be UTF-8 as they are. See platform.h and boneyard/core/paths.h.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>  // before the test below: a C library header defines __GLIBC__
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "boneyard/core/memory_policy.h"
#include "boneyard/core/paths.h"
#include "core/platform.h"

namespace boneyard {

namespace fs = std::filesystem;

fs::path path_from_utf8(std::string_view utf8) { return fs::path(std::string(utf8)); }

std::string path_to_utf8(const fs::path& path) { return path.native(); }

std::string generic_path_to_utf8(const fs::path& path) { return path.generic_string(); }

std::optional<FileIdentity> file_identity(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

std::string file_name_key(const fs::path& name) { return name.native(); }

fs::path name_as_stored(const fs::path& path) { return path; }

std::optional<fs::path> link_target(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return std::nullopt;
  std::string target(4096, '\0');
  const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
  if (n < 0) return std::nullopt;
  target.resize(static_cast<std::size_t>(n));
  return fs::path(target);
}

#if defined(__GLIBC__)
namespace {
// Volatile: a block that nothing reads would be optimised away with its malloc.
void* volatile held_below_huge_pages = nullptr;  // see use_large_reused_heap; never freed
}  // namespace
#endif

void use_large_reused_heap() {
#if defined(__GLIBC__)
  // Blocks up to 64 MiB come from the heap instead of fresh mmaps, and up to 256 MiB of freed heap
  // stays for reuse instead of going back to the kernel: a batch's items reuse one another's
  // memory instead of faulting it in again (bench/make_proxies.sh corpus: 125k -> 27k faults).
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  // The heap grows in 64 MiB steps; the first step is made now and advised for huge pages, so
  // that it faults in 2 MiB at a time (30 MB touched: 7.8k -> 0.5k faults, 106 -> 17 ms CPU).
  // Later steps are ordinary pages: the advice holds for the mapping it was given to.
  constexpr std::uintptr_t kHuge = 2u << 20;
  mallopt(M_TOP_PAD, 64 << 20);
  void* first = std::malloc(1 << 20);  // null under a tight address-space limit: then no advice
  mallopt(M_TOP_PAD, 128 << 10);  // glibc's default step again once the advised region exists
  if (first == nullptr) return;
  // The advice starts at the first 2 MiB boundary past the header glibc wrote behind `first`: a
  // 2 MiB range that already has a 4 KiB page never gets a huge page.
  const auto at = reinterpret_cast<std::uintptr_t>(first);
  const auto lo = (at + (1u << 20) + 64 + kHuge - 1) & ~(kHuge - 1);
  std::free(first);
  const auto hi = reinterpret_cast<std::uintptr_t>(::sbrk(0)) & ~(kHuge - 1);
  if (hi <= lo) return;
  (void)::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
  // Left free, the heap below `lo` would take the next allocations, 4 KiB and a fault at a time:
  // up to 500 of the 700 faults of a one-model `convert`, as many as where the heap happens to
  // start leaves there. Taken by one block that is never written (addresses, not memory), it
  // makes the next allocation begin at `lo`.
  held_below_huge_pages = std::malloc(lo - at);
#endif
}

}  // namespace boneyard

namespace boneyard::platform {

namespace {

std::string errno_text(int e) { return std::strerror(e); }

int fd_of(NativeFile file) { return static_cast<int>(file); }

FileInfo info_of(const struct stat& st) {
  FileInfo info;
  const mode_t m = st.st_mode;
  info.kind = S_ISREG(m)    ? FileKind::regular
              : S_ISDIR(m)  ? FileKind::directory
              : S_ISFIFO(m) ? FileKind::fifo
              : S_ISCHR(m)  ? FileKind::char_device
              : S_ISBLK(m)  ? FileKind::block_device
              : S_ISSOCK(m) ? FileKind::socket
                            : FileKind::other;
  info.size = st.st_size > 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  info.mode = static_cast<unsigned>(m & 07777);
  info.uid = static_cast<unsigned>(st.st_uid);
  info.gid = static_cast<unsigned>(st.st_gid);
  return info;
}

}  // namespace

std::optional<FileInfo> stat_path(const fs::path& path, std::string& error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    error = errno_text(errno);
    return std::nullopt;
  }
  return info_of(st);
}

NativeFile open_for_reading(const fs::path& path, std::string& error) {
  // O_NONBLOCK: should the path have been swapped for a FIFO since it was examined, open does not
  // block; it is cleared again for the reads.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    error = errno_text(errno);
    return kNoFile;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

std::optional<FileInfo> stat_open(NativeFile file, std::string& error) {
  struct stat st {};
  if (::fstat(fd_of(file), &st) != 0) {
    error = errno_text(errno);
    return std::nullopt;
  }
  return info_of(st);
}

const void* map_read_only(NativeFile file, std::size_t size) {
  void* m = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd_of(file), 0);
  return m == MAP_FAILED ? nullptr : m;
}

void unmap(const void* address, std::size_t size) { ::munmap(const_cast<void*>(address), size); }

std::ptrdiff_t read_some(NativeFile file, void* buffer, std::size_t count, std::string& error) {
  for (;;) {
    const ssize_t n = ::read(fd_of(file), buffer, count);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    error = errno_text(errno);
    return -1;
  }
}

NativeFile create_new(const fs::path& path, unsigned posix_mode, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, static_cast<mode_t>(posix_mode));
  if (fd < 0) {
    error = errno_text(errno);
    return kNoFile;
  }
  return fd;
}

std::ptrdiff_t write_some(NativeFile file, const void* data, std::size_t count, std::string& error) {
  for (;;) {
    const ssize_t n = ::write(fd_of(file), data, count);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    error = errno_text(errno);
    return -1;
  }
}

bool copy_mode(NativeFile file, const FileInfo& like, bool owner, std::string& what, std::string& error) {
  // Ownership first: chown clears set-id bits, which the chmod below then restores.
  if (owner && ::fchown(fd_of(file), like.uid, like.gid) != 0 && errno != EPERM) {
    what = "cannot chown";
    error = errno_text(errno);
    return false;
  }
  if (::fchmod(fd_of(file), static_cast<mode_t>(like.mode & 07777)) != 0) {
    what = "cannot chmod";
    error = errno_text(errno);
    return false;
  }
  return true;
}

bool close(NativeFile file, std::string& error) {
  if (::close(fd_of(file)) == 0) return true;
  error = errno_text(errno);
  return false;
}

bool replace(const fs::path& from, const fs::path& to, std::string& error) {
  if (::rename(from.c_str(), to.c_str()) == 0) return true;
  error = errno_text(errno);
  return false;
}

Claim claim_name(const fs::path& temporary, const fs::path& name, std::string& error) {
  // link() refuses an existing name, so an older file is never replaced, even by a concurrent writer.
  if (::link(temporary.c_str(), name.c_str()) == 0) {
    ::unlink(temporary.c_str());
    return Claim::claimed;
  }
  if (errno == EPERM || errno == EOPNOTSUPP) {
    // No hard links on this file system: claim the name by renaming when it is free (a
    // concurrent writer could still race us here; link() above has no such window).
    struct stat st {};
    if (::lstat(name.c_str(), &st) == 0) return Claim::taken;
    if (::rename(temporary.c_str(), name.c_str()) == 0) return Claim::claimed;
  }
  if (errno == EEXIST) return Claim::taken;
  error = errno_text(errno);
  return Claim::failed;
}

void remove_file(const fs::path& path) noexcept { ::unlink(path.c_str()); }

bool may_replace(const fs::path& path, const FileInfo& info, std::string& why) {
  if ((info.mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0) {
    why = "no write permission";
    return false;
  }
  return true;
}

bool may_create_in(const fs::path& dir, std::string& error) {
  if (::access(dir.c_str(), W_OK | X_OK) == 0) return true;
  error = errno_text(errno);
  return false;
}

}  // namespace boneyard::platform
