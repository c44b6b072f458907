// The edit flow of .omf files that `boneyard omf` and Python's boneyard.Omf share: a file read with
// the findings it already had, edited (xray/omf_edit.h), then written only when the result
// validates, either to a new file or over the one it came from, keeping a backup.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"

namespace boneyard {

struct OmfEdit {
  xray::OmfFile file;
  // The findings of the file(s) it came from: errors they already had are not held against the
  // result (an edit of a broken file writes what it did not break).
  Diagnostics inherited;
  std::filesystem::path path;  // the file it was read from; "" for bytes or a new file (merge, extract)
  // The files it was made from (read, extracted from, merged): an output that names one of them
  // is refused, so that an edit never replaces an input without a backup.
  std::vector<std::filesystem::path> sources;
};

// `data` read as an .omf to edit (the reader's error when it is not one).
Result<OmfEdit> read_omf_edit(std::shared_ptr<const FileData> data, std::filesystem::path path);
// A new file made from `from` (extract): it inherits the findings of the file it came from.
OmfEdit derived_omf_edit(const OmfEdit& from, xray::OmfFile file);
// Joins files whose bone parts match (xray::merge_omfs); the result inherits every input's findings.
Result<OmfEdit> merge_omf_edits(std::vector<OmfEdit> inputs, bool rename_clashes, xray::EditReport& report);

// The bytes the edit writes: validated, its own errors refused (xray::checked_omf_bytes).
Result<std::vector<std::uint8_t>> omf_edit_bytes(const OmfEdit& edit);

struct SavedOmf {
  std::size_t size = 0;          // bytes written
  std::filesystem::path backup;  // in place: where the original went (FILE.bak, FILE.bak.1, ...)
};
// Writes the edit to `output` atomically, or, when `output` is empty, over the file it was read
// from (a symlink's target; mode and owner kept) after saving the original as the first free
// FILE.bak, FILE.bak.1, ... In that order, it refuses an `output` that is one of its sources
// (usage: "refusing to overwrite the input") and a result that would not validate (the finding),
// and says why a file could not be written (I/O).
Result<SavedOmf> save_omf_edit(const OmfEdit& edit, const std::filesystem::path& output);

}  // namespace boneyard
