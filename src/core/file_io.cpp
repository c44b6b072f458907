#include "boneyard/core/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>
#include <system_error>

#include "boneyard/core/interrupt.h"

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

Finding io_error(std::string message) { return io_error_finding({}, std::move(message)); }

// Reads a regular file that could not be mapped (empty by its size, as files in /proc are, or
// mmap refused): sequentially until the end.
Status read_all(int fd, std::vector<std::uint8_t>& out) {
  std::uint8_t buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot read: " + errno_text(errno));
    }
    if (n == 0) return {};
    out.insert(out.end(), buf, buf + n);
  }
}

}  // namespace

Status check_regular_file(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot open: " + errno_text(errno));
  if (!S_ISREG(st.st_mode)) return io_error(not_regular_text(st.st_mode));
  return {};
}

Result<std::shared_ptr<const FileData>> FileData::open(const std::filesystem::path& path) {
  // Refused before open(2): opening a device can have side effects, opening a FIFO blocks.
  if (auto regular = check_regular_file(path); !regular) return regular.error();
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
  auto read = read_all(fd, f->owned_);
  ::close(fd);
  if (!read) return read.error();
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

std::shared_ptr<const FileData> FileData::from_view(Bytes bytes, std::shared_ptr<const void> owner) {
  std::shared_ptr<FileData> f(new FileData());
  f->owner_ = std::move(owner);
  f->data_ = bytes.data();
  f->size_ = bytes.size();
  return f;
}

FileData::~FileData() {
  if (map_ != nullptr) ::munmap(map_, size_);
}

namespace {

// Writes are gathered up to this size, so that an interruption (SIGINT/SIGTERM, see interrupt.h)
// is noticed within one slice rather than after a whole large file, and small writes of a
// streaming writer cost no system call each.
constexpr std::size_t kWriteSlice = std::size_t{1} << 20;

Finding interrupted_error(const std::filesystem::path& path) {
  return io_error("interrupted (signal " + std::to_string(interrupt_signal()) + "): " + path.string() + " not written");
}

}  // namespace

Status ByteSink::zeros(std::size_t count) {
  static constexpr std::uint8_t kZeros[4096] = {};
  while (count > 0) {
    const std::size_t n = std::min(count, sizeof kZeros);
    if (auto s = write({kZeros, n}); !s) return s;
    count -= n;
  }
  return {};
}

Status VectorSink::write(Bytes data) {
  out_.insert(out_.end(), data.begin(), data.end());
  return {};
}

AtomicFile::AtomicFile(std::filesystem::path path, std::filesystem::path temporary, int fd)
    : path_(std::move(path)), temporary_(std::move(temporary)), fd_(fd) {
  buffer_.reserve(kWriteSlice);
}

Result<std::unique_ptr<AtomicFile>> AtomicFile::create(const std::filesystem::path& path) {
  if (interrupted()) return interrupted_error(path);
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::random_device rd;
  const auto tmp = dir / ("." + path.filename().string() + "." + std::to_string(rd()) + ".tmp");
  register_temporary(tmp);  // before it exists, so that no moment leaves it unlisted
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int e = errno;
    unregister_temporary(tmp);
    return io_error("cannot create " + tmp.string() + ": " + errno_text(e));
  }
  try {
    return std::unique_ptr<AtomicFile>(new AtomicFile(path, tmp, fd));
  } catch (...) {  // the write buffer could not be allocated: leave no temporary file behind
    ::close(fd);
    ::unlink(tmp.c_str());
    unregister_temporary(tmp);
    throw;
  }
}

AtomicFile::~AtomicFile() {
  if (!done_) abandon(Finding{});
}

// The temporary file is gone (and unregistered) whatever happens to it after this.
Status AtomicFile::abandon(Finding why) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(temporary_.c_str());
  unregister_temporary(temporary_);
  done_ = true;
  return why;
}

Status AtomicFile::flush() {
  std::size_t done = 0;
  while (done < buffer_.size()) {
    if (interrupted()) return abandon(interrupted_error(path_));
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return abandon(io_error("cannot write " + temporary_.string() + ": " + errno_text(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
  buffer_.clear();
  return {};
}

Status AtomicFile::write(Bytes data) {
  if (done_) return io_error("cannot write " + temporary_.string() + ": already closed");
  while (!data.empty()) {
    const std::size_t n = std::min(data.size(), kWriteSlice - buffer_.size());
    buffer_.insert(buffer_.end(), data.begin(), data.begin() + static_cast<std::ptrdiff_t>(n));
    data = data.subspan(n);
    if (buffer_.size() == kWriteSlice)
      if (auto s = flush(); !s) return s;
  }
  return {};
}

Status AtomicFile::commit() {
  if (done_) return io_error("cannot write " + temporary_.string() + ": already closed");
  if (auto s = flush(); !s) return s;
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return abandon(io_error("cannot write " + temporary_.string() + ": " + errno_text(errno)));
  if (interrupted()) return abandon(interrupted_error(path_));
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int e = errno;
    return abandon(io_error("cannot rename onto " + path_.string() + ": " + errno_text(e)));
  }
  unregister_temporary(temporary_);
  done_ = true;
  return {};
}

Status write_file_atomic(const std::filesystem::path& path, Bytes data) {
  auto file = AtomicFile::create(path);
  if (!file) return file.error();
  if (auto s = file.value()->write(data); !s) return s;
  return file.value()->commit();
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

Status write_file_atomic_mode(const std::filesystem::path& path, Bytes data, unsigned mode, const FileOwner* owner) {
  std::string error;
  const auto tmp = write_temp(folder_of(path), path.filename().string(), data, mode, owner, error);
  if (tmp.empty()) return io_error(error);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return io_error("cannot rename onto " + path.string() + ": " + errno_text(e));
  }
  return {};
}

Result<InPlaceTarget> prepare_in_place_edit(const std::filesystem::path& path) {
  std::error_code ec;
  // canonical() follows every link in the chain and fails on a dangling one.
  const auto target = std::filesystem::canonical(path, ec);
  if (ec) return io_error("cannot resolve " + path.string() + ": " + ec.message());
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) return io_error("cannot stat " + target.string() + ": " + errno_text(errno));
  if (!S_ISREG(st.st_mode))
    return io_error(target.string() + " is not a regular file; --in-place edits regular files only");
  if ((st.st_mode & 0222) == 0 || ::access(target.c_str(), W_OK) != 0)
    return io_error(target.string() + " is read-only (no write permission); refusing to replace it");
  const auto dir = folder_of(target);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return io_error("cannot create files in " + dir.string() + " (needed to replace " + target.filename().string() +
                    " atomically): " + errno_text(errno));
  return InPlaceTarget{target, static_cast<unsigned>(st.st_mode & 07777),
                       FileOwner{static_cast<unsigned>(st.st_uid), static_cast<unsigned>(st.st_gid)}};
}

Result<std::filesystem::path> write_backup(const std::filesystem::path& path, Bytes data, unsigned mode) {
  const auto dir = folder_of(path);
  std::string error;
  const auto tmp = write_temp(dir, path.filename().string() + ".bak", data, mode, nullptr, error);
  if (tmp.empty()) return io_error(error);
  // link() refuses an existing name, so an older backup is never replaced, even by a concurrent edit.
  for (unsigned n = 0; n < 100000; ++n) {
    const std::filesystem::path backup = path.string() + ".bak" + (n == 0 ? std::string() : "." + std::to_string(n));
    if (::link(tmp.c_str(), backup.c_str()) == 0) {
      ::unlink(tmp.c_str());
      return std::filesystem::path(backup);
    }
    if (errno == EPERM || errno == EOPNOTSUPP) {
      // No hard links on this file system: claim the name by renaming when it is free (a
      // concurrent writer could still race us here; link() above has no such window).
      struct stat st {};
      if (::lstat(backup.c_str(), &st) == 0) continue;
      if (::rename(tmp.c_str(), backup.c_str()) == 0) return std::filesystem::path(backup);
    }
    if (errno != EEXIST) {
      const int e = errno;
      ::unlink(tmp.c_str());
      return io_error("cannot create the backup " + backup.string() + ": " + errno_text(e));
    }
  }
  ::unlink(tmp.c_str());
  return io_error("cannot create a backup of " + path.string() + ": every name up to .bak.99999 is taken");
}

Result<std::filesystem::path> replace_keeping_backup(const std::filesystem::path& path, Bytes original, Bytes edited) {
  auto prepared = prepare_in_place_edit(path);
  if (!prepared) return prepared.error();
  const auto& target = prepared.value();
  auto backup = write_backup(path, original, target.mode);
  if (!backup) return backup.error();
  if (auto written = write_file_atomic_mode(target.target, edited, target.mode, &target.owner); !written) {
    std::error_code ec;
    std::filesystem::remove(backup.value(), ec);  // the file is untouched: the backup would only be clutter
    return written.error();
  }
  return backup;
}

}  // namespace boneyard
