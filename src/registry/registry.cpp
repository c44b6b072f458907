// The format table: each entry sniffs bytes and opens a Document. Formats live in their folders;
// only this file knows the list.
#include "boneyard/core/text.h"
#include "boneyard/registry/document.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/ctxr/ctxr_report.h"
#include "boneyard/texture/dds/dds.h"
#include "boneyard/texture/dds/dds_report.h"
#include "boneyard/texture/tri/tri_report.h"
#include "boneyard/mgs2/kms/kms_report.h"
#include "boneyard/mgs2/evm/evm_report.h"
#include "boneyard/mgs2/cmdl/cmdl_report.h"
#include "boneyard/mgs2/mar/mar_report.h"
#include "boneyard/xray/omf/omf_report.h"
#include "boneyard/xray/ogf/ogf_report.h"
#include "boneyard/xray/bones/bones_report.h"
#include "boneyard/xray/object/object_report.h"
#include "boneyard/xray/anm/anm_report.h"
#include "boneyard/xray/skl/skl_report.h"
#include "boneyard/xray/ogf_v3/ogf_v3_report.h"
#include "formats.h"

namespace boneyard {

std::vector<Finding> Document::conversion_blockers(std::string_view, const ConvertOptions&) const {
  return validate().errors();
}

namespace {

struct FormatEntry {
  std::string_view name;
  int (*sniff)(Bytes bytes, std::string_view extension);  // 0 = not this format; higher = surer
  Result<std::unique_ptr<Document>> (*open)(std::shared_ptr<const FileData> file, const OpenOptions& options);
};

constexpr std::array kFormats = {
    FormatEntry{"omf", xray::sniff_omf, registry::open_omf},
    FormatEntry{"ogf", xray::sniff_ogf, registry::open_ogf},
    FormatEntry{"ogf", xray::sniff_ogf_v3, registry::open_ogf_v3},  // OGF v3 (builds before 2004): its own model
    FormatEntry{"object", xray::sniff_object, registry::open_object},  // the SDK's source model
    FormatEntry{"bones", xray::sniff_bones, registry::open_bones},     // the SDK's bone data
    FormatEntry{"skl", xray::sniff_skl, registry::open_skl},    // the SDK's skeletal motions
    FormatEntry{"skls", xray::sniff_skls, registry::open_skls},
    FormatEntry{"anm", xray::sniff_anm, registry::open_anm},    // the SDK's object and camera motions
    FormatEntry{"gltf", registry::sniff_gltf, registry::open_gltf},  // converts to both games
    FormatEntry{"kms", mgs2::sniff_kms, registry::open_kms},
    FormatEntry{"evm", mgs2::sniff_evm, registry::open_evm},
    FormatEntry{"cmdl", mgs2::sniff_cmdl, registry::open_cmdl},  // the Master Collection's companion of a .kms/.evm
    FormatEntry{"mar", mgs2::sniff_mar, registry::open_mar},     // motions that play on a .kms/.evm skeleton
    FormatEntry{"mc_index", registry::sniff_mc_index_file, registry::open_mc_index},  // manifest.txt, bp_assets.txt
    FormatEntry{"dds", texture::sniff_dds, registry::open_dds},
    FormatEntry{"ctxr", texture::sniff_ctxr, registry::open_ctxr},
    FormatEntry{"tri", texture::sniff_tri, registry::open_tri},  // MGS2 PS2 textures (video memory)
};

const FormatEntry* best_format(Bytes bytes, std::string_view file_name) {
  const std::string ext = lower_extension(file_name);
  const FormatEntry* best = nullptr;
  int best_score = 0;
  for (const auto& f : kFormats) {
    const int score = f.sniff(bytes, ext);
    if (score > best_score) {
      best_score = score;
      best = &f;
    }
  }
  return best;
}

}  // namespace

Status Document::check_convert_options(std::string_view, const OptionSet&, const ConvertOptions&) const { return {}; }

std::string_view detect_format(Bytes bytes, std::string_view file_name) {
  if (bytes.empty()) return {};
  const FormatEntry* f = best_format(bytes, file_name);
  return f ? f->name : std::string_view{};
}

Result<std::unique_ptr<Document>> open_document(std::shared_ptr<const FileData> file, std::string_view file_name,
                                                const OpenOptions& options) {
  const Bytes bytes = file->bytes();
  if (bytes.empty())
    return Finding{Severity::error, 0, {}, "empty file",
                   "a .omf, .ogf, .object, .bones, .skl, .skls, .anm, .kms, .evm, .cmdl, .mar, .dds, .ctxr or .tri file",
                   "0 bytes"};
  const FormatEntry* best = best_format(bytes, file_name);
  if (best == nullptr) {
    return Finding{Severity::error, 0, {}, "not a recognised file",
                   "an X-Ray .omf/.ogf/.object/.bones/.skl/.skls/.anm/.dds or an MGS2 .kms/.evm/.cmdl/.mar/.ctxr/.tri",
                   "unknown content (" + std::to_string(bytes.size()) + " bytes)"};
  }
  OpenOptions with_name = options;  // a .gltf finds its external buffers beside itself
  with_name.file_name = std::string(file_name);
  return best->open(std::move(file), with_name);
}

}  // namespace boneyard
