// MGS2 models <-> the neutral scene (scene.h), for glTF export and import. The mapping, the units
// and the extras schema are documented in docs/mgs2-gltf.md.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/scene/scene.h"

namespace boneyard {
class TextureNames;
}

namespace boneyard::mgs2 {

// Metres per model unit. MGS2 models are in millimetres (docs/mgs2-gltf.md gives the evidence).
inline constexpr double kDefaultScale = 0.001;

struct Mgs2ExportOptions {
  double scale = kDefaultScale;
  const TextureNames* names = nullptr;  // material names from texture names instead of ids
};

// KMS: units are joints (rest = translation only), one skinned mesh per unit, one primitive per
// packet (strip vertices as they are, triangles decoded); envelope packets blend unit and parent.
Result<scene::Scene> kms_to_scene(const KmsFile& model, const Mgs2ExportOptions& options, Diagnostics& warnings);
// EVM: skeleton entries are joints, one skinned mesh, one primitive per packet, 4 influences.
Result<scene::Scene> evm_to_scene(const EvmFile& model, const Mgs2ExportOptions& options, Diagnostics& warnings);

// What the Master Collection draws of a model: the .cmdl's vertices and triangles (one primitive
// per record, the strip's winding restored) on the model's skeleton, with its materials and native
// extras (the scene extras say `"source": "cmdl"`). Weights: KMS from the strip vertex each OIDX
// names (own unit and parent), EVM from BONI/BONW through the record's bones. Records that leave
// their ranges are left out (warned); the validator names them.
Result<scene::Scene> cmdl_to_scene(const CmdlFile& cmdl, const KmsFile& model, const Mgs2ExportOptions& options,
                                   Diagnostics& warnings);
Result<scene::Scene> cmdl_to_scene(const CmdlFile& cmdl, const EvmFile& model, const Mgs2ExportOptions& options,
                                   Diagnostics& warnings);

struct Mgs2ImportOptions {
  std::optional<Layout> layout;          // default: the extras' layout, else the template's, else PS2
  std::optional<double> scale;           // default: the extras' scale, else kDefaultScale
  const KmsFile* kms_template = nullptr;  // header, units and packet fields to reuse
  const EvmFile* evm_template = nullptr;
  // Without extras or template, the header's texture group id is StrCode24 of this name (the
  // .tri usually shares the model's name; give the output's stem). Never 0: a PS2 KMS is told
  // from a Master Collection one by a non-zero id there.
  std::string model_name = "model";
  // EVM: how n_mats counts in every packet written; unset = the stored value of a packet that
  // comes back exactly, the spec's reading for the others.
  std::optional<NMatsReading> n_mats;
};

// A scene (read from glTF) back to a model file's bytes. Geometry comes from the glTF; native
// fields glTF has no place for come from extras (ours), else the template, else defaults.
// Unedited exports come back byte for byte. Warnings: weight moved by influence reduction,
// computed normals, zero UVs, skipped primitives.
Result<std::vector<std::uint8_t>> scene_to_kms(const scene::Scene& scene, const Mgs2ImportOptions& options,
                                               Diagnostics& warnings);
Result<std::vector<std::uint8_t>> scene_to_evm(const scene::Scene& scene, const Mgs2ImportOptions& options,
                                               Diagnostics& warnings);

// A scene read from glTF to .kms or .evm bytes (`ext`), as `convert` asks (the registry reads
// the --template model); `model_name` (the output's stem) names the texture group when nothing
// else does. n_mats is refused for a .kms. The result passes the validator without errors.
Result<std::vector<std::uint8_t>> scene_to_model(const scene::Scene& scene, std::string_view ext,
                                                 Mgs2ImportOptions options, std::string model_name,
                                                 Diagnostics& warnings);

}  // namespace boneyard::mgs2
