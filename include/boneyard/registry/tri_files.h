// MGS2 .tri texture archives to a folder of PNGs and back, as `boneyard texture` converts them:
// the texture layer decodes and re-encodes (texture/tri/tri.h); the registry names the PNGs,
// plans and writes the files (docs/textures.md "TRI").
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/registry/texture_files.h"
#include "boneyard/texture/tri/tri.h"

namespace boneyard {

class TextureNames;  // mgs2/strcode.h

// The PNG file name of each entry: its name from `names` when the list has its id (a trailing
// ".bmp" left out, as the bitmap's PNG), else its id as 6 hex digits (as SeaLouse names them). A
// name that is no portable file name (a path separator, a character Windows refuses, a device
// name such as "con") gives the id instead; a name another entry has already, letters compared
// ignoring case as Windows does, gets _2, _3, ... . `notes` receives a warning for each.
std::vector<std::string> tri_png_names(const texture::TriFile& tri, const TextureNames* names, Diagnostics* notes = nullptr);

struct TriToPngOptions {
  texture::TriAlpha alpha = texture::TriAlpha::raw;
  const TextureNames* names = nullptr;
  std::filesystem::path names_file;  // read by the command: never an output
  std::optional<texture::TriLayout> layout;
  int png_level = texture::kPngCompressionLevel;
};
// Every texture of `tri` as OUTPUT_DIR/<name>.png (tri_png_names), each with a "trIa" chunk
// saying how its alpha is stored, on `threads` threads (0: all cores). Every output is planned
// before anything is written (registry/output_plan.h); a texture that cannot be decoded fails
// alone. Errors of the whole (an unreadable .tri, an output that is a folder or an input, more
// pixels than the .tri's blocks can account for) come back as the Result's error.
Result<std::vector<TextureBatchItem>> convert_tri_to_pngs(const std::filesystem::path& tri,
                                                          const std::filesystem::path& output_dir,
                                                          const TriToPngOptions& options, unsigned threads,
                                                          const std::function<void(const TextureBatchItem&)>& progress = {});

// Whether `tri`'s textures together stay within the pixels its blocks can account for
// (texture::tri_pixel_budget): a file whose rectangles claim more is refused whole, as it would
// make gigabytes of PNGs out of a few kilobytes.
Status check_tri_pixels(const texture::TriFile& tri);
// Entry `entry` of `tri` decoded and written to `output` (a temporary file renamed into place) as
// a PNG with its "trIa" chunk; `last_check` (when given) runs after the decode, before the file is
// made: the output plan's last check.
Status write_tri_png(const texture::TriFile& tri, std::size_t entry, const std::filesystem::path& output,
                     const TriToPngOptions& options, const std::function<Status()>& last_check = {});

struct PngToTriOptions {
  std::filesystem::path template_path;       // the .tri the PNGs came from (required)
  std::optional<texture::TriAlpha> alpha;    // --alpha; else each PNG's "trIa" chunk, else raw
  const TextureNames* names = nullptr;
  std::filesystem::path names_file;
  std::optional<texture::TriLayout> layout;
};
// The template with the PNGs (files, or the .png files of folders, not their subfolders)
// re-encoded into the entries they name: a PNG is matched by the name tri_png_names gives its
// entry, else by the id its file name gives as a model's texture lookup reads it
// (mgs2::parse_texture_file_name: 6 or 8 hex digits are the id, a name hashes with or without
// ".bmp"). A PNG that names no entry, or an entry another PNG names, is an error. The output is
// read back and validated before it replaces anything (texture::build_tri); `notes` receives
// what was done per texture.
Status convert_pngs_to_tri(const std::vector<std::filesystem::path>& inputs, const std::filesystem::path& output,
                           const PngToTriOptions& options, Diagnostics* notes = nullptr);

}  // namespace boneyard
