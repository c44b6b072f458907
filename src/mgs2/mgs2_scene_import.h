// Internal: the scene as the MGS2 builders see it (model units, model joints), shared by
// mgs2_scene_import.cpp (gathering, KMS) and mgs2_scene_import_evm.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "boneyard/mgs2_scene.h"
#include "boneyard/strips.h"
#include "mgs2_scene_common.h"

namespace boneyard::mgs2::detail {

struct SrcVertex {
  std::array<double, 3> pos{};  // model space, model units (before the EVM position scale)
  std::array<float, 3> normal{};
  std::array<std::array<float, 2>, 3> uv{};
  std::array<std::uint16_t, 4> joints{};  // model joints
  std::array<float, 4> weights{};         // sum 1, decreasing
  float dropped = 0;  // share of the vertex's glTF weight on influences past the 4 kept (moved)
};

struct SrcPrimitive {
  std::vector<SrcVertex> verts;
  std::vector<Triangle> tris;
  std::size_t uv_sets = 0;     // TEXCOORD_n read (at most 3 kept)
  const Json* packet = nullptr;  // our primitive extras, when present
  int unit = -1;                 // KMS: the unit named by our mesh extras
  std::size_t mesh = 0, order = 0;
  std::array<std::uint32_t, 3> tex_id{};
  bool double_sided = true;
};

struct SrcSkeleton {
  std::vector<int> parent;                      // model joint parents
  std::vector<std::array<double, 3>> world;     // rest positions, model units
  std::vector<const Json*> extras;              // our joint extras, or nullptr
};

struct Gathered {
  double scale = kDefaultScale;
  const Json* header = nullptr;  // our scene extras, or nullptr
  SrcSkeleton skeleton;
  std::vector<SrcPrimitive> primitives;
  std::vector<const Json*> mesh_extras;  // per scene mesh
};

// Reads the scene into model units and model joints. `format` "kms" or "evm" (checked against
// our extras). Errors: no usable geometry, joints that cannot be mapped.
Result<Gathered> gather(const scene::Scene& s, const ImportOptions& o, const char* format, Diagnostics& warnings);

// Rounds a value to s16, or fails with a message naming `what` (and suggesting --scale when
// `scale_hint`).
std::int16_t to_s16(double v, const std::string& what, bool scale_hint);

// Owned bytes for ArrayRef views of a built model.
struct Storage {
  std::deque<std::vector<std::uint8_t>> blocks;
  ArrayRef add(std::vector<std::uint8_t> bytes) {
    blocks.push_back(std::move(bytes));
    return ArrayRef{1, Bytes(blocks.back().data(), blocks.back().size())};
  }
};
inline void put_s16(std::vector<std::uint8_t>& out, std::int16_t v) {
  out.push_back(static_cast<std::uint8_t>(v & 0xFF));
  out.push_back(static_cast<std::uint8_t>((v >> 8) & 0xFF));
}

// The packet extras' strip, when it still describes the primitive exactly: the same vertex count
// and the kick flags decode to the primitive's triangles in order. Empty otherwise.
std::vector<std::uint16_t> exact_kicks(const SrcPrimitive& p);

// A box holding `pts`, or the stored one when it already holds them, or holds `alt` (the other
// reading of the box's space, which real files leave open): unchanged files keep theirs.
void fit_box(const std::vector<std::array<double, 3>>& pts, float* lo, float* hi, const float* stored_lo,
             const float* stored_hi, const std::vector<std::array<double, 3>>* alt = nullptr);

}  // namespace boneyard::mgs2::detail
