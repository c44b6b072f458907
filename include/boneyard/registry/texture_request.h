// `boneyard texture` as one request that every front end runs (the CLI, the Python module's
// boneyard.texture): which conversion the inputs and the output ask for, the options that
// conversion reads (any other is a usage error), and the files written (docs/textures.md).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/registry/texture_files.h"

namespace boneyard {

struct TextureRequest {
  std::vector<std::filesystem::path> inputs;
  std::filesystem::path output;
  unsigned mip = 0;                          // --mip
  bool cross = false;                        // --cross
  std::string format;                        // --format: "", "dxt1", "dxt5" or "rgba"
  bool no_mips = false;                      // --no-mips
  unsigned jobs = 0;                         // -j (0: all cores)
  std::filesystem::path template_path;       // --template (PNGs -> .tri)
  std::filesystem::path names_file;          // --names (.tri)
  std::string alpha;                         // --alpha: "", "raw" or "scaled" (.tri)
  std::string layout;                        // --layout: "", "ps2" or "mc" (.tri)
};

// What the request did, chosen by its inputs and output in this order: PNGs to OUT.tri (with
// --template); one .tri to a folder of PNGs; one file to OUT.<ext> (an extension, not a folder);
// otherwise several files (folders searched) into the folder OUT, each .tri into a folder of its own.
enum class TextureConversion { pngs_to_tri, tri_to_pngs, one_file, several };

struct TextureOutcome {
  TextureConversion conversion = TextureConversion::one_file;
  std::vector<std::filesystem::path> written;  // one_file: the files written; pngs_to_tri: the .tri
  std::vector<TextureBatchItem> items;         // tri_to_pngs, several: one per texture or file, in order
  Diagnostics notes;                           // one_file: how the output was made; pngs_to_tri: per texture
  std::string failure;                         // the request failed: the CLI's one line about it
};

// Runs the request; `progress` is called once per finished item (tri_to_pngs, several), never
// concurrently. The returned error is the request's (nothing or, for a folder, only the items
// finished before an interruption, written); an item that fails alone is in its item's status.
Status texture_request(const TextureRequest& request, TextureOutcome& outcome,
                       const std::function<void(const TextureBatchItem&)>& progress = {});

}  // namespace boneyard
