// Every file one command reads and every file it will write, checked before any output is put in
// place: an output never replaces a file the command reads (its input, a template, a --skeleton,
// a .gltf's buffer), another output of the same command, or something that is not a regular file
// (a folder, a device, a FIFO). docs/safety.md "Outputs".
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/paths.h"

namespace boneyard {

// The name under which a file system keeps `path`: absolute, links resolved where they exist,
// and ASCII letters folded, because on the case-insensitive file systems most users have (Windows,
// macOS) Wave.glb and wave.glb are one file. Two paths with one key are one output.
std::string output_key(const std::filesystem::path& path);

// Whether `a` and `b` are one file: the same existing file (hard links, links followed), or one
// output_key.
bool same_target(const std::filesystem::path& a, const std::filesystem::path& b);

class OutputPlan {
 public:
  // A file the command reads; `role` names it in messages ("the input file", "the --template").
  void add_read(const std::filesystem::path& path, std::string role);
  // A file the command will write. Refused (a usage error naming both paths, exit 2) when it is a
  // file the command reads, an output already planned, or an existing file that is not a regular
  // file (or a link to one).
  Status add_write(const std::filesystem::path& path);
  // Every planned output against the files read since it was planned: the last check before the
  // outputs replace anything.
  Status check() const;
  const std::vector<std::filesystem::path>& writes() const { return writes_; }

 private:
  // Each path's key and identity are taken once and looked up by value: a batch plans thousands
  // of outputs against thousands of inputs, and comparing pairs would stat each path n times.
  struct Read {
    std::filesystem::path path;
    std::string role;
  };
  struct Index {
    std::unordered_map<std::string, std::size_t> by_key;  // the first path with that key
    std::map<FileIdentity, std::size_t> by_identity;      // the first existing path that is that file
    void add(const std::string& key, const std::optional<FileIdentity>& id, std::size_t i);
    std::optional<std::size_t> find(const std::string& key, const std::optional<FileIdentity>& id) const;
  };
  Status against_reads(const std::filesystem::path& output, const std::string& key,
                       const std::optional<FileIdentity>& id) const;
  std::vector<Read> reads_;
  Index read_index_;
  std::vector<std::filesystem::path> writes_;
  std::vector<std::string> write_keys_;
  Index write_index_;
};

// Why `path` cannot be an output at all: it exists and is not a regular file.
Status check_output_target(const std::filesystem::path& path);

}  // namespace boneyard
