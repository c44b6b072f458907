#include "boneyard/mgs2/strips.h"

#include <algorithm>

namespace boneyard::mgs2 {

std::vector<Triangle> decode_strip(Bytes records, std::size_t count) {
  std::vector<Triangle> out;
  out.reserve(count);
  for_each_strip_triangle(records, count, [&](const Triangle& t) { out.push_back(t); });
  return out;
}

std::size_t count_strip_triangles(Bytes records, std::size_t count) {
  std::size_t n = 0;
  for_each_strip_triangle(records, count, [&](const Triangle&) { ++n; });
  return n;
}

namespace {

class StripBuilder {
 public:
  explicit StripBuilder(const StripEncodeOptions& o) : opt_(o), limit_(std::max<std::size_t>(o.max_vertices, 3)) {}

  void add(const Triangle& t) {
    if (try_continue(t) || try_single_restart(t)) return;
    if (cur_.size() + 3 > limit_) flush();
    // A fresh strip: a, c (both non-drawing), then b closes (i-2, i, i-1) = (a, b, c).
    push(t[0], true);
    push(t[2], true);
    push(t[1], false);
    emitted_ = 1;
  }

  std::vector<std::vector<StripVertex>> finish() {
    flush();
    return std::move(packets_);
  }

 private:
  std::uint16_t kick(std::uint32_t source, bool no_draw) const {
    std::uint16_t low = kKickDefaultLow;
    if (source < opt_.source_kicks.size()) low = static_cast<std::uint16_t>(opt_.source_kicks[source] & 0x7FFF);
    return static_cast<std::uint16_t>(low | (no_draw ? kKickNoDraw : 0));
  }
  void push(std::uint32_t source, bool no_draw) { cur_.push_back(StripVertex{source, kick(source, no_draw)}); }

  // The next triangle of the running strip is (p, x, q) after an even count, (p, q, x) after an
  // odd one, p and q being the last two strip vertices.
  bool try_continue(const Triangle& t) {
    if (cur_.size() < 2 || cur_.size() + 1 > limit_) return false;
    const std::uint32_t p = cur_[cur_.size() - 2].source;
    const std::uint32_t q = cur_[cur_.size() - 1].source;
    for (int r = 0; r < 3; ++r) {
      const std::uint32_t a = t[r], b = t[(r + 1) % 3], c = t[(r + 2) % 3];
      if (a != p) continue;
      const bool odd = (emitted_ & 1U) != 0;
      if (odd && b == q) {
        push(c, false);
      } else if (!odd && c == q) {
        push(b, false);
      } else {
        continue;
      }
      ++emitted_;
      return true;
    }
    return false;
  }

  // One non-drawing vertex y restarts the winding: then x closes (q, x, y).
  bool try_single_restart(const Triangle& t) {
    if (cur_.empty() || cur_.size() + 2 > limit_) return false;
    const std::uint32_t q = cur_.back().source;
    for (int r = 0; r < 3; ++r) {
      if (t[r] != q) continue;
      push(t[(r + 2) % 3], true);
      push(t[(r + 1) % 3], false);
      emitted_ = 1;
      return true;
    }
    return false;
  }

  void flush() {
    if (!cur_.empty()) packets_.push_back(std::move(cur_));
    cur_.clear();
    emitted_ = 0;
  }

  const StripEncodeOptions& opt_;
  std::size_t limit_;
  std::vector<StripVertex> cur_;
  std::vector<std::vector<StripVertex>> packets_;
  std::uint32_t emitted_ = 0;
};

}  // namespace

std::vector<Triangle> order_for_strips(std::span<const Triangle> triangles) {
  // Directed edges a->b (as they run in a triangle's winding) with their triangle, sorted by edge;
  // among triangles holding the same edge the later one comes first (the order this function has
  // always tried them in; it decides which of several is taken, so the output depends on it).
  struct Edge {
    std::uint64_t key;
    std::uint32_t triangle;
  };
  const auto key = [](std::uint32_t a, std::uint32_t b) { return (std::uint64_t(a) << 32) | b; };
  std::vector<Edge> edges;
  edges.reserve(triangles.size() * 3);
  for (std::uint32_t t = 0; t < triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) edges.push_back({key(triangles[t][k], triangles[t][(k + 1) % 3]), t});
  std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
    return x.key != y.key ? x.key < y.key : x.triangle > y.triangle;
  });
  std::vector<std::uint8_t> used(triangles.size(), 0);
  std::vector<Triangle> out;
  out.reserve(triangles.size());
  // An unused triangle holding the directed edge a->b, and its third vertex.
  const auto take = [&](std::uint32_t a, std::uint32_t b, std::uint32_t& third) -> bool {
    const std::uint64_t wanted = key(a, b);
    auto it = std::lower_bound(edges.begin(), edges.end(), wanted, [](const Edge& e, std::uint64_t k) { return e.key < k; });
    for (; it != edges.end() && it->key == wanted; ++it) {
      const Triangle& t = triangles[it->triangle];
      if (used[it->triangle] || t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;
      for (int k = 0; k < 3; ++k)
        if (t[k] == a) third = t[(k + 2) % 3];
      used[it->triangle] = 1;
      out.push_back(t);
      return true;
    }
    return false;
  };
  for (std::uint32_t s = 0; s < triangles.size(); ++s) {
    if (used[s]) continue;
    used[s] = 1;
    out.push_back(triangles[s]);
    // encode_strips starts (a, b, c) as a, c, b: the last two strip vertices are c, b, one
    // triangle emitted. After an odd count the next triangle holds edge p->q, else q->p.
    std::uint32_t p = triangles[s][2], q = triangles[s][1], x = 0;
    for (std::size_t emitted = 1;; ++emitted) {
      const bool odd = (emitted & 1) != 0;
      if (!(odd ? take(p, q, x) : take(q, p, x))) break;
      p = q, q = x;
    }
  }
  return out;
}

std::vector<std::vector<StripVertex>> encode_strips(std::span<const Triangle> triangles,
                                                    const StripEncodeOptions& options) {
  StripBuilder b(options);
  for (const auto& t : triangles) b.add(t);
  return b.finish();
}

}  // namespace boneyard::mgs2
