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
  for (const auto& file : files.value()) {
    FolderEditItem item;
    item.file = file;
    item.outcome = FolderEditItem::Outcome::failed;
    auto data = FileData::open(file);
    if (!data) {
      item.status = data.error();
      out.push_back(std::move(item));
      continue;
    }
    auto read = read_object_edit(std::move(data).value(), file);
    if (!read) {
      item.status = read.error();
      out.push_back(std::move(item));
      continue;
    }
    ObjectEdit e = std::move(read).value();
    if (!selectors.empty() && !xray::select_surfaces(e.file, selectors)) {
      item.outcome = FolderEditItem::Outcome::not_matched;
      out.push_back(std::move(item));
      continue;
    }
    auto report = edit(e.file);
    if (!report) {
      item.status = report.error();
      out.push_back(std::move(item));
      continue;
    }
    item.report = std::move(report).value();
    const auto bytes = object_edit_bytes(e);
    if (!bytes) {
      item.status = bytes.error();
      out.push_back(std::move(item));
      continue;
    }
    const Bytes before = e.original->bytes();
    if (bytes.value().size() == before.size() && std::equal(before.begin(), before.end(), bytes.value().begin())) {
      item.outcome = FolderEditItem::Outcome::unchanged;
      out.push_back(std::move(item));
      continue;
    }
    item.outcome = FolderEditItem::Outcome::changed;
    if (!dry_run) {
      auto saved = save_object_edit(e, {});
      if (!saved) {
        item.outcome = FolderEditItem::Outcome::failed;
        item.status = saved.error();
      } else {
        item.backup = saved.value().backup;
      }
    }
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace boneyard
