// What the model edit flows share (ogf_edits.cpp, object_edits.cpp): the models of a folder, and
// writing an edited model to a new file or over the one it came from, keeping a backup.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/registry/ogf_edits.h"  // FolderEditItem
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

// One model of a folder edit, for any model edit flow: opened and read (`read(data, file)`), left
// alone when `select(model)` finds nothing, edited, its checked bytes (`bytes_of(edit)`) compared
// with the file's, and saved over it (`save(edit)`, keeping a backup) unless `dry_run`.
template <class Read, class Select, class EditFn, class BytesOf, class Save>
FolderEditItem edit_model_of_folder(const std::filesystem::path& file, const Read& read, const Select& select,
                                    const EditFn& edit, const BytesOf& bytes_of, const Save& save, bool dry_run) {
  FolderEditItem item;
  item.file = file;
  item.outcome = FolderEditItem::Outcome::failed;
  auto data = FileData::open(file);
  if (!data) {
    item.status = data.error();
    return item;
  }
  auto read_edit = read(std::move(data).value(), file);
  if (!read_edit) {
    item.status = read_edit.error();
    return item;
  }
  auto e = std::move(read_edit).value();
  if (!select(e.file)) {
    item.outcome = FolderEditItem::Outcome::not_matched;
    return item;
  }
  auto report = edit(e.file);
  if (!report) {
    item.status = report.error();
    return item;
  }
  item.report = std::move(report).value();
  const auto bytes = bytes_of(e);
  if (!bytes) {
    item.status = bytes.error();
    return item;
  }
  const Bytes before = e.original->bytes();
  if (bytes.value().size() == before.size() && std::equal(before.begin(), before.end(), bytes.value().begin())) {
    item.outcome = FolderEditItem::Outcome::unchanged;
    return item;
  }
  item.outcome = FolderEditItem::Outcome::changed;
  if (dry_run) return item;
  auto saved = save(e);
  if (!saved) {
    item.outcome = FolderEditItem::Outcome::failed;
    item.status = saved.error();
    return item;
  }
  item.backup = saved.value().backup;
  return item;
}

}  // namespace boneyard::registry
