#include <cstdio>

#include "boneyard/core/paths.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/xray/xray_scene.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

Status template_mismatch(const std::filesystem::path& tpl, std::string_view ext);

// A glTF file: read once (meshes, skin, animations sampled at 30 fps), then converted by the game
// that asks for it: .omf (X-Ray motions) or .kms/.evm (MGS2 models).
class GltfDocument final : public Document {
 public:
  GltfDocument(scene::Scene s, Diagnostics read_warnings) : s_(std::move(s)), read_(std::move(read_warnings)) {}
  std::string_view format() const override { return "gltf"; }

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
      const std::size_t frames = a.timelines.empty() ? 0 : a.timelines[0].times.size();
      std::snprintf(b, sizeof b, "  %zu frames, %zu channels: ", frames, a.channels.size());
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
  std::vector<std::string> convert_targets() const override { return {".omf", ".kms", ".evm"}; }
  unsigned convert_options(std::string_view ext) const override {
    if (ext == ".omf") return kOptSkeleton | kOptTemplate | kOptHq;
    return kOptTemplate | kOptLayout | kOptScale | kOptCmdl | kOptNoCmdl | (ext == ".evm" ? unsigned{kOptNMats} : 0u);  // .kms, .evm
  }
  Status check_convert_options(std::string_view ext, unsigned given, const ConvertOptions& o) const override {
    if (auto fits = Document::check_convert_options(ext, given, o); !fits) return fits;
    if ((given & kOptTemplate) == 0) return {};
    return template_mismatch(ext == ".omf" ? o.xray.template_omf : o.mgs2.template_model, ext);
  }

  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    Diagnostics scratch;
    Diagnostics& warnings = o.warnings ? *o.warnings : scratch;
    for (const auto& f : read_.findings()) warnings.add(f);
    if (ext == ".omf") return write_converted(xray::scene_to_omf_bytes(s_, o.xray, warnings), out);
    if (ext == ".kms" || ext == ".evm")
      return write_mgs2_model(mgs2::scene_to_model(s_, ext, o.mgs2, path_to_utf8(o.output.stem()), warnings), ext, o,
                              o.mgs2.template_model, out);
    return Finding{Severity::error, 0, "convert", "unsupported conversion", ".omf, .kms or .evm", std::string(ext)};
  }

 private:
  scene::Scene s_;
  Diagnostics read_;
};

// A --template must be a file of the target's format (an .omf for .omf, ...). Only the sniffers
// look at it here; a template that cannot be read is left to the conversion, which says why.
Status template_mismatch(const std::filesystem::path& tpl, std::string_view ext) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(tpl, ec)) return {};
  auto opened = FileData::open(tpl);
  if (!opened) return {};
  const std::string_view format = detect_format(opened.value()->bytes(), path_to_utf8(tpl));
  if (format.empty() || ext == "." + std::string(format)) return {};
  return usage_error_finding("--template " + path_to_utf8(tpl) + " holds " + std::string(format) + " data: converting to " + std::string(ext) +
         " takes the original " + std::string(ext) + " file as template");
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
  ro.allow_outside_uris = options.allow_outside_uris;
  auto s = gltf::read(file->bytes(), base, ro, warnings);
  if (!s) return s.error();
  return std::unique_ptr<Document>(new GltfDocument(std::move(s).value(), std::move(warnings)));
}

}  // namespace boneyard::registry
