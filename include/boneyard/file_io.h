// Reading files once (memory-mapped) and writing them atomically.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <variant>
#include <string>
#include <vector>

#include "boneyard/bytes.h"

namespace boneyard {

// Why a file could not be opened: `io` problems are exit code 2, `invalid` (a directory) exit 1.
struct FileError {
  enum class Kind { io, invalid } kind = Kind::io;
  std::string message;
};

// Read-only view of a whole file. Maps it when possible; keeps it alive while shared.
class FileData {
 public:
  static std::variant<std::shared_ptr<const FileData>, FileError> open(const std::filesystem::path& path);
  static std::shared_ptr<const FileData> from_vector(std::vector<std::uint8_t> bytes);
  ~FileData();
  FileData(const FileData&) = delete;
  FileData& operator=(const FileData&) = delete;

  Bytes bytes() const { return {data_, size_}; }

 private:
  FileData() = default;
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  void* map_ = nullptr;
  std::vector<std::uint8_t> owned_;
};

// Writes to a temporary file beside `path`, then renames it over `path`: readers never see a
// partial file and a failed write leaves the old file untouched. Returns an error message or "".
std::string write_file_atomic(const std::filesystem::path& path, Bytes data);

// True when both paths name the same existing file (so an output would overwrite its input).
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

}  // namespace boneyard
