// glTF 2.0 output of a neutral scene (scene.h). Two containers:
//  * .glb: one binary file (JSON chunk + BIN chunk);
//  * .gltf: JSON text plus a sibling .bin (same stem) holding the binary buffer.
// The skeleton becomes a node hierarchy in its rest pose under one root node named after the
// scene, with a skin (joints + inverse bind matrices) so that importers build an armature.
#pragma once

#include <cstdint>
#include <memory>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/scene/scene.h"

namespace boneyard::gltf {

enum class Container : std::uint8_t { glb, gltf };

// A scene laid out as glTF (buffer views, accessors and the JSON text), ready to be streamed: the
// binary data is copied from the scene's arrays as it is written, never gathered whole, so the
// scene must outlive the Encoding.
class Encoding {
 public:
  // `bin_uri` is the .bin file name written into a .gltf (ignored for .glb).
  Encoding(const scene::Scene& scene, Container container, std::string_view bin_uri = {});
  ~Encoding();
  Encoding(const Encoding&) = delete;
  Encoding& operator=(const Encoding&) = delete;
  std::size_t size() const;      // bytes of the .glb, or of the .gltf's JSON text
  std::size_t bin_size() const;  // bytes of the binary buffer (a .gltf has a .bin only when > 0)
  Status write(ByteSink& out) const;      // the .glb, or the .gltf's JSON text
  Status write_bin(ByteSink& out) const;  // the .gltf's .bin

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// In memory (tests, the view page): the .glb, or the .gltf JSON and its .bin.
struct Output {
  std::vector<std::uint8_t> main;  // the .glb, or the .gltf JSON
  std::vector<std::uint8_t> bin;   // the .bin of a .gltf (empty for .glb)
};
Output write(const scene::Scene& scene, Container container, std::string_view bin_uri = {});

// Container from a file name: ".glb" or ".gltf" (any case); nullopt otherwise.
std::optional<Container> container_for(const std::filesystem::path& path);

}  // namespace boneyard::gltf
