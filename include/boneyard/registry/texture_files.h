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

struct TriToPngOptions;  // registry/tri_files.h

// Converts the texture file `input` to `output` (.png, .dds or .ctxr). A cube map to PNG writes
// OUTPUT_STEM_posx.png ... _negz.png beside `output` (one OUTPUT with `cross`). Every output is
// written through a temporary file and renamed only when all of them succeeded; a .dds or .ctxr
// is read back and validated before it replaces anything. `written` receives the files written,
// `notes` how they were made (a CTXR rebuilt byte for byte, ...).
Status convert_texture(const std::filesystem::path& input, const std::filesystem::path& output,
                       const texture::TextureConvertOptions& options,
                       std::vector<std::filesystem::path>* written = nullptr, Diagnostics* notes = nullptr);

// Several inputs (files, or folders searched for .dds and .ctxr, and to PNG for MGS2 .tri) into
// the folder `output_dir`: each file becomes OUTPUT_DIR/<path below its folder argument>/<stem>.<extension>,
// and each .tri the folder OUTPUT_DIR/<path below its folder argument>/<stem>/ with a PNG per
// texture, named and written as convert_tri_to_pngs does with `tri` (nullptr: raw alpha, named by
// id), one item per texture. Runs on
// `threads` threads (0: all cores), which decode at most kMaxTextureBytes at a time together
// (texture::DecodeBudget); a failure fails only its file. `progress` is called once per
// finished file, never concurrently.
struct TextureBatchItem {
  std::filesystem::path input, output;
  Status status;
  Diagnostics notes;
};
// Outputs are planned before anything is written (registry/output_plan.h): two inputs that
// would have one output get distinct names (x.dds, x.ctxr -> x.png, x_ctxr.png; d1/x.dds,
// d2/x.dds -> x.png, x_dds.png; then _2, _3, ...) and a warning in their notes; a .tri's folder
// gets a name no other output is in, nor another .tri's folder is (x.tri and X.tri -> x/, X_tri/;
// then _2, ...), also said; an output that is one of the inputs refuses the whole batch (a usage
// error). A .tri is read when the batch is planned (its textures' names) and again when they are
// converted; one that cannot be read, or whose textures claim more pixels than it holds, is one
// failed item. `tri` given and no .tri among the inputs is a usage error (its options would do nothing).
Result<std::vector<TextureBatchItem>> convert_textures(const std::vector<std::filesystem::path>& inputs,
                                                       const std::filesystem::path& output_dir, std::string_view extension,
                                                       const texture::TextureConvertOptions& options, unsigned threads,
                                                       const std::function<void(const TextureBatchItem&)>& progress = {},
                                                       const TriToPngOptions* tri = nullptr);

}  // namespace boneyard
