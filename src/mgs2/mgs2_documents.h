// MGS2 formats as Documents for the format table (src/document.cpp).
#pragma once

#include <memory>
#include <string_view>

#include "boneyard/document.h"
#include "boneyard/scene.h"

namespace boneyard::mgs2 {

int sniff_kms(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_kms_document(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_evm(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_evm_document(std::shared_ptr<const FileData> file, const OpenOptions& options);

// glTF (.glb, or .gltf with its .bin in options.side_files) of a model (mgs2_gltf.cpp).
struct KmsModel;
struct EvmModel;
Result<std::vector<std::uint8_t>> kms_to_gltf(const KmsModel& m, const TextureNames* names, std::string_view ext,
                                              const ConvertOptions& options);
Result<std::vector<std::uint8_t>> evm_to_gltf(const EvmModel& m, const TextureNames* names, std::string_view ext,
                                              const ConvertOptions& options);
// A scene read from glTF to a .kms or .evm (ext), with --template, --layout and --scale; the
// result passes the validator without errors.
Result<std::vector<std::uint8_t>> scene_to_model(const scene::Scene& scene, std::string_view ext,
                                                 const ConvertOptions& options);

}  // namespace boneyard::mgs2
