// glTF -> .omf as `convert` asks: the rules live in xray_scene_import.cpp; this file checks the
// scene before anything else is read and the written bytes before they are handed out. The
// --skeleton and --template models come from the registry, which reads files.
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/xray_scene.h"

namespace boneyard::xray {

Status check_has_motions(const scene::Scene& scene) {
  if (scene.animations.empty())
    return Finding{Severity::error, 0, "animations", "the glTF has no animations", ">= 1 animation", "0"};
  return {};
}

Result<std::vector<std::uint8_t>> scene_to_omf_bytes(const scene::Scene& scene, const XrayImportOptions& options,
                                                     Diagnostics& warnings) {
  if (auto motions = check_has_motions(scene); !motions) return motions.error();
  auto omf = scene_to_omf(scene, options, warnings);
  if (!omf) return omf.error();
  return checked_omf_bytes(write_omf(omf.value()));
}

}  // namespace boneyard::xray
