// What `boneyard convert` can ask of the MGS2 formats (.kms, .evm): the registry hands these to
// the MGS2 library, which alone gives them meaning.
#pragma once

#include <filesystem>
#include <string>

namespace boneyard::mgs2 {

struct ConvertOptions {
  std::string layout;                   // --layout: "" (keep, or the glTF extras'), "ps2" or "mc"
  double scale = 0;                     // --scale: metres per model unit; 0 = the glTF's extras, else 0.001
  std::filesystem::path template_model; // --template (glTF -> .kms/.evm): header, units, fields to reuse
  std::filesystem::path textures;       // --textures (-> glTF): folder of .ctxr (or .dds/.png) textures, found by StrCode24
  std::string n_mats;                   // --n-mats (-> .evm): "" (keep / the spec's), "spec" or "sealouse"
  // Master Collection output (.kms/.evm in the MC layout) also gets its .cmdl (docs/mgs2-cmdl.md):
  std::filesystem::path cmdl;           // --cmdl: where it goes; "" = _win/<output stem>.cmdl beside the output
  bool no_cmdl = false;                 // --no-cmdl: write the model alone
  std::filesystem::path skeleton;       // --skeleton (.cmdl -> glTF): its .kms/.evm; "" = the one beside it
};

}  // namespace boneyard::mgs2
