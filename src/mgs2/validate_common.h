// Internal checks shared by the KMS and EVM validators.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "boneyard/diagnostics.h"
#include "boneyard/mgs2_layout.h"

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

// Running "do all these points fit in the box?" for two readings of the box's space.
struct BoxCheck {
  Vec3 lo, hi;
  float eps = 0;
  bool local_ok = true;
  bool model_ok = true;
  std::uint64_t points = 0;

  static bool inside(const Vec3& lo, const Vec3& hi, float x, float y, float z, float eps) {
    auto in = [eps](float v, float a, float b) {
      const float tol = eps + 1e-4f * std::max(std::fabs(a), std::fabs(b));
      return v >= a - tol && v <= b + tol;
    };
    return in(x, lo.x, hi.x) && in(y, lo.y, hi.y) && in(z, lo.z, hi.z);
  }
  void add(float x, float y, float z, const Vec3& model_shift) {
    ++points;
    if (local_ok && !inside(lo, hi, x, y, z, eps)) local_ok = false;
    if (model_ok && !inside(lo, hi, x + model_shift.x, y + model_shift.y, z + model_shift.z, eps)) model_ok = false;
  }
  bool failed() const { return points != 0 && !local_ok && !model_ok; }
};

std::string vec_text(const Vec3& v);

// Kick-flag checks of one packet's strip: warnings for a drawing vertex 0 or 1 and for the
// reserved bit. `base` is the array's file offset, `path` the packet path.
void check_kicks(Bytes records, std::size_t count, std::uint64_t base, const std::string& path, Diagnostics& out);

inline void check_aligned(const ArrayRef& a, std::uint64_t field_offset, const std::string& path, Diagnostics& out) {
  if (a.present() && a.pointer % 16 != 0) {
    out.add(Severity::error, field_offset, path, "array not 16-byte aligned", "an offset multiple of 16", hex(a.pointer));
  }
}

}  // namespace boneyard::mgs2::detail
