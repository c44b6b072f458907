// Textures to and from PNG: what `boneyard texture` does (the registry reads and writes the
// files, registry/texture_files.h), and what the model conversions use to embed a game texture as
// PNG. Inputs are recognised from their content (.dds, .ctxr, .png); outputs by their extension. docs/textures.md.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/limits.h"
#include "boneyard/texture/dds/dds.h"
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

// Why a texture cannot be converted to `output` with `options`: an extension other than .png,
// .dds or .ctxr, or --format, --cross or --no-mips for an output that has no use for it.
Status check_texture_output(const std::filesystem::path& output, const TextureConvertOptions& options);

// One file a texture conversion writes: where, and what goes in it.
struct TextureOutput {
  std::filesystem::path path;
  std::shared_ptr<const FileData> bytes;  // a .dds or .ctxr, built and validated
  std::function<Result<Image>()> image;   // a .png: decoded when its file is written (one image held at a time)
  std::vector<PngChunk> chunks;           // what the PNG keeps besides the image (CTXR fields, a PNG's own chunks)
};
// The files the texture `input` (`input_extension`, lower case with its dot, breaks ties) becomes
// as `output` (.png, .dds or .ctxr): one, or for a cube map to PNG its faces,
// OUTPUT_STEM_posx.png ... _negz.png beside `output` (one OUTPUT with `cross`). A .dds or .ctxr is
// read back and validated here; `notes` receives how it was made (a CTXR rebuilt byte for byte,
// ...). The registry writes them (registry/texture_files.h).
Result<std::vector<TextureOutput>> texture_outputs(std::shared_ptr<const FileData> input, std::string_view input_extension,
                                                   const std::filesystem::path& output,
                                                   const TextureConvertOptions& options, Diagnostics* notes = nullptr);
// Writes one output into `out`, a PNG encoded as it goes (its image is released).
Status write_texture_output(TextureOutput& output, ByteSink& out, const TextureConvertOptions& options);

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
