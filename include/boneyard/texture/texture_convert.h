// Textures to and from PNG: what `boneyard texture` does (the registry reads and writes the files,
// registry/texture_files.h), and what the model conversions use to embed a game texture as PNG. Inputs are recognised from their content (.dds, .ctxr, .png);
// outputs by their extension. docs/textures.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/texture/dds.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
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

// Why a texture cannot be converted to `output` with `options`: an extension other than .png,
// .dds or .ctxr, or --format, --cross or --no-mips for an output that has no use for it.
Status check_texture_output(const std::filesystem::path& output, const TextureConvertOptions& options);

// One file a texture conversion writes: where, and what goes in it.
struct TextureOutput {
  std::filesystem::path path;
  std::vector<std::uint8_t> bytes;  // a .dds or .ctxr, built and validated
  std::optional<Image> image;       // a .png, encoded as it is written
  std::vector<PngChunk> chunks;     // what the PNG keeps besides the image (CTXR fields, a PNG's own chunks)
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

}  // namespace boneyard::texture
