#include "xray_documents.h"

#include "boneyard/ogf.h"
#include "boneyard/omf.h"
#include "boneyard/omf_report.h"
#include "boneyard/omf_validate.h"

namespace boneyard::xray {

namespace {

class OmfDocument final : public Document {
 public:
  explicit OmfDocument(OmfFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "omf"; }
  std::string info() const override { return describe_omf(file_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { dump_omf(out, file_, o.raw); }
  Diagnostics validate() const override { return validate_omf(file_); }
  std::vector<std::string> convert_targets() const override { return {".omf"}; }
  Result<std::vector<std::uint8_t>> convert(std::string_view, const ConvertOptions&) const override {
    return write_omf(file_);
  }

 private:
  OmfFile file_;
};

class OgfDocument final : public Document {
 public:
  explicit OgfDocument(OgfFile f) : file_(std::move(f)) {}
  std::string_view format() const override { return "ogf"; }
  std::string info() const override {
    std::string s = "  format: X-Ray model (.ogf v" + std::to_string(file_.header.format_version) + ", type " +
                    std::to_string(file_.header.type) + "), " + std::to_string(file_.size) + " bytes, " +
                    std::to_string(file_.chunks.chunks.size()) + " chunks\n";
    if (file_.motions)
      s += "  embedded motions:\n" + describe_motion_set(*file_.motions);
    else
      s += "  no embedded motions\n";
    return s;
  }
  void dump(JsonWriter& out, const DumpOptions& o) const override {
    out.begin_object().field("format", "ogf");
    out.field("ogf_version", unsigned{file_.header.format_version}).field("type", unsigned{file_.header.type});
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
  std::vector<std::string> convert_targets() const override { return {".omf", ".ogf"}; }
  Result<std::vector<std::uint8_t>> convert(std::string_view ext, const ConvertOptions&) const override {
    if (ext == ".ogf") return write_ogf(file_);
    return extract_omf(file_);
  }

 private:
  OgfFile file_;
};

}  // namespace

int sniff_omf(Bytes bytes, std::string_view extension) {
  if (!looks_like_omf(bytes)) return 0;
  return extension == ".omf" ? 90 : 80;
}

Result<std::unique_ptr<Document>> open_omf_document(std::shared_ptr<const FileData> file, const OpenOptions&) {
  auto f = read_omf(std::move(file));
  if (!f) return f.error();
  return std::unique_ptr<Document>(new OmfDocument(std::move(f).value()));
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
