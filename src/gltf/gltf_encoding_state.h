// The glTF writer's laid-out document, shared by the layout (gltf_writer.cpp) and the JSON text
// (gltf_writer_json.cpp). Private to src/gltf.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boneyard/gltf/gltf_write.h"
#include "gltf_buffer_layout.h"
#include "gltf_json_text.h"

namespace boneyard::gltf {

struct PrimitiveAccessors {
  std::size_t position = 0;
  std::optional<std::size_t> normal, joints, weights, indices;
  std::vector<std::size_t> uvs;
};

// A keyed channel written without the inner keys of its runs of equal keys (plan_key_runs): the
// key times and output bytes kept.
struct ShortenedChannel {
  std::vector<float> times;
  std::vector<std::uint8_t> values;
  std::size_t keys = 0;
};

// A sampler: its input (key times) and output accessors, as laid out.
struct SamplerAccessors {
  std::size_t input = 0, output = 0;
};

constexpr std::uint32_t kFloat = 5126, kShort = 5122, kUnsignedByte = 5121, kUnsignedShort = 5123, kUnsignedInt = 5125;
constexpr std::uint32_t kArrayBuffer = 34962, kElementArrayBuffer = 34963;

// Built once by the constructor's steps (in the order Encoding's constructor runs them); the JSON
// text is produced from it as often as needed (json() has no side effects).
struct Encoding::State {
  const scene::Scene& sc;
  Container container;
  std::string bin_uri;
  std::size_t n;  // joints: nodes 0..n-1, the armature node n, then one node per written mesh
  BufferLayout L;

  std::vector<float> ibm;  // inverse bind matrices (the buffer copies them from here)
  std::optional<std::size_t> ibm_accessor;
  std::vector<std::vector<std::size_t>> timeline_acc, channel_acc;
  std::vector<std::vector<std::size_t>> channel_input;     // per animation and channel: its key times
  std::vector<ShortenedChannel> shortened;                 // what the buffer copies for them
  std::vector<std::vector<std::size_t>> shortened_of;      // per animation and channel: index, or npos
  std::vector<std::vector<SamplerAccessors>> samplers;     // per animation, each distinct pair once
  std::vector<std::vector<std::size_t>> channel_sampler;   // per animation and channel
  std::vector<std::size_t> accessor_number;                // glTF index of each laid-out accessor
  std::vector<std::size_t> accessor_at;                    // laid-out accessor of each glTF index
  std::vector<std::vector<PrimitiveAccessors>> mesh_acc;
  std::vector<std::vector<std::uint16_t>> short_indices;  // u32 indices narrowed where they fit
  std::vector<std::vector<std::uint8_t>> byte_joints;     // u16 joint numbers narrowed where they fit
  std::vector<bool> mesh_written;
  std::vector<std::size_t> mesh_index, mesh_node;
  std::vector<std::vector<std::size_t>> children;
  std::vector<std::size_t> scene_roots;
  // Images some material uses, in glTF order (image_index maps scene images to them), and the
  // buffer view of each embedded one.
  std::vector<std::uint32_t> images;
  std::vector<std::uint32_t> image_index;
  std::vector<std::optional<std::uint32_t>> image_view;
  std::string held_json;    // the JSON text when it is small enough to keep (else it is streamed)
  std::size_t json_size = 0;
  bool json_held = false;

  State(const scene::Scene& s, Container c, std::string_view uri)
      : sc(s), container(c), bin_uri(uri), n(s.skeleton.joints.size()) {}

  void lay_out_inverse_bind_matrices();
  void plan_key_runs();
  void lay_out_animations();
  void lay_out_meshes();
  void lay_out_images();
  void lay_out_samplers();
  void number_accessors();
  void number_nodes();
  bool skinned_mesh(std::size_t mi) const {
    return sc.meshes[mi].skinned && n > 0 && mesh_acc[mi].front().joints.has_value();
  }
  std::uint64_t acc(std::size_t laid_out) const { return accessor_number[laid_out]; }

  // The whole JSON text (a .glb's JSON chunk with its padding) into `j`.
  void json(JsonText& j) const;
  // It into `out`: the text kept by the constructor, or made again block by block.
  Status write_json(ByteSink& out) const;
  void json_nodes(JsonText& j) const;
  void json_cameras(JsonText& j) const;
  void json_skin(JsonText& j) const;
  void json_meshes(JsonText& j) const;
  void json_materials(JsonText& j) const;
  void json_animations(JsonText& j) const;
  void json_accessors(JsonText& j) const;
  void json_buffer_views(JsonText& j) const;
};

}  // namespace boneyard::gltf
