// Texture files to and from PNG: what `boneyard texture` does, and what the model conversions use
// to embed a game texture as PNG. Inputs are recognised from their content (.dds, .ctxr, .png);
// outputs by their extension. docs/textures.md.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/limits.h"
#include "boneyard/texture/dds.h"
#include "boneyard/texture/texture.h"

namespace boneyard::texture {

enum class TextureKind : std::uint8_t { dds, ctxr, png };
// The kind the bytes are (the extension, lower case with its dot, only breaks ties); nullopt for
// anything else.
std::optional<TextureKind> detect_texture(Bytes bytes, std::string_view extension);
std::string_view texture_kind_name(TextureKind kind);  // "dds", "ctxr", "png"

struct TextureConvertOptions {
  unsigned mip = 0;         // --mip N: the level written as PNG (0 = the full-size image)
  bool cross = false;       // --cross: a cube map as one 4x3 cross instead of six files
  DdsOutputFormat format = DdsOutputFormat::automatic;  // --format, for .dds outputs
  bool format_given = false;  // --format was given (an error unless the output is a .dds)
  bool mips = true;         // --no-mips clears it: .dds/.ctxr outputs with one level
  int png_level = kPngCompressionLevel;
};

// Decoded bytes that several threads hold at once, shared by them: acquire(n) waits until n more
// fit in the budget (a request of the whole budget or more waits until nothing else is held, so
// every request is served). A batch decodes its textures through one, so that its memory does not
// grow with its number of threads.
class DecodeBudget {
 public:
  explicit DecodeBudget(std::uint64_t bytes = kMaxTextureBytes) : limit_(bytes) {}
  class Hold {
   public:
    Hold(DecodeBudget* budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) {}
    Hold(Hold&& o) noexcept : budget_(std::exchange(o.budget_, nullptr)), bytes_(o.bytes_) {}
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;
    Hold& operator=(Hold&&) = delete;
    ~Hold();

   private:
    DecodeBudget* budget_;
    std::uint64_t bytes_;
  };
  Hold acquire(std::uint64_t bytes);

 private:
  std::uint64_t limit_, held_ = 0;
  std::mutex mutex_;
  std::condition_variable released_;
};

// Converts the texture file `input` to `output` (.png, .dds or .ctxr). A cube map to PNG writes
// OUTPUT_STEM_posx.png ... _negz.png beside `output` (one OUTPUT with `cross`). Every output is
// written through a temporary file and renamed only when all of them succeeded; a .dds or .ctxr
// is read back and validated before it replaces anything. `written` receives the files written,
// `notes` how they were made (a CTXR rebuilt byte for byte, ...).
Status convert_texture(const std::filesystem::path& input, const std::filesystem::path& output,
                       const TextureConvertOptions& options, std::vector<std::filesystem::path>* written = nullptr,
                       Diagnostics* notes = nullptr);

// Several inputs (files, or folders searched for .dds and .ctxr) into the folder `output_dir`:
// each file becomes OUTPUT_DIR/<path below its folder argument>/<stem>.<extension>. Runs on
// `threads` threads (0: all cores), which decode at most kMaxTextureBytes at a time together
// (DecodeBudget); a failure fails only its file. `progress` is called once per
// finished file, never concurrently.
struct TextureBatchItem {
  std::filesystem::path input, output;
  Status status;
  Diagnostics notes;
};
std::vector<TextureBatchItem> convert_textures(const std::vector<std::filesystem::path>& inputs,
                                               const std::filesystem::path& output_dir, std::string_view extension,
                                               const TextureConvertOptions& options, unsigned threads,
                                               const std::function<void(const TextureBatchItem&)>& progress = {});

// A texture as a PNG ready to embed in a model: the top level of a .dds or .ctxr encoded at the
// default level, or a .png's own bytes (checked by decoding them).
struct PngTexture {
  std::vector<std::uint8_t> png;
  std::uint32_t width = 0, height = 0;
  AlphaKind alpha = AlphaKind::opaque;
  TextureKind source = TextureKind::png;
};
Result<PngTexture> texture_as_png(Bytes bytes, std::string_view extension);
// The bytes texture_as_png decodes `bytes` to (its top level, width x height x 4), from the header
// alone; 0 when there is no readable header. A caller can wait for memory before decoding.
std::uint64_t texture_decoded_bytes(Bytes bytes, std::string_view extension);

}  // namespace boneyard::texture
