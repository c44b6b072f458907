// A glTF file as a Document: read (and sampled at 30 fps) when opened, convertible to .omf.
// The X-Ray side of the import lives in xray_scene_import.cpp; this file only loads the
// --skeleton/--template inputs and checks the result before it is handed out.
#include <cstdio>

#include "boneyard/gltf_read.h"
#include "boneyard/omf_validate.h"
#include "boneyard/xray_import.h"
#include "xray_documents.h"

namespace boneyard::xray {

namespace {

template <class T, class Reader>
Result<T> load(const std::filesystem::path& path, const char* what, Reader reader) {
  auto opened = FileData::open(path);
  if (auto* err = std::get_if<FileError>(&opened))
    return Finding{Severity::error, 0, what, "cannot open " + path.string(), "", err->message};
  auto r = reader(std::get<std::shared_ptr<const FileData>>(std::move(opened)));
  if (!r) {
    Finding f = r.error();
    f.path = std::string(what) + " " + path.string() + (f.path.empty() ? "" : ": " + f.path);
    return f;
  }
  return std::move(r).value();
}

class GltfDocument final : public Document {
 public:
  GltfDocument(scene::Scene s, Diagnostics read_warnings) : scene_(std::move(s)), read_(std::move(read_warnings)) {}
  std::string_view format() const override { return "gltf"; }

  std::string info() const override {
    std::string s = "glTF: " + std::to_string(scene_.skeleton.joints.size()) + " nodes, " +
                    std::to_string(scene_.animations.size()) + " animations (sampled at 30 fps)\n";
    for (const auto& a : scene_.animations) {
      const std::size_t frames = a.timelines.empty() ? 0 : a.timelines[0].times.size();
      char line[160];
      std::snprintf(line, sizeof line, "  %zu frames, %zu channels: ", frames, a.channels.size());
      s += line + a.name + "\n";
    }
    return s;
  }

  void dump(JsonWriter& out, const DumpOptions&) const override {
    out.begin_object().field("format", "gltf").key("nodes").begin_array();
    for (const auto& j : scene_.skeleton.joints)
      out.begin_object().field("name", j.name).field("parent", j.parent).end_object();
    out.end_array().key("animations").begin_array();
    for (const auto& a : scene_.animations) {
      const std::size_t frames = a.timelines.empty() ? 0 : a.timelines[0].times.size();
      out.begin_object()
          .field("name", a.name)
          .field("frames", std::uint64_t{frames})
          .field("channels", std::uint64_t{a.channels.size()})
          .end_object();
    }
    out.end_array().end_object();
  }

  Diagnostics validate() const override { return read_; }
  std::vector<std::string> convert_targets() const override { return {".omf"}; }

  Result<std::vector<std::uint8_t>> convert(std::string_view ext, const ConvertOptions& o) const override {
    if (ext != ".omf")
      return Finding{Severity::error, 0, "convert", "a glTF converts only to .omf", ".omf", std::string(ext)};
    return gltf_scene_to_omf(scene_, read_, o);
  }

 private:
  scene::Scene scene_;
  Diagnostics read_;
};

}  // namespace

Result<std::vector<std::uint8_t>> gltf_scene_to_omf(const scene::Scene& scene, const Diagnostics& read_warnings,
                                                    const ConvertOptions& o) {
  Diagnostics scratch;
  Diagnostics& warnings = o.warnings ? *o.warnings : scratch;
  for (const auto& f : read_warnings.findings()) warnings.add(f);
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
  ImportOptions io;
  io.skeleton = ogf ? &*ogf : nullptr;
  io.template_omf = tpl ? &*tpl : nullptr;
  io.hq = o.hq;
  auto omf = scene_to_omf(scene, io, warnings);
  if (!omf) return omf.error();
  // Never hand out a file the engine would misread: the validator's errors stop the write.
  const Diagnostics check = validate_omf(omf.value());
  for (const auto& f : check.findings())
    if (f.severity == Severity::error) {
      Finding e = f;
      e.path = "written .omf " + e.path;
      return e;
    }
  return write_omf(omf.value());
}

int sniff_gltf(Bytes bytes, std::string_view extension) {
  if (!gltf::looks_like_gltf(bytes)) return 0;
  return extension == ".gltf" || extension == ".glb" ? 90 : 70;
}

Result<std::unique_ptr<Document>> open_gltf_document(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  Diagnostics warnings;
  const auto base = std::filesystem::path(options.file_name).parent_path();
  auto s = gltf::read(file->bytes(), base, gltf::ReadOptions{}, warnings);
  if (!s) return s.error();
  return std::unique_ptr<Document>(new GltfDocument(std::move(s).value(), std::move(warnings)));
}

}  // namespace boneyard::xray
