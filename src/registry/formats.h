// The registry's pieces behind document.h: one opener per file format (the table in
// registry.cpp lists them) and the one glTF encoding every format's export goes through.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "boneyard/cmdl.h"
#include "boneyard/document.h"
#include "boneyard/scene.h"

namespace boneyard::registry {

using Opened = Result<std::unique_ptr<Document>>;

Opened open_omf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_ogf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_kms(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_evm(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_cmdl(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_gltf(Bytes bytes, std::string_view extension);
Opened open_gltf(std::shared_ptr<const FileData> file, const OpenOptions& options);

// A converted scene as `ext` (".glb", or ".gltf" with its .bin as a side file), streamed into
// `out`, after the adapter's warnings went to options.warnings.
Status encode_gltf(const Result<scene::Scene>& scene, Diagnostics& adapter_warnings, std::string_view ext,
                   const ConvertOptions& options, ConvertOutputs& out);

// Writes a conversion that produced its bytes whole (the lossless rewrites, glTF imports).
Status write_converted(const Result<std::vector<std::uint8_t>>& bytes, ConvertOutputs& out);

// The native models behind Documents (nullptr when `d` is another kind), for pairs of files.
const mgs2::KmsModel* kms_model_of(const Document& d);
const mgs2::EvmModel* evm_model_of(const Document& d);
const mgs2::CmdlModel* cmdl_model_of(const Document& d);

// A .kms/.evm conversion's bytes into `out`, and, when they are a Master Collection model, its
// .cmdl as a side file (cmdl_output.cpp): at options.mgs2.cmdl or _win/<stem>.cmdl beside the
// output, unless --no-cmdl. The .cmdl of `template_model` (found the same way: --template for a
// glTF import, the input for a rewrite), when there is one, gives what the model does not
// determine. --cmdl / --no-cmdl for a PS2 output is a usage error.
Status write_mgs2_model(const Result<std::vector<std::uint8_t>>& bytes, std::string_view ext, const ConvertOptions& options,
                        const std::filesystem::path& template_model, ConvertOutputs& out);
// The .cmdl a Master Collection model at `model` has: _win/<stem>.cmdl beside it.
std::filesystem::path cmdl_beside(const std::filesystem::path& model);

// True for ".glb" and ".gltf".
bool is_gltf_extension(std::string_view ext);

}  // namespace boneyard::registry
