#include "xray_documents.h"

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
  std::vector<std::string> convert_targets() const override { return {".omf", ".glb", ".gltf"}; }
  // The rewrite is byte for byte: nothing to choose. glTF: the skeleton to play the motions on.
  unsigned convert_options(std::string_view ext) const override { return ext == ".omf" ? 0u : unsigned{kOptSkeleton}; }
  Result<std::vector<std::uint8_t>> convert(std::string_view ext, const ConvertOptions& o) const override {
    if (ext == ".omf") return write_omf(file_);
    return omf_to_gltf(file_, ext, o);  // ogf_document.cpp
  }

 private:
  OmfFile file_;
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

}  // namespace boneyard::xray
