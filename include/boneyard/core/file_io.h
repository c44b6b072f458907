// Reading files once (memory-mapped) and writing them atomically.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"

namespace boneyard {

// Failures to open or write files are Findings with `io` set (exit code 2): a missing file, no
// permission, or a path that is not a regular file ("is a directory, not a file", "is a FIFO,
// not a regular file", devices, sockets). The message says what failed; `path` is empty.

// Success when `path` is a regular file (symlinks followed), else why it cannot be read as one.
// Only stats the path: nothing is opened, so a FIFO or a device is refused without side effects.
Status check_regular_file(const std::filesystem::path& path);

// Read-only view of a whole file. Maps it when possible (Linux; on Windows it is read whole, since
// Windows cannot replace a file while a program has it mapped, and an output may replace a file
// that was read: an in-place edit, a template named as the output); keeps it alive while shared.
// Only regular files are read: anything else (directory, FIFO, device, socket) is a FileError
// before a byte is read, so /dev/zero cannot be read forever and a FIFO cannot block.
class FileData {
 public:
  static Result<std::shared_ptr<const FileData>> open(const std::filesystem::path& path);
  static std::shared_ptr<const FileData> from_vector(std::vector<std::uint8_t> bytes);
  // Bytes owned elsewhere (a Python bytes object), kept alive by `owner` and never copied; they
  // must not change while the FileData lives.
  static std::shared_ptr<const FileData> from_view(Bytes bytes, std::shared_ptr<const void> owner);
  ~FileData();
  FileData(const FileData&) = delete;
  FileData& operator=(const FileData&) = delete;

  Bytes bytes() const { return {data_, size_}; }

 private:
  FileData() = default;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  const void* map_ = nullptr;
  std::vector<std::uint8_t> owned_;
  std::shared_ptr<const void> owner_;
};

// Where output bytes go, in order: a vector in memory, or a file being written atomically. Writers
// of large outputs (glTF) stream into one instead of building the whole file first.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual Status write(Bytes data) = 0;
  Status zeros(std::size_t count);
};

class VectorSink final : public ByteSink {
 public:
  explicit VectorSink(std::vector<std::uint8_t>& out) : out_(out) {}
  Status write(Bytes data) override;

 private:
  std::vector<std::uint8_t>& out_;
};

// A file written through a hidden temporary file beside `path` (registered for interrupt clean-up,
// interrupt.h) and renamed over `path` by commit(): readers never see a partial file, and a failed
// write leaves the old file untouched. Destroyed without commit() (a failed or interrupted
// conversion), it removes the temporary file: nothing is left. Small writes are gathered, large
// ones written as they are; an interruption is noticed within one slice (1 MiB) either way.
class AtomicFile final : public ByteSink {
 public:
  static Result<std::unique_ptr<AtomicFile>> create(const std::filesystem::path& path);
  ~AtomicFile() override;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  Status write(Bytes data) override;
  Status commit();
  const std::filesystem::path& path() const { return path_; }

 private:
  AtomicFile(std::filesystem::path path, std::filesystem::path temporary, std::intptr_t file);
  Status put(Bytes data);
  Status flush();
  Status abandon(Finding why);
  std::filesystem::path path_, temporary_;
  std::intptr_t file_ = -1;  // a descriptor or a Windows HANDLE (src/core/platform.h)
  bool done_ = false;
  std::vector<std::uint8_t> buffer_;
};

// `data` as the whole of `path`, through an AtomicFile.
Status write_file_atomic(const std::filesystem::path& path, Bytes data);

// Like write_file_atomic, but the new file gets exactly `mode` (permission bits, umask not
// applied; on Windows: file attributes such as hidden) and, when `owner` is given, that owner and
// group (best effort: only root may give a file away; not on Windows). The temporary file is created in `path`'s own directory, so `path` must not be a
// symlink (resolve it with prepare_in_place_edit first).
struct FileOwner {
  unsigned uid = 0, gid = 0;
};
Status write_file_atomic_mode(const std::filesystem::path& path, Bytes data, unsigned mode,
                              const FileOwner* owner = nullptr);

// Where an in-place edit of a file writes, and what it must keep.
struct InPlaceTarget {
  std::filesystem::path target;  // the file itself: symlinks resolved (the link stays a link)
  unsigned mode = 0;             // its permission bits (Windows: attributes), kept on the edited file and the backup
  FileOwner owner;
};
// Resolves `path` through symlinks and checks that it may be replaced: a regular file, with a
// write permission bit set for someone and writable by this process (access(W_OK)), in a folder
// this process may create files in. The permission-bit rule makes a read-only file (0444) refused
// even for root, for whom access() always succeeds; on Windows the read-only attribute does the
// same. Returns the target or a one-line reason.
Result<InPlaceTarget> prepare_in_place_edit(const std::filesystem::path& path);

// The first of `path`.bak, `path`.bak.1, `path`.bak.2, ... that does not exist yet, written with
// `data` and `mode` without ever replacing an existing file (the name is claimed with link(2), or
// on Windows a rename without MOVEFILE_REPLACE_EXISTING, both of which fail on an existing name).
// Returns the backup's path or a one-line reason.
Result<std::filesystem::path> write_backup(const std::filesystem::path& path, Bytes data, unsigned mode);

// An in-place edit: replaces `path` (through a symlink, its target; mode and owner kept) with
// `edited` after saving `original` as write_backup does. When the replacement fails, the backup
// is removed again (the file is untouched). Returns the backup's path or a one-line reason.
Result<std::filesystem::path> replace_keeping_backup(const std::filesystem::path& path, Bytes original, Bytes edited);

// True when both paths name the same existing file (so an output would overwrite its input).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace boneyard
