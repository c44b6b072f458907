// The X-Ray SDK's motion files as Documents: .skl, .skls (skeletal motions) and .anm (object
// motions). The X-Ray library reads, reports, validates and converts them; this file routes each
// target (a lossless rewrite, a .skl/.skls container change, the compiled .omf, glTF) and reads
// the files the conversions name (--skeleton, --parts). Conventions: docs/xray-sdk.md.
#include <optional>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/anm/anm_report.h"
#include "boneyard/xray/anm/anm_scene.h"
#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/skl/skl.h"
#include "boneyard/xray/skl/skl_convert.h"
#include "boneyard/xray/skl/skl_report.h"
#include "boneyard/xray/skl/skl_scene.h"
#include "boneyard/xray/xray_game.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

namespace fs = std::filesystem;

// `file` in the container `ext` names: the same motions in a .skls, or the one motion of a .skls
// in a .skl. A .skls with another number of motions is a usage error naming the way out.
Result<xray::SklFile> in_container(const xray::SklFile& file, std::string_view ext) {
  const auto target = ext == ".skl" ? xray::SklContainer::skl : xray::SklContainer::skls;
  if (target == file.container) return file;
  xray::SklFile out = file;
  out.container = target;
  if (target == xray::SklContainer::skls) {
    out.tail = {};  // bytes after the motion inside a .skl's chunk have no place in a .skls
    out.chunks.clear();
    return out;
  }
  if (file.motions.size() != 1)
    return usage_error_finding("a .skl holds one motion and the input has " + std::to_string(file.motions.size()) +
                               " (boneyard omf extract FILE NAME -o ... takes one out first)");
  // A .skl made anew: one plain chunk 0x1200.
  out.tail = {};
  out.trailing = {};
  out.overrun.reset();
  out.motion_unpacked.reset();
  out.chunks = {Chunk{xray::kChunkSkeletonMotion, 0, {}}};
  out.motion_chunk = 0;
  return out;
}

// The motions as the .skl or .skls the output names, read back and validated.
Status write_skl_output(xray::SklFile file, std::string_view ext, const Diagnostics* inherited, ConvertOutputs& out) {
  auto target = in_container(file, ext);
  if (!target) return target.error();
  return write_converted(xray::checked_skl_bytes(xray::write_skl(target.value()), target->container, inherited), out);
}

// The parts --parts names: a .bones file's, an .object's, or an .omf's (or an .ogf's embedded
// motions'), for the bones of `skeleton`.
Result<std::vector<xray::BonePart>> read_parts_option(const ConvertOptions& o, const xray::MotionSkeleton& skeleton) {
  const fs::path& path = o.settings.parts;
  const std::string source = path_to_utf8(path);
  auto opened = open_option_file(o, path);
  if (!opened) return io_error_finding("--parts", "cannot read " + source + ": " + opened.error().message);
  auto name_error = [&](Finding f) {
    f.path = "--parts " + source + (f.path.empty() ? "" : ": " + f.path);
    return f;
  };
  const auto file = opened.value();
  const std::string_view format = detect_format(file->bytes(), source);
  if (format == "bones") {
    auto bones = xray::read_bones(file);
    if (!bones) return name_error(bones.error());
    if (!bones->parts) return usage_error_finding("--parts " + source + " holds no bone parts (chunk 0x923)");
    return xray::parts_for(skeleton, *bones->parts, source);
  }
  if (format == "object") {
    auto object = xray::read_object(file);
    if (!object) return name_error(object.error());
    if (!object->parts) return usage_error_finding("--parts " + source + " holds no bone parts (chunk 0x923)");
    return xray::parts_for(skeleton, *object->parts, source);
  }
  if (format == "omf") {
    auto omf = xray::read_omf(file);
    if (!omf) return name_error(omf.error());
    return xray::parts_for(skeleton, omf->motions.params, source);
  }
  if (format == "ogf") {
    auto ogf = xray::read_ogf(file);
    if (!ogf) return name_error(ogf.error());
    if (!ogf->motions) return usage_error_finding("--parts " + source + " holds no motions of its own, so no bone parts");
    return xray::parts_for(skeleton, ogf->motions->params, source);
  }
  return usage_error_finding("--parts " + source + " is not a .bones, .object, .omf or .ogf file");
}

// --skeleton's model when the option is given (nothing when it is not).
Result<std::optional<SkeletonModel>> skeleton_model_if_given(const ConvertOptions& o) {
  if (o.settings.skeleton.empty()) return std::optional<SkeletonModel>();
  auto read = read_skeleton_model(o);
  if (!read) return read.error();
  return std::optional<SkeletonModel>(std::move(read).value());
}

// .skls -> .omf: compiled for --skeleton (else the motions' own bones), with --parts, the game's
// params version and --hq.
Result<std::vector<std::uint8_t>> compile_to_omf(const xray::SklFile& f, const ConvertOptions& o, Diagnostics& warnings) {
  auto given = skeleton_model_if_given(o);
  if (!given) return given.error();
  const std::optional<SkeletonModel>& model = given.value();
  xray::MotionSkeleton skeleton = model ? model->skeleton : xray::motion_skeleton(f.motions);
  if (!o.settings.parts.empty()) {
    auto parts = read_parts_option(o, skeleton);
    if (!parts) return parts.error();
    skeleton.parts = std::move(parts).value();
  }
  const auto game = xray::parse_game(o.settings.game);
  if (!game) return usage_error_finding("--game must be soc, cs or cop (found " + o.settings.game + ")");
  xray::SklCompileOptions co;
  co.skeleton = &skeleton;
  co.params_version = *game == xray::Game::soc ? 3 : 4;
  co.force_16bit = o.settings.hq;
  if (co.force_16bit && co.params_version < 4)
    return usage_error_finding("--hq writes 16-bit translations, which SoC (--game soc) cannot read");
  auto omf = xray::compile_skl_motions(f.motions, co, warnings);
  if (!omf) return omf.error();
  return xray::checked_omf_bytes(xray::write_omf(omf.value()));
}

class SklDocument final : public Document {
 public:
  explicit SklDocument(xray::SklFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return file_.container == xray::SklContainer::skl ? "skl" : "skls"; }
  std::string info() const override { return xray::describe_skl(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_skl(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_skl(file_); }
  std::vector<std::string> convert_targets() const override { return {".skls", ".skl", ".omf", ".glb", ".gltf"}; }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    Diagnostics scratch;
    Diagnostics& warnings = o.warnings ? *o.warnings : scratch;
    if (ext == ".skl" || ext == ".skls") {
      const Diagnostics inherited = validate();
      return write_skl_output(file_, ext, &inherited, out);
    }
    if (ext == ".omf") return write_converted(compile_to_omf(file_, o, warnings), out);
    auto given = skeleton_model_if_given(o);
    if (!given) return given.error();
    const std::optional<SkeletonModel>& model = given.value();
    xray::SklExportOptions e;
    e.skeleton = model ? &model->skeleton : nullptr;
    e.motions = o.settings.motions;
    Diagnostics adapter;
    auto sc = xray::skl_to_scene(file_.motions, path_to_utf8(o.input.stem()), e, adapter);
    return encode_gltf(sc, adapter, ext, o, out);
  }

 private:
  xray::SklFile file_;
};

// A camera motion: --camera, or a file under a folder named "camera_effects" (the game's camera
// effectors, $game_anims$\camera_effects).
bool camera_motion(const ConvertOptions& o) {
  if (o.settings.camera) return true;
  for (const auto& part : o.input.parent_path())
    if (lower_ascii(path_to_utf8(part)) == "camera_effects") return true;
  return false;
}

class AnmDocument final : public Document {
 public:
  explicit AnmDocument(xray::AnmFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "anm"; }
  std::string info() const override { return xray::describe_anm(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_anm(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_anm(file_); }
  std::vector<std::string> convert_targets() const override { return {".anm", ".glb", ".gltf"}; }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (ext == ".anm") {
      const Diagnostics inherited = validate();
      return write_converted(xray::checked_anm_bytes(xray::write_anm(file_), &inherited), out);
    }
    xray::AnmExportOptions e;
    e.camera = camera_motion(o);
    Diagnostics adapter;
    auto sc = xray::anm_to_scene(file_, path_to_utf8(o.input.stem()), e, adapter);
    return encode_gltf(sc, adapter, ext, o, out);
  }

 private:
  xray::AnmFile file_;
};

}  // namespace

Result<SkeletonModel> read_skeleton_model(const ConvertOptions& o) {
  const fs::path& path = o.settings.skeleton;
  const std::string source = path_to_utf8(path);
  auto opened = open_option_file(o, path);
  if (!opened) return io_error_finding("--skeleton", "cannot read " + source + ": " + opened.error().message);
  auto named = [&](Finding f) {
    f.path = "--skeleton " + source + (f.path.empty() ? "" : ": " + f.path);
    return f;
  };
  SkeletonModel m;
  const auto file = opened.value();
  if (xray::looks_like_object(file->bytes())) {
    auto object = xray::read_object(file);
    if (!object) return named(object.error());
    m.object = std::move(object).value();
    auto sk = xray::motion_skeleton(*m.object, source);
    if (!sk) return named(sk.error());
    m.skeleton = std::move(sk).value();
    return m;
  }
  auto ogf = xray::read_ogf(file);
  if (!ogf) return named(ogf.error());
  m.ogf = std::move(ogf).value();
  auto sk = xray::motion_skeleton(*m.ogf, source);
  if (!sk) return named(sk.error());
  m.skeleton = std::move(sk).value();
  return m;
}

Result<std::vector<std::uint8_t>> omf_to_skl_bytes(const xray::MotionSet& set, std::string_view ext, const ConvertOptions& o,
                                                   Diagnostics& warnings) {
  auto given = skeleton_model_if_given(o);
  if (!given) return given.error();
  const std::optional<SkeletonModel>& model = given.value();
  xray::OmfToSklOptions so;
  so.skeleton = model ? &model->skeleton : nullptr;
  auto skl = xray::omf_to_skl_motions(set, so, warnings);
  if (!skl) return skl.error();
  auto target = in_container(skl.value(), ext);
  if (!target) return target.error();
  return xray::checked_skl_bytes(xray::write_skl(target.value()), target->container);
}

Result<std::vector<std::uint8_t>> scene_to_skl_bytes(const scene::Scene& s, std::string_view ext, const ConvertOptions& o,
                                                     Diagnostics& warnings) {
  auto given = skeleton_model_if_given(o);
  if (!given) return given.error();
  const std::optional<SkeletonModel>& model = given.value();
  xray::SklImportOptions io;
  io.skeleton = model && model->ogf ? &*model->ogf : nullptr;
  io.model = model && model->object ? &model->skeleton : nullptr;
  auto skl = xray::scene_to_skl(s, io, warnings);
  if (!skl) return skl.error();
  auto target = in_container(skl.value(), ext);
  if (!target) return target.error();
  return xray::checked_skl_bytes(xray::write_skl(target.value()), target->container);
}

Result<std::vector<std::uint8_t>> scene_to_anm_bytes(const scene::Scene& s, Diagnostics& warnings) {
  auto anm = xray::scene_to_anm(s, warnings);
  if (!anm) return anm.error();
  return xray::checked_anm_bytes(xray::write_anm(anm.value()));
}

Opened open_skl(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_skl(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new SklDocument(std::move(f).value()));
}

Opened open_skls(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_skls(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new SklDocument(std::move(f).value()));
}

Opened open_anm(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_anm(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new AnmDocument(std::move(f).value()));
}

}  // namespace boneyard::registry
