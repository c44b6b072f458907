// Textures as Documents, so that info, dump, validate and convert treat them like every format:
// the texture layer reads, reports and validates; this file routes the targets (a lossless
// rewrite, or the top level as PNG). `boneyard texture` has the texture-specific options.
#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/ctxr/ctxr_report.h"
#include "boneyard/texture/dds/dds.h"
#include "boneyard/texture/dds/dds_report.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/texture/tri/tri.h"
#include "boneyard/texture/tri/tri_report.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

Status write_png_target(const Result<texture::Image>& image, std::vector<texture::PngChunk> chunks, ConvertOutputs& out) {
  if (!image) return image.error();
  texture::PngWriteOptions o;
  o.chunks = std::move(chunks);
  return texture::write_png(out.main(), image.value(), std::move(o));
}

class DdsDocument final : public Document {
 public:
  explicit DdsDocument(texture::DdsFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "dds"; }
  std::string info() const override { return texture::describe_dds(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { texture::dump_dds(out, file_, o.raw); }
  Diagnostics validate() const override { return texture::validate_dds(file_); }
  std::vector<std::string> convert_targets() const override { return {".dds", ".png"}; }
  Status convert(std::string_view ext, const ConvertOptions&, ConvertOutputs& out) const override {
    if (ext == ".dds") return write_converted(texture::write_dds(file_), out);
    if (file_.cube)
      return usage_error_finding("a cube map has six faces: `boneyard texture IN.dds -o OUT.png` writes them (or --cross)");
    return write_png_target(texture::decode_dds(file_), {}, out);
  }

 private:
  texture::DdsFile file_;
};

class CtxrDocument final : public Document {
 public:
  explicit CtxrDocument(texture::CtxrFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "ctxr"; }
  std::string info() const override { return texture::describe_ctxr(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { texture::dump_ctxr(out, file_, o.raw); }
  Diagnostics validate() const override { return texture::validate_ctxr(file_); }
  std::vector<std::string> convert_targets() const override { return {".ctxr", ".png"}; }
  Status convert(std::string_view ext, const ConvertOptions&, ConvertOutputs& out) const override {
    if (ext == ".ctxr") return write_converted(texture::write_ctxr(file_), out);
    return write_png_target(texture::decode_ctxr(file_), {texture::ctxr_png_chunk(file_)}, out);
  }

 private:
  texture::CtxrFile file_;
};

// A .tri: info, dump, validate and a lossless rewrite; its textures go to PNG with `boneyard
// texture` (registry/tri_files.h), a folder of them.
class TriDocument final : public Document {
 public:
  TriDocument(texture::TriFile f, const TextureNames* names) : file_(std::move(f)), names_(names) {}
  std::string_view format() const override { return "tri"; }
  std::string info() const override { return texture::describe_tri(file_, lookup(names_)); }
  void dump(JsonWriter& out, const DumpOptions& o) const override {
    texture::dump_tri(out, file_, o.raw, lookup(o.names != nullptr ? o.names : names_));
  }
  Diagnostics validate() const override { return texture::validate_tri(file_); }
  std::vector<std::string> convert_targets() const override { return {".tri"}; }
  Status convert(std::string_view ext, const ConvertOptions&, ConvertOutputs& out) const override {
    if (ext != ".tri")
      return usage_error_finding("a .tri holds several textures: `boneyard texture IN.tri -o FOLDER` writes them as PNGs");
    return write_converted(texture::write_tri(file_), out);
  }

 private:
  static texture::TriNameLookup lookup(const TextureNames* names) {
    if (names == nullptr) return {};
    return [names](std::uint32_t id) { return names->find(id); };
  }
  texture::TriFile file_;
  const TextureNames* names_;
};

}  // namespace

Opened open_tri(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  std::optional<texture::TriLayout> layout;
  if (options.layout == "ps2") layout = texture::TriLayout::ps2;
  if (options.layout == "mc") layout = texture::TriLayout::mc;
  auto f = texture::read_tri(std::move(file), layout);
  if (!f) return f.error();
  return std::unique_ptr<Document>(new TriDocument(std::move(f).value(), options.names));
}

Opened open_dds(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = texture::read_dds(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new DdsDocument(std::move(f).value()));
}

Opened open_ctxr(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = texture::read_ctxr(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new CtxrDocument(std::move(f).value()));
}

}  // namespace boneyard::registry
