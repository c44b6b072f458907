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
#include "boneyard/mgs2/mar/mar.h"
#include "boneyard/registry/document.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/scene/scene.h"
#include "boneyard/texture/texture_convert.h"
#include "boneyard/xray/motion_skeleton.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/texture/tri/tri.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/xray_scene.h"

namespace boneyard::registry {

using Opened = Result<std::unique_ptr<Document>>;

Opened open_omf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_ogf(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_skl(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_skls(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_anm(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_object(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_bones(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_ogf_v3(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_kms(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_evm(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_cmdl(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_mar(std::shared_ptr<const FileData> file, const OpenOptions& options);
int sniff_mc_index_file(Bytes bytes, std::string_view extension);
Opened open_mc_index(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_dds(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_ctxr(std::shared_ptr<const FileData> file, const OpenOptions& options);
Opened open_tri(std::shared_ptr<const FileData> file, const OpenOptions& options);
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
  // Entry `entry` of the .tri `tri` read from `file`, its PS2 alpha scaled to 0..255 (0x80 opaque).
  Result<std::shared_ptr<const texture::PngTexture>> get_tri(const std::filesystem::path& file, const texture::TriFile& tri,
                                                             std::size_t entry);

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const texture::PngTexture>> entries_;
  std::uint64_t bytes_ = 0;  // decoded bytes of the entries
  texture::DecodeBudget decoding_{kDecodingBytes};
  Result<std::shared_ptr<const texture::PngTexture>> keep(const std::string& key, texture::PngTexture png);
};

// Finds each material's texture under `root` (X-Ray: its path with .dds, else .png, each part
// matched ignoring case; MGS2: the .ctxr, .dds or .png whose name gives the material's id
// (index_mgs2_texture_files), else the first entry with that id in the .tri files `tris`, in their order),
// decodes it to PNG and attaches it as the material's image, with the alpha mode its shader and
// its alpha give. A texture that is missing or unreadable is one warning naming it; the material
// stays untextured. Nothing happens when `root` is empty and there are no `tris`.
void attach_textures(scene::Scene& scene, const std::filesystem::path& root, Diagnostics& warnings,
                     TextureCache* cache = nullptr, const std::vector<std::filesystem::path>& tris = {});
// MGS2: the texture files under `root` (and its subfolders) whose extension is one of `extensions`
// (lower case, in order of preference), by the ids their names give (mgs2::parse_texture_file_name:
// a name of hex digits is its id; "<name>.bmp.ctxr", "<name>.bmp_<md5>.ctxr", "<name>.png" hash as
// "<name>.bmp" and as "<name>"). Of several files claiming one id, the first by: the id stated
// before a hashed name, the extension's order, a name without "_<md5>" before one with it, the
// path below `root` ignoring case, then as spelt. `others` counts the claimants with another name
// (or form), `next` the first of them: the lookup says when it chose.
struct Mgs2TextureFile {
  std::filesystem::path path;
  std::filesystem::path next;
  std::size_t others = 0;
};
class Mgs2TextureIndex {
 public:
  Mgs2TextureIndex(const std::filesystem::path& root, const std::vector<std::string_view>& extensions);
  std::optional<Mgs2TextureFile> find(std::uint32_t id) const;

 private:
  // One file: a folder such as the game's flatlist holds 24,000; each is stored once (about 100
  // bytes), its one or two ids in a sorted array, its place among a group's claimants decided on
  // demand (groups of more than one are rare).
  struct File {
    std::filesystem::path path;
    std::size_t name_hash = 0;  // the name, lower case (the same texture in another format)
    std::uint8_t stated = 0, format = 0, variant = 0;
  };
  bool before(std::uint32_t a, std::uint32_t b) const;
  std::filesystem::path root_;
  std::vector<File> files_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> claims_;  // (id, file), by id, then the rule
};
// MGS2: the .tri files a model's textures are looked up in: those beside `model` and those under
// `textures_root` (with its subfolders), the model's own first: the one whose stem's StrCode24
// (or a stem of 8 hex digits) is the model's texture group id `tri_id`, then the one with the
// model's stem, each beside the model before under the root; then the rest by name, beside the
// model first. `model` may be empty (bytes converted in memory).
std::vector<std::filesystem::path> mgs2_tri_files(const std::filesystem::path& model, std::uint32_t tri_id,
                                                  const std::filesystem::path& textures_root);

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

// ---- The SDK's motions (sdk_motion_documents.cpp) ----

// The model --skeleton names (an .ogf, or an .object) and the skeleton motions use from it.
struct SkeletonModel {
  std::optional<xray::OgfFile> ogf;
  std::optional<xray::ObjectFile> object;
  xray::MotionSkeleton skeleton;
};
Result<SkeletonModel> read_skeleton_model(const ConvertOptions& options);
// An .omf's motions as a .skls or .skl (`ext`), read back and validated; --skeleton .object takes
// the root bones out of its ACTORTRANSFORM.
Result<std::vector<std::uint8_t>> omf_to_skl_bytes(const xray::MotionSet& set, std::string_view ext,
                                                   const ConvertOptions& options, Diagnostics& warnings);
// A glTF scene's animations as a .skls or .skl, and as an .anm.
Result<std::vector<std::uint8_t>> scene_to_skl_bytes(const scene::Scene& scene, std::string_view ext,
                                                     const ConvertOptions& options, Diagnostics& warnings);
Result<std::vector<std::uint8_t>> scene_to_anm_bytes(const scene::Scene& scene, Diagnostics& warnings);

// ---- X-Ray files (xray_files.cpp) ----

// An .ogf's scene with its motion refs looked up under `meshes_root` (empty: the nearest "meshes"
// folder above options.input) or taken from `resolved` (one per ref: a batch looked them up),
// their files read, and handed to xray::ogf_to_scene.
Result<scene::Scene> xray_model_scene(const xray::OgfFile& ogf, xray::XrayExportOptions options,
                                      const std::filesystem::path& meshes_root,
                                      const std::vector<ResolvedMotionRef>* resolved, Diagnostics& warnings,
                                      std::vector<std::filesystem::path>* used_omfs = nullptr);
// The same for an OGF v3 model (xray::ogf_v3_to_scene).
Result<scene::Scene> xray_v3_model_scene(const xray::OgfV3File& ogf, xray::XrayExportOptions options,
                                         const std::filesystem::path& meshes_root,
                                         const std::vector<ResolvedMotionRef>* resolved, Diagnostics& warnings);
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

// Several whole files written together: each through a temporary file (missing folders made), all
// renamed into place only once every one was written and `plan` (which gets them as writes) still
// holds; on failure none stays, nor the folders made for them.
Status write_files_together(const std::vector<std::pair<std::filesystem::path, std::vector<std::uint8_t>>>& files,
                            OutputPlan& plan);

// Writes a conversion that produced its bytes whole (the lossless rewrites, glTF imports).
Status write_converted(const Result<std::vector<std::uint8_t>>& bytes, ConvertOutputs& out);

// The native models behind Documents (nullptr when `d` is another kind), for pairs of files.
const mgs2::KmsFile* kms_model_of(const Document& d);
const mgs2::EvmFile* evm_model_of(const Document& d);
const mgs2::CmdlFile* cmdl_model_of(const Document& d);
const mgs2::MarFile* mar_model_of(const Document& d);

// The motions of --mar (options.settings.mar; nothing when it is not given) as animations of a
// model's scene, at the model's `scale` (mar_document.cpp). The .mar's validation errors stop the
// conversion unless --force, which leaves the motions out that do not decode (warned).
Status add_model_motions(scene::Scene& scene, double scale, const ConvertOptions& options, const TextureNames* names,
                         Diagnostics& warnings);

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
// The .cmdl a Master Collection model at `model` has: _win/<stem>.cmdl beside it, the folder and
// the name found in any case (spelt as stored) as on Windows; else _win/<stem>.cmdl in a "_win"
// folder of any case, else in "_win".
std::filesystem::path cmdl_beside(const std::filesystem::path& model);

// True for ".glb" and ".gltf".
bool is_gltf_extension(std::string_view ext);

}  // namespace boneyard::registry
