// A triangle soup laid out as an .ogf child: influences limited to what the game loads (the
// weight moved is reported, never dropped silently), tangents and binormals computed the SDK's
// way, the engine's limits checked. docs/ogf-write.md "Writing a child".
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ogf_import_internal.h"

namespace boneyard::xray::ogf_import {

ChildPlan plan_for(Game game) {
  ChildPlan p;
  if (game == Game::soc) {
    // SoC loads only the magic 1L/2L ids; its SDK smooths tangents within 75 degrees and does
    // not shift UVs.
    p.magic = true;
    p.max_links = 2;
    p.tangents = {0.25881904f, false};
  } else {
    p.magic = false;
    p.max_links = 4;
    p.tangents = {0.5f, true};
  }
  return p;
}

namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

// Keeps the `limit` heaviest influences (they are sorted) and renormalises; returns the weight
// moved onto them.
double limit_influences(OgfVertex& v, int limit) {
  if (v.links <= limit) return 0;
  double moved = 0, kept = 0;
  for (int k = 0; k < v.links; ++k) (k < limit ? kept : moved) += v.weights[std::size_t(k)];
  for (int k = 0; k < 4; ++k) {
    if (k < limit) v.weights[std::size_t(k)] = kept > 0 ? float(v.weights[std::size_t(k)] / kept) : (k == 0 ? 1.0f : 0.0f);
    else v.weights[std::size_t(k)] = 0, v.bones[std::size_t(k)] = v.bones[0];
  }
  v.links = limit;
  return moved;
}

}  // namespace

Result<ogf_build::ChildGeometry> make_child(Soup soup, const ChildPlan& plan, const std::string& texture,
                                            const std::string& shader, const std::string& where,
                                            Diagnostics& warnings, OgfImportStats& stats) {
  ogf_build::ChildGeometry c;
  c.texture = texture;
  c.shader = shader;
  if (soup.indices.size() < 3)
    return import_error(where, "mesh has no triangles", "at least one triangle", "none");
  if (soup.missing_uvs != 0)
    warnings.add(Severity::warning, 0, where, "no TEXCOORD_0: texture coordinates written as 0", "TEXCOORD_0",
                 std::to_string(soup.missing_uvs) + " vertices");
  if (soup.unweighted != 0)
    warnings.add(Severity::warning, 0, where, "vertices without any skin weight given fully to bone 0",
                 "weights > 0", std::to_string(soup.unweighted) + " vertices");
  if (plan.is_static) {
    c.type = ogf_build::kTypeNormal;
    c.format = ogf_build::kFvfStatic;
    c.links = 0;
    for (auto& v : soup.vertices) v.links = 0;
  } else {
    int need = 1;
    double moved = soup.moved_weight, most = 0;
    std::size_t moved_vertices = soup.moved_vertices;
    for (auto& v : soup.vertices) {
      const double m = limit_influences(v, plan.max_links);
      if (m > 0) ++moved_vertices, moved += m, most = std::max(most, m);
      need = std::max(need, v.links);
    }
    if (moved_vertices != 0) {
      warnings.add(Severity::warning, 0, where,
                   "influences beyond " + std::to_string(plan.max_links) +
                       " per vertex (the game's limit) dropped; their weight moved to the heavier ones",
                   "<= " + std::to_string(plan.max_links) + " influences",
                   std::to_string(moved_vertices) + " vertices, weight " + fmt(moved) + " moved in all, at most " +
                       fmt(most) + " on one vertex");
      stats.moved_weight_vertices += moved_vertices;
    }
    c.type = ogf_build::kTypeSkinned;
    c.links = std::clamp(std::max(plan.min_links, need), 1, plan.max_links);
    c.format = ogf_build::skinned_format(c.links, plan.magic);
    const TangentReport tr = compute_tangents(soup.vertices, soup.indices, plan.tangents);
    stats.split_vertices += tr.split;
    if (tr.uv_tiled)
      warnings.add(Severity::warning, 0, where,
                   "texture coordinates span more than 32 (the engine quantises them to +-16 after the SDK's shift)",
                   "a UV range <= 32", "shifted by (" + fmt(-tr.shift_u) + ", " + fmt(-tr.shift_v) + ")");
  }
  if (soup.vertices.size() > ogf_build::kMaxChildVertices)
    return import_error(where, "too many vertices for one .ogf child (16-bit indices)",
                        "<= " + std::to_string(ogf_build::kMaxChildVertices),
                        std::to_string(soup.vertices.size()) + (plan.is_static ? "" : " (after the tangent splits)"));
  c.vertices = std::move(soup.vertices);
  c.indices.reserve(soup.indices.size());
  for (auto i : soup.indices) c.indices.push_back(static_cast<std::uint16_t>(i));
  return c;
}

}  // namespace boneyard::xray::ogf_import
