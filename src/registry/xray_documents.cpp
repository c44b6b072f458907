// X-Ray files as Documents: the X-Ray library reads, reports, validates and builds the scene;
// this file only routes each target to it (.omf/.ogf rewrites) or through the scene to glTF.
#include "boneyard/xray/ogf.h"
#include "boneyard/xray/omf_report.h"
#include "boneyard/xray/ogf_report.h"
#include "boneyard/xray/omf.h"
#include "boneyard/xray/xray_scene.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

xray::XrayExportOptions export_options(const ConvertOptions& o, bool with_skeleton) {
  const xray::ConvertOptions& x = o.xray;
  xray::XrayExportOptions e{o.input, x.meshes_root, {}, x.keep_going};
  if (with_skeleton) e.skeleton = x.skeleton;
  e.motions = {x.float_rotations, x.motions};
  return e;
}

class OmfDocument final : public Document {
 public:
  explicit OmfDocument(xray::OmfFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "omf"; }
  std::string info() const override { return xray::describe_omf(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_omf(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_omf(file_); }
  std::vector<std::string> convert_targets() const override { return {".omf", ".glb", ".gltf"}; }
  // The rewrite is byte for byte: nothing to choose. glTF: the skeleton to play the motions on.
  unsigned convert_options(std::string_view ext) const override {
    return ext == ".omf" ? 0u : unsigned{kOptSkeleton | kOptFloatRotations | kOptMotions};
  }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (ext == ".omf") return write_converted(xray::write_omf(file_), out);
    Diagnostics warnings;
    auto sc = xray::omf_to_scene(file_.motions, export_options(o, true), warnings);
    return encode_gltf(sc, warnings, ext, o, out);
  }

 private:
  xray::OmfFile file_;
};

class OgfDocument final : public Document {
 public:
  explicit OgfDocument(xray::OgfFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "ogf"; }
  std::string info() const override { return xray::describe_ogf(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_ogf(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_ogf(file_); }
  std::vector<Finding> conversion_blockers(std::string_view ext, const ConvertOptions& o) const override {
    return xray::ogf_conversion_blockers(file_, o.xray.keep_going && is_gltf_extension(ext));
  }
  std::vector<std::string> convert_targets() const override { return {".omf", ".ogf", ".glb", ".gltf"}; }
  // .ogf and .omf are copies of what is stored; glTF looks up motion refs, textures and meshes.
  unsigned convert_options(std::string_view ext) const override {
    return ext == ".ogf" || ext == ".omf" ? 0u
                                          : unsigned{kOptMeshes | kOptTextures | kOptKeepGoing | kOptFloatRotations |
                                                     kOptMotions};
  }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (ext == ".ogf") return write_converted(xray::write_ogf(file_), out);
    if (ext == ".omf") return write_converted(xray::extract_omf(file_), out);
    Diagnostics warnings;
    auto sc = xray::ogf_to_scene(file_, export_options(o, false), warnings);
    if (sc) attach_textures(sc.value(), xray_textures_root(o), warnings);
    return encode_gltf(sc, warnings, ext, o, out);
  }

 private:
  xray::OgfFile file_;
};

}  // namespace

Opened open_omf(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_omf(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new OmfDocument(std::move(f).value()));
}

Opened open_ogf(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_ogf(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new OgfDocument(std::move(f).value()));
}

}  // namespace boneyard::registry
