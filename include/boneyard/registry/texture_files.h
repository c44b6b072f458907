// Texture files to and from PNG, as `boneyard texture` converts them: the texture layer makes the
// outputs from the input's bytes (texture/texture_convert.h); the registry reads the input and
// writes the outputs (docs/textures.md).
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/texture/texture_convert.h"

namespace boneyard {

// Converts the texture file `input` to `output` (.png, .dds or .ctxr). A cube map to PNG writes
// OUTPUT_STEM_posx.png ... _negz.png beside `output` (one OUTPUT with `cross`). Every output is
// written through a temporary file and renamed only when all of them succeeded; a .dds or .ctxr
// is read back and validated before it replaces anything. `written` receives the files written,
// `notes` how they were made (a CTXR rebuilt byte for byte, ...).
Status convert_texture(const std::filesystem::path& input, const std::filesystem::path& output,
                       const texture::TextureConvertOptions& options,
                       std::vector<std::filesystem::path>* written = nullptr, Diagnostics* notes = nullptr);

// Several inputs (files, or folders searched for .dds and .ctxr) into the folder `output_dir`:
// each file becomes OUTPUT_DIR/<path below its folder argument>/<stem>.<extension>. Runs on
// `threads` threads (0: all cores), which decode at most kMaxTextureBytes at a time together
// (texture::DecodeBudget); a failure fails only its file. `progress` is called once per
// finished file, never concurrently.
struct TextureBatchItem {
  std::filesystem::path input, output;
  Status status;
  Diagnostics notes;
};
std::vector<TextureBatchItem> convert_textures(const std::vector<std::filesystem::path>& inputs,
                                               const std::filesystem::path& output_dir, std::string_view extension,
                                               const texture::TextureConvertOptions& options, unsigned threads,
                                               const std::function<void(const TextureBatchItem&)>& progress = {});

}  // namespace boneyard
