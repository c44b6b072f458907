#include "boneyard/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>
#include <system_error>

#include "boneyard/interrupt.h"

namespace boneyard {

namespace {

std::string errno_text(int e) { return std::strerror(e); }

// What a non-regular file is, as the end of "PATH: is a FIFO, not a regular file".
std::string not_regular_text(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory, not a file";
  if (S_ISFIFO(mode)) return "is a FIFO, not a regular file";
  if (S_ISCHR(mode)) return "is a character device, not a regular file";
  if (S_ISBLK(mode)) return "is a block device, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

FileError io_error(std::string message) { return FileError{FileError::Kind::io, std::move(message)}; }

// Reads a regular file that could not be mapped (empty by its size, as files in /proc are, or
// mmap refused): sequentially until the end.
std::optional<FileError> read_all(int fd, std::vector<std::uint8_t>& out) {
  std::uint8_t buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot read: " + errno_text(errno));
    }
    if (n == 0) return std::nullopt;
    out.insert(out.end(), buf, buf + n);
  }
}

}  // namespace

std::optional<FileError> check_regular_file(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot open: " + errno_text(errno));
  if (!S_ISREG(st.st_mode)) return io_error(not_regular_text(st.st_mode));
  return std::nullopt;
}

std::variant<std::shared_ptr<const FileData>, FileError> FileData::open(const std::filesystem::path& path) {
  // Refused before open(2): opening a device can have side effects, opening a FIFO blocks.
  if (auto err = check_regular_file(path)) return *err;
  // O_NONBLOCK: should the path have been swapped for a FIFO since the stat, open does not block.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return io_error("cannot open: " + errno_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return io_error("cannot stat: " + errno_text(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return io_error(not_regular_text(st.st_mode));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::shared_ptr<FileData> f(new FileData());
  if (st.st_size > 0) {
    void* m = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      f->map_ = m;
      f->data_ = static_cast<const std::uint8_t*>(m);
      f->size_ = static_cast<std::size_t>(st.st_size);
      ::close(fd);
      return std::shared_ptr<const FileData>(std::move(f));
    }
  }
  auto err = read_all(fd, f->owned_);
  ::close(fd);
  if (err) return *err;
  f->data_ = f->owned_.data();
  f->size_ = f->owned_.size();
  return std::shared_ptr<const FileData>(std::move(f));
}

std::shared_ptr<const FileData> FileData::from_vector(std::vector<std::uint8_t> bytes) {
  std::shared_ptr<FileData> f(new FileData());
  f->owned_ = std::move(bytes);
  f->data_ = f->owned_.data();
  f->size_ = f->owned_.size();
  return f;
}

FileData::~FileData() {
  if (map_ != nullptr) ::munmap(map_, size_);
}

namespace {

// Writes in slices so that an interruption (SIGINT/SIGTERM, see interrupt.h) is noticed within
// one slice rather than after a whole large file.
constexpr std::size_t kWriteSlice = std::size_t{1} << 20;

// The temporary file is gone (and unregistered) whatever happens to it after this.
std::string abandon(const std::filesystem::path& tmp, std::string message) {
  ::unlink(tmp.c_str());
  unregister_temporary(tmp);
  return message;
}

std::string interrupted_message(const std::filesystem::path& path) {
  return "interrupted (signal " + std::to_string(interrupt_signal()) + "): " + path.string() + " not written";
}

}  // namespace

std::string write_file_atomic(const std::filesystem::path& path, Bytes data) {
  if (interrupted()) return interrupted_message(path);
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::random_device rd;
  const std::string tmp_name = "." + path.filename().string() + "." + std::to_string(rd()) + ".tmp";
  const auto tmp = dir / tmp_name;
  register_temporary(tmp);  // before it exists, so that no moment leaves it unlisted
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int e = errno;
    unregister_temporary(tmp);
    return "cannot create " + tmp.string() + ": " + errno_text(e);
  }
  std::size_t done = 0;
  while (done < data.size()) {
    if (interrupted()) {
      ::close(fd);
      return abandon(tmp, interrupted_message(path));
    }
    const ssize_t n = ::write(fd, data.data() + done, std::min(data.size() - done, kWriteSlice));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      return abandon(tmp, "cannot write " + tmp.string() + ": " + errno_text(e));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return abandon(tmp, "cannot write " + tmp.string() + ": " + errno_text(errno));
  if (interrupted()) return abandon(tmp, interrupted_message(path));
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    return abandon(tmp, "cannot rename onto " + path.string() + ": " + errno_text(e));
  }
  unregister_temporary(tmp);
  return {};
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

// ---- In-place edits: mode-keeping atomic writes, symlink targets and backups --------------------

namespace {

std::filesystem::path folder_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

// Writes `data` to a new hidden temporary file in `dir` with exactly `mode`; returns its path, or
// an empty path and the reason in `error`. Nothing is left behind on failure.
std::filesystem::path write_temp(const std::filesystem::path& dir, const std::string& stem, Bytes data, unsigned mode,
                                 const FileOwner* owner, std::string& error) {
  std::random_device rd;
  const auto tmp = dir / ("." + stem + "." + std::to_string(rd()) + ".tmp");
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = "cannot create " + tmp.string() + ": " + errno_text(errno);
    return {};
  }
  const auto fail = [&](const char* what, int e) {
    ::close(fd);
    ::unlink(tmp.c_str());
    error = std::string(what) + " " + tmp.string() + ": " + errno_text(e);
    return std::filesystem::path{};
  };
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write", errno);
    }
    done += static_cast<std::size_t>(n);
  }
  // Ownership first: chown clears set-id bits, which the chmod below then restores.
  if (owner != nullptr && ::fchown(fd, owner->uid, owner->gid) != 0 && errno != EPERM) return fail("cannot chown", errno);
  if (::fchmod(fd, static_cast<mode_t>(mode & 07777)) != 0) return fail("cannot chmod", errno);
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    error = "cannot write " + tmp.string() + ": " + errno_text(e);
    return {};
  }
  return tmp;
}

}  // namespace

std::string write_file_atomic_mode(const std::filesystem::path& path, Bytes data, unsigned mode,
                                   const FileOwner* owner) {
  std::string error;
  const auto tmp = write_temp(folder_of(path), path.filename().string(), data, mode, owner, error);
  if (tmp.empty()) return error;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return "cannot rename onto " + path.string() + ": " + errno_text(e);
  }
  return {};
}

std::variant<InPlaceTarget, std::string> prepare_in_place_edit(const std::filesystem::path& path) {
  std::error_code ec;
  // canonical() follows every link in the chain and fails on a dangling one.
  const auto target = std::filesystem::canonical(path, ec);
  if (ec) return "cannot resolve " + path.string() + ": " + ec.message();
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) return "cannot stat " + target.string() + ": " + errno_text(errno);
  if (!S_ISREG(st.st_mode)) return target.string() + " is not a regular file; --in-place edits regular files only";
  if ((st.st_mode & 0222) == 0 || ::access(target.c_str(), W_OK) != 0)
    return target.string() + " is read-only (no write permission); refusing to replace it";
  const auto dir = folder_of(target);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot create files in " + dir.string() + " (needed to replace " + target.filename().string() +
           " atomically): " + errno_text(errno);
  return InPlaceTarget{target, static_cast<unsigned>(st.st_mode & 07777),
                       FileOwner{static_cast<unsigned>(st.st_uid), static_cast<unsigned>(st.st_gid)}};
}

std::variant<std::filesystem::path, std::string> write_backup(const std::filesystem::path& path, Bytes data,
                                                              unsigned mode) {
  const auto dir = folder_of(path);
  std::string error;
  const auto tmp = write_temp(dir, path.filename().string() + ".bak", data, mode, nullptr, error);
  if (tmp.empty()) return error;
  // link() refuses an existing name, so an older backup is never replaced, even by a concurrent edit.
  for (unsigned n = 0; n < 100000; ++n) {
    const std::filesystem::path backup = path.string() + ".bak" + (n == 0 ? std::string() : "." + std::to_string(n));
    if (::link(tmp.c_str(), backup.c_str()) == 0) {
      ::unlink(tmp.c_str());
      return backup;
    }
    if (errno == EPERM || errno == EOPNOTSUPP) {
      // No hard links on this file system: claim the name by renaming when it is free (a
      // concurrent writer could still race us here; link() above has no such window).
      struct stat st {};
      if (::lstat(backup.c_str(), &st) == 0) continue;
      if (::rename(tmp.c_str(), backup.c_str()) == 0) return backup;
    }
    if (errno != EEXIST) {
      const int e = errno;
      ::unlink(tmp.c_str());
      return "cannot create the backup " + backup.string() + ": " + errno_text(e);
    }
  }
  ::unlink(tmp.c_str());
  return "cannot create a backup of " + path.string() + ": every name up to .bak.99999 is taken";
}

}  // namespace boneyard
