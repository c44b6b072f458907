// Hand-laid OGF children (0x9) for the mesh tests: every skinned layout under both ids, the static
// FVF layout, progressive slide windows and broken variants. Laid out field by field from the
// format notes (section 9.2), independently of the library's decoder.
#pragma once

#include <array>
#include <vector>

#include "omf_fixture.h"

namespace boneyard::test {

struct MeshVertex {
  std::array<float, 3> p{}, n{0, 1, 0};
  float u = 0, v = 0;
  std::array<unsigned, 4> bones{};
  std::array<float, 3> stored_weights{};  // links - 1 of them are written
};

// One vertex in the skinned layout with `links` links (section 9.2 table).
inline Buf skinned_vertex(int links, const MeshVertex& v) {
  Buf b;
  auto pntb = [&] {
    for (float x : v.p) b.f32(x);
    for (float x : v.n) b.f32(x);
    for (int k = 0; k < 3; ++k) b.f32(k == 0 ? 1.0f : 0.0f);  // T
    for (int k = 0; k < 3; ++k) b.f32(k == 2 ? 1.0f : 0.0f);  // B
  };
  if (links == 1) {
    pntb();
    b.f32(v.u).f32(v.v).u32(v.bones[0]);
    return b;
  }
  for (int k = 0; k < links; ++k) b.u16(v.bones[static_cast<std::size_t>(k)]);
  pntb();
  for (int k = 0; k + 1 < links; ++k) b.f32(v.stored_weights[static_cast<std::size_t>(k)]);
  b.f32(v.u).f32(v.v);
  return b;
}

inline Buf static_vertex(const MeshVertex& v) {  // FVF 0x112: P, N, u, v
  Buf b;
  for (float x : v.p) b.f32(x);
  for (float x : v.n) b.f32(x);
  return b.f32(v.u).f32(v.v);
}

inline Buf child_header(unsigned type) {
  Buf h;
  h.u32(4u | (type << 8));
  for (int i = 0; i < 10; ++i) h.f32(0.0f);
  return h;
}

struct ChildSpec {
  unsigned type = 5;        // 5 skinned, 4 progressive skinned, 0 static
  std::uint32_t format = 1;
  std::vector<Buf> vertices;
  std::vector<unsigned> indices;
  std::string texture = "act\\act_test", shader = "models\\model";
  Buf texture_tail;                                         // junk after the strings
  std::vector<std::array<unsigned, 3>> windows;             // offset, triangles, vertices
  long long vertex_count_override = -1, index_count_override = -1;
  std::size_t drop_vertex_bytes = 0;                        // truncate the 0x3 chunk
};

inline Buf child(const ChildSpec& s) {
  Buf tex;
  tex.str(s.texture).str(s.shader).add(s.texture_tail);
  Buf vtx;
  vtx.u32(s.format).u32(s.vertex_count_override >= 0 ? static_cast<std::uint32_t>(s.vertex_count_override)
                                                       : static_cast<std::uint32_t>(s.vertices.size()));
  for (const auto& v : s.vertices) vtx.add(v);
  vtx.b.resize(vtx.b.size() - s.drop_vertex_bytes);
  Buf idx;
  idx.u32(s.index_count_override >= 0 ? static_cast<std::uint32_t>(s.index_count_override)
                                      : static_cast<std::uint32_t>(s.indices.size()));
  for (unsigned i : s.indices) idx.u16(i);
  Buf c;
  c.chunk(0x1, child_header(s.type)).chunk(0x2, tex).chunk(0x3, vtx).chunk(0x4, idx);
  if (!s.windows.empty()) {
    Buf swi;
    for (int i = 0; i < 4; ++i) swi.u32(0);
    swi.u32(static_cast<std::uint32_t>(s.windows.size()));
    for (const auto& w : s.windows) swi.u32(w[0]).u16(w[1]).u16(w[2]);
    c.chunk(0x6, swi);
  }
  return c;
}

inline Buf children(const std::vector<Buf>& kids) {
  Buf b;
  for (std::size_t i = 0; i < kids.size(); ++i) b.chunk(static_cast<std::uint32_t>(i), kids[i]);
  return b;
}

}  // namespace boneyard::test
