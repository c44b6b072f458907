// The X-Ray SDK's source models as Documents: `.object` models and `.bones` bone data. The X-Ray
// library reads, reports, validates and converts them; this file routes each target and reads the
// files the conversions need (--template, --skeleton, textures).
#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/bones/bones_report.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/object/object_report.h"
#include "boneyard/xray/object/object_scene.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/core/paths.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

// --game and --smoothing as the library takes them; words outside the table's choices cannot reach here.
xray::Game game_option(const ConvertOptions& o) { return xray::parse_game(o.settings.game).value_or(xray::Game::keep); }
std::optional<xray::SmoothingStyle> smoothing_option(const ConvertOptions& o) {
  if (o.settings.smoothing.empty()) return std::nullopt;
  return o.settings.smoothing == "soc" ? xray::SmoothingStyle::soc : xray::SmoothingStyle::cscop;
}

// The .bones file --bones names, read from the request's files; errors name the option.
Result<xray::BonesFile> read_bones_option(const ConvertOptions& o) {
  auto opened = open_option_file(o, o.settings.bones);
  if (!opened) return io_error_finding("--bones", "cannot read " + path_to_utf8(o.settings.bones) + ": " + opened.error().message);
  auto read = xray::read_bones(std::move(opened).value());
  if (!read) {
    Finding f = read.error();
    f.path = "--bones " + path_to_utf8(o.settings.bones) + (f.path.empty() ? "" : ": " + f.path);
    return f;
  }
  return read;
}

class ObjectDocument final : public Document {
 public:
  explicit ObjectDocument(xray::ObjectFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "object"; }
  std::string info() const override { return xray::describe_object(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_object(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_object(file_); }
  std::vector<std::string> convert_targets() const override { return {".object", ".ogf", ".bones", ".skls", ".glb", ".gltf"}; }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    Diagnostics scratch;
    Diagnostics& warnings = o.warnings ? *o.warnings : scratch;
    const std::string name = path_to_utf8(o.input.stem());
    if (ext == ".bones") return write_converted(xray::bones_of_object(file_), out);
    if (ext == ".skls") return write_converted(xray::motions_of_object(file_), out);
    if (ext == ".object" || ext == ".ogf") {
      // --bones: the bone data goes into the model first (the Actor Editor's Bones > Load).
      std::optional<xray::ObjectFile> with_bones;
      if (!o.settings.bones.empty()) {
        auto bones = read_bones_option(o);
        if (!bones) return bones.error();
        auto applied = xray::apply_bones_to_object(file_, bones.value(), warnings);
        if (!applied) return applied.error();
        if (ext == ".object") return write_converted(applied, out);
        auto read = xray::read_object(FileData::from_vector(std::move(applied).value()));
        if (!read) return read.error();
        with_bones = std::move(read).value();
      }
      if (ext == ".object") return write_converted(xray::rewrite_object(file_), out);
      return write_converted(xray::object_to_ogf_bytes(with_bones ? *with_bones : file_, name, game_option(o),
                                                       smoothing_option(o), warnings),
                             out);
    }
    xray::ObjectExportOptions e;
    e.style = smoothing_option(o);
    e.keep_going = o.settings.keep_going;
    e.motion_globs = o.settings.motions;  // the embedded motions (0x916) --motions selects
    Diagnostics adapter;  // encode_gltf hands them on
    auto sc = xray::object_to_scene(file_, name, e, adapter);
    if (sc) attach_textures(sc.value(), xray_textures_root(o), adapter, o.texture_cache);
    return encode_gltf(sc, adapter, ext, o, out);
  }

 private:
  xray::ObjectFile file_;
};

class BonesDocument final : public Document {
 public:
  explicit BonesDocument(xray::BonesFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "bones"; }
  std::string info() const override { return xray::describe_bones(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_bones(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_bones(file_); }
  std::vector<std::string> convert_targets() const override { return {".bones"}; }
  Status convert(std::string_view ext, const ConvertOptions&, ConvertOutputs& out) const override {
    if (ext == ".bones") return write_converted(xray::rewrite_bones(file_), out);
    return Finding{Severity::error, 0, "convert", "unsupported conversion", ".bones", std::string(ext)};
  }

 private:
  xray::BonesFile file_;
};

}  // namespace

Result<std::vector<std::uint8_t>> object_from_ogf(const xray::OgfFile& ogf, const ConvertOptions& o, Diagnostics& warnings) {
  auto bytes = xray::ogf_to_object_bytes(ogf, path_to_utf8(o.input.stem()), game_option(o), warnings);
  if (!bytes || o.settings.bones.empty()) return bytes;
  auto bones = read_bones_option(o);
  if (!bones) return bones.error();
  auto object = xray::read_object(FileData::from_vector(std::move(bytes).value()));
  if (!object) return object.error();
  return xray::apply_bones_to_object(object.value(), bones.value(), warnings);
}

Result<std::vector<std::uint8_t>> with_bones_option(Result<std::vector<std::uint8_t>> model, const ConvertOptions& o,
                                                    Diagnostics& warnings) {
  if (!model || o.settings.bones.empty()) return model;
  auto bones = read_bones_option(o);
  if (!bones) return bones.error();
  auto bytes = std::move(model).value();
  if (xray::looks_like_object(bytes)) {
    auto object = xray::read_object(FileData::from_vector(std::move(bytes)));
    if (!object) return object.error();
    return xray::apply_bones_to_object(object.value(), bones.value(), warnings);
  }
  auto ogf = xray::read_ogf(FileData::from_vector(std::move(bytes)));
  if (!ogf) return ogf.error();
  return xray::apply_bones_to_ogf(ogf.value(), bones.value(), warnings);
}

Opened open_object(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_object(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new ObjectDocument(std::move(f).value()));
}

Opened open_bones(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = xray::read_bones(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new BonesDocument(std::move(f).value()));
}

}  // namespace boneyard::registry
