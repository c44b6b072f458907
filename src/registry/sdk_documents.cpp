// The X-Ray SDK's motion files as Documents: .skl, .skls (skeletal motions) and .anm (object
// motions). The X-Ray library reads, reports and validates them; this file routes each target:
// a lossless rewrite, or a .skl/.skls container change, both read back and validated.
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/anm/anm_report.h"
#include "boneyard/xray/skl/skl.h"
#include "boneyard/xray/skl/skl_report.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

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
    return usage_error_finding("a .skl holds one motion and this .skls has " + std::to_string(file.motions.size()) +
                               " (boneyard omf extract FILE.skls NAME -o NAME.skl takes one out)");
  // A .skl made anew: one plain chunk 0x1200.
  out.tail = {};
  out.trailing = {};
  out.overrun.reset();
  out.motion_unpacked.reset();
  out.chunks = {Chunk{xray::kChunkSkeletonMotion, 0, {}}};
  out.motion_chunk = 0;
  return out;
}

class SklDocument final : public Document {
 public:
  explicit SklDocument(xray::SklFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return file_.container == xray::SklContainer::skl ? "skl" : "skls"; }
  std::string info() const override { return xray::describe_skl(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_skl(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_skl(file_); }
  std::vector<std::string> convert_targets() const override { return {".skls", ".skl"}; }
  Status convert(std::string_view ext, const ConvertOptions&, ConvertOutputs& out) const override {
    auto target = in_container(file_, ext);
    if (!target) return target.error();
    const Diagnostics inherited = validate();
    return write_converted(xray::checked_skl_bytes(xray::write_skl(target.value()), target->container, &inherited), out);
  }

 private:
  xray::SklFile file_;
};

class AnmDocument final : public Document {
 public:
  explicit AnmDocument(xray::AnmFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "anm"; }
  std::string info() const override { return xray::describe_anm(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { xray::dump_anm(out, file_, o.raw); }
  Diagnostics validate() const override { return xray::validate_anm(file_); }
  std::vector<std::string> convert_targets() const override { return {".anm"}; }
  Status convert(std::string_view, const ConvertOptions&, ConvertOutputs& out) const override {
    const Diagnostics inherited = validate();
    return write_converted(xray::checked_anm_bytes(xray::write_anm(file_), &inherited), out);
  }

 private:
  xray::AnmFile file_;
};

}  // namespace

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
