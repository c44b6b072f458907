// glTF 2.0 output of a neutral scene (scene.h). Two containers:
//  * .glb: one binary file (JSON chunk + BIN chunk);
//  * .gltf: JSON text plus a sibling .bin (same stem) holding the binary buffer.
// The skeleton becomes a node hierarchy in its rest pose under one root node named after the
// scene, with a skin (joints + inverse bind matrices) so that importers build an armature.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/scene.h"

namespace boneyard::gltf {

enum class Container : std::uint8_t { glb, gltf };

struct Output {
  std::vector<std::uint8_t> main;  // the .glb, or the .gltf JSON
  std::vector<std::uint8_t> bin;   // the .bin of a .gltf (empty for .glb)
};

// `bin_uri` is the .bin file name written into a .gltf (ignored for .glb).
Output write(const scene::Scene& scene, Container container, std::string_view bin_uri = {});

// Container from a file name: ".glb" or ".gltf" (any case); nullopt otherwise.
std::optional<Container> container_for(const std::filesystem::path& path);

// Writes `path` (and, for .gltf, `path` with extension .bin) atomically: the .bin first, then the
// .gltf, so the .gltf never refers to a missing or partial buffer. Returns "" or an error message.
std::string write_files(const scene::Scene& scene, const std::filesystem::path& path);

}  // namespace boneyard::gltf
