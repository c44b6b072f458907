// Reading back a written .glb with tinygltf (an independent reader) for the contract tests:
// accessors and the node world matrices at a key of an animation.
#pragma once

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "boneyard/scene/scene.h"
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

// An animation output as floats: float components as they are, normalised SHORT components as
// the glTF specification decodes them (max(c / 32767, -1)), rotations then normalised (the pose
// contract compares unit quaternions).
inline std::vector<float> output_values(const tinygltf::Model& m, int index, bool rotation) {
  const auto& a = m.accessors[static_cast<std::size_t>(index)];
  const std::size_t width = rotation ? 4 : 3;
  std::vector<float> v(a.count * width);
  const auto& view = m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  const unsigned char* p = m.buffers[static_cast<std::size_t>(view.buffer)].data.data() + view.byteOffset + a.byteOffset;
  if (a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT) {
    std::memcpy(v.data(), p, v.size() * 4);
  } else {
    EXPECT_EQ(a.componentType, TINYGLTF_COMPONENT_TYPE_SHORT);
    EXPECT_TRUE(a.normalized);
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::int16_t c;
      std::memcpy(&c, p + i * 2, 2);
      v[i] = std::max(float(c) / 32767.0f, -1.0f);
    }
  }
  if (rotation)
    for (std::size_t k = 0; k < a.count; ++k) {
      const Quat q = scene::normalized({v[k * 4], v[k * 4 + 1], v[k * 4 + 2], v[k * 4 + 3]});
      v[k * 4] = q.x, v[k * 4 + 1] = q.y, v[k * 4 + 2] = q.z, v[k * 4 + 3] = q.w;
    }
  return v;
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
    std::size_t in_count = 0;
    const float* times = accessor_floats(m, s.input, in_count);
    const std::vector<float> values = output_values(m, s.output, ch.target_path == "rotation");
    const float* v = values.data();
    const std::size_t out_count = m.accessors[static_cast<std::size_t>(s.output)].count;
    EXPECT_EQ(in_count, out_count);
    // The key at frame / 30 s. Without one, the time lies between two equal keys (a held value:
    // a key at 0 and at the end, or the ends of a run of equal keys whose inner keys the writer
    // leaves out), which is then the value at that time.
    const float when = static_cast<float>(frame) / 30.0f;
    std::size_t k = in_count;
    for (std::size_t i = 0; i < in_count; ++i)
      if (std::fabs(times[i] - when) <= 1e-6f * std::max(1.0f, when)) k = i;
    if (k == in_count) {
      const std::size_t width = ch.target_path == "rotation" ? 4 : 3;
      const std::size_t after = static_cast<std::size_t>(std::upper_bound(times, times + in_count, when) - times);
      EXPECT_TRUE(after > 0 && after < in_count) << "no key before and after " << when << " s";
      k = std::min(after, in_count - 1);
      const std::size_t before = k > 0 ? k - 1 : 0;
      EXPECT_TRUE(std::equal(v + before * width, v + (before + 1) * width, v + k * width))
          << "channel without a key at " << when << " s does not hold a value there";
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
