// Pieces of the glTF reader shared by its two files: gltf_reader.cpp (container, JSON, nodes,
// animations) and gltf_mesh_reader.cpp (meshes, skins, materials).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gltf_json_parse.h"
#include "scene/extras_json.h"

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/scene/scene.h"

namespace boneyard::gltf::detail {

using Json = nlohmann::json;

// The parsed document with its buffers (views into the .glb, decoded data URIs, or mapped files).
struct Model {
  Json json;  // without what `arrays` holds (gltf_json_parse.h)
  GltfArrays arrays;
  std::vector<Bytes> buffers;
  std::vector<std::vector<std::uint8_t>> owned;
  std::vector<std::shared_ptr<const FileData>> files;
  // Bytes decoded from accessors so far and their limit (docs/safety.md "Memory"): one accessor
  // named by many channels or primitives must not multiply the input in memory.
  mutable std::uint64_t decoded_bytes = 0;
  std::uint64_t decode_budget = ~std::uint64_t{0};
};

Finding error(std::string path, std::string message, std::string expected = {}, std::string found = {});
std::string in_quotes(const std::string& s);
const Json* member(const Json& j, const char* key);
Json* member(Json& j, const char* key);
// A non-negative integer member, or `fallback` when absent; -2 when present but not one.
std::int64_t index_of(const Json& j, const char* key, std::int64_t fallback = -1);
std::string string_of(const Json& j, const char* key);
const Json& array_of(const Json& j, const char* key);
// The `extras` member of a glTF object, when it has one, onto a scene item.
void set_extras(scene::Extras& extras, const Json& owner);
// The same, moving the value out of the document when `move` (for objects read only once; the
// document keeps null in its place).
void move_or_copy_extras(scene::Extras& extras, Json& owner, bool move);

// Reads the container (a .glb's chunks or a .gltf's JSON text) and every buffer into `m`; external
// buffers come from `buffers` and stay open in m.files.
std::optional<Finding> parse(Bytes bytes, const ExternalBuffers& buffers, Model& m);

// A checked accessor: every element lies inside its buffer view and buffer.
struct AccessorView {
  const std::uint8_t* data = nullptr;
  std::size_t count = 0;
  std::size_t stride = 0;
  std::int64_t component_type = 0;
  bool normalized = false;
};
// `width` components per element; error when the accessor is missing, sparse, of another width
// or reads outside its buffer.
std::optional<Finding> view_accessor(const Model& m, std::int64_t index, int width, const std::string& where,
                                     AccessorView& out);
// Float data (float, or normalised (u)byte/(u)short), charged against the read's decode budget.
std::optional<Finding> read_floats(const Model& m, std::int64_t index, int width, const std::string& where,
                                   std::vector<float>& out);
// An accessor's values as floats: a view into its buffer when they are tightly packed, aligned
// floats (animation key arrays as every exporter writes them), else decoded into `owned`.
struct FloatValues {
  AccessorView view;
  const float* data = nullptr;
  std::size_t size = 0;  // floats
  std::vector<float> owned;
};
// The same checks and budget as read_floats, without a copy where none is needed.
std::optional<Finding> read_floats(const Model& m, std::int64_t index, int width, const std::string& where,
                                   FloatValues& out);
// From a view view_accessor checked (accessor `index`, for messages), not charged: what a deferred
// read's sampler decodes again.
std::optional<Finding> decode_floats(const AccessorView& a, std::int64_t index, int width, const std::string& where,
                                     FloatValues& out);
// Unsigned integer data (unsigned byte, short or int, not normalised): indices, joints.
std::optional<Finding> read_uints(const Model& m, std::int64_t index, int width, const std::string& where,
                                  std::vector<std::uint32_t>& out);

// What the accessor views of a deferred read point into, kept open by its sampler: the input
// (a .glb's BIN chunk), decoded data: URIs and external buffers.
struct KeptBuffers {
  std::shared_ptr<const FileData> input;
  std::vector<std::vector<std::uint8_t>> owned;
  std::vector<std::shared_ptr<const FileData>> files;
};

// Every animation of m into s.animations, checked and budgeted (gltf_animation_reader.cpp):
// sampled at options.fps, or, when `deferred` is given, without samples and with s.sampler
// set to take them on demand (it takes the buffers from *deferred).
std::optional<Finding> read_animations(Model& m, const ReadOptions& options, Diagnostics& warnings,
                                       KeptBuffers* deferred, scene::Scene& s);

// Meshes instantiated by nodes, their materials and the first skin (gltf_mesh_reader.cpp).
// Takes the extras of meshes that only one node instantiates out of m.json.
std::optional<Finding> read_meshes(Model& m, scene::Scene& s, Diagnostics& warnings);

}  // namespace boneyard::gltf::detail
