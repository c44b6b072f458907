// Tangents and binormals for .ogf vertices the way the X-Ray SDK computes them: per-triangle
// texture-space gradients, smoothed over the triangles around each position, orthogonalised
// against the normal. The engine never recomputes them (it only normalises and quantises what
// the file stores), so a writer must. Method, parameters and where ours differs from the SDK's
// NVMeshMender 2003 call: docs/ogf-write.md "Tangents and binormals".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "boneyard/xray/ogf/ogf.h"

namespace boneyard::xray {

struct TangentOptions {
  // Triangles around a position are smoothed together when the cosine between their (normalised)
  // gradients is at least this: 0.5 in the CS/CoP SDK (Mend(..., 0.5, 0.5, ...)); the SoC SDK's
  // older mender smooths within 75 degrees (cos 75 = 0.2588).
  float crease_cos = 0.5f;
  // The CS/CoP SDK's OptimizeTextureCoordinates: every UV of the child shifted by the integer
  // floor(centre of the UV range); SoC's SDK has no shift.
  bool uv_shift = true;
};

struct TangentReport {
  std::size_t split = 0;    // vertices added where one position needs two tangent frames
  std::size_t removed = 0;  // vertices no triangle used (the SDK's t_remove_isolated_verts)
  float shift_u = 0, shift_v = 0;  // subtracted from every UV
  bool uv_tiled = false;    // the UV range exceeds 32 (the SDK warns: the engine quantises UVs to +-16)
};

// `vertices` carry position, normal (unit length) and UV in X-Ray space; `indices` are triangles
// (3 per triangle, into `vertices`). Fills tangent and binormal, splitting vertices and rewriting
// indices where the smoothing groups around a position differ, removes unused vertices and
// shifts the UVs when asked. Each vertex keeps its other fields (skin) through splits.
TangentReport compute_tangents(std::vector<OgfVertex>& vertices, std::vector<std::uint32_t>& indices,
                               const TangentOptions& options);

}  // namespace boneyard::xray
