#include "boneyard/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <system_error>

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

std::string write_file_atomic(const std::filesystem::path& path, Bytes data) {
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::random_device rd;
  const std::string tmp_name = "." + path.filename().string() + "." + std::to_string(rd()) + ".tmp";
  const auto tmp = dir / tmp_name;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create " + tmp.string() + ": " + errno_text(errno);
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return "cannot write " + tmp.string() + ": " + errno_text(e);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return "cannot write " + tmp.string() + ": " + errno_text(e);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return "cannot rename onto " + path.string() + ": " + errno_text(e);
  }
  return {};
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::error_code ec;
  return std::filesystem::equivalent(a, b, ec) && !ec;
}

}  // namespace boneyard
