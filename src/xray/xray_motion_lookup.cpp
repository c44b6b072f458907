// Finding an OGF's motions as the engine does, and assembling the whole scene of a model.
// Refs name OMFs without ".omf" relative to $game_meshes$ (our meshes root); Windows paths are
// case-insensitive, so every component is matched without regard to ASCII case.
#include <algorithm>
#include <atomic>

#include "boneyard/core/text.h"
#include "boneyard/xray/xray_scene.h"
#include "xray_scene_internal.h"

namespace boneyard::xray {

namespace fs = std::filesystem;

namespace {

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && lower_ascii(a) == lower_ascii(b);
}

// `dir / name`, or the entry of `dir` whose name equals `name` ignoring case.
std::optional<fs::path> find_entry(const fs::path& dir, const std::string& name, bool want_dir) {
  std::error_code ec;
  const fs::path exact = dir / name;
  // A file is anything but a folder (FIFOs and devices included: the reader refuses them).
  const auto is_file = [](const fs::file_status& st) { return fs::exists(st) && !fs::is_directory(st); };
  if (want_dir ? fs::is_directory(exact, ec) : is_file(fs::status(exact, ec))) return exact;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const bool ok = want_dir ? it->is_directory(ec) : is_file(it->status(ec));
    if (ok && iequal(it->path().filename().string(), name)) return it->path();
  }
  return std::nullopt;
}

std::string stem_of(const fs::path& p) { return p.stem().string(); }

std::atomic<std::size_t> lookups{0};

// The motion file a ref found, relative to the model's folder ('/' separators), else absolute:
// tools that keep the original (the Blender add-on's export template) find it without repeating
// the engine's lookup.
std::string path_from_model(const fs::path& file, const fs::path& model) {
  const fs::path relative = fs::absolute(file).lexically_relative(fs::absolute(model).parent_path());
  return relative.empty() ? fs::absolute(file).generic_string() : relative.generic_string();
}

}  // namespace

fs::path default_meshes_root(const fs::path& ogf_path) {
  const fs::path dir = fs::absolute(ogf_path).parent_path();
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    if (iequal(p.filename().string(), "meshes")) return p;
    if (p == p.parent_path()) break;
  }
  return dir;
}

fs::path default_textures_root(const fs::path& model_path) {
  const fs::path dir = fs::absolute(model_path).parent_path();
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    if (iequal(p.filename().string(), "meshes")) {
      if (auto t = find_entry(p.parent_path(), "textures", true)) return *t;
      return {};
    }
    if (p == p.parent_path()) break;
  }
  return {};
}

std::optional<fs::path> find_ignoring_case(const fs::path& root, std::string_view relative) {
  std::string r(relative);
  std::replace(r.begin(), r.end(), '\\', '/');
  fs::path dir = root;
  for (std::size_t start = 0; start < r.size();) {
    const std::size_t slash = std::min(r.find('/', start), r.size());
    const std::string part = r.substr(start, slash - start);
    start = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") return std::nullopt;  // names stay inside the root
    auto next = find_entry(dir, part, start < r.size());
    if (!next) return std::nullopt;
    dir = *next;
  }
  std::error_code ec;
  return fs::is_regular_file(dir, ec) ? std::optional<fs::path>(dir) : std::nullopt;
}

std::size_t motion_ref_lookups() { return lookups.load(); }

std::vector<ResolvedMotionRef> resolve_motion_refs(const fs::path& root, const std::vector<std::string>& refs) {
  std::vector<ResolvedMotionRef> out(refs.size());
  for (std::size_t i = 0; i < refs.size(); ++i) out[i].files = resolve_motion_ref(root, refs[i], &out[i].looked);
  return out;
}

std::vector<fs::path> resolve_motion_ref(const fs::path& root, std::string_view ref, std::string* looked) {
  ++lookups;
  std::string r(ref);
  std::replace(r.begin(), r.end(), '\\', '/');
  std::vector<std::string> parts;
  for (std::size_t start = 0; start <= r.size();) {
    const std::size_t slash = std::min(r.find('/', start), r.size());
    if (slash > start) parts.push_back(r.substr(start, slash - start));
    start = slash + 1;
  }
  std::vector<fs::path> out;
  if (parts.empty()) return out;
  std::string& last = parts.back();
  if (last.size() < 4 || !iequal(std::string_view(last).substr(last.size() - 4), ".omf")) last += ".omf";
  if (looked != nullptr) {
    fs::path p = root;
    for (const auto& c : parts) p /= c;
    *looked = p.string();
  }
  fs::path dir = root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    auto next = find_entry(dir, parts[i], true);
    if (!next) return out;
    dir = *next;
  }
  // A named file that is not a regular one (a FIFO, a device, a folder called x.omf) is returned
  // too, so that reading it fails loudly instead of the motions being silently "not found".
  if (last.find_first_of("*?") == std::string::npos) {
    if (auto f = find_entry(dir, last, false)) out.push_back(*f);
    else if (auto d = find_entry(dir, last, true)) out.push_back(*d);
    return out;
  }
  // A wildcard does not name folders: only they are skipped.
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (!it->is_directory(ec) && glob_match(last, it->path().filename().string())) out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

Result<scene::Scene> ogf_to_scene(const OgfFile& ogf, const XrayExportOptions& o, Diagnostics& warnings,
                                  std::vector<fs::path>* used_omfs) {
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
  }
  json_of(s.extras)["xray"]["model"] = o.input.filename().string();
  // What a template-less import needs to make the model again (docs/ogf-write.md): the refs as
  // stored, and the user data.
  if (!ogf.motion_refs.empty()) {
    auto& refs = json_of(s.extras)["xray"]["motion_refs"] = nlohmann::json::array();
    for (const auto& r : ogf.motion_refs) refs.push_back(cp1251_to_utf8(r));
  }
  if (ogf.user_data) put_name(json_of(s.extras)["xray"], "user_data", *ogf.user_data);
  if (auto added = add_meshes(s, ogf, o, warnings); !added) return added.error();
  if (!ogf.motion_refs.empty()) {
    std::vector<ResolvedMotionRef> looked_up;
    if (o.resolved_refs.size() != ogf.motion_refs.size()) {
      const fs::path root = o.meshes_root.empty() ? default_meshes_root(o.input) : o.meshes_root;
      looked_up = resolve_motion_refs(root, ogf.motion_refs);
    }
    const auto& resolved = looked_up.empty() ? o.resolved_refs : looked_up;
    for (std::size_t r = 0; r < ogf.motion_refs.size(); ++r) {
      const std::string& ref = ogf.motion_refs[r];
      const auto& files = resolved[r].files;
      if (files.empty()) {
        warnings.add(Severity::warning, 0, hex(ogf.motion_refs_chunk) + " motion ref",
                     "motion file not found (use --meshes DIR to set the meshes root)", resolved[r].looked, "nothing");
        continue;
      }
      for (const auto& file : files) {
        auto opened = FileData::open(file);
        if (!opened)
          return io_error_finding(file.string(), "cannot read motion file: " + opened.error().message);
        auto omf = read_omf(std::move(opened).value());
        if (!omf) {
          Finding f = omf.error();
          f.path = file.string() + (f.path.empty() ? "" : " " + f.path);
          return f;
        }
        if (used_omfs != nullptr) used_omfs->push_back(file);
        // A ref expanded from a wildcard is recorded with its file name for the extras.
        std::string source = cp1251_to_utf8(ref);
        if (files.size() > 1 || ref.find('*') != std::string::npos) source += " -> " + file.filename().string();
        if (auto added = add_motions(s, &ogf, omf->motions, source, warnings, o.motions); !added) {
          Finding f = added.error();
          f.path = file.string() + " " + f.path;
          return f;
        }
        json_of(s.extras)["xray"]["motion_sets"].back()["file"] = path_from_model(file, o.input);
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
  std::optional<OgfFile> ogf;
  std::shared_ptr<const FileData> ogf_data;
  if (!o.skeleton.empty()) {
    auto opened = FileData::open(o.skeleton);
    if (!opened)
      return io_error_finding("--skeleton", "cannot read " + o.skeleton.string() + ": " + opened.error().message);
    auto read = read_ogf(std::move(opened).value());
    if (!read) {
      Finding f = read.error();
      f.path = o.skeleton.string() + (f.path.empty() ? "" : " " + f.path);
      return f;
    }
    ogf = std::move(read).value();
    auto made = skeleton_scene(*ogf, stem_of(o.input));
    if (!made) {
      Finding f = made.error();
      f.path = o.skeleton.string() + " " + f.path;
      return f;
    }
    s = std::move(made).value();
    json_of(s.extras)["xray"]["model"] = o.skeleton.filename().string();
  } else {
    s = flat_scene(set, stem_of(o.input));
  }
  if (auto added = add_motions(s, ogf ? &*ogf : nullptr, set, o.input.filename().string(), warnings, o.motions);
      !added)
    return added.error();
  // Said only of a scene that is written: a failed conversion ends in its one error line.
  if (!ogf)
    warnings.add(Severity::warning, 0, "skeleton",
                 "no skeleton given (--skeleton model.ogf): exported a flat armature with identity rest poses; "
                 "bones are not placed relative to their parents",
                 "an .ogf skeleton", "none");
  resolve_duplicate_motions(s, warnings);
  return s;
}

}  // namespace boneyard::xray
