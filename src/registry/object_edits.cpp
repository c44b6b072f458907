// The .object edit flow shared by `boneyard object` (cmd_object.cpp) and Python's boneyard.Object.
#include "boneyard/registry/object_edits.h"

#include <algorithm>

#include "edit_files.h"

namespace boneyard {

namespace fs = std::filesystem;

Result<ObjectEdit> read_object_edit(std::shared_ptr<const FileData> data, fs::path path) {
  auto file = xray::read_object(data);
  if (!file) return file.error();
  ObjectEdit out;
  out.original = std::move(data);
  out.file = std::move(file).value();
  out.inherited = xray::validate_object(out.file);
  out.path = std::move(path);
  return out;
}

Result<std::vector<std::uint8_t>> object_edit_bytes(const ObjectEdit& edit) {
  return xray::checked_object_bytes(xray::write_object(edit.file), &edit.inherited);
}

Result<SavedOgf> save_object_edit(const ObjectEdit& edit, const fs::path& output) {
  if (output.empty() && edit.path.empty()) return usage_error_finding("this .object was not read from a file: say where it goes");
  if (auto planned = registry::check_edit_output(edit.path, output); !planned) return planned.error();
  const auto checked = object_edit_bytes(edit);
  if (!checked) return checked.error();
  return registry::save_edited(edit.path, edit.original->bytes(), output, checked.value());
}

Result<std::vector<FolderEditItem>> edit_object_folder(const fs::path& folder, const std::vector<std::string>& selectors,
                                                      const ObjectEditFn& edit, bool dry_run) {
  auto files = registry::files_under(folder, ".object");
  if (!files) return files.error();
  std::vector<FolderEditItem> out;
  out.reserve(files.value().size());
  const auto select = [&](const xray::ObjectFile& model) { return selectors.empty() || xray::select_surfaces(model, selectors); };
  for (const auto& f : files.value())
    out.push_back(registry::edit_model_of_folder(f, read_object_edit, select, edit, object_edit_bytes,
                                                 [](const ObjectEdit& e) { return save_object_edit(e, {}); }, dry_run));
  return out;
}

}  // namespace boneyard
