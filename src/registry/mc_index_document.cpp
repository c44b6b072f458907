// The Master Collection's index files (manifest*.txt, bp_assets*.txt) as Documents: info, dump,
// validation and the lossless rewrite (every line ending and repeated line kept).
#include "boneyard/mgs2/mc_index/mc_index.h"
#include "boneyard/mgs2/mc_index/mc_index_report.h"
#include "formats.h"

namespace boneyard::registry {

namespace {

class McIndexDocument final : public Document {
 public:
  explicit McIndexDocument(mgs2::McIndexFile f) : f_(std::move(f)) {}
  std::string_view format() const override { return "mc_index"; }
  std::string info() const override { return mgs2::describe_mc_index(f_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { mgs2::dump_mc_index(out, f_, o.raw); }
  Diagnostics validate() const override { return mgs2::validate_mc_index(f_); }
  std::vector<std::string> convert_targets() const override { return {".txt"}; }
  Status convert(std::string_view ext, const ConvertOptions&, ConvertOutputs& out) const override {
    if (ext != ".txt") return Finding{Severity::error, 0, {}, "unsupported conversion", ".txt", std::string(ext)};
    return write_converted(mgs2::write_mc_index(f_), out);
  }

 private:
  mgs2::McIndexFile f_;
};

}  // namespace

int sniff_mc_index_file(Bytes bytes, std::string_view extension) { return mgs2::sniff_mc_index(bytes, extension, {}); }

Opened open_mc_index(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  auto f = mgs2::read_mc_index(std::move(file), options.file_name);
  if (!f) return f.error();
  return std::unique_ptr<Document>(new McIndexDocument(std::move(f).value()));
}

}  // namespace boneyard::registry
