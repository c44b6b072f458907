// What the model edit flows share (ogf_edits.cpp, object_edits.cpp): the models of a folder, and
// writing an edited model to a new file or over the one it came from, keeping a backup.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/registry/omf_edits.h"  // SavedOmf

namespace boneyard::registry {

// Every regular file under `folder` whose extension is `extension` (lower case with its dot; any
// case in the names), in path order; symlinked folders are not entered.
Result<std::vector<std::filesystem::path>> files_under(const std::filesystem::path& folder, std::string_view extension);

// Why the edit's result cannot go to `output` (empty: in place): the input itself (also by case
// or link, a usage error), a folder or a device.
Status check_edit_output(const std::filesystem::path& input, const std::filesystem::path& output);
// `checked` (the edited model's validated bytes; `output` passed check_edit_output) to `output`
// atomically, or over `input` (empty `output`) after saving `original` as the first free
// FILE.bak, FILE.bak.1, ...
Result<SavedOmf> save_edited(const std::filesystem::path& input, Bytes original, const std::filesystem::path& output,
                             Bytes checked);

}  // namespace boneyard::registry
