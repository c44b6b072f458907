// Assembling the whole scene of a model (its skeleton, meshes and every motion the engine gives
// it) or of one motion file, and the engine's rules for finding motion files, over names: refs
// name OMFs without ".omf" relative to $game_meshes$ (our meshes root), and Windows paths are
// case-insensitive. The registry applies the rules to folders (registry/xray_files.cpp).
#include <algorithm>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/xray_scene.h"
#include "xray_scene_internal.h"

namespace boneyard::xray {

namespace fs = std::filesystem;

namespace {

std::string stem_of(const fs::path& p) { return path_to_utf8(p.stem()); }

}  // namespace

bool same_name_ignoring_case(std::string_view entry, std::string_view name) {
  return entry.size() == name.size() && lower_ascii(entry) == lower_ascii(name);
}

std::optional<fs::path> meshes_folder_of(const fs::path& model_path) {
  for (fs::path p = model_path.parent_path(); !p.empty(); p = p.parent_path()) {
    if (same_name_ignoring_case(path_to_utf8(p.filename()), "meshes")) return p;
    if (p == p.parent_path()) break;
  }
  return std::nullopt;
}

fs::path default_meshes_root(const fs::path& ogf_path) {
  return meshes_folder_of(ogf_path).value_or(ogf_path.parent_path());
}

std::vector<std::string> motion_ref_components(std::string_view ref) {
  std::string r(ref);
  std::replace(r.begin(), r.end(), '\\', '/');
  std::vector<std::string> parts;
  for (std::size_t start = 0; start <= r.size();) {
    const std::size_t slash = std::min(r.find('/', start), r.size());
    if (slash > start) parts.push_back(r.substr(start, slash - start));
    start = slash + 1;
  }
  if (parts.empty()) return parts;
  std::string& last = parts.back();
  if (last.size() < 4 || !same_name_ignoring_case(std::string_view(last).substr(last.size() - 4), ".omf")) last += ".omf";
  return parts;
}

Result<scene::Scene> ogf_to_scene(const OgfFile& ogf, const XrayExportOptions& o, Diagnostics& warnings) {
  scene::Scene s;
  if (ogf.bones.empty() && !ogf.children.empty() && !ogf.motions && ogf.motion_refs.empty()) {
    // A static model (types 0-2): meshes on the root node, no skeleton.
    s.generator = "boneyard";
    s.skeleton.name = stem_of(o.input);
    json_of(s.extras)["xray"]["motion_sets"] = nlohmann::json::array();
  } else {
    auto made = skeleton_scene(ogf, stem_of(o.input));
    if (!made) return made.error();
    s = std::move(made).value();
    warn_no_bind_pose(ogf, warnings);
  }
  json_of(s.extras)["xray"]["model"] = path_to_utf8(o.input.filename());
  // What a template-less import needs to make the model again (docs/ogf-write.md): the refs as
  // stored, and the user data.
  if (!ogf.motion_refs.empty()) {
    auto& refs = json_of(s.extras)["xray"]["motion_refs"] = nlohmann::json::array();
    for (const auto& r : ogf.motion_refs) refs.push_back(cp1251_to_utf8(r));
  }
  if (ogf.user_data) put_name(json_of(s.extras)["xray"], "user_data", *ogf.user_data);
  if (auto added = add_meshes(s, ogf, o, warnings); !added) return added.error();
  std::uint64_t frames = 0;  // of the motions added so far (the limit on their sum)
  if (!ogf.motion_refs.empty()) {
    for (std::size_t r = 0; r < ogf.motion_refs.size(); ++r) {
      const std::string& ref = ogf.motion_refs[r];
      const RefMotions* found = r < o.ref_motions.size() ? &o.ref_motions[r] : nullptr;
      if (found == nullptr || found->files.empty()) {
        warnings.add(Severity::warning, 0, hex(ogf.motion_refs_chunk) + " motion ref",
                     "motion file not found (use --meshes DIR to set the meshes root)",
                     found != nullptr ? found->looked : cp1251_to_utf8(ref), "nothing");
        continue;
      }
      for (const auto& file : found->files) {
        if (!file.omf) return file.omf.error();
        // A motion file made for another skeleton: the model goes out with the motions that fit.
        if (auto fit = motions_fit(s, &ogf, file.omf->motions); !fit) {
          Finding left_out = fit.error();
          left_out.severity = Severity::warning;
          left_out.path = file.path + " " + left_out.path;
          left_out.message = "motion file left out: it does not fit the model's skeleton (" + left_out.message + ")";
          warnings.add(std::move(left_out));
          continue;
        }
        // A ref expanded from a wildcard is recorded with its file name for the extras.
        std::string source = cp1251_to_utf8(ref);
        if (found->files.size() > 1 || ref.find('*') != std::string::npos)
          source += " -> " + path_to_utf8(path_from_utf8(file.path).filename());
        if (auto added = add_motion_set(s, &ogf, file.omf->motions, source, warnings, o.motions, frames); !added) {
          Finding f = added.error();
          f.path = file.path + " " + f.path;
          return f;
        }
        json_of(s.extras)["xray"]["motion_sets"].back()["file"] = file.from_model;
      }
    }
  } else if (ogf.motions) {
    if (auto added = add_motions(s, &ogf, *ogf.motions, "embedded", warnings, o.motions); !added)
      return added.error();
  }
  resolve_duplicate_motions(s, warnings);
  return s;
}

Result<scene::Scene> omf_to_scene(const MotionSet& set, const XrayExportOptions& o, Diagnostics& warnings) {
  scene::Scene s;
  const OgfFile* ogf = o.skeleton;
  if (ogf != nullptr) {
    auto made = skeleton_scene(*ogf, stem_of(o.input));
    if (!made) {
      Finding f = made.error();
      f.path = o.skeleton_path + " " + f.path;
      return f;
    }
    s = std::move(made).value();
    warn_no_bind_pose(*ogf, warnings);
    json_of(s.extras)["xray"]["model"] = path_to_utf8(path_from_utf8(o.skeleton_path).filename());
  } else {
    s = flat_scene(set, stem_of(o.input));
  }
  if (auto added = add_motions(s, ogf, set, path_to_utf8(o.input.filename()), warnings, o.motions);
      !added)
    return added.error();
  // Said only of a scene that is written: a failed conversion ends in its one error line.
  if (ogf == nullptr)
    warnings.add(Severity::warning, 0, "skeleton",
                 "no skeleton given (--skeleton model.ogf): exported a flat armature with identity rest poses; "
                 "bones are not placed relative to their parents",
                 "an .ogf skeleton", "none");
  resolve_duplicate_motions(s, warnings);
  return s;
}

}  // namespace boneyard::xray
