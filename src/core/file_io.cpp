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
}  // namespace

std::variant<std::shared_ptr<const FileData>, FileError> FileData::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FileError{FileError::Kind::io, "cannot open: " + errno_text(errno)};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return FileError{FileError::Kind::io, "cannot stat: " + errno_text(e)};
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return FileError{FileError::Kind::invalid, "is a directory, not a file"};
  }
  std::shared_ptr<FileData> f(new FileData());
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void* m = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      f->map_ = m;
      f->data_ = static_cast<const std::uint8_t*>(m);
      f->size_ = static_cast<std::size_t>(st.st_size);
      ::close(fd);
      return std::shared_ptr<const FileData>(std::move(f));
    }
  }
  // Pipes, special files and mmap failures: read sequentially.
  std::uint8_t buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      return FileError{FileError::Kind::io, "cannot read: " + errno_text(e)};
    }
    if (n == 0) break;
    f->owned_.insert(f->owned_.end(), buf, buf + n);
  }
  ::close(fd);
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

}  // namespace boneyard
