// Finding an OGF's motion files and its textures root as the engine does, in the folders. Refs name
// OMFs without ".omf" relative to $game_meshes$ (our meshes root); Windows paths are
// case-insensitive, so every component is matched without regard to ASCII case (the rules over
// names are the X-Ray library's: xray::motion_ref_components, xray::default_meshes_root).
#include "boneyard/registry/xray_files.h"

#include <algorithm>
#include <atomic>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/ogf_v3/ogf_v3_scene.h"
#include "formats.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

// `dir / name`, or the entry of `dir` whose name equals `name` (UTF-8) ignoring case; spelt as the
// folder stores it (on Windows `dir / name` is found in any case).
std::optional<fs::path> find_entry(const fs::path& dir, const std::string& name, bool want_dir) {
  std::error_code ec;
  const fs::path exact = dir / path_from_utf8(name);
  // A file is anything but a folder (FIFOs and devices included: the reader refuses them).
  const auto is_file = [](const fs::file_status& st) { return fs::exists(st) && !fs::is_directory(st); };
  if (want_dir ? fs::is_directory(exact, ec) : is_file(fs::status(exact, ec))) return name_as_stored(exact);
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const bool ok = want_dir ? it->is_directory(ec) : is_file(it->status(ec));
    if (ok && xray::same_name_ignoring_case(path_to_utf8(it->path().filename()), name)) return it->path();
  }
  return std::nullopt;
}

std::atomic<std::size_t> lookups{0};

// The motion file a ref found, relative to the model's folder ('/' separators), else absolute:
// tools that keep the original (the Blender add-on's export template) find it without repeating
// the engine's lookup.
std::string path_from_model(const fs::path& file, const fs::path& model) {
  const fs::path relative = fs::absolute(file).lexically_relative(fs::absolute(model).parent_path());
  return generic_path_to_utf8(relative.empty() ? fs::absolute(file) : relative);
}

xray::RefMotionFile read_motion_file(const fs::path& file, const fs::path& model) {
  xray::RefMotionFile out{path_to_utf8(file), path_from_model(file, model), Finding{}};
  auto opened = FileData::open(file);
  if (!opened) {
    out.omf = io_error_finding(path_to_utf8(file), "cannot read motion file: " + opened.error().message);
    return out;
  }
  out.omf = xray::read_omf(std::move(opened).value());
  if (!out.omf) {
    Finding f = out.omf.error();
    f.path = path_to_utf8(file) + (f.path.empty() ? "" : " " + f.path);
    out.omf = std::move(f);
  }
  return out;
}

}  // namespace

fs::path default_textures_root(const fs::path& model_path) {
  const auto meshes = xray::meshes_folder_of(fs::absolute(model_path));
  if (!meshes) return {};
  return find_entry(meshes->parent_path(), "textures", true).value_or(fs::path());
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
  // Names in game files are cp1251; file names here are UTF-8.
  const std::vector<std::string> parts = xray::motion_ref_components(cp1251_to_utf8(ref));
  std::vector<fs::path> out;
  if (parts.empty()) return out;
  const std::string& last = parts.back();
  if (looked != nullptr) {
    fs::path p = root;
    for (const auto& c : parts) p /= path_from_utf8(c);
    *looked = path_to_utf8(p);
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
    if (!it->is_directory(ec) && glob_match(last, path_to_utf8(it->path().filename()))) out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<xray::RefMotions> read_ref_motions(const std::vector<ResolvedMotionRef>& refs, const fs::path& model) {
  std::vector<xray::RefMotions> out(refs.size());
  for (std::size_t r = 0; r < refs.size(); ++r) {
    out[r].looked = refs[r].looked;
    for (const auto& file : refs[r].files) out[r].files.push_back(read_motion_file(file, model));
  }
  return out;
}

Result<scene::Scene> ogf_scene_with_motions(const xray::OgfFile& ogf, const fs::path& model, const fs::path& meshes_root,
                                            Diagnostics& warnings, std::vector<fs::path>* used_omfs) {
  xray::XrayExportOptions options;
  options.input = model;
  return registry::xray_model_scene(ogf, std::move(options), meshes_root, nullptr, warnings, used_omfs);
}

namespace registry {

namespace {

// The files of a model's motion refs, looked up under `meshes_root` (empty: the nearest "meshes"
// folder above the model) unless a batch looked them up already (`resolved`), and read.
void read_model_refs(const std::vector<std::string>& refs, xray::XrayExportOptions& options, const fs::path& meshes_root,
                     const std::vector<ResolvedMotionRef>* resolved, std::vector<fs::path>* used_omfs) {
  if (refs.empty()) return;
  std::vector<ResolvedMotionRef> looked_up;
  if (resolved == nullptr || resolved->size() != refs.size()) {
    const fs::path root = meshes_root.empty() ? xray::default_meshes_root(fs::absolute(options.input)) : meshes_root;
    looked_up = resolve_motion_refs(root, refs);
    resolved = &looked_up;
  }
  options.ref_motions = read_ref_motions(*resolved, options.input);
  if (used_omfs != nullptr)
    for (const auto& ref : options.ref_motions)
      for (const auto& file : ref.files)
        if (file.omf) used_omfs->push_back(file.path);
}

}  // namespace

Result<scene::Scene> xray_model_scene(const xray::OgfFile& ogf, xray::XrayExportOptions options, const fs::path& meshes_root,
                                      const std::vector<ResolvedMotionRef>* resolved, Diagnostics& warnings,
                                      std::vector<fs::path>* used_omfs) {
  read_model_refs(ogf.motion_refs, options, meshes_root, resolved, used_omfs);
  return xray::ogf_to_scene(ogf, options, warnings);
}

Result<scene::Scene> xray_v3_model_scene(const xray::OgfV3File& ogf, xray::XrayExportOptions options,
                                         const fs::path& meshes_root, const std::vector<ResolvedMotionRef>* resolved,
                                         Diagnostics& warnings) {
  read_model_refs(ogf.motion_refs, options, meshes_root, resolved, nullptr);
  return xray::ogf_v3_to_scene(ogf, options, warnings);
}

fs::path xray_textures_root(const ConvertOptions& o) {
  if (!o.settings.textures.empty()) return o.settings.textures;
  return o.input.empty() ? fs::path() : default_textures_root(o.input);
}

}  // namespace registry

}  // namespace boneyard
