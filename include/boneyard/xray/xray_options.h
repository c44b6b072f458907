// What `boneyard convert` can ask of the X-Ray formats (.omf, .ogf): the registry hands these to
// the X-Ray library, which alone gives them meaning.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace boneyard::xray {

struct ConvertOptions {
  std::filesystem::path skeleton;      // --skeleton: the .ogf whose skeleton plays an .omf's motions
  std::filesystem::path meshes_root;   // --meshes: motion refs are relative to it; empty = nearest "meshes"
  std::filesystem::path textures;      // --textures: the textures root (.dds, else .png); empty = beside "meshes"
  bool keep_going = false;             // --keep-going: leave out broken .ogf children (warning)
  std::filesystem::path template_omf;  // --template (glTF -> .omf): parts, params, records to reuse
  bool hq = false;                     // --hq (glTF -> .omf): 16-bit translation keys
  bool float_rotations = false;        // --float-rotations (to glTF): normalised float rotation outputs
  std::vector<std::string> motions;    // --motions GLOB (to glTF): only motions whose name matches one
};

}  // namespace boneyard::xray
