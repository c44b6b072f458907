// The edit flow of the X-Ray motion files, shared by `boneyard omf` (also called `skls` and
// `anm`) and Python's boneyard.Omf, boneyard.Skls and boneyard.Anm: a file read with the findings
// it already had, edited (xray/omf/omf_edit.h, xray/skl/skl_edit.h, xray/anm/anm_edit.h), then
// written only when the result validates, to a new file or over the one it came from, keeping a
// backup. registry/omf_edits.h has the .omf names of the same flow.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <variant>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/anm/anm_edit.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/xray/skl/skl.h"
#include "boneyard/xray/skl/skl_edit.h"

namespace boneyard {

// A motion file being edited (OmfEdit, SklEdit, AnmEdit).
template <class File>
struct MotionFileEdit {
  File file;
  // The findings of the file(s) it came from: errors they already had are not held against the
  // result (an edit of a broken file writes what it did not break).
  Diagnostics inherited;
  std::filesystem::path path;  // the file it was read from; "" for bytes or a new file (merge, extract)
  // The files it was made from (read, extracted from, merged): an output that names one of them
  // is refused, so that an edit never replaces an input without a backup.
  std::vector<std::filesystem::path> sources;
};
using OmfEdit = MotionFileEdit<xray::OmfFile>;
using SklEdit = MotionFileEdit<xray::SklFile>;  // a .skl or a .skls
using AnmEdit = MotionFileEdit<xray::AnmFile>;
// One of them, as the file's content says.
using AnyMotionEdit = std::variant<OmfEdit, SklEdit, AnmEdit>;

// `data` read as the motion file its content is (an .omf, .skl, .skls or .anm; `path`'s
// extension breaks ties), or why it is none.
Result<AnyMotionEdit> read_motion_edit(std::shared_ptr<const FileData> data, std::filesystem::path path);
Result<SklEdit> read_skl_edit(std::shared_ptr<const FileData> data, std::filesystem::path path);
Result<AnmEdit> read_anm_edit(std::shared_ptr<const FileData> data, std::filesystem::path path);

// A new file made from `from` (extract): it inherits the findings of the file it came from.
template <class File>
MotionFileEdit<File> derived_edit(const MotionFileEdit<File>& from, File file) {
  MotionFileEdit<File> out;
  out.file = std::move(file);
  out.inherited = from.inherited;
  out.sources = from.sources;
  return out;
}

// Joins .skl/.skls files (xray::merge_skls) into `container`; the result inherits every input's findings.
Result<SklEdit> merge_skl_edits(std::vector<SklEdit> inputs, bool rename_clashes, xray::SklContainer container,
                                xray::EditReport& report);

// The bytes an edit writes: validated, its own errors refused (xray::checked_*_bytes).
Result<std::vector<std::uint8_t>> edit_bytes(const OmfEdit& edit);
Result<std::vector<std::uint8_t>> edit_bytes(const SklEdit& edit);
Result<std::vector<std::uint8_t>> edit_bytes(const AnmEdit& edit);

struct SavedEdit {
  std::size_t size = 0;          // bytes written
  std::filesystem::path backup;  // in place: where the original went (FILE.bak, FILE.bak.1, ...)
};
// Writes the edit to `output` atomically, or, when `output` is empty, over the file it was read
// from (a symlink's target; mode and owner kept) after saving the original as the first free
// FILE.bak, FILE.bak.1, ... In that order, it refuses an `output` that is one of its sources
// (usage: "refusing to overwrite the input") and a result that would not validate (the finding),
// and says why a file could not be written (I/O).
Result<SavedEdit> save_edit(const OmfEdit& edit, const std::filesystem::path& output);
Result<SavedEdit> save_edit(const SklEdit& edit, const std::filesystem::path& output);
Result<SavedEdit> save_edit(const AnmEdit& edit, const std::filesystem::path& output);

}  // namespace boneyard
