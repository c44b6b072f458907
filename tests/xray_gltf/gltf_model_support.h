// Reading back a written .glb with tinygltf (an independent reader) for the contract tests:
// accessors and the node world matrices at a key of an animation.
#pragma once

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "boneyard/scene.h"
#include "gltf_test_support.h"

namespace boneyard::test {

using scene::Mat4;

inline tinygltf::Model load_glb(const fs::path& p) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string err, warn;
  const bool ok = loader.LoadBinaryFromFile(&model, &err, &warn, p.string());
  EXPECT_TRUE(ok) << err;
  return model;
}

inline const float* accessor_floats(const tinygltf::Model& m, int index, std::size_t& count) {
  const auto& a = m.accessors[static_cast<std::size_t>(index)];
  const auto& v = m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  count = a.count;
  return reinterpret_cast<const float*>(m.buffers[static_cast<std::size_t>(v.buffer)].data.data() + v.byteOffset +
                                        a.byteOffset);
}

// World matrices of every node at key index `frame` of animation `anim` (rest pose for nodes
// the animation does not drive), composed from the scene root.
inline std::vector<Mat4> gltf_world(const tinygltf::Model& m, const tinygltf::Animation& anim, std::size_t frame) {
  std::vector<Vec3> t(m.nodes.size());
  std::vector<Quat> r(m.nodes.size());
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const auto& n = m.nodes[i];
    if (n.translation.size() == 3) t[i] = {float(n.translation[0]), float(n.translation[1]), float(n.translation[2])};
    if (n.rotation.size() == 4)
      r[i] = {float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]), float(n.rotation[3])};
  }
  for (const auto& ch : anim.channels) {
    const auto& s = anim.samplers[static_cast<std::size_t>(ch.sampler)];
    std::size_t in_count = 0, out_count = 0;
    const float* times = accessor_floats(m, s.input, in_count);
    const float* v = accessor_floats(m, s.output, out_count);
    EXPECT_EQ(in_count, out_count);
    // The key at frame / 30 s; a channel without one holds one value (a key at 0 and at the end).
    const float when = static_cast<float>(frame) / 30.0f;
    std::size_t k = in_count;
    for (std::size_t i = 0; i < in_count; ++i)
      if (std::fabs(times[i] - when) <= 1e-6f * std::max(1.0f, when)) k = i;
    if (k == in_count) {
      const std::size_t width = ch.target_path == "rotation" ? 4 : 3;
      for (std::size_t i = 1; i < out_count; ++i)
        EXPECT_TRUE(std::equal(v, v + width, v + i * width)) << "channel without a key at " << when << " s is not held";
      k = when > times[in_count - 1] ? in_count - 1 : 0;
    }
    const auto node = static_cast<std::size_t>(ch.target_node);
    if (ch.target_path == "translation") t[node] = {v[k * 3], v[k * 3 + 1], v[k * 3 + 2]};
    if (ch.target_path == "rotation") r[node] = {v[k * 4], v[k * 4 + 1], v[k * 4 + 2], v[k * 4 + 3]};
  }
  std::vector<Mat4> world(m.nodes.size());
  std::vector<bool> done(m.nodes.size(), false);
  std::vector<std::pair<std::size_t, Mat4>> stack;
  for (int root : m.scenes[0].nodes) stack.push_back({static_cast<std::size_t>(root), scene::trs_matrix({}, {}, {1, 1, 1})});
  while (!stack.empty()) {
    auto [node, parent] = stack.back();
    stack.pop_back();
    world[node] = scene::multiply(parent, scene::trs_matrix(t[node], r[node], {1, 1, 1}));
    for (int c : m.nodes[node].children) stack.push_back({static_cast<std::size_t>(c), world[node]});
  }
  return world;
}

// Component `k` of element `i` of any accessor (float, or unsigned byte/short/int), as double.
inline double accessor_value(const tinygltf::Model& m, int index, std::size_t i, std::size_t k) {
  const auto& a = m.accessors[static_cast<std::size_t>(index)];
  const auto& v = m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  const std::size_t comp = static_cast<std::size_t>(tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(a.componentType)));
  const std::size_t n = static_cast<std::size_t>(tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type)));
  const std::size_t stride = v.byteStride ? v.byteStride : comp * n;
  const unsigned char* p = m.buffers[static_cast<std::size_t>(v.buffer)].data.data() + v.byteOffset + a.byteOffset +
                           i * stride + k * comp;
  switch (a.componentType) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: { float f; std::memcpy(&f, p, 4); return f; }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return *p;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: { std::uint16_t u; std::memcpy(&u, p, 2); return u; }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: { std::uint32_t u; std::memcpy(&u, p, 4); return u; }
    default: ADD_FAILURE() << "unexpected component type " << a.componentType; return 0;
  }
}

}  // namespace boneyard::test
