#include "validate_common.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace boneyard::mgs2::detail {

std::string extent_label(const Extent& e, bool kms) {
  static const char* const kNames[] = {"header", "unit table", "packet table", "vertices", "normals",
                                       "uv0",    "uv1",        "uv2",          "weights"};
  if (e.kind == kHeader) return kms ? "header" : "header and skeleton";
  if (e.kind == kUnitTable) return "unit table";
  std::string s;
  if (kms) {
    s = "unit " + std::to_string(e.owner);
    if (e.kind != kPacketTable) s += " packet " + std::to_string(e.sub);
  } else {
    s = e.kind == kPacketTable ? std::string{} : "packet " + std::to_string(e.owner);
  }
  if (!s.empty()) s += ' ';
  return s + kNames[e.kind];
}

void check_overlaps(std::vector<Extent> extents, bool kms, Diagnostics& out) {
  // Widest first on a tie, then in storage order: the later-stored of two twins is reported.
  const auto order = [](const Extent& a, const Extent& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.end != b.end) return a.end > b.end;
    if (a.owner != b.owner) return a.owner < b.owner;
    if (a.sub != b.sub) return a.sub < b.sub;
    return a.kind < b.kind;
  };
  if (!std::is_sorted(extents.begin(), extents.end(), order)) std::sort(extents.begin(), extents.end(), order);
  std::size_t widest = 0;  // the extent reaching furthest so far
  bool have = false;
  for (std::size_t i = 0; i < extents.size(); ++i) {
    const Extent& e = extents[i];
    if (e.end <= e.begin) continue;
    if (have && e.begin < extents[widest].end) {
      const Extent& o = extents[widest];
      out.add(Severity::error, e.begin, extent_label(e, kms), "overlaps " + extent_label(o, kms),
              "to start at or after " + hex(o.end), hex(e.begin));
    }
    if (!have || e.end > extents[widest].end) {
      widest = i;
      have = true;
    }
  }
}

Aabb s16_bounds(Bytes records, std::size_t count, float scale) {
  if (count == 0) return {};
  // Four lanes per record (the fourth is ignored): a shape compilers vectorise.
  std::int16_t lo[4] = {32767, 32767, 32767, 32767};
  std::int16_t hi[4] = {-32768, -32768, -32768, -32768};
  const std::uint8_t* p = records.data();
  for (std::size_t i = 0; i < count; ++i) {
    std::int16_t v[4];
    std::memcpy(v, p + i * 8, 8);
    for (int c = 0; c < 4; ++c) {
      lo[c] = v[c] < lo[c] ? v[c] : lo[c];
      hi[c] = v[c] > hi[c] ? v[c] : hi[c];
    }
  }
  Aabb b;
  for (int c = 0; c < 3; ++c) {
    b.lo[c] = static_cast<float>(lo[c]) * scale;
    b.hi[c] = static_cast<float>(hi[c]) * scale;
  }
  return b;
}

bool box_holds(const Vec3& lo, const Vec3& hi, const Aabb& pts, float eps) {
  if (pts.empty()) return true;
  const float l[3] = {lo.x, lo.y, lo.z};
  const float h[3] = {hi.x, hi.y, hi.z};
  for (int c = 0; c < 3; ++c) {
    const float tol = eps + 1e-4f * std::max(std::fabs(l[c]), std::fabs(h[c]));
    // Written so that NaN bounds fail the check.
    if (!(pts.lo[c] >= l[c] - tol && pts.hi[c] <= h[c] + tol)) return false;
  }
  return true;
}

std::string vec_text(const Vec3& v) {
  char b[96];
  std::snprintf(b, sizeof b, "[%g, %g, %g]", static_cast<double>(v.x), static_cast<double>(v.y),
                static_cast<double>(v.z));
  return b;
}

}  // namespace boneyard::mgs2::detail
