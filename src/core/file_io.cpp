#include "boneyard/core/file_io.h"

#include <algorithm>
#include <random>
#include <system_error>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "core/platform.h"

namespace boneyard {

namespace {

namespace fs = std::filesystem;
using platform::FileKind;
using platform::kNoFile;
using platform::NativeFile;

// What a non-regular file is, as the end of "PATH: is a FIFO, not a regular file".
std::string not_regular_text(FileKind kind) {
  switch (kind) {
    case FileKind::directory: return "is a directory, not a file";
    case FileKind::fifo: return "is a FIFO, not a regular file";
    case FileKind::char_device: return "is a character device, not a regular file";
    case FileKind::block_device: return "is a block device, not a regular file";
    case FileKind::socket: return "is a socket, not a regular file";
    case FileKind::regular:
    case FileKind::other: break;
  }
  return "is not a regular file";
}

Finding io_error(std::string message) { return io_error_finding({}, std::move(message)); }

std::string shown(const fs::path& p) { return path_to_utf8(p); }

// Reads a regular file that could not be mapped (empty by its size, as files in /proc are, mmap
// refused, or Windows): sequentially until the end.
Status read_all(NativeFile file, std::uint64_t size_hint, std::vector<std::uint8_t>& out) {
  if (size_hint > 0 && size_hint < (std::uint64_t{1} << 40)) out.reserve(static_cast<std::size_t>(size_hint));
  std::uint8_t buf[1 << 16];
  for (;;) {
    std::string error;
    const std::ptrdiff_t n = platform::read_some(file, buf, sizeof buf, error);
    if (n < 0) return io_error("cannot read: " + error);
    if (n == 0) return {};
    out.insert(out.end(), buf, buf + n);
  }
}

// A hidden temporary name in `dir` for a file that will become `name`: .NAME.NNN.tmp
fs::path temporary_name(const fs::path& dir, const fs::path& name) {
  std::random_device rd;
  return dir / path_from_utf8("." + path_to_utf8(name) + "." + std::to_string(rd()) + ".tmp");
}

}  // namespace

Status check_regular_file(const std::filesystem::path& path) {
  std::string error;
  const auto info = platform::stat_path(path, error);
  if (!info) return io_error("cannot open: " + error);
  if (info->kind != FileKind::regular) return io_error(not_regular_text(info->kind));
  return {};
}

Result<std::shared_ptr<const FileData>> FileData::open(const std::filesystem::path& path) {
  // Refused before opening: opening a device can have side effects, opening a FIFO blocks.
  if (auto regular = check_regular_file(path); !regular) return regular.error();
  std::string error;
  const NativeFile file = platform::open_for_reading(path, error);
  if (file == kNoFile) return io_error("cannot open: " + error);
  const auto info = platform::stat_open(file, error);
  if (!info || info->kind != FileKind::regular) {
    platform::close(file, error);
    return info ? io_error(not_regular_text(info->kind)) : io_error("cannot stat: " + error);
  }
  std::shared_ptr<FileData> f(new FileData());
  if (info->size > 0) {
    const auto size = static_cast<std::size_t>(info->size);
    if (const void* m = platform::map_read_only(file, size)) {
      f->map_ = m;
      f->data_ = static_cast<const std::uint8_t*>(m);
      f->size_ = size;
      platform::close(file, error);
      return std::shared_ptr<const FileData>(std::move(f));
    }
  }
  auto read = read_all(file, info->size, f->owned_);
  platform::close(file, error);
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
  if (map_ != nullptr) platform::unmap(map_, size_);
}

namespace {

// Writes are gathered up to this size, so that an interruption (SIGINT/SIGTERM, see interrupt.h)
// is noticed within one slice rather than after a whole large file, and small writes of a
// streaming writer cost no system call each.
constexpr std::size_t kWriteSlice = std::size_t{1} << 20;
// From this size on, a span costs more to copy into the buffer than its own system call.
constexpr std::size_t kDirectWrite = std::size_t{64} << 10;

Finding interrupted_error(const std::filesystem::path& path) {
  return io_error("interrupted (signal " + std::to_string(interrupt_signal()) + "): " + shown(path) + " not written");
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

AtomicFile::AtomicFile(std::filesystem::path path, std::filesystem::path temporary, std::intptr_t file)
    : path_(std::move(path)), temporary_(std::move(temporary)), file_(file) {
  buffer_.reserve(kWriteSlice);
}

Result<std::unique_ptr<AtomicFile>> AtomicFile::create(const std::filesystem::path& path) {
  if (interrupted()) return interrupted_error(path);
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  const auto tmp = temporary_name(dir, path.filename());
  register_temporary(tmp);  // before it exists, so that no moment leaves it unlisted
  std::string error;
  const NativeFile file = platform::create_new(tmp, 0644, error);
  if (file == kNoFile) {
    unregister_temporary(tmp);
    return io_error("cannot create " + shown(tmp) + ": " + error);
  }
  try {
    return std::unique_ptr<AtomicFile>(new AtomicFile(path, tmp, file));
  } catch (...) {  // the write buffer could not be allocated: leave no temporary file behind
    platform::close(file, error);
    platform::remove_file(tmp);
    unregister_temporary(tmp);
    throw;
  }
}

AtomicFile::~AtomicFile() {
  if (!done_) abandon(Finding{});
}

// The temporary file is gone (and unregistered) whatever happens to it after this.
Status AtomicFile::abandon(Finding why) {
  std::string ignored;
  if (file_ != kNoFile) platform::close(file_, ignored);
  file_ = kNoFile;
  platform::remove_file(temporary_);
  unregister_temporary(temporary_);
  done_ = true;
  return why;
}

// Writes `data` in slices of at most kWriteSlice, looking for an interruption before each.
Status AtomicFile::put(Bytes data) {
  while (!data.empty()) {
    if (interrupted()) return abandon(interrupted_error(path_));
    std::string error;
    const std::ptrdiff_t n = platform::write_some(file_, data.data(), std::min(data.size(), kWriteSlice), error);
    if (n < 0) return abandon(io_error("cannot write " + shown(temporary_) + ": " + error));
    data = data.subspan(static_cast<std::size_t>(n));
  }
  return {};
}

Status AtomicFile::flush() {
  const Status s = put(buffer_);
  buffer_.clear();
  return s;
}

Status AtomicFile::write(Bytes data) {
  if (done_) return io_error("cannot write " + shown(temporary_) + ": already closed");
  // A large span goes to the file from the caller's memory: copying a .glb's megabytes of JSON
  // through the buffer first cost about a tenth of a one-model `convert`.
  if (data.size() >= kDirectWrite) {
    if (auto s = flush(); !s) return s;
    return put(data);
  }
  if (buffer_.size() + data.size() > kWriteSlice)
    if (auto s = flush(); !s) return s;
  buffer_.insert(buffer_.end(), data.begin(), data.end());
  return {};
}

Status AtomicFile::commit() {
  if (done_) return io_error("cannot write " + shown(temporary_) + ": already closed");
  if (auto s = flush(); !s) return s;
  const NativeFile file = file_;
  file_ = kNoFile;
  std::string error;
  if (!platform::close(file, error)) return abandon(io_error("cannot write " + shown(temporary_) + ": " + error));
  if (interrupted()) return abandon(interrupted_error(path_));
  if (!platform::replace(temporary_, path_, error))
    return abandon(io_error("cannot rename onto " + shown(path_) + ": " + error));
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
  const auto x = file_identity(a);
  if (!x) return false;
  const auto y = file_identity(b);
  return y && *x == *y;
}

// ---- In-place edits: mode-keeping atomic writes, symlink targets and backups --------------------

namespace {

std::filesystem::path folder_of(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

// Writes `data` to a new hidden temporary file in `dir` with exactly `mode` (and the owner when
// given); returns its path, or an empty path and the reason in `error`. Nothing is left behind on
// failure.
std::filesystem::path write_temp(const std::filesystem::path& dir, const fs::path& name, Bytes data, unsigned mode,
                                 const FileOwner* owner, std::string& error) {
  const auto tmp = temporary_name(dir, name);
  std::string why;
  const NativeFile file = platform::create_new(tmp, 0600, why);
  if (file == kNoFile) {
    error = "cannot create " + shown(tmp) + ": " + why;
    return {};
  }
  const auto fail = [&](const std::string& what) {
    std::string ignored;
    platform::close(file, ignored);
    platform::remove_file(tmp);
    error = what;
    return std::filesystem::path{};
  };
  std::size_t done = 0;
  while (done < data.size()) {
    const std::size_t slice = std::min(data.size() - done, kWriteSlice);
    const std::ptrdiff_t n = platform::write_some(file, data.data() + done, slice, why);
    if (n < 0) return fail("cannot write " + shown(tmp) + ": " + why);
    done += static_cast<std::size_t>(n);
  }
  platform::FileInfo like;
  like.mode = mode;
  if (owner != nullptr) like.uid = owner->uid, like.gid = owner->gid;
  if (std::string what; !platform::copy_mode(file, like, owner != nullptr, what, why))
    return fail(what + " " + shown(tmp) + ": " + why);
  if (!platform::close(file, why)) {
    platform::remove_file(tmp);
    error = "cannot write " + shown(tmp) + ": " + why;
    return {};
  }
  return tmp;
}

}  // namespace

Status write_file_atomic_mode(const std::filesystem::path& path, Bytes data, unsigned mode, const FileOwner* owner) {
  std::string error;
  const auto tmp = write_temp(folder_of(path), path.filename(), data, mode, owner, error);
  if (tmp.empty()) return io_error(error);
  if (!platform::replace(tmp, path, error)) {
    platform::remove_file(tmp);
    return io_error("cannot rename onto " + shown(path) + ": " + error);
  }
  return {};
}

Result<InPlaceTarget> prepare_in_place_edit(const std::filesystem::path& path) {
  std::error_code ec;
  // canonical() follows every link in the chain and fails on a dangling one.
  const auto target = std::filesystem::canonical(path, ec);
  if (ec) return io_error("cannot resolve " + shown(path) + ": " + ec.message());
  std::string error;
  const auto info = platform::stat_path(target, error);
  if (!info) return io_error("cannot stat " + shown(target) + ": " + error);
  if (info->kind != FileKind::regular)
    return io_error(shown(target) + " is not a regular file; --in-place edits regular files only");
  if (!platform::may_replace(target, *info, error))
    return io_error(shown(target) + " is read-only (" + error + "); refusing to replace it");
  const auto dir = folder_of(target);
  if (!platform::may_create_in(dir, error))
    return io_error("cannot create files in " + shown(dir) + " (needed to replace " + shown(target.filename()) +
                    " atomically): " + error);
  return InPlaceTarget{target, info->mode, FileOwner{info->uid, info->gid}};
}

Result<std::filesystem::path> write_backup(const std::filesystem::path& path, Bytes data, unsigned mode) {
  const auto dir = folder_of(path);
  std::string error;
  fs::path stem = path.filename();
  stem += ".bak";
  const auto tmp = write_temp(dir, stem, data, mode, nullptr, error);
  if (tmp.empty()) return io_error(error);
  // The name is claimed without ever replacing a file, so an older backup is never overwritten,
  // even by a concurrent edit.
  for (unsigned n = 0; n < 100000; ++n) {
    fs::path backup = path;
    backup += path_from_utf8(".bak" + (n == 0 ? std::string() : "." + std::to_string(n)));
    switch (platform::claim_name(tmp, backup, error)) {
      case platform::Claim::claimed: return backup;
      case platform::Claim::taken: continue;
      case platform::Claim::failed:
        platform::remove_file(tmp);
        return io_error("cannot create the backup " + shown(backup) + ": " + error);
    }
  }
  platform::remove_file(tmp);
  return io_error("cannot create a backup of " + shown(path) + ": every name up to .bak.99999 is taken");
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
