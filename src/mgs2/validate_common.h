// Internal checks shared by the KMS and EVM validators.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/mgs2/mgs2_layout.h"

namespace boneyard::mgs2::detail {

// One stored extent, labelled cheaply; the text is built only when a finding needs it.
struct Extent {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint32_t owner = 0;  // unit (KMS) or packet (EVM) index
  std::uint32_t sub = 0;    // packet index (KMS)
  std::uint8_t kind = 0;    // see extent_label
};

enum ExtentKind : std::uint8_t { kHeader, kUnitTable, kPacketTable, kVerts, kNorms, kUv0, kUv1, kUv2, kWeights };

// `kms`: KMS paths name units and packets; EVM paths name packets only.
std::string extent_label(const Extent& e, bool kms);

// Errors for extents that overlap one another (shared arrays included: the game relocates each
// pointer separately, and writers never share).
void check_overlaps(std::vector<Extent> extents, bool kms, Diagnostics& out);

// Errors for parents out of range and for cycles. `what` names an element ("unit", "bone");
// `parent_offset(i)` is where element i's parent field is stored. Returns true when acyclic.
template <class OffsetFn>
bool check_parents(const std::vector<std::int32_t>& parents, const char* what, OffsetFn parent_offset,
                   Diagnostics& out) {
  const std::size_t n = parents.size();
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t p = parents[i];
    if (p < -1 || p >= static_cast<std::int64_t>(n)) {
      out.add(Severity::error, parent_offset(i), std::string(what) + " " + std::to_string(i) + " parent",
              "parent out of range", "-1 or 0.." + std::to_string(n == 0 ? 0 : n - 1), std::to_string(p));
      ok = false;
    }
  }
  // 0 = unvisited, 1 = on the current walk, 2 = known to reach a root (or a reported cycle).
  std::vector<std::uint8_t> state(n, 0);
  std::vector<std::size_t> walk;
  for (std::size_t i = 0; i < n; ++i) {
    walk.clear();
    std::size_t cur = i;
    while (true) {
      if (state[cur] == 2) break;
      if (state[cur] == 1) {
        out.add(Severity::error, parent_offset(cur), std::string(what) + " " + std::to_string(cur) + " parent",
                "parent cycle", "a chain that ends at a root (-1)",
                "a cycle through " + std::string(what) + " " + std::to_string(cur));
        ok = false;
        break;
      }
      state[cur] = 1;
      walk.push_back(cur);
      const std::int32_t p = parents[cur];
      if (p < 0 || p >= static_cast<std::int64_t>(n)) break;
      cur = static_cast<std::size_t>(p);
    }
    for (auto w : walk) state[w] = 2;
  }
  return ok;
}

// Bounds of a set of points. Checking a box against the bounds of the points is the same as
// checking every point, and much cheaper (the validator must run at disk speed).
struct Aabb {
  float lo[3] = {HUGE_VALF, HUGE_VALF, HUGE_VALF};
  float hi[3] = {-HUGE_VALF, -HUGE_VALF, -HUGE_VALF};
  bool empty() const { return lo[0] > hi[0]; }
  void add(float x, float y, float z) {
    lo[0] = std::min(lo[0], x);
    lo[1] = std::min(lo[1], y);
    lo[2] = std::min(lo[2], z);
    hi[0] = std::max(hi[0], x);
    hi[1] = std::max(hi[1], y);
    hi[2] = std::max(hi[2], z);
  }
  void merge(const Aabb& o) {
    for (int i = 0; i < 3; ++i) {
      lo[i] = std::min(lo[i], o.lo[i]);
      hi[i] = std::max(hi[i], o.hi[i]);
    }
  }
  Aabb shifted(const Vec3& d) const {
    Aabb r = *this;
    const float s[3] = {d.x, d.y, d.z};
    for (int i = 0; i < 3; ++i) {
      r.lo[i] += s[i];
      r.hi[i] += s[i];
    }
    return r;
  }
};

// Bounds of the first three s16 of `count` 8-byte records, times `scale`.
Aabb s16_bounds(Bytes records, std::size_t count, float scale);

// Whether box [lo, hi] holds `pts`, within half a stored unit (`eps`) plus 1e-4 relative.
bool box_holds(const Vec3& lo, const Vec3& hi, const Aabb& pts, float eps);

std::string vec_text(const Vec3& v);

// Kick-flag checks of one packet's strip: warnings for a drawing vertex 0 or 1 and for the
// reserved bit. `base` is the array's file offset; `path()` builds the array's path (only when
// there is something to report: validation must not allocate per packet).
template <class PathFn>
void check_kicks(Bytes records, std::size_t count, std::uint64_t base, PathFn path, Diagnostics& out) {
  for (std::size_t i = 0; i < std::min<std::size_t>(count, 2); ++i) {
    const std::uint16_t k = kick_at(records, i);
    if ((k & kKickNoDraw) == 0) {
      out.add(Severity::warning, base + i * 8 + 6, path() + " vertex " + std::to_string(i) + " kick flag",
              "the first two vertices of a strip cannot close a triangle but this one is marked as drawing",
              "0x8000 set", hex(k));
    }
  }
  std::size_t reserved = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if ((kick_at(records, i) & kKickReserved) != 0 && reserved++ == 0) first = i;
  }
  if (reserved != 0) {
    out.add(Severity::warning, base + first * 8 + 6, path() + " vertex " + std::to_string(first) + " kick flag",
            "reserved bit 0x4000 set (used by the VU) on " + std::to_string(reserved) + " vertices", "0x4000 clear",
            hex(kick_at(records, first)));
  }
}

template <class PathFn>
void check_aligned(const ArrayRef& a, std::uint64_t field_offset, PathFn path, Diagnostics& out) {
  if (a.present() && a.pointer % 16 != 0) {
    out.add(Severity::error, field_offset, path(), "array not 16-byte aligned", "an offset multiple of 16",
            hex(a.pointer));
  }
}

}  // namespace boneyard::mgs2::detail
