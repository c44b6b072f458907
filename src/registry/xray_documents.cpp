// X-Ray files as Documents: the X-Ray library reads, reports, validates and builds the scene;
// this file routes each target to it (.omf/.ogf rewrites) or through the scene to glTF, and
// reads the files that go with it (--skeleton, the motion files of refs: xray_files.cpp).
#include <optional>

#include "boneyard/core/paths.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf_report.h"
#include "boneyard/xray/ogf/ogf_report.h"
#include "boneyard/xray/ogf_v3/ogf_v3_report.h"
#include "boneyard/xray/ogf_v3/ogf_v3_scene.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/xray_scene.h"
#include "boneyard/xray/object/object_scene.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

xray::XrayExportOptions export_options(const ConvertOptions& o) {
  xray::XrayExportOptions e;
  e.input = o.input;
  e.keep_going = o.settings.keep_going;
  e.motions = {o.settings.float_rotations, o.settings.motions};
  return e;
}

// The --skeleton model of an .omf's motions, read from the request's files; errors name the file.
Result<xray::OgfFile> read_skeleton(const ConvertOptions& o) {
  const auto& path = o.settings.skeleton;
  auto opened = open_option_file(o, path);
  if (!opened) return io_error_finding("--skeleton", "cannot read " + path_to_utf8(path) + ": " + opened.error().message);
  auto read = xray::read_ogf(std::move(opened).value());
  if (!read) {
    Finding f = read.error();
    f.path = path_to_utf8(path) + (f.path.empty() ? "" : " " + f.path);
    return f;
  }
  return read;
}

class OmfDocument final : public Document {
 public:
  explicit OmfDocument(xray::OmfFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "omf"; }
  std::string info() const override { return xray::describe_omf(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_omf(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_omf(file_); }
  std::vector<std::string> convert_targets() const override { return {".omf", ".glb", ".gltf"}; }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (ext == ".omf") return write_converted(xray::write_omf(file_), out);
    xray::XrayExportOptions e = export_options(o);
    std::optional<xray::OgfFile> skeleton;
    if (!o.settings.skeleton.empty()) {
      auto read = read_skeleton(o);
      if (!read) return read.error();
      skeleton = std::move(read).value();
      e.skeleton = &*skeleton;
      e.skeleton_path = path_to_utf8(o.settings.skeleton);
    }
    Diagnostics warnings;
    auto sc = xray::omf_to_scene(file_.motions, e, warnings);
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
    return xray::ogf_conversion_blockers(file_, o.settings.keep_going && is_gltf_extension(ext));
  }
  std::vector<std::string> convert_targets() const override { return {".omf", ".ogf", ".object", ".bones", ".glb", ".gltf"}; }
  // .ogf and .omf are copies of what is stored (the .ogf read back and validated); glTF reads the
  // motion files the refs name and the textures; .object is converter.exe's conversion.
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    Diagnostics scratch;
    Diagnostics& side = o.warnings ? *o.warnings : scratch;
    if (ext == ".ogf") {
      if (o.settings.bones.empty()) return write_converted(xray::rewrite_ogf(file_), out);
      return write_converted(with_bones_option(xray::rewrite_ogf(file_), o, side), out);
    }
    if (ext == ".object") return write_converted(object_from_ogf(file_, o, side), out);
    if (ext == ".bones") return write_converted(xray::bones_of_ogf(file_), out);
    if (ext == ".omf") return write_converted(xray::extract_omf(file_), out);
    Diagnostics warnings;
    auto sc = xray_model_scene(file_, export_options(o), o.settings.meshes, o.motion_refs, warnings);
    if (sc) attach_textures(sc.value(), xray_textures_root(o), warnings, o.texture_cache);
    return encode_gltf(sc, warnings, ext, o, out);
  }

 private:
  xray::OgfFile file_;
};

// OGF v3: the same file kind as v4 ("ogf": the same options apply), read by its own model.
// .ogf is its lossless rewrite, .omf its 0x1A motions; there is no route to a v4 .ogf here: the
// v4 writer would drop its embedded motions, bone shapes and joint limits (docs/xray-ogf-v3.md
// "Back to a game").
class OgfV3Document final : public Document {
 public:
  explicit OgfV3Document(xray::OgfV3File f) : file_(std::move(f)) {}
  std::string_view format() const override { return "ogf"; }
  std::string info() const override { return xray::describe_ogf_v3(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_ogf_v3(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_ogf_v3(file_); }
  std::vector<Finding> conversion_blockers(std::string_view ext, const ConvertOptions& o) const override {
    return xray::ogf_v3_conversion_blockers(file_, o.settings.keep_going && is_gltf_extension(ext));
  }
  std::vector<std::string> convert_targets() const override { return {".omf", ".ogf", ".glb", ".gltf"}; }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (ext == ".ogf") return write_converted(xray::rewrite_ogf_v3(file_), out);
    if (ext == ".omf") return write_converted(xray::extract_omf_v3(file_), out);
    Diagnostics warnings;
    auto sc = xray_v3_model_scene(file_, export_options(o), o.settings.meshes, o.motion_refs, warnings);
    if (sc) attach_textures(sc.value(), xray_textures_root(o), warnings, o.texture_cache);
    return encode_gltf(sc, warnings, ext, o, out);
  }

 private:
  xray::OgfV3File file_;
};

}  // namespace

Opened open_omf(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_omf(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new OmfDocument(std::move(f).value()));
}

Opened open_ogf(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  // Callers that open by extension (the batch) get the v3 model for a v3 file.
  if (xray::looks_like_ogf_v3(file->bytes())) return open_ogf_v3(std::move(file), options);
  auto f = xray::read_ogf(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new OgfDocument(std::move(f).value()));
}

Opened open_ogf_v3(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_ogf_v3(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new OgfV3Document(std::move(f).value()));
}

}  // namespace boneyard::registry
