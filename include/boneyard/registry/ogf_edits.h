// The edit flow of .ogf models that `boneyard ogf` and Python's boneyard.Ogf share: a model read
// with the findings it already had, edited (xray/ogf_edit.h), then written only when the result
// reads back and validates, either to a new file or over the one it came from, keeping a backup;
// and the same edit over every .ogf in a folder (a mod's models), with a dry run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/registry/omf_edits.h"  // SavedOmf
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf/ogf_edit.h"

namespace boneyard {

struct OgfEdit {
  xray::OgfFile file;
  // The findings of the file it came from: errors it already had are not held against the
  // result (an edit of a broken model writes what it did not break).
  Diagnostics inherited;
  std::filesystem::path path;  // the file it was read from; "" for bytes
  // The bytes it was read from: an edit may rebuild the model over new bytes (file.source), and
  // the backup of an in-place save must be what the file held.
  std::shared_ptr<const FileData> original;
};

// `data` read as an .ogf to edit (the reader's error when it is not one).
Result<OgfEdit> read_ogf_edit(std::shared_ptr<const FileData> data, std::filesystem::path path);
// The bytes the edit writes: read back and validated, its own errors refused (xray::checked_ogf_bytes).
Result<std::vector<std::uint8_t>> ogf_edit_bytes(const OgfEdit& edit);

using SavedOgf = SavedOmf;
// As save_omf_edit: to `output` atomically, or over the file it was read from (empty `output`)
// after saving the original as the first free FILE.bak, FILE.bak.1, ...; an `output` that is the
// input is a usage error, a result that would not validate the finding, a failed write I/O.
Result<SavedOgf> save_ogf_edit(const OgfEdit& edit, const std::filesystem::path& output);

using OgfEditFn = std::function<Result<xray::EditReport>(xray::OgfFile&)>;

// One model of a folder edit.
struct FolderEditItem {
  std::filesystem::path file;
  enum class Outcome { changed, unchanged, not_matched, failed } outcome = Outcome::unchanged;
  xray::EditReport report;         // the changes (written, or that a dry run would write)
  Status status;                   // failed: why (the model is left as it was); ok otherwise
  std::filesystem::path backup;    // changed and written: where the original went
};

// Every .ogf under `folder` (any case of the extension; symlinked folders are not entered), in
// path order, read and edited by `edit`. A model that the edit leaves byte for byte as it was is
// unchanged; one where none of `selectors` (xray::select_children) picks a child is not_matched
// and left alone; the others are replaced in place with a backup, unless `dry_run`. A model that
// cannot be read, edited or validated is failed and the walk goes on. An unreadable folder is an
// I/O error.
Result<std::vector<FolderEditItem>> edit_ogf_folder(const std::filesystem::path& folder,
                                                   const std::vector<std::string>& selectors, const OgfEditFn& edit,
                                                   bool dry_run);

}  // namespace boneyard
