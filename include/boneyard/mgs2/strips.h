// Triangle strips with kick flags, as MGS2 packets store them (see docs/mgs2-strips.md).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "boneyard/mgs2/mgs2_layout.h"

namespace boneyard::mgs2 {

using Triangle = std::array<std::uint32_t, 3>;

// Calls fn(Triangle) for each triangle of one packet's strip. `records` holds `count` 8-byte
// records whose 4th s16 is the kick flag (KMS normals, EVM vertices). Convention: a vertex with
// 0x8000 draws nothing and restarts the winding; any other vertex i >= 2 closes a triangle, the
// first after a (re)start being (i-2, i, i-1), the next (i-2, i-1, i), and so on alternating.
// Vertices 0 and 1 never close a triangle.
template <class Fn>
void for_each_strip_triangle(Bytes records, std::size_t count, Fn&& fn) {
  std::uint32_t emitted = 0;  // triangles since the last restart
  for (std::size_t i = 0; i < count; ++i) {
    if ((kick_at(records, i) & kKickNoDraw) != 0) {
      emitted = 0;
      continue;
    }
    if (i < 2) continue;
    const auto v = static_cast<std::uint32_t>(i);
    if ((emitted & 1U) == 0) {
      fn(Triangle{v - 2, v, v - 1});
    } else {
      fn(Triangle{v - 2, v - 1, v});
    }
    ++emitted;
  }
}

std::vector<Triangle> decode_strip(Bytes records, std::size_t count);
std::size_t count_strip_triangles(Bytes records, std::size_t count);

// One vertex of an encoded strip: which input vertex it repeats and the kick flag to store.
struct StripVertex {
  std::uint32_t source = 0;
  std::uint16_t kick = 0;
  bool operator==(const StripVertex&) const = default;
};

struct StripEncodeOptions {
  std::size_t max_vertices = 64;  // per packet: 64 KMS, 32 multi-texture KMS and EVM; >= 3
  // Stored kick flags of the input vertices: every bit but 0x8000 is kept from here (so unchanged
  // data re-encodes to the same flags). Empty: 0x0FFF, the spec's default.
  std::span<const std::uint16_t> source_kicks;
};

// Encodes triangles (indices of input vertices, in order) into strips split into packets of at
// most max_vertices. Triangle order and winding are preserved; triangles that share an edge with
// the strip's end continue it, others restart it with one or two non-drawing vertices.
std::vector<std::vector<StripVertex>> encode_strips(std::span<const Triangle> triangles,
                                                    const StripEncodeOptions& options);

// The same triangles (each keeping its winding) reordered so that encode_strips can continue its
// strips: from each unused triangle in input order, greedily the unused neighbour across the
// strip's last edge with the winding the decoder will give it. For triangle soups from other
// tools, where input order says nothing; encode_strips keeps whatever order it is given.
std::vector<Triangle> order_for_strips(std::span<const Triangle> triangles);

}  // namespace boneyard::mgs2
