// A file of any supported format, recognised by its content. This is the registry (src/registry):
// the single place where the CLI meets the formats and where formats meet glTF. It opens a
// Document and asks it for info, a dump, findings or converted bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/mgs2_options.h"
#include "boneyard/xray/xray_options.h"

namespace boneyard {

class TextureNames;  // strcode.h

struct OpenOptions {
  std::string layout;                    // MGS2: "" (detect), "ps2" or "mc"
  const TextureNames* names = nullptr;   // MGS2: StrCode24 id -> texture name
  std::string file_name;                 // set by open_document (a .gltf resolves its buffers from it)
  bool allow_outside_uris = false;       // glTF: read buffer URIs outside the .gltf's folder
};

struct DumpOptions {
  bool raw = false;  // add stored integers, sizes, CRCs
  const TextureNames* names = nullptr;
};

// What `boneyard convert` asks: where from and to, and each format family's own options (a new
// option goes into its family's struct and the CLI; the registry only passes them on).
struct ConvertOptions {
  std::filesystem::path input;      // the file being converted (X-Ray motion refs are found from it)
  std::filesystem::path output;     // where the result goes (a .gltf names its .bin after it)
  xray::ConvertOptions xray;        // --skeleton, --meshes, --textures, --keep-going, --template, --hq
  mgs2::ConvertOptions mgs2;        // --layout, --scale, --template, --textures, --n-mats, --cmdl, --no-cmdl, --skeleton (.cmdl)
  Diagnostics* warnings = nullptr;  // conversion warnings (missing refs, moved weights, ...)
};

// Where a conversion writes: its own file, streamed, and files beside it (a .gltf's .bin). What
// is written becomes visible only when the whole conversion succeeded (convert_to_files).
class ConvertOutputs {
 public:
  virtual ~ConvertOutputs() = default;
  virtual ByteSink& main() = 0;
  // A further file of the output (the .bin a .gltf names).
  virtual Result<ByteSink*> side_file(const std::filesystem::path& path) = 0;
};

// The options of `boneyard convert` as bits, so that each conversion can say which it reads. An
// option that the chosen conversion would ignore is a usage error (nothing asked for is dropped
// silently). Open options (--input-layout, --names) count too: they change what is converted.
enum ConvertOption : unsigned {
  kOptLayout = 1u << 0,       // --layout: MGS2 target layout
  kOptInputLayout = 1u << 1,  // --input-layout: MGS2 input layout (OpenOptions::layout)
  kOptSkeleton = 1u << 2,     // --skeleton
  kOptMeshes = 1u << 3,       // --meshes
  kOptTextures = 1u << 4,     // --textures
  kOptKeepGoing = 1u << 5,    // --keep-going
  kOptTemplate = 1u << 6,     // --template
  kOptScale = 1u << 7,        // --scale
  kOptHq = 1u << 8,           // --hq
  kOptNames = 1u << 9,        // --names (OpenOptions::names)
  kOptNMats = 1u << 10,       // --n-mats: MGS2 .evm n_mats reading
  kOptFloatRotations = 1u << 11,  // --float-rotations: X-Ray to glTF
  kOptMotions = 1u << 12,         // --motions GLOB: X-Ray to glTF
  kOptCmdl = 1u << 13,            // --cmdl: where a Master Collection model's .cmdl goes
  kOptNoCmdl = 1u << 14,          // --no-cmdl: no .cmdl beside a Master Collection model
};
inline constexpr unsigned kOptLast = kOptNoCmdl;
// The CLI spelling of one ConvertOption bit ("--layout").
std::string_view convert_option_name(unsigned option);
// "--template, --layout, --scale": the options among `options`, or "none".
std::string convert_option_list(unsigned options);

class Document {
 public:
  virtual ~Document() = default;
  virtual std::string_view format() const = 0;  // "omf", "ogf", "gltf", "kms", "evm", "cmdl", "dds", "ctxr"
  // Human-readable summary for `boneyard info`.
  virtual std::string info() const = 0;
  // The documented JSON dump (docs/json-schema.md).
  virtual void dump(JsonWriter& out, const DumpOptions& options) const = 0;
  // Every finding: those met while reading, then the validator's.
  virtual Diagnostics validate() const = 0;
  // The validation errors that stop `convert` to `target_extension` (unless --force): every
  // error by default. A format leaves out errors its conversion handles itself (an OGF's broken
  // meshes with --keep-going, which the glTF export leaves out with a warning).
  virtual std::vector<Finding> conversion_blockers(std::string_view target_extension,
                                                   const ConvertOptions& options) const;
  // Output extensions (lower case, with dot) that convert() can produce from this document.
  virtual std::vector<std::string> convert_targets() const = 0;
  // The ConvertOption bits that the conversion to `target_extension` reads.
  virtual unsigned convert_options(std::string_view target_extension) const = 0;
  // Why options the user gave (`given`, ConvertOption bits) do not fit the conversion to
  // `target_extension`: an option it would ignore, or a --template of another format. Checked
  // before convert(); a usage error (Finding::usage, exit 2), not a finding in the file.
  virtual Status check_convert_options(std::string_view target_extension, unsigned given,
                                       const ConvertOptions& options) const;
  // Writes the converted file (and its side files) into `out`, or says why not. Callers use
  // convert_to_files or convert_in_memory below.
  virtual Status convert(std::string_view target_extension, const ConvertOptions& options,
                         ConvertOutputs& out) const = 0;
};

// A conversion held in memory (the view page, tests): the file and its side files.
struct ConvertedFiles {
  std::vector<std::uint8_t> main;
  std::vector<std::pair<std::filesystem::path, std::vector<std::uint8_t>>> side_files;
};
Result<ConvertedFiles> convert_in_memory(const Document& document, std::string_view target_extension,
                                         const ConvertOptions& options);

// Streams the conversion to `options.output` and its side files through temporary files, then
// renames the side files into place and the output last, so the output never names a missing
// file. On failure or interruption nothing is left: temporary files are removed, and side files
// already renamed are removed again (the error says so).
Status convert_to_files(const Document& document, std::string_view target_extension, const ConvertOptions& options);

// Where a model and its companion file disagree, the way the game reads the two together: a
// Master Collection .kms or .evm and its .cmdl (mgs2::check_cmdl_pair), in either order. The
// findings are about the .cmdl (its offsets). Usage error when the two are not such a pair.
Result<Diagnostics> validate_pair(const Document& model, const Document& companion);

// The format ("omf", "ogf", "gltf", "kms", "evm", "cmdl", "dds", "ctxr") the bytes look like, or "" when none.
std::string_view detect_format(Bytes bytes, std::string_view file_name);

// Recognises the format from the bytes (the extension only breaks ties) and parses it.
// Errors: not a supported format, or the file cannot be parsed.
Result<std::unique_ptr<Document>> open_document(std::shared_ptr<const FileData> file, std::string_view file_name,
                                                const OpenOptions& options);

}  // namespace boneyard
