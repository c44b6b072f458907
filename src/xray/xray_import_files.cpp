// glTF -> .omf as `convert` asks: the rules live in xray_scene_import.cpp; this file only loads
// the --skeleton/--template inputs and checks the result before it is handed out.
#include "boneyard/xray/omf.h"
#include "boneyard/xray/xray_scene.h"
#include "boneyard/core/paths.h"

namespace boneyard::xray {

namespace {

template <class T, class Reader>
Result<T> load(const std::filesystem::path& path, const char* what, Reader reader) {
  auto opened = FileData::open(path);
  if (!opened)
    return io_error_finding(what, "cannot read " + path_to_utf8(path) + ": " + opened.error().message);
  auto r = reader(std::move(opened).value());
  if (!r) {
    Finding f = r.error();
    f.path = std::string(what) + " " + path_to_utf8(path) + (f.path.empty() ? "" : ": " + f.path);
    return f;
  }
  return std::move(r).value();
}

}  // namespace

Result<std::vector<std::uint8_t>> scene_to_omf_bytes(const scene::Scene& scene, const ConvertOptions& o,
                                                     Diagnostics& warnings) {
  if (scene.animations.empty())
    return Finding{Severity::error, 0, "animations", "the glTF has no animations", ">= 1 animation", "0"};
  std::optional<OgfFile> ogf;
  std::optional<OmfFile> tpl;
  if (!o.skeleton.empty()) {
    auto r = load<OgfFile>(o.skeleton, "--skeleton", [](auto f) { return read_ogf(std::move(f)); });
    if (!r) return r.error();
    ogf = std::move(r).value();
  }
  if (!o.template_omf.empty()) {
    auto r = load<OmfFile>(o.template_omf, "--template", [](auto f) { return read_omf(std::move(f)); });
    if (!r) return r.error();
    tpl = std::move(r).value();
  }
  XrayImportOptions io;
  io.skeleton = ogf ? &*ogf : nullptr;
  io.template_omf = tpl ? &*tpl : nullptr;
  io.hq = o.hq;
  auto omf = scene_to_omf(scene, io, warnings);
  if (!omf) return omf.error();
  return checked_omf_bytes(write_omf(omf.value()));
}

}  // namespace boneyard::xray
