// The .omf names of the motion files' edit flow (registry/motion_edits.h), which `boneyard omf`
// and Python's boneyard.Omf share.
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "boneyard/registry/motion_edits.h"

namespace boneyard {

using SavedOmf = SavedEdit;

// `data` read as an .omf to edit (the reader's error when it is not one).
Result<OmfEdit> read_omf_edit(std::shared_ptr<const FileData> data, std::filesystem::path path);
// A new file made from `from` (extract): it inherits the findings of the file it came from.
OmfEdit derived_omf_edit(const OmfEdit& from, xray::OmfFile file);
// Joins files whose bone parts match (xray::merge_omfs); the result inherits every input's findings.
Result<OmfEdit> merge_omf_edits(std::vector<OmfEdit> inputs, bool rename_clashes, xray::EditReport& report);
// The bytes the edit writes: validated, its own errors refused (xray::checked_omf_bytes).
Result<std::vector<std::uint8_t>> omf_edit_bytes(const OmfEdit& edit);
// save_edit for an .omf.
Result<SavedOmf> save_omf_edit(const OmfEdit& edit, const std::filesystem::path& output);

}  // namespace boneyard
