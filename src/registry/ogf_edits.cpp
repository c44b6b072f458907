// The .ogf edit flow shared by `boneyard ogf` (cmd_ogf.cpp) and Python's boneyard.Ogf (py_ogf.cpp).
#include "boneyard/registry/ogf_edits.h"

#include <algorithm>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/output_plan.h"
#include "edit_files.h"

namespace boneyard {

namespace fs = std::filesystem;

Result<OgfEdit> read_ogf_edit(std::shared_ptr<const FileData> data, fs::path path) {
  auto file = xray::read_ogf(data);
  if (!file) return file.error();
  OgfEdit out;
  out.original = std::move(data);
  out.file = std::move(file).value();
  out.inherited = xray::validate_ogf(out.file);
  out.path = std::move(path);
  return out;
}

Result<std::vector<std::uint8_t>> ogf_edit_bytes(const OgfEdit& edit) {
  return xray::checked_ogf_bytes(xray::write_ogf(edit.file), &edit.inherited);
}

Result<SavedOgf> save_ogf_edit(const OgfEdit& edit, const fs::path& output) {
  if (output.empty() && edit.path.empty()) return usage_error_finding("this .ogf was not read from a file: say where it goes");
  if (auto planned = registry::check_edit_output(edit.path, output); !planned) return planned.error();
  const auto checked = ogf_edit_bytes(edit);
  if (!checked) return checked.error();
  return registry::save_edited(edit.path, edit.original->bytes(), output, checked.value());
}

namespace registry {

Result<std::vector<fs::path>> files_under(const fs::path& folder, std::string_view extension) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return io_error_finding(path_to_utf8(folder), "not a folder");
  std::vector<fs::path> out;
  fs::recursive_directory_iterator it(folder, fs::directory_options::none, ec), end;
  if (ec) return io_error_finding(path_to_utf8(folder), "cannot list: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return io_error_finding(path_to_utf8(folder), "cannot list: " + ec.message());
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && lower_extension(path_to_utf8(it->path().filename())) == extension) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Status check_edit_output(const fs::path& input, const fs::path& output) {
  if (output.empty()) return {};
  OutputPlan plan;  // the output is not the input (also by case or link), nor a folder or device
  plan.add_read(input, "the input file");
  if (auto planned = plan.add_write(output); !planned) {
    if (planned.error().message.find("refusing to overwrite") != std::string::npos)
      return usage_error_finding("refusing to overwrite the input");
    return planned.error();
  }
  return {};
}

Result<SavedOmf> save_edited(const fs::path& input, Bytes original, const fs::path& output, Bytes checked) {
  const bool in_place = output.empty();
  SavedOmf saved{checked.size(), {}};
  if (in_place) {
    auto backup = replace_keeping_backup(input, original, checked);
    if (!backup) return backup.error();
    saved.backup = std::move(backup).value();
    return saved;
  }
  if (auto written = write_file_atomic(output, checked); !written) return written.error();
  return saved;
}

}  // namespace registry

Result<std::vector<FolderEditItem>> edit_ogf_folder(const fs::path& folder, const std::vector<std::string>& selectors,
                                                   const OgfEditFn& edit, bool dry_run) {
  auto files = registry::files_under(folder, ".ogf");
  if (!files) return files.error();
  std::vector<FolderEditItem> out;
  out.reserve(files.value().size());
  const auto select = [&](const xray::OgfFile& model) { return selectors.empty() || xray::select_children(model, selectors); };
  for (const auto& f : files.value())
    out.push_back(registry::edit_model_of_folder(f, read_ogf_edit, select, edit, ogf_edit_bytes,
                                                 [](const OgfEdit& e) { return save_ogf_edit(e, {}); }, dry_run));
  return out;
}

}  // namespace boneyard
