// Neutral scene (read from glTF, sampled at 30 fps) -> X-Ray .omf: the inverse of xray_scene.h's
// export. Rules, decisions and what round-trips byte-exact: docs/xray-gltf-import.md.
#pragma once

#include <cstddef>

#include "boneyard/diagnostics.h"
#include "boneyard/ogf.h"
#include "boneyard/omf.h"
#include "boneyard/scene.h"
#include "boneyard/xray_options.h"

namespace boneyard::xray {

struct ImportOptions {
  const OgfFile* skeleton = nullptr;      // --skeleton: bones (0xD order) and IK bind pose
  const OmfFile* template_omf = nullptr;  // --template: parts, params, container, reusable records
  bool hq = false;                        // --hq: 16-bit translation keys for every keyed channel
};

// How the records of the result were obtained (for reports and tests).
struct ImportStats {
  std::size_t motions = 0;
  std::size_t records = 0;
  std::size_t template_records = 0;  // reused verbatim from the template (both channels)
  std::size_t extras_layouts = 0;    // translation keyed under the size/init the extras carried
  std::size_t template_layouts = 0;  // translation under the template record's encoding (not verbatim)
  std::size_t template_encodings_changed = 0;  // records whose encoding differs from the template's
  std::size_t crc_matches = 0;       // records whose recomputed CRCs equal those in the extras
  std::size_t crc_checked = 0;       // records with extras CRCs to compare
  bool template_container = false;   // the template's file layout was kept
};

// `scene` must come from gltf::read (one timeline per animation: the 30 fps samples). Bones are
// matched by node name. Errors (a Finding naming animation/channel/node): no skeleton source,
// skeleton mismatch, an animation none of whose channels targets a skeleton bone, names not
// representable in cp1251. Warnings: scale channels, channels on other nodes, defaults used.
Result<OmfFile> scene_to_omf(const scene::Scene& scene, const ImportOptions& options, Diagnostics& warnings,
                             ImportStats* stats = nullptr);

// A scene read from glTF to .omf bytes, as `convert` asks: options' skeleton, template (read here)
// and hq. Errors: no animations, an unreadable --skeleton/--template, and anything scene_to_omf
// or the validator of the written bytes rejects.
Result<std::vector<std::uint8_t>> scene_to_omf_bytes(const scene::Scene& scene, const ConvertOptions& options,
                                                     Diagnostics& warnings);

}  // namespace boneyard::xray
