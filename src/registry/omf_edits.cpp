// The .omf edit flow shared by `boneyard omf` (cmd_omf.cpp) and Python's boneyard.Omf (py_omf.cpp).
#include "boneyard/registry/omf_edits.h"

namespace boneyard {

Result<OmfEdit> read_omf_edit(std::shared_ptr<const FileData> data, std::filesystem::path path) {
  auto file = xray::read_omf(std::move(data));
  if (!file) return file.error();
  OmfEdit out;
  out.file = std::move(file).value();
  out.inherited = xray::validate_omf(out.file);
  if (!path.empty()) out.sources.push_back(path);
  out.path = std::move(path);
  return out;
}

OmfEdit derived_omf_edit(const OmfEdit& from, xray::OmfFile file) {
  OmfEdit out;
  out.file = std::move(file);
  out.inherited = from.inherited;
  out.sources = from.sources;
  return out;
}

Result<OmfEdit> merge_omf_edits(std::vector<OmfEdit> inputs, bool rename_clashes, xray::EditReport& report) {
  OmfEdit out;
  std::vector<xray::OmfFile> files;
  files.reserve(inputs.size());
  for (auto& in : inputs) {
    out.inherited.append(in.inherited);
    out.sources.insert(out.sources.end(), in.sources.begin(), in.sources.end());
    files.push_back(std::move(in.file));
  }
  auto merged = xray::merge_omfs(std::move(files), rename_clashes, report);
  if (!merged) return merged.error();
  out.file = std::move(merged).value();
  return out;
}

Result<std::vector<std::uint8_t>> omf_edit_bytes(const OmfEdit& edit) {
  return xray::checked_omf_bytes(xray::write_omf(edit.file), &edit.inherited);
}

Result<SavedOmf> save_omf_edit(const OmfEdit& edit, const std::filesystem::path& output) {
  const bool in_place = output.empty();
  if (in_place && edit.path.empty()) return usage_error_finding("this .omf was not read from a file: say where it goes");
  if (!in_place)
    for (const auto& source : edit.sources)
      if (same_file(source, output)) return usage_error_finding("refusing to overwrite the input");
  const auto checked = omf_edit_bytes(edit);
  if (!checked) return checked.error();
  const Bytes bytes(checked.value());
  SavedOmf saved{bytes.size(), {}};
  if (in_place) {
    auto backup = replace_keeping_backup(edit.path, edit.file.source->bytes(), bytes);
    if (!backup) return backup.error();
    saved.backup = std::move(backup).value();
    return saved;
  }
  if (auto written = write_file_atomic(output, bytes); !written) return written.error();
  return saved;
}

}  // namespace boneyard
