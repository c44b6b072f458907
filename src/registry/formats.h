// The registry's pieces behind document.h: one opener per file format (the table in
// registry.cpp lists them), the one glTF encoding every format's export goes through, and the
// files that conversions read besides their input.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/limits.h"
#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/registry/document.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/scene/scene.h"
#include "boneyard/texture/texture_convert.h"
#include "boneyard/xray/xray_scene.h"

namespace boneyard::registry {

using Opened = Result<std::unique_ptr<Document>>;

Opened open_omf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_ogf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_object(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_bones(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_skl(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_skls(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_anm(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_kms(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_evm(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_cmdl(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_dds(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_ctxr(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_gltf(Bytes bytes, std::string_view extension);
Opened open_gltf(std::shared_ptr<const FileData> file, const OpenOptions& options);

// Textures decoded once per file and shared by every model that uses them (a batch, or one
// conversion); safe to use from several threads. Counted in decoded bytes (width x height x 4,
// or the PNG's own size when larger), it holds at most kCacheBytes; and the threads together
// decode at most kDecodingBytes at a time (a thread waits for the others' textures to be done), so
// a batch's textures take the same memory whatever its -j (docs/safety.md).
class TextureCache {
 public:
  static constexpr std::uint64_t kCacheBytes = kMaxTextureBytes;
  static constexpr std::uint64_t kDecodingBytes = kMaxTextureBytes;
  Result<std::shared_ptr<const texture::PngTexture>> get(const std::filesystem::path& file);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const texture::PngTexture>> entries_;
  std::uint64_t bytes_ = 0;  // decoded bytes of the entries
  texture::DecodeBudget decoding_{kDecodingBytes};
};

// Finds each material's texture under `root` (X-Ray: its path with .dds, else .png, each part
// matched ignoring case; MGS2: the .ctxr, .dds or .png whose "<stem>.bmp" has the material's
// StrCode24 id), decodes it to PNG and attaches it as the material's image, with the alpha mode
// its shader and its alpha give. A texture that is missing or unreadable is one warning naming
// it; the material stays untextured. Nothing happens when `root` is empty.
void attach_textures(scene::Scene& scene, const std::filesystem::path& root, Diagnostics& warnings,
                     TextureCache* cache = nullptr);

// The files that options name (--skeleton, --template), each opened once per request: the option
// check looks at a template's format, and the conversion reads the same bytes.
class OptionFiles {
 public:
  Result<std::shared_ptr<const FileData>> open(const std::filesystem::path& path);

 private:
  std::vector<std::pair<std::filesystem::path, Result<std::shared_ptr<const FileData>>>> opened_;
};
// `path` through the request's OptionFiles, or opened directly for a Document converted without
// one (convert_in_memory).
Result<std::shared_ptr<const FileData>> open_option_file(const ConvertOptions& options, const std::filesystem::path& path);

// ---- X-Ray files (xray_files.cpp) ----

// An .ogf's scene with its motion refs looked up under `meshes_root` (empty: the nearest "meshes"
// folder above options.input) or taken from `resolved` (one per ref: a batch looked them up),
// their files read, and handed to xray::ogf_to_scene.
Result<scene::Scene> xray_model_scene(const xray::OgfFile& ogf, xray::XrayExportOptions options,
                                      const std::filesystem::path& meshes_root,
                                      const std::vector<ResolvedMotionRef>* resolved, Diagnostics& warnings,
                                      std::vector<std::filesystem::path>* used_omfs = nullptr);
// .ogf -> .object (converter.exe's conversion) for `convert`: --game picks the smoothing style and
// the refs chunk, --bones the bone data (sdk_documents.cpp).
Result<std::vector<std::uint8_t>> object_from_ogf(const xray::OgfFile& ogf, const ConvertOptions& options,
                                                  Diagnostics& warnings);
// A written .ogf or .object with the --bones file's data applied to its bones (nothing without
// --bones).
Result<std::vector<std::uint8_t>> with_bones_option(Result<std::vector<std::uint8_t>> model, const ConvertOptions& options,
                                                    Diagnostics& warnings);

// Where an X-Ray model's textures are: --textures, else the "textures" folder beside the model's
// "meshes" ancestor.
std::filesystem::path xray_textures_root(const ConvertOptions& options);

// A converted scene as `ext` (".glb", or ".gltf" with its .bin as a side file), streamed into
// `out`, after the adapter's warnings went to options.warnings. A .gltf's images are written
// beside it as <name>.png side files; a .glb embeds them.
Status encode_gltf(Result<scene::Scene>& scene, Diagnostics& adapter_warnings, std::string_view ext,
                   const ConvertOptions& options, ConvertOutputs& out);

// Writes a conversion that produced its bytes whole (the lossless rewrites, glTF imports).
Status write_converted(const Result<std::vector<std::uint8_t>>& bytes, ConvertOutputs& out);

// The native models behind Documents (nullptr when `d` is another kind), for pairs of files.
const mgs2::KmsFile* kms_model_of(const Document& d);
const mgs2::EvmFile* evm_model_of(const Document& d);
const mgs2::CmdlFile* cmdl_model_of(const Document& d);

// A .kms/.evm conversion's bytes into `out`, and, when they are a Master Collection model, its
// .cmdl as a side file (cmdl_output.cpp): at options.settings.cmdl or _win/<stem>.cmdl beside the
// output, unless --no-cmdl. The .cmdl of `template_model` (found the same way: --template for a
// glTF import, the input for a rewrite), when there is one, gives what the model does not
// determine. --cmdl / --no-cmdl for a PS2 output is a usage error.
Status write_mgs2_model(const Result<std::vector<std::uint8_t>>& bytes, std::string_view ext, const ConvertOptions& options,
                        const std::filesystem::path& template_model, ConvertOutputs& out);
// --n-mats as the MGS2 library takes it (nullopt when not given); an unknown word is an error
// naming the option.
Result<std::optional<mgs2::NMatsReading>> n_mats_option(const ConvertSettings& settings);
// The .cmdl a Master Collection model at `model` has: _win/<stem>.cmdl beside it.
std::filesystem::path cmdl_beside(const std::filesystem::path& model);

// True for ".glb" and ".gltf".
bool is_gltf_extension(std::string_view ext);

}  // namespace boneyard::registry
