// Batch conversion of an X-Ray game-data tree to glTF (the registry composes the X-Ray library
// and the glTF writer): every .ogf with the motions the engine would
// give it, and every .omf that no .ogf refers to (on a flat armature), in parallel.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"

namespace boneyard {

struct BatchItem {
  // interrupted: not converted because SIGINT/SIGTERM stopped the batch (interrupt.h) before
  // its output was written (nothing of it is left).
  enum class Status { converted, warnings, failed, interrupted };
  std::filesystem::path input;
  std::filesystem::path output;
  Status status = Status::converted;
  std::vector<Finding> findings;  // warnings, or the error (first) when failed
};

struct BatchOptions {
  std::filesystem::path input_dir;
  std::filesystem::path output_dir;
  std::filesystem::path meshes_root;  // empty: per model, its nearest "meshes" ancestor, else input_dir
  std::string extension = ".glb";     // ".glb" or ".gltf"
  unsigned threads = 0;               // 0 = all cores
  std::filesystem::path textures{};   // .ogf meshes: the textures root (empty: each model's "textures" beside "meshes")
  bool keep_going = false;            // .ogf meshes: leave broken children out (warning) instead of failing
  bool force = false;                 // convert files with validation errors (warned) instead of failing them
  bool float_rotations = false;       // normalised float rotation outputs instead of the stored 16-bit keys
  std::vector<std::string> motions;   // only motions whose name matches one of these globs (empty: all)
  // Called once per finished item, never concurrently (the batch holds a lock around it).
  std::function<void(std::size_t done, std::size_t total, const BatchItem& item)> progress;
};

struct BatchResult {
  std::vector<BatchItem> items;  // sorted by input path
  std::size_t converted = 0, with_warnings = 0, failed = 0;
  std::size_t not_converted = 0;  // items left when an interruption stopped the batch
  int interrupt_signal = 0;       // the signal that stopped it, or 0
};

// Never throws for bad files: each failure is recorded on its item and the others continue.
// Outputs are written atomically (a failed item leaves no file behind). Once interrupted()
// (interrupt.h) the workers take no new item and abandon the writes in progress (their
// temporary files are removed); those items and the ones never started are `interrupted`.
BatchResult convert_tree(const BatchOptions& options);

}  // namespace boneyard
