// The registry's pieces behind document.h: one opener per file format (the table in
// registry.cpp lists them) and the one glTF encoding every format's export goes through.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "boneyard/document.h"
#include "boneyard/scene.h"

namespace boneyard::registry {

using Opened = Result<std::unique_ptr<Document>>;

Opened open_omf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_ogf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_kms(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_evm(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_gltf(Bytes bytes, std::string_view extension);
Opened open_gltf(std::shared_ptr<const FileData> file, const OpenOptions& options);

// A converted scene as `ext` (".glb", or ".gltf" with its .bin as a side file), streamed into
// `out`, after the adapter's warnings went to options.warnings.
Status encode_gltf(const Result<scene::Scene>& scene, Diagnostics& adapter_warnings, std::string_view ext,
                   const ConvertOptions& options, ConvertOutputs& out);

// Writes a conversion that produced its bytes whole (the lossless rewrites, glTF imports).
Status write_converted(const Result<std::vector<std::uint8_t>>& bytes, ConvertOutputs& out);

// True for ".glb" and ".gltf".
bool is_gltf_extension(std::string_view ext);

}  // namespace boneyard::registry
