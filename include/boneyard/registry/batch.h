// Batch conversion of an X-Ray game-data tree to glTF: every .ogf with the motions the engine would
// give it, and every .omf that no .ogf refers to (on a flat armature), in parallel, each one a
// convert request (registry/convert_request.h) like `boneyard convert`.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/registry/convert_options.h"

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
  std::string extension = ".glb";     // ".glb" or ".gltf"
  unsigned threads = 0;               // 0 = all cores
  // The convert options every file is converted with: those the option table says a batch reads
  // (tree>gltf: --meshes, --textures, --keep-going, --float-rotations, --motions) and --force.
  // Without `meshes`, each model's motion refs are looked up under its nearest "meshes" ancestor,
  // else under input_dir.
  ConvertSettings settings;
  // Called once per finished item, never concurrently (the batch holds a lock around it): in input
  // order (the CLI's output is the same on every run), or, with `progress_as_finished`, as each
  // item finishes (Python's callback, whose exception then stops the batch after the files in
  // progress).
  std::function<void(std::size_t done, std::size_t total, const BatchItem& item)> progress;
  bool progress_as_finished = false;
};

struct BatchResult {
  std::vector<BatchItem> items;  // sorted by input path
  std::size_t converted = 0, with_warnings = 0, failed = 0;
  std::size_t not_converted = 0;  // items left when an interruption stopped the batch
  int interrupt_signal = 0;       // the signal that stopped it, or 0
};

// A batch request checked before anything is read, as `convert --recursive` and Python's
// convert_tree check it: `given` (the options set, by row index) holds only options a batch reads
// (the option table's tree>gltf rows and those every conversion reads), and the input is a folder.
// A usage error naming the first option that does not apply, or the input, otherwise.
Status check_batch_request(const BatchOptions& options, const OptionSet& given);

// Never throws for bad files: each failure is recorded on its item and the others continue.
// Outputs are written atomically (a failed item leaves no file behind). Once interrupted()
// (interrupt.h) the workers take no new item and abandon the writes in progress (their
// temporary files are removed); those items and the ones never started are `interrupted`.
BatchResult convert_tree(const BatchOptions& options);

}  // namespace boneyard
