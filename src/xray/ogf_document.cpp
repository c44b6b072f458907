// The OGF model as a Document: info, dump and validate cover the skeleton, the meshes, the motion
// refs and the embedded motions; convert rewrites the .ogf byte-exact, extracts its embedded .omf, or
// exports skeleton + motions to glTF.
#include <algorithm>
#include <cstdio>

#include "boneyard/gltf.h"
#include "boneyard/ogf.h"
#include "boneyard/omf_report.h"
#include "boneyard/text.h"
#include "boneyard/xray_scene.h"
#include "xray_documents.h"

namespace boneyard::xray {

namespace {

void vec3(JsonWriter& out, std::string_view key, const Vec3& v) {
  out.key(key).begin_array().value(v.x).value(v.y).value(v.z).end_array();
}

// Children (0x9): what each holds; with `raw`, offsets and every decoded vertex and index too.
void dump_meshes(JsonWriter& out, const OgfFile& file, bool raw) {
  out.key("meshes").begin_array();
  for (const auto& c : file.children) {
    out.begin_object().field("chunk", c.path()).field("type", unsigned{c.header.type});
    out.field("texture", cp1251_to_utf8(c.texture)).field("shader", cp1251_to_utf8(c.shader));
    if (c.error) out.field("error", c.error->message + (c.error->path.empty() ? "" : " in " + c.error->path));
    if (c.vertices) {
      const auto& v = *c.vertices;
      out.field("vertex_format", std::uint64_t{v.format}).field("links", v.links());
      out.field("vertex_count", std::uint64_t{v.count}).field("stride", std::uint64_t{v.stride});
    }
    out.field("index_count", std::uint64_t{c.index_count});
    const auto [first, count] = c.full_detail();
    out.field("full_detail_triangles", std::uint64_t{count / 3});
    out.key("slide_windows").begin_array();
    for (const auto& w : c.windows)
      out.begin_object()
          .field("offset", std::uint64_t{w.offset})
          .field("triangles", unsigned{w.triangles})
          .field("vertices", unsigned{w.vertices})
          .end_object();
    out.end_array();
    if (raw) {
      out.field("offset", std::uint64_t{c.offset});
      if (c.vertices) {
        out.field("vertices_offset", std::uint64_t{c.vertices->offset}).key("vertices").begin_array();
        // Bounded by the bytes actually held: a broken child may have fewer than its count says.
        const std::size_t held = c.vertices->stride ? c.vertices->data.size() / c.vertices->stride : 0;
        for (std::size_t i = 0; i < std::min<std::size_t>(c.vertices->count, held); ++i) {
          const OgfVertex vx = decode_vertex(*c.vertices, i);
          out.begin_object();
          vec3(out, "position", vx.position);
          vec3(out, "normal", vx.normal);
          out.key("uv").begin_array().value(vx.u).value(vx.v).end_array();
          out.key("bones").begin_array();
          for (int k = 0; k < vx.links; ++k) out.value(unsigned{vx.bones[static_cast<std::size_t>(k)]});
          out.end_array().key("weights").begin_array();
          for (int k = 0; k < vx.links; ++k) out.value(vx.weights[static_cast<std::size_t>(k)]);
          out.end_array().end_object();
        }
        out.end_array();
      }
      out.field("indices_offset", std::uint64_t{c.indices_offset}).key("indices").begin_array();
      for (std::size_t i = 0; i < std::min<std::size_t>(c.index_count, c.indices.size() / 2); ++i)
        out.value(unsigned{c.index_at(i)});
      out.end_array();
    }
    out.end_object();
  }
  out.end_array();
}

std::string fmt(const char* f, double a, double b, double c) {
  char buf[96];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

class OgfDocument final : public Document {
 public:
  explicit OgfDocument(OgfFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "ogf"; }

  std::string info() const override {
    std::string s = "  format: X-Ray model (.ogf v" + std::to_string(file_.header.format_version) + ", type " +
                    std::to_string(file_.header.type) + "), " + std::to_string(file_.size) + " bytes, " +
                    std::to_string(file_.chunks.chunks.size()) + " chunks\n";
    std::size_t roots = 0;
    for (const auto& b : file_.bones) roots += b.parent_name.empty() ? 1 : 0;
    s += "  skeleton: " + std::to_string(file_.bones.size()) + " bone(s), " + std::to_string(roots) + " root(s), " +
         (file_.has_ik ? "IK data (bind pose) present" : "no IK data") + "\n";
    for (std::size_t i = 0; i < file_.bones.size(); ++i) {
      const auto& b = file_.bones[i];
      s += "  " + std::to_string(i) + " " + printable(b.name) + " <- " +
           (b.parent_name.empty() ? std::string("(root)") : printable(b.parent_name));
      if (b.ik)
        s += fmt("  bind pos (%.4g %.4g %.4g)", b.ik->bind_position.x, b.ik->bind_position.y, b.ik->bind_position.z) +
             fmt(" rot (%.4g %.4g %.4g)", b.ik->bind_rotation.x, b.ik->bind_rotation.y, b.ik->bind_rotation.z);
      s += "\n";
    }
    if (file_.motion_refs_chunk != 0) {
      s += "  motion refs (" + hex(file_.motion_refs_chunk) + "):";
      for (const auto& r : file_.motion_refs) s += " " + printable(r);
      s += "\n";
    }
    if (!file_.children.empty()) s += "  meshes: " + std::to_string(file_.children.size()) + " child(ren)\n";
    for (const auto& c : file_.children) {
      s += "  " + c.path() + " ";
      if (c.error) {
        s += "unreadable: " + c.error->message + " (" + c.error->path + ")\n";
        continue;
      }
      const auto [first, count] = c.full_detail();
      (void)first;
      s += "type " + std::to_string(c.header.type) + ", " + std::to_string(c.vertices->count) + " vertices (" +
           hex(c.vertices->format) + (c.vertices->links() ? ", " + std::to_string(c.vertices->links()) + " link(s)" : ", static") +
           "), " + std::to_string(count / 3) + " triangles" +
           (c.windows.empty() ? "" : " at full detail of " + std::to_string(c.index_count / 3)) + ", texture " +
           printable(c.texture) + ", shader " + printable(c.shader) + "\n";
    }
    if (file_.user_data) s += "  user data: " + std::to_string(file_.user_data->size()) + " bytes\n";
    if (file_.description && file_.description->parsed)
      s += "  description: source " + printable(file_.description->source) + ", build " +
           printable(file_.description->build) + ", created by " + printable(file_.description->creator) +
           ", modified by " + printable(file_.description->modifier) + "\n";
    if (file_.motions)
      s += "  embedded motions:\n" + describe_motion_set(*file_.motions);
    else
      s += "  no embedded motions\n";
    return s;
  }

  void dump(JsonWriter& out, const DumpOptions& o) const override {
    out.begin_object().field("format", "ogf");
    out.field("ogf_version", unsigned{file_.header.format_version}).field("type", unsigned{file_.header.type});
    out.key("bones").begin_array();
    for (const auto& b : file_.bones) {
      out.begin_object().field("name", cp1251_to_utf8(b.name)).field("parent", cp1251_to_utf8(b.parent_name));
      if (b.ik) {
        const IkData& ik = *b.ik;
        out.key("ik").begin_object().field("version", unsigned{ik.version});
        out.field("game_mtl", cp1251_to_utf8(ik.game_mtl)).field("joint_type", unsigned{ik.joint.type});
        if (ik.joint.friction) out.field("friction", *ik.joint.friction);
        vec3(out, "bind_rotation", ik.bind_rotation);
        vec3(out, "bind_position", ik.bind_position);
        out.field("mass", ik.mass);
        vec3(out, "center_of_mass", ik.center_of_mass);
        out.end_object();
      }
      if (o.raw) {
        out.field("offset", std::uint64_t{b.offset});
        out.key("obb").begin_object();
        out.key("rotate").begin_array();
        for (float v : b.obb.rotate) out.value(v);
        out.end_array();
        vec3(out, "translate", b.obb.translate);
        vec3(out, "halfsize", b.obb.halfsize);
        out.end_object();
      }
      out.end_object();
    }
    out.end_array();
    out.key("motion_refs");
    if (file_.motion_refs_chunk != 0) {
      out.begin_object().field("chunk", hex(file_.motion_refs_chunk)).key("refs").begin_array();
      for (const auto& r : file_.motion_refs) out.value(cp1251_to_utf8(r));
      out.end_array().end_object();
    } else {
      out.null();
    }
    out.key("user_data");
    if (file_.user_data) out.value(cp1251_to_utf8(*file_.user_data)); else out.null();
    out.key("description");
    if (file_.description && file_.description->parsed) {
      const auto& d = *file_.description;
      out.begin_object().field("source", cp1251_to_utf8(d.source)).field("build", cp1251_to_utf8(d.build));
      out.field("build_time", unsigned{d.build_time}).field("creator", cp1251_to_utf8(d.creator));
      out.field("create_time", unsigned{d.create_time}).field("modifier", cp1251_to_utf8(d.modifier));
      out.field("modify_time", unsigned{d.modify_time}).end_object();
    } else {
      out.null();
    }
    dump_meshes(out, file_, o.raw);
    out.key("motions");
    if (file_.motions) {
      out.begin_object();
      dump_motion_set(out, *file_.motions, o.raw);
      out.end_object();
    } else {
      out.null();
    }
    out.end_object();
  }

  Diagnostics validate() const override { return validate_ogf(file_); }
  std::vector<Finding> conversion_blockers(std::string_view ext, const ConvertOptions& o) const override {
    return ogf_conversion_blockers(file_, o.keep_going && (ext == ".glb" || ext == ".gltf"));
  }
  std::vector<std::string> convert_targets() const override { return {".omf", ".ogf", ".glb", ".gltf"}; }
  // .ogf and .omf are copies of what is stored; glTF looks up motion refs, textures and meshes.
  unsigned convert_options(std::string_view ext) const override {
    return ext == ".ogf" || ext == ".omf" ? 0u : unsigned{kOptMeshes | kOptTextures | kOptKeepGoing};
  }
  Result<std::vector<std::uint8_t>> convert(std::string_view ext, const ConvertOptions& o) const override {
    if (ext == ".ogf") return write_ogf(file_);
    if (ext == ".omf") return extract_omf(file_);
    Diagnostics warnings;
    XrayExportOptions x{o.input, o.meshes_root, {}, o.textures, o.output, o.keep_going};
    auto sc = ogf_to_scene(file_, x, warnings);
    if (o.warnings != nullptr)
      for (auto& f : warnings.findings()) o.warnings->add(std::move(f));
    if (!sc) return sc.error();
    return gltf_bytes(sc.value(), ext, o);
  }

 private:
  OgfFile file_;
};

}  // namespace

Result<std::vector<std::uint8_t>> gltf_bytes(const scene::Scene& sc, std::string_view ext, const ConvertOptions& o) {
  if (ext == ".glb") return gltf::write(sc, gltf::Container::glb).main;
  if (o.side_files == nullptr)
    return Finding{Severity::error, 0, {}, "a .gltf needs its .bin written beside it", "a caller that writes side files",
                   "none"};
  std::filesystem::path bin = o.output.empty() ? std::filesystem::path("scene.bin") : o.output;
  bin.replace_extension(".bin");
  auto out = gltf::write(sc, gltf::Container::gltf, bin.filename().string());
  if (!out.bin.empty()) o.side_files->emplace_back(bin, std::move(out.bin));
  return std::move(out.main);
}

Result<std::vector<std::uint8_t>> omf_to_gltf(const OmfFile& file, std::string_view ext, const ConvertOptions& o) {
  Diagnostics warnings;
  XrayExportOptions x{o.input, o.meshes_root, o.skeleton};
  auto sc = omf_to_scene(file.motions, x, warnings);
  if (o.warnings != nullptr)
    for (auto& f : warnings.findings()) o.warnings->add(std::move(f));
  if (!sc) return sc.error();
  return gltf_bytes(sc.value(), ext, o);
}

int sniff_ogf(Bytes bytes, std::string_view extension) {
  if (!looks_like_ogf(bytes)) return 0;
  return extension == ".ogf" ? 90 : 70;
}

Result<std::unique_ptr<Document>> open_ogf_document(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = read_ogf(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new OgfDocument(std::move(f).value()));
}

}  // namespace boneyard::xray
