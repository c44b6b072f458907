// The format table: each entry sniffs bytes and opens a Document. Formats live in their folders;
// only this file knows the list.
#include "boneyard/document.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "mgs2/mgs2_documents.h"
#include "xray/xray_documents.h"

namespace boneyard {

namespace {

struct FormatEntry {
  std::string_view name;
  int (*sniff)(Bytes bytes, std::string_view extension);  // 0 = not this format; higher = surer
  Result<std::unique_ptr<Document>> (*open)(std::shared_ptr<const FileData> file, const OpenOptions& options);
};

constexpr std::array kFormats = {
    FormatEntry{"omf", xray::sniff_omf, xray::open_omf_document},
    FormatEntry{"ogf", xray::sniff_ogf, xray::open_ogf_document},
    FormatEntry{"gltf", xray::sniff_gltf, xray::open_gltf_document},
    FormatEntry{"kms", mgs2::sniff_kms, mgs2::open_kms_document},
    FormatEntry{"evm", mgs2::sniff_evm, mgs2::open_evm_document},
};

std::string lower_extension(std::string_view file_name) {
  const auto slash = file_name.find_last_of("/\\");
  const auto base = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  const auto dot = base.rfind('.');
  std::string ext(dot == std::string_view::npos ? std::string_view{} : base.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace

Result<std::unique_ptr<Document>> open_document(std::shared_ptr<const FileData> file, std::string_view file_name,
                                                const OpenOptions& options) {
  const Bytes bytes = file->bytes();
  if (bytes.empty()) return Finding{Severity::error, 0, {}, "empty file", "a .omf, .ogf, .kms or .evm file", "0 bytes"};
  const std::string ext = lower_extension(file_name);
  const FormatEntry* best = nullptr;
  int best_score = 0;
  for (const auto& f : kFormats) {
    const int s = f.sniff(bytes, ext);
    if (s > best_score) {
      best_score = s;
      best = &f;
    }
  }
  if (best == nullptr) {
    return Finding{Severity::error, 0, {}, "not a recognised file", "an X-Ray .omf/.ogf or an MGS2 .kms/.evm",
                   "unknown content (" + std::to_string(bytes.size()) + " bytes)"};
  }
  OpenOptions with_name = options;  // a .gltf finds its external buffers beside itself
  with_name.file_name = std::string(file_name);
  return best->open(std::move(file), with_name);
}

}  // namespace boneyard
