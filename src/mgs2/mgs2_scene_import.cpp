// Scene -> .kms: units from the model joints, packets from primitives. A primitive that still
// matches the strip in its extras keeps its vertex order and kick flags (byte-exact round trip);
// any other is re-stripped (encode_strips) per unit within the packet limit.
#include <algorithm>
#include <cmath>
#include <map>

#include "boneyard/strcode.h"
#include "mgs2_scene_import.h"

namespace boneyard::mgs2 {

using namespace detail;

namespace {

struct Moved {
  double total = 0, max = 0;
  std::size_t vertices = 0;
  void add(double w) {
    if (w <= 1e-6) return;
    total += w, max = std::max(max, w), ++vertices;
  }
};

double weight_on(const SrcVertex& v, int joint) {
  double w = 0;
  for (int k = 0; k < 4; ++k)
    if (v.weights[k] > 0 && v.joints[k] == joint) w += v.weights[k];
  return w;
}

// The unit of a triangle: the joint U whose pair (U, parent of U) covers the most of its three
// vertices' weight (KMS blends a unit only with its parent), then the one holding most itself.
int triangle_unit(const SrcPrimitive& p, const Triangle& t, const std::vector<KmsUnit>& units) {
  std::map<int, double> sum;
  for (auto i : t)
    for (int k = 0; k < 4; ++k)
      if (p.verts[i].weights[k] > 0) sum[p.verts[i].joints[k]] += p.verts[i].weights[k];
  int best = 0;
  double best_cover = -1, best_own = -1;
  for (auto [j, w] : sum) {
    const int parent = j >= 0 && std::size_t(j) < units.size() ? units[std::size_t(j)].parent : -1;
    const double cover = w + (parent >= 0 && parent < j && sum.count(parent) ? sum[parent] : 0.0);
    if (cover > best_cover + 1e-9 || (std::fabs(cover - best_cover) <= 1e-9 && w > best_own))
      best = j, best_cover = cover, best_own = w;
  }
  return best;
}

struct PacketOut {
  std::size_t unit = 0;
  std::size_t order = 0;  // stored packet index, or after them
  KmsPacket packet;
};

}  // namespace

Result<std::vector<std::uint8_t>> scene_to_kms(const scene::Scene& s, const ImportOptions& o, Diagnostics& warnings) {
  auto gathered = gather(s, o, "kms", warnings);
  if (!gathered) return gathered.error();
  const Gathered& g = gathered.value();
  return catch_parse_errors([&]() -> std::vector<std::uint8_t> {
    const Json empty = Json::object();
    const Json& h = g.header ? *g.header : empty;
    const KmsModel* tpl = o.kms_template;
    const std::size_t n_units = g.skeleton.parent.size();
    if (n_units > 0x7FFFFFFF) fail(0, "skeleton", "too many units", "< 2^31", std::to_string(n_units));
    KmsModel m;
    m.layout = target_layout(o.layout, g.header, tpl ? std::optional<Layout>(tpl->layout) : std::nullopt);
    KmsHeader& hd = m.header;
    if (tpl) hd = tpl->header;
    else {
      hd.data_format = kKmsNorm;
      hd.texture = strcode(o.model_name);
    }
    hd.data_format = jnum<std::uint32_t>(h, "data_format", hd.data_format);
    hd.texture = jnum<std::uint32_t>(h, "texture", hd.texture);
    hd.pad = jarray<std::uint32_t, 3>(h, "pad", hd.pad);
    hd.position = jvec3(h, "position", hd.position);
    Vec3 stored_min = jvec3(h, "bbox_min", hd.bbox_min), stored_max = jvec3(h, "bbox_max", hd.bbox_max);
    const bool same_units = tpl && tpl->units.size() == n_units;
    // Units: raw extras values when they still give the glTF's rest positions.
    std::vector<std::array<double, 3>> world(n_units);
    std::size_t regular = 0;
    m.units.resize(n_units);
    for (std::size_t i = 0; i < n_units; ++i) {
      KmsUnit& u = m.units[i];
      const Json* e = g.skeleton.extras[i];
      const Json& je = e ? *e : empty;
      if (same_units) u.type = tpl->units[i].type, u.pad = tpl->units[i].pad, u.bbox_min = tpl->units[i].bbox_min,
                      u.bbox_max = tpl->units[i].bbox_max;
      u.type = jnum<std::uint32_t>(je, "type", u.type);
      u.pad = jarray<std::uint64_t, 3>(je, "pad", u.pad);
      u.bbox_min = jvec3(je, "bbox_min", u.bbox_min);
      u.bbox_max = jvec3(je, "bbox_max", u.bbox_max);
      const int p = g.skeleton.parent[i];
      const auto stored_parent = jnum<std::int64_t>(je, "parent", p);
      u.parent = p >= 0 || stored_parent == p || stored_parent >= 0 ? p : static_cast<std::int32_t>(stored_parent);
      const std::array<double, 3> base = p >= 0 ? world[std::size_t(p)]
                                                : std::array<double, 3>{hd.position.x, hd.position.y, hd.position.z};
      const Vec3 raw = jvec3(je, "position", Vec3{float(g.skeleton.world[i][0] - base[0]), float(g.skeleton.world[i][1] - base[1]),
                                                  float(g.skeleton.world[i][2] - base[2])});
      const double err = std::fabs(base[0] + raw.x - g.skeleton.world[i][0]) + std::fabs(base[1] + raw.y - g.skeleton.world[i][1]) +
                         std::fabs(base[2] + raw.z - g.skeleton.world[i][2]);
      const double tolerance = 1e-6 * (1 + std::fabs(base[0]) + std::fabs(base[1]) + std::fabs(base[2])) / g.scale + 1e-3;
      u.position = err <= tolerance ? raw
                                    : Vec3{float(g.skeleton.world[i][0] - base[0]), float(g.skeleton.world[i][1] - base[1]),
                                           float(g.skeleton.world[i][2] - base[2])};
      world[i] = {base[0] + u.position.x, base[1] + u.position.y, base[2] + u.position.z};
      if ((u.type & kUnitExtend) == 0) ++regular;
    }
    hd.n_models = jnum<std::uint32_t>(h, "n_models", same_units ? tpl->header.n_models : static_cast<std::uint32_t>(regular));
    if (hd.n_models > n_units) hd.n_models = static_cast<std::uint32_t>(regular);
    const std::size_t limit = m.packet_vertex_limit();

    std::vector<PacketOut> out;
    Storage storage;
    Moved moved;
    std::size_t next_order = 1u << 30;
    // One packet from strip vertices `sv` (sources into p.verts) of unit u.
    auto make_packet = [&](const SrcPrimitive& p, std::size_t u, const std::vector<StripVertex>& sv, bool exact) {
      const int parent = m.units[u].parent >= 0 && std::size_t(m.units[u].parent) < u ? m.units[u].parent : -1;
      const Json& pe = p.packet ? *p.packet : empty;
      KmsPacket k;
      bool envelope = false;
      for (const auto& x : sv) envelope |= parent >= 0 && weight_on(p.verts[x.source], parent) > 1.0 / 8192;
      const std::uint32_t default_flag = 0x48 | (p.uv_sets > 1 ? 0x80 : 0) | (p.uv_sets > 2 ? 0x100 : 0) |
                                         (p.tex_id[1] ? 0x10 : 0) | (p.tex_id[2] ? 0x20 : 0);
      k.flag = jnum<std::uint32_t>(pe, "flag", default_flag);
      if (!exact || envelope) k.flag = envelope ? (k.flag | kPackEnvelope) : (k.flag & ~kPackEnvelope);
      envelope = (k.flag & kPackEnvelope) != 0 && parent >= 0;
      k.tex_id = p.tex_id;
      k.tex_pad = jarray<std::uint32_t, 3>(pe, "tex_pad", k.tex_pad);
      k.rgbs = jnum<std::uint64_t>(pe, "rgbs", 0);
      k.pad = jnum<std::uint64_t>(pe, "pad", 0);
      k.pad2 = jnum<std::uint64_t>(pe, "pad2", 0);
      const auto n = static_cast<std::uint32_t>(sv.size());
      const auto stored_n = jnum<std::uint32_t>(pe, "n_verts", n);
      k.n_verts = exact && ((stored_n >> 16) != 0 ? (stored_n & 0xFFFF) : stored_n) == n ? stored_n : n;
      const auto raw_w = exact ? jints<std::int16_t>(pe, "w") : std::vector<std::int16_t>{};
      const auto raw_n = exact ? jints<std::int16_t>(pe, "normals") : std::vector<std::int16_t>{};
      std::array<bool, 3> sets{true, p.uv_sets > 1, p.uv_sets > 2};
      if (exact)
        if (const Json* us = jget(pe, "uv_sets"); us && us->is_array() && us->size() == 3)
          for (int q = 0; q < 3; ++q) sets[q] = (*us)[q].is_boolean() && (*us)[q].get<bool>();
      std::vector<std::uint8_t> vb, nb, ub[3];
      const std::string where = "unit " + std::to_string(u) + " vertex";
      for (std::size_t i = 0; i < sv.size(); ++i) {
        const SrcVertex& v = p.verts[sv[i].source];
        for (int c = 0; c < 3; ++c) put_s16(vb, to_s16(v.pos[c] - world[u][c], where + " position", true));
        const double wu = weight_on(v, static_cast<int>(u));
        const double wp = parent >= 0 ? weight_on(v, parent) : 0;
        // Weights are shares of the 4 kept influences; the glTF's further ones (dropped) moved too.
        moved.add(v.dropped + (1 - v.dropped) * (envelope ? 1 - wu - wp : 1 - wu));
        std::int16_t w = 4096;
        if (envelope) w = static_cast<std::int16_t>(std::lround(std::clamp(wu / std::max(wu + wp, 1e-9), 0.0, 1.0) * 4096));
        if (raw_w.size() == sv.size()) {
          const double stored = std::clamp(raw_w[i] / 4096.0, 0.0, 1.0);
          if (!envelope || std::fabs(stored - wu / std::max(wu + wp, 1e-9)) <= 1.0 / 8192 + 1e-6) w = raw_w[i];
        }
        put_s16(vb, w);
        bool raw_ok = raw_n.size() == sv.size() * 3;
        if (raw_ok) {
          const double x = raw_n[i * 3] / 4096.0, y = raw_n[i * 3 + 1] / 4096.0, z = raw_n[i * 3 + 2] / 4096.0;
          const double len = std::sqrt(x * x + y * y + z * z);
          raw_ok = len == 0 ? v.normal[1] == 1 && v.normal[0] == 0 && v.normal[2] == 0
                            : std::fabs(x / len - v.normal[0]) + std::fabs(y / len - v.normal[1]) + std::fabs(z / len - v.normal[2]) < 1e-4;
        }
        for (int c = 0; c < 3; ++c)
          put_s16(nb, raw_ok ? raw_n[i * 3 + c] : to_s16(double(v.normal[c]) * 4096, where + " normal", false));
        put_s16(nb, static_cast<std::int16_t>(sv[i].kick));
        for (int q = 0; q < 3; ++q)
          if (sets[q])
            for (int c = 0; c < 2; ++c) put_s16(ub[q], to_s16(double(v.uv[q][c]) * 4096, where + " UV" + std::to_string(q) + " (outside -8..8)", false));
      }
      k.verts = storage.add(std::move(vb));
      k.norms = storage.add(std::move(nb));
      for (int q = 0; q < 3; ++q)
        if (sets[q]) k.uvs[q] = storage.add(std::move(ub[q]));
      return k;
    };
    for (const auto& p : g.primitives) {
      const auto kicks = exact_kicks(p);
      const bool own_unit = p.unit >= 0 && std::size_t(p.unit) < n_units;
      const std::size_t order = p.packet ? jnum<std::size_t>(*p.packet, "index", next_order) : next_order;
      if (!kicks.empty() && own_unit && kicks.size() <= limit) {
        std::vector<StripVertex> sv(kicks.size());
        for (std::size_t i = 0; i < sv.size(); ++i) sv[i] = {static_cast<std::uint32_t>(i), kicks[i]};
        out.push_back({std::size_t(p.unit), order, make_packet(p, std::size_t(p.unit), sv, true)});
        continue;
      }
      std::map<std::size_t, std::vector<Triangle>> by_unit;
      for (const auto& t : p.tris) by_unit[own_unit ? std::size_t(p.unit) : std::size_t(triangle_unit(p, t, m.units))].push_back(t);
      std::vector<std::uint16_t> source_kicks;  // low bits (culling hints) of the stored strip, when known
      if (p.packet)
        for (auto k : jints<std::int16_t>(*p.packet, "kicks")) source_kicks.push_back(static_cast<std::uint16_t>(k));
      if (source_kicks.size() != p.verts.size()) source_kicks.clear();
      StripEncodeOptions so;
      so.max_vertices = limit;
      so.source_kicks = source_kicks;
      for (const auto& [u, tris] : by_unit)
        for (const auto& strip : encode_strips(order_for_strips(tris), so))
          out.push_back({u, next_order++, make_packet(p, u, strip, false)});
    }
    // Packets that draw nothing live only in our mesh extras.
    for (const Json* me : g.mesh_extras) {
      const Json* list = me ? jget(*me, "without_triangles") : nullptr;
      const auto u = me ? jnum<std::int64_t>(*me, "unit", -1) : -1;
      if (list == nullptr || !list->is_array() || u < 0 || std::size_t(u) >= n_units) continue;
      for (const auto& e : *list) {
        KmsPacket k;
        k.flag = jnum<std::uint32_t>(e, "flag", 0);
        k.n_verts = jnum<std::uint32_t>(e, "n_verts", 0);
        k.tex_id = jarray<std::uint32_t, 3>(e, "tex_id", k.tex_id);
        k.tex_pad = jarray<std::uint32_t, 3>(e, "tex_pad", k.tex_pad);
        k.rgbs = jnum<std::uint64_t>(e, "rgbs", 0), k.pad = jnum<std::uint64_t>(e, "pad", 0), k.pad2 = jnum<std::uint64_t>(e, "pad2", 0);
        auto bytes = [&](const Json& holder, const char* key) {
          std::vector<std::uint8_t> b;
          for (auto x : jints<std::int16_t>(holder, key)) put_s16(b, x);
          return b;
        };
        k.verts = storage.add(bytes(e, "verts"));
        k.norms = storage.add(bytes(e, "norms"));
        if (const Json* uvs = jget(e, "uvs"); uvs && uvs->is_array() && uvs->size() == 3)
          for (std::size_t q = 0; q < 3; ++q)
            if (!(*uvs)[q].is_null()) k.uvs[q] = storage.add(bytes(Json{{"a", (*uvs)[q]}}, "a"));
        if (k.verts.data.size() != std::size_t(k.vertex_count()) * 8) k.n_verts = static_cast<std::uint32_t>(k.verts.data.size() / 8);
        out.push_back({std::size_t(u), jnum<std::size_t>(e, "index", next_order++), k});
      }
    }
    std::stable_sort(out.begin(), out.end(), [](const PacketOut& a, const PacketOut& b) {
      return a.unit != b.unit ? a.unit < b.unit : a.order < b.order;
    });
    for (auto& po : out) m.units[po.unit].packets.push_back(std::move(po.packet));
    // Boxes: unit-local for units, model space for the header (docs/mgs2-gltf.md).
    std::vector<std::array<double, 3>> all, all_local;
    for (std::size_t i = 0; i < n_units; ++i) {
      KmsUnit& u = m.units[i];
      std::vector<std::array<double, 3>> pts;
      for (const auto& k : u.packets)
        for (std::size_t v = 0; v < k.verts.data.size() / 8; ++v) {
          pts.push_back({double(s16_at(k.verts.data, v, 0)), double(s16_at(k.verts.data, v, 1)), double(s16_at(k.verts.data, v, 2))});
          all.push_back({world[i][0] + pts.back()[0], world[i][1] + pts.back()[1], world[i][2] + pts.back()[2]});
        }
      all_local.insert(all_local.end(), pts.begin(), pts.end());
      std::vector<std::array<double, 3>> model(all.end() - static_cast<std::ptrdiff_t>(pts.size()), all.end());
      const Vec3 lo0 = u.bbox_min, hi0 = u.bbox_max;
      fit_box(pts, &u.bbox_min.x, &u.bbox_max.x, &lo0.x, &hi0.x, &model);
    }
    fit_box(all, &hd.bbox_min.x, &hd.bbox_max.x, &stored_min.x, &stored_max.x, &all_local);
    if (moved.vertices != 0)
      warnings.add(Severity::warning, 0, "weights",
                   "influences outside a vertex's unit and its parent were moved to them (KMS holds two)",
                   "0 weight moved", std::to_string(moved.vertices) + " vertices, total " + std::to_string(moved.total) +
                       ", largest " + std::to_string(moved.max));
    // The template's own placement (gaps, order, padding) when the structure is unchanged.
    if (tpl && tpl->layout == m.layout && tpl->units.size() == n_units) {
      bool same = true;
      for (std::size_t i = 0; i < n_units && same; ++i) {
        const auto& a = tpl->units[i].packets;
        const auto& b = m.units[i].packets;
        same = a.size() == b.size() && tpl->units[i].n_packs == a.size();
        for (std::size_t j = 0; j < a.size() && same; ++j) {
          same = a[j].verts.data.size() == b[j].verts.data.size() && a[j].norms.data.size() == b[j].norms.data.size();
          for (int q = 0; q < 3; ++q) same = same && a[j].uvs[q].present() == b[j].uvs[q].present() &&
                                             a[j].uvs[q].data.size() == b[j].uvs[q].data.size();
        }
      }
      if (same && tpl->header.n_x_models == n_units) {
        m.gaps = tpl->gaps;
        m.file_size = tpl->file_size;
        for (std::size_t i = 0; i < n_units; ++i) {
          m.units[i].file_offset = tpl->units[i].file_offset;
          m.units[i].packs = tpl->units[i].packs;
          m.units[i].n_packs = tpl->units[i].n_packs;
          for (std::size_t j = 0; j < m.units[i].packets.size(); ++j) {
            const KmsPacket& a = tpl->units[i].packets[j];
            KmsPacket& b = m.units[i].packets[j];
            b.file_offset = a.file_offset;
            b.verts.pointer = a.verts.pointer, b.norms.pointer = a.norms.pointer;
            for (int q = 0; q < 3; ++q) b.uvs[q].pointer = a.uvs[q].pointer;
          }
        }
        return write_kms(m);
      }
    }
    auto built = build_kms(m, m.layout);
    if (!built) throw ParseError(built.error());
    return std::move(built).value();
  });
}

}  // namespace boneyard::mgs2
