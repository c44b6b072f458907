#include "validate_common.h"

#include <algorithm>
#include <cstdio>

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
  // Stable, widest first on a tie: the later-stored of two twins is the one reported.
  std::stable_sort(extents.begin(), extents.end(), [](const Extent& a, const Extent& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
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

std::string vec_text(const Vec3& v) {
  char b[96];
  std::snprintf(b, sizeof b, "[%g, %g, %g]", static_cast<double>(v.x), static_cast<double>(v.y),
                static_cast<double>(v.z));
  return b;
}

void check_kicks(Bytes records, std::size_t count, std::uint64_t base, const std::string& path, Diagnostics& out) {
  for (std::size_t i = 0; i < std::min<std::size_t>(count, 2); ++i) {
    const std::uint16_t k = kick_at(records, i);
    if ((k & kKickNoDraw) == 0) {
      out.add(Severity::warning, base + i * 8 + 6, path + " vertex " + std::to_string(i) + " kick flag",
              "the first two vertices of a strip cannot close a triangle but this one is marked as drawing",
              "0x8000 set", hex(k));
    }
  }
  std::size_t reserved = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if ((kick_at(records, i) & kKickReserved) != 0) {
      if (reserved++ == 0) first = i;
    }
  }
  if (reserved != 0) {
    out.add(Severity::warning, base + first * 8 + 6, path + " vertex " + std::to_string(first) + " kick flag",
            "reserved bit 0x4000 set (used by the VU) on " + std::to_string(reserved) + " vertices", "0x4000 clear",
            hex(kick_at(records, first)));
  }
}

}  // namespace boneyard::mgs2::detail
