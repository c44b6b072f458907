// A glTF file as a Document: read once into a scene, then converted by the game the output's
// extension names, with the models its options name (--skeleton, --template) read here: the
// import mirrors the export (docs/architecture.md "Export and import").
#include <cstdio>
#include <optional>

#include "boneyard/core/paths.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/registry/gltf_files.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/xray/ogf/ogf_import.h"
#include "boneyard/xray/object/object_scene.h"
#include "boneyard/xray/xray_scene.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

namespace fs = std::filesystem;

Status template_mismatch(const ConvertOptions& o, std::string_view ext);
Result<std::vector<std::uint8_t>> to_omf(const scene::Scene& s, const ConvertOptions& o, Diagnostics& warnings);
Result<std::vector<std::uint8_t>> to_ogf(const scene::Scene& s, const ConvertOptions& o, Diagnostics& warnings);
Result<std::vector<std::uint8_t>> to_object(const scene::Scene& s, const ConvertOptions& o, Diagnostics& warnings);
Result<std::vector<std::uint8_t>> to_mgs2_model(const scene::Scene& s, std::string_view ext, const ConvertOptions& o,
                                                Diagnostics& warnings);

// A glTF file: read once (meshes, skin, animations sampled at 30 fps), then converted by the game
// that asks for it: .omf (X-Ray motions), .ogf (X-Ray models) or .kms/.evm (MGS2 models).
class GltfDocument final : public Document {
 public:
  GltfDocument(scene::Scene s, Diagnostics read_warnings, std::vector<std::filesystem::path> buffers)
      : s_(std::move(s)), read_(std::move(read_warnings)), buffers_(std::move(buffers)) {}
  std::string_view format() const override { return "gltf"; }
  std::vector<std::filesystem::path> files_read() const override { return buffers_; }

  std::string info() const override {
    std::size_t prims = 0, verts = 0, tris = 0;
    for (const auto& m : s_.meshes)
      for (const auto& p : m.primitives) ++prims, verts += p.vertex_count(), tris += p.indices.size() / 3;
    char b[256];
    std::snprintf(b, sizeof b, "glTF: %zu nodes, skin of %zu joints, %zu meshes (%zu primitives, %zu vertices, %zu triangles), "
                  "%zu materials, %zu animations (sampled at 30 fps)\n",
                  s_.skeleton.joints.size(), s_.skeleton.skin.size(), s_.meshes.size(), prims, verts, tris,
                  s_.materials.size(), s_.animations.size());
    std::string out = b;
    for (const auto& a : s_.animations) {
      std::snprintf(b, sizeof b, "  %zu frames, %zu channels: ", a.frames, a.channels.size());
      out += b + a.name + "\n";
    }
    return out;
  }

  void dump(JsonWriter& out, const DumpOptions&) const override {
    out.begin_object().field("format", "gltf").key("nodes").begin_array();
    for (const auto& j : s_.skeleton.joints) out.begin_object().field("name", j.name).field("parent", j.parent).end_object();
    out.end_array().key("meshes").begin_array();
    for (const auto& m : s_.meshes) {
      std::size_t verts = 0, tris = 0;
      for (const auto& p : m.primitives) verts += p.vertex_count(), tris += p.indices.size() / 3;
      out.begin_object()
          .field("name", m.name)
          .field("skinned", m.skinned)
          .field("primitives", std::uint64_t{m.primitives.size()})
          .field("vertices", std::uint64_t{verts})
          .field("triangles", std::uint64_t{tris})
          .end_object();
    }
    out.end_array().key("animations").begin_array();
    for (const auto& a : s_.animations) {
      out.begin_object()
          .field("name", a.name)
          .field("frames", std::uint64_t{a.frames})
          .field("channels", std::uint64_t{a.channels.size()})
          .end_object();
    }
    out.end_array().end_object();
  }

  Diagnostics validate() const override { return read_; }
  std::vector<std::string> convert_targets() const override { return {".omf", ".ogf", ".object", ".kms", ".evm"}; }
  Status check_convert_options(std::string_view ext, const OptionSet& given, const ConvertOptions& o) const override {
    if (!option_given(given, "template")) return {};
    return template_mismatch(o, ext);
  }

  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    Diagnostics scratch;
    Diagnostics& warnings = o.warnings ? *o.warnings : scratch;
    for (const auto& f : read_.findings()) warnings.add(f);
    if (ext == ".omf") return write_converted(to_omf(s_, o, warnings), out);
    if (ext == ".ogf") return write_converted(with_bones_option(to_ogf(s_, o, warnings), o, warnings), out);
    if (ext == ".object") return write_converted(with_bones_option(to_object(s_, o, warnings), o, warnings), out);
    if (ext == ".kms" || ext == ".evm")
      return write_mgs2_model(to_mgs2_model(s_, ext, o, warnings), ext, o, o.settings.template_file, out);
    return Finding{Severity::error, 0, "convert", "unsupported conversion", ".omf, .ogf, .object, .kms or .evm", std::string(ext)};
  }

 private:
  scene::Scene s_;
  Diagnostics read_;
  std::vector<std::filesystem::path> buffers_;  // the files its URIs named
};

// A --template must be a file of the target's format (an .omf for .omf, ...). Only the sniffers
// look at it here; a template that cannot be read is left to the conversion, which says why.
Status template_mismatch(const ConvertOptions& o, std::string_view ext) {
  const fs::path& tpl = o.settings.template_file;
  std::error_code ec;
  if (!fs::is_regular_file(tpl, ec)) return {};
  auto opened = open_option_file(o, tpl);
  if (!opened) return {};
  const std::string_view format = detect_format(opened.value()->bytes(), path_to_utf8(tpl));
  if (ext == ".ogf" && xray::looks_like_ogf_v3(opened.value()->bytes()))
    return usage_error_finding("--template " + path_to_utf8(tpl) + " is an OGF v3 model (builds before 2004): the template "
                               "of a .ogf is the v4 model it came from; a v3 model's glTF becomes a v4 .ogf without "
                               "--template (docs/xray-ogf-v3.md)");
  if (format.empty() || ext == "." + std::string(format)) return {};
  return usage_error_finding("--template " + path_to_utf8(tpl) + " holds " + std::string(format) + " data: converting to " + std::string(ext) +
         " takes the original " + std::string(ext) + " file as template");
}

// A model an option names (--skeleton, --template), read from the request's files with `reader`;
// errors name the option and the file.
template <class Model, class Reader>
Result<Model> read_option_model(const ConvertOptions& o, const char* option, const fs::path& path, Reader reader) {
  auto opened = open_option_file(o, path);
  if (!opened) return io_error_finding(option, "cannot read " + path_to_utf8(path) + ": " + opened.error().message);
  auto r = reader(std::move(opened).value());
  if (!r) {
    Finding f = r.error();
    f.path = std::string(option) + " " + path_to_utf8(path) + (f.path.empty() ? "" : ": " + f.path);
    return f;
  }
  return std::move(r).value();
}

// glTF -> .omf: the X-Ray library builds it on the --skeleton and --template models read here.
Result<std::vector<std::uint8_t>> to_omf(const scene::Scene& s, const ConvertOptions& o, Diagnostics& warnings) {
  if (auto motions = xray::check_has_motions(s); !motions) return motions.error();
  std::optional<xray::OgfFile> ogf;
  std::optional<xray::OmfFile> tpl;
  if (!o.settings.skeleton.empty()) {
    auto r = read_option_model<xray::OgfFile>(o, "--skeleton", o.settings.skeleton,
                                              [](auto f) { return xray::read_ogf(std::move(f)); });
    if (!r) return r.error();
    ogf = std::move(r).value();
  }
  if (!o.settings.template_file.empty()) {
    auto r = read_option_model<xray::OmfFile>(o, "--template", o.settings.template_file,
                                              [](auto f) { return xray::read_omf(std::move(f)); });
    if (!r) return r.error();
    tpl = std::move(r).value();
  }
  xray::XrayImportOptions io;
  io.skeleton = ogf ? &*ogf : nullptr;
  io.template_omf = tpl ? &*tpl : nullptr;
  io.hq = o.settings.hq;
  return xray::scene_to_omf_bytes(s, io, warnings);
}

// --motion-refs "a,b" as a list; empty pieces (a trailing comma, or "" for none) are left out.
std::vector<std::string> split_refs(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) out.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// glTF -> .ogf: the X-Ray library builds it on the --template model read here; the bytes come
// back read and validated (xray::scene_to_ogf_bytes).
Result<std::vector<std::uint8_t>> to_ogf(const scene::Scene& s, const ConvertOptions& o, Diagnostics& warnings) {
  xray::OgfImportOptions io;
  const auto game = xray::parse_game(o.settings.game);
  if (!game) return usage_error_finding("--game must be soc, cs or cop (found " + o.settings.game + ")");
  io.game = *game;
  if (option_given(o.given, "motion-refs")) io.motion_refs = split_refs(o.settings.motion_refs);
  std::optional<xray::OgfFile> tpl;
  if (!o.settings.template_file.empty()) {
    auto r = read_option_model<xray::OgfFile>(o, "--template", o.settings.template_file,
                                              [](auto f) { return xray::read_ogf(std::move(f)); });
    if (!r) return r.error();
    tpl = std::move(r).value();
    io.template_ogf = &*tpl;
  }
  return xray::scene_to_ogf_bytes(s, io, warnings);
}

// glTF -> .object: the X-Ray library builds it on the --template object read here; the bytes come
// back read and validated (xray::scene_to_object_bytes).
Result<std::vector<std::uint8_t>> to_object(const scene::Scene& s, const ConvertOptions& o, Diagnostics& warnings) {
  xray::ObjectImportOptions io;
  const auto game = xray::parse_game(o.settings.game);
  if (!game) return usage_error_finding("--game must be soc, cs or cop (found " + o.settings.game + ")");
  io.game = *game;
  if (option_given(o.given, "motion-refs")) io.motion_refs = split_refs(o.settings.motion_refs);
  std::optional<xray::ObjectFile> tpl;
  if (!o.settings.template_file.empty()) {
    auto r = read_option_model<xray::ObjectFile>(o, "--template", o.settings.template_file,
                                                 [](auto f) { return xray::read_object(std::move(f)); });
    if (!r) return r.error();
    tpl = std::move(r).value();
    io.template_object = &*tpl;
  }
  return xray::scene_to_object_bytes(s, io, warnings);
}

// glTF -> .kms/.evm: the MGS2 library builds it with the options and the --template model read here.
Result<std::vector<std::uint8_t>> to_mgs2_model(const scene::Scene& s, std::string_view ext, const ConvertOptions& o,
                                                Diagnostics& warnings) {
  mgs2::Mgs2ImportOptions io;
  if (o.settings.scale != 0) io.scale = o.settings.scale;
  io.layout = mgs2::parse_layout(o.settings.layout);
  const auto n_mats = n_mats_option(o.settings);
  if (!n_mats) return n_mats.error();
  io.n_mats = n_mats.value();
  std::optional<mgs2::KmsFile> kms;
  std::optional<mgs2::EvmFile> evm;
  if (!o.settings.template_file.empty()) {
    // The model keeps the template's bytes open while the builder reads views of them.
    const fs::path& path = o.settings.template_file;
    if (ext == ".kms") {
      auto r = read_option_model<mgs2::KmsFile>(o, "--template", path, [](auto f) { return mgs2::read_kms(std::move(f)); });
      if (!r) return r.error();
      kms = std::move(r).value();
      io.kms_template = &*kms;
    } else {
      auto r = read_option_model<mgs2::EvmFile>(o, "--template", path, [](auto f) { return mgs2::read_evm(std::move(f)); });
      if (!r) return r.error();
      evm = std::move(r).value();
      io.evm_template = &*evm;
    }
  }
  return mgs2::scene_to_model(s, ext, std::move(io), path_to_utf8(o.output.stem()), warnings);
}

}  // namespace

int sniff_gltf(Bytes bytes, std::string_view extension) {
  if (!gltf::looks_like_gltf(bytes)) return 0;
  return extension == ".gltf" || extension == ".glb" ? 90 : 70;
}

Opened open_gltf(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  Diagnostics warnings;
  const auto base = path_from_utf8(options.file_name).parent_path();
  gltf::ReadOptions ro;
  ro.require_animations = false;  // motions need them (checked on conversion to .omf), models do not
  std::vector<std::filesystem::path> buffers;
  // Deferred: a conversion to .omf samples the animations one at a time; one to a model never does.
  auto s = gltf::read_deferred(std::move(file), gltf_buffer_files(base, options.allow_outside_uris, &buffers), ro, warnings);
  if (!s) return s.error();
  return std::unique_ptr<Document>(new GltfDocument(std::move(s).value(), std::move(warnings), std::move(buffers)));
}

}  // namespace boneyard::registry
