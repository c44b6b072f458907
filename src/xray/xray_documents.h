// X-Ray formats as Documents for the format table (src/document.cpp).
#pragma once

#include <memory>
#include <string_view>

#include "boneyard/document.h"
#include "boneyard/omf.h"
#include "boneyard/scene.h"

namespace boneyard::xray {

int sniff_omf(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_omf_document(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_ogf(Bytes bytes, std::string_view extension);
Result<std::unique_ptr<Document>> open_ogf_document(std::shared_ptr<const FileData> file, const OpenOptions& options);
// glTF input (the Document itself is in src/document.cpp, shared by both games).
int sniff_gltf(Bytes bytes, std::string_view extension);
// A scene read from glTF (with the reader's warnings) to .omf bytes: --skeleton, --template, --hq.
// Error when it has no animations.
Result<std::vector<std::uint8_t>> gltf_scene_to_omf(const scene::Scene& scene, const Diagnostics& read_warnings,
                                                    const ConvertOptions& options);

// glTF export for Document::convert (ogf_document.cpp): .glb bytes, or .gltf JSON with its .bin
// handed to options.side_files.
Result<std::vector<std::uint8_t>> gltf_bytes(const scene::Scene& scene, std::string_view ext,
                                             const ConvertOptions& options);
// An .omf's motions on options.skeleton (or a flat armature) as .glb/.gltf bytes.
Result<std::vector<std::uint8_t>> omf_to_gltf(const OmfFile& file, std::string_view ext,
                                              const ConvertOptions& options);

}  // namespace boneyard::xray
