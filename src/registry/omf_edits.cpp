// The motion files' edit flow (motion_edits.h, omf_edits.h) shared by `boneyard omf` (cmd_omf.cpp)
// and Python's boneyard.Omf, Skls and Anm (py_omf.cpp): reading with the findings a file already
// had, and one way of writing every kind: checked, planned, atomic or in place with a backup.
#include "boneyard/core/text.h"
#include "boneyard/registry/document.h"
#include "boneyard/registry/omf_edits.h"
#include "boneyard/registry/output_plan.h"

namespace boneyard {

namespace {

template <class File>
MotionFileEdit<File> edit_of(File file, Diagnostics inherited, std::filesystem::path path) {
  MotionFileEdit<File> out;
  out.file = std::move(file);
  out.inherited = std::move(inherited);
  if (!path.empty()) out.sources.push_back(path);
  out.path = std::move(path);
  return out;
}

// Writes `checked` (the edit's validated bytes) to `output`, or in place over `edit_path` keeping a
// backup of `original`; `what` names the kind in the usage error.
Result<SavedEdit> save_checked(const std::filesystem::path& edit_path, const std::vector<std::filesystem::path>& sources,
                               Bytes original, const Result<std::vector<std::uint8_t>>& checked,
                               const std::filesystem::path& output, const char* what) {
  const bool in_place = output.empty();
  if (in_place && edit_path.empty())
    return usage_error_finding(std::string("this ") + what + " was not read from a file: say where it goes");
  if (!in_place) {
    OutputPlan plan;  // the output is not an input (also by case or link), nor a folder or device
    for (const auto& source : sources) plan.add_read(source, "the input file");
    if (auto planned = plan.add_write(output); !planned) {
      if (planned.error().message.find("refusing to overwrite") != std::string::npos)
        return usage_error_finding("refusing to overwrite the input");
      return planned.error();
    }
  }
  if (!checked) return checked.error();
  const Bytes bytes(checked.value());
  SavedEdit saved{bytes.size(), {}};
  if (in_place) {
    auto backup = replace_keeping_backup(edit_path, original, bytes);
    if (!backup) return backup.error();
    saved.backup = std::move(backup).value();
    return saved;
  }
  if (auto written = write_file_atomic(output, bytes); !written) return written.error();
  return saved;
}

Bytes original_bytes(const std::shared_ptr<const FileData>& source) { return source ? source->bytes() : Bytes{}; }

}  // namespace

Result<OmfEdit> read_omf_edit(std::shared_ptr<const FileData> data, std::filesystem::path path) {
  auto file = xray::read_omf(std::move(data));
  if (!file) return file.error();
  Diagnostics inherited = xray::validate_omf(file.value());
  return edit_of(std::move(file).value(), std::move(inherited), std::move(path));
}

Result<SklEdit> read_skl_edit(std::shared_ptr<const FileData> data, std::filesystem::path path) {
  const std::string ext = lower_extension(path_to_utf8(path.filename()));
  const bool skl = xray::looks_like_skl(data->bytes()) && (ext == ".skl" || !xray::looks_like_skls(data->bytes()));
  auto file = skl ? xray::read_skl(std::move(data)) : xray::read_skls(std::move(data));
  if (!file) return file.error();
  Diagnostics inherited = xray::validate_skl(file.value());
  return edit_of(std::move(file).value(), std::move(inherited), std::move(path));
}

Result<AnmEdit> read_anm_edit(std::shared_ptr<const FileData> data, std::filesystem::path path) {
  auto file = xray::read_anm(std::move(data));
  if (!file) return file.error();
  Diagnostics inherited = xray::validate_anm(file.value());
  return edit_of(std::move(file).value(), std::move(inherited), std::move(path));
}

Result<AnyMotionEdit> read_motion_edit(std::shared_ptr<const FileData> data, std::filesystem::path path) {
  const std::string_view format = detect_format(data->bytes(), path_to_utf8(path.filename()));
  if (format == "omf") {
    auto e = read_omf_edit(std::move(data), std::move(path));
    if (!e) return e.error();
    return AnyMotionEdit(std::move(e).value());
  }
  if (format == "skl" || format == "skls") {
    auto e = read_skl_edit(std::move(data), std::move(path));
    if (!e) return e.error();
    return AnyMotionEdit(std::move(e).value());
  }
  if (format == "anm") {
    auto e = read_anm_edit(std::move(data), std::move(path));
    if (!e) return e.error();
    return AnyMotionEdit(std::move(e).value());
  }
  return Finding{Severity::error, 0, {}, "not a motion file", "an .omf, .skl, .skls or .anm",
                 format.empty() ? "unknown content" : "a ." + std::string(format) + " file"};
}

OmfEdit derived_omf_edit(const OmfEdit& from, xray::OmfFile file) { return derived_edit(from, std::move(file)); }

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

Result<SklEdit> merge_skl_edits(std::vector<SklEdit> inputs, bool rename_clashes, xray::SklContainer container,
                                xray::EditReport& report) {
  SklEdit out;
  std::vector<xray::SklFile> files;
  files.reserve(inputs.size());
  for (auto& in : inputs) {
    out.inherited.append(in.inherited);
    out.sources.insert(out.sources.end(), in.sources.begin(), in.sources.end());
    files.push_back(std::move(in.file));
  }
  auto merged = xray::merge_skls(std::move(files), rename_clashes, container, report);
  if (!merged) return merged.error();
  out.file = std::move(merged).value();
  return out;
}

Result<std::vector<std::uint8_t>> edit_bytes(const OmfEdit& edit) {
  return xray::checked_omf_bytes(xray::write_omf(edit.file), &edit.inherited);
}
Result<std::vector<std::uint8_t>> edit_bytes(const SklEdit& edit) {
  return xray::checked_skl_bytes(xray::write_skl(edit.file), edit.file.container, &edit.inherited);
}
Result<std::vector<std::uint8_t>> edit_bytes(const AnmEdit& edit) {
  return xray::checked_anm_bytes(xray::write_anm(edit.file), &edit.inherited);
}

Result<std::vector<std::uint8_t>> omf_edit_bytes(const OmfEdit& edit) { return edit_bytes(edit); }

Result<SavedEdit> save_edit(const OmfEdit& edit, const std::filesystem::path& output) {
  return save_checked(edit.path, edit.sources, original_bytes(edit.file.source), edit_bytes(edit), output, ".omf");
}
Result<SavedEdit> save_edit(const SklEdit& edit, const std::filesystem::path& output) {
  return save_checked(edit.path, edit.sources, original_bytes(edit.file.source), edit_bytes(edit), output,
                      edit.file.container == xray::SklContainer::skl ? ".skl" : ".skls");
}
Result<SavedEdit> save_edit(const AnmEdit& edit, const std::filesystem::path& output) {
  return save_checked(edit.path, edit.sources, original_bytes(edit.file.source), edit_bytes(edit), output, ".anm");
}

Result<SavedOmf> save_omf_edit(const OmfEdit& edit, const std::filesystem::path& output) { return save_edit(edit, output); }

}  // namespace boneyard
