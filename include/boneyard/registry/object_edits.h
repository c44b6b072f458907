// The edit flow of .object files that `boneyard object` and Python's boneyard.Object share, as
// registry/ogf_edits.h for .ogf: an object read with the findings it already had, edited
// (xray/object/object_edit.h), then written only when the result reads back and validates, to a
// new file or over the one it came from with a backup; and the same edit over a folder's objects.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/registry/ogf_edits.h"  // FolderEditItem, SavedOgf
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/object/object_edit.h"

namespace boneyard {

struct ObjectEdit {
  xray::ObjectFile file;
  Diagnostics inherited;  // the errors it already had are not held against the result
  std::filesystem::path path;
  std::shared_ptr<const FileData> original;
};

Result<ObjectEdit> read_object_edit(std::shared_ptr<const FileData> data, std::filesystem::path path);
// The bytes the edit writes, read back and validated (xray::checked_object_bytes).
Result<std::vector<std::uint8_t>> object_edit_bytes(const ObjectEdit& edit);
// As save_ogf_edit.
Result<SavedOgf> save_object_edit(const ObjectEdit& edit, const std::filesystem::path& output);

using ObjectEditFn = std::function<Result<xray::EditReport>(xray::ObjectFile&)>;
// Every .object under `folder`, as edit_ogf_folder: `selectors` pick surfaces (xray::select_surfaces).
Result<std::vector<FolderEditItem>> edit_object_folder(const std::filesystem::path& folder,
                                                      const std::vector<std::string>& selectors, const ObjectEditFn& edit,
                                                      bool dry_run);

}  // namespace boneyard
