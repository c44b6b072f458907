// A file of any supported format, recognised by its content. This is the registry (src/registry):
// the single place where the CLI meets the formats and where formats meet glTF, and the only one
// that opens files. It opens a Document and asks it for info, a dump, findings or converted bytes;
// `boneyard convert` is a request (registry/convert_request.h) that runs its steps.
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
#include "boneyard/registry/convert_options.h"
#include "boneyard/registry/output_plan.h"

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

namespace registry {
class TextureCache;  // formats.h
class OptionFiles;   // formats.h
}  // namespace registry
struct ResolvedMotionRef;  // registry/xray_files.h

// What `boneyard convert` asks: where from and to, and the values of the option table
// (registry/convert_options.h), which the Documents that read them give meaning to.
struct ConvertOptions {
  std::filesystem::path input;      // the file being converted, "" for bytes (X-Ray motion refs and textures are found from it)
  std::filesystem::path output;     // where the result goes (its extension is the format; a .gltf names its .bin after it)
  ConvertSettings settings;         // the options' values
  OptionSet given;                  // the options the user gave (the CLI's flags, Python's keywords that are not None)
  Diagnostics* warnings = nullptr;  // conversion warnings (missing refs, moved weights, ...)
  // A batch sets these for its conversions (batch.cpp); a single conversion leaves them.
  registry::TextureCache* texture_cache = nullptr;              // textures decoded once for every model
  const std::vector<ResolvedMotionRef>* motion_refs = nullptr;  // the .ogf's motion refs, already looked up
  bool make_folders = false;  // the output's missing folders are made once it is written (not before)
  // The files options name (--skeleton, --template), opened once per request (convert_request).
  registry::OptionFiles* option_files = nullptr;
  // What the request reads and writes (convert_request): every output is planned and checked
  // against it before anything is put in place. Without one, a conversion checks its own outputs.
  OutputPlan* plan = nullptr;
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

class Document {
 public:
  virtual ~Document() = default;
  // "omf", "ogf", "skl", "skls", "anm", "gltf", "kms", "evm", "cmdl", "dds", "ctxr"
  virtual std::string_view format() const = 0;
  // Human-readable summary for `boneyard info`.
  virtual std::string info() const = 0;
  // The documented JSON dump (docs/json-schema.md).
  virtual void dump(JsonWriter& out, const DumpOptions& options) const = 0;
  // The files besides its own that the document was read from (a .gltf's buffers and images):
  // no output of a conversion may replace them.
  virtual std::vector<std::filesystem::path> files_read() const { return {}; }
  // Every finding: those met while reading, then the validator's.
  virtual Diagnostics validate() const = 0;
  // The validation errors that stop `convert` to `target_extension` (unless --force): every
  // error by default. A format leaves out errors its conversion handles itself (an OGF's broken
  // meshes with --keep-going, which the glTF export leaves out with a warning).
  virtual std::vector<Finding> conversion_blockers(std::string_view target_extension,
                                                   const ConvertOptions& options) const;
  // Output extensions (lower case, with dot) that convert() can produce from this document.
  virtual std::vector<std::string> convert_targets() const = 0;
  // Why the options given do not fit the conversion to `target_extension`, beyond what the option
  // table says of it (convert_request checks that an option is read at all first): a --template
  // of another format, --cmdl for a PS2 output. A usage error (Finding::usage, exit 2), not a
  // finding in the file. None by default.
  virtual Status check_convert_options(std::string_view target_extension, const OptionSet& given,
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

// The format ("omf", "ogf", "skl", "skls", "anm", "gltf", "kms", "evm", "cmdl", "dds", "ctxr") the bytes look like, or "" when none.
std::string_view detect_format(Bytes bytes, std::string_view file_name);

// Recognises the format from the bytes (the extension only breaks ties) and parses it.
// Errors: not a supported format, or the file cannot be parsed.
Result<std::unique_ptr<Document>> open_document(std::shared_ptr<const FileData> file, std::string_view file_name,
                                                const OpenOptions& options);

}  // namespace boneyard
