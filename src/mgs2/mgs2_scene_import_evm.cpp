// Scene -> .evm: skeleton entries from the model joints, packets of at most 32 strip vertices and
// 8 matrices, 4 influences per vertex quantised to 0.1.7 bytes that sum to 128. A primitive that
// still matches its extras keeps strip, palette and weight bytes (byte-exact round trip).
#include <algorithm>
#include <cmath>
#include <set>

#include "boneyard/strcode.h"
#include "mgs2_scene_import.h"

namespace boneyard::mgs2 {

using namespace detail;

namespace {

// Influences of one vertex as 4 bytes summing to 128 (largest remainders get the rounding).
std::array<std::uint8_t, 4> quantise(const SrcVertex& v, double& dropped) {
  std::array<std::uint8_t, 4> q{};
  int total = 0;
  std::array<double, 4> rem{};
  for (int k = 0; k < 4; ++k) {
    const double x = std::max(0.0f, v.weights[k]) * 128.0;
    q[k] = static_cast<std::uint8_t>(std::floor(x));
    rem[k] = x - q[k];
    total += q[k];
  }
  while (total < 128) {
    int best = 0;
    for (int k = 1; k < 4; ++k)
      if (rem[k] > rem[best]) best = k;
    if (rem[best] < 0) { q[0] = static_cast<std::uint8_t>(q[0] + 128 - total); break; }
    ++q[best], ++total, rem[best] = -1;
  }
  for (int k = 0; k < 4; ++k)
    if (v.weights[k] > 0 && q[k] == 0) dropped += v.weights[k];
  return q;
}

// Raw weight bytes of vertex i (8 per vertex) resolved through mat_id, normalised, compared with
// the glTF influences: equal within 1/128 means the stored bytes still hold.
bool raw_weights_match(const std::uint8_t* w, bool v2, const std::array<std::uint8_t, 8>& mat, const SrcVertex& v) {
  double by_joint[256] = {};
  double sum = 0;
  for (int k = 0; k < (v2 ? 4 : 8); ++k) {
    if (w[k] == 0) continue;
    const unsigned slot = v2 ? w[4 + k] / 4U : unsigned(k);
    if (slot >= 8 || mat[slot] == 0xFF) return false;
    by_joint[mat[slot]] += w[k];
    sum += w[k];
  }
  if (sum <= 0) return false;
  std::set<int> joints;
  for (int k = 0; k < 4; ++k)
    if (v.weights[k] > 0) joints.insert(v.joints[k]);
  for (int j = 0; j < 256; ++j)
    if (by_joint[j] > 0) joints.insert(j);
  for (int j : joints) {
    double src = 0;
    for (int k = 0; k < 4; ++k)
      if (v.weights[k] > 0 && v.joints[k] == j) src += v.weights[k];
    if (j >= 256 || std::fabs(by_joint[j] / sum - src) > 1.0 / 128 + 1e-4) return false;
  }
  return true;
}

struct PacketOut {
  std::size_t order = 0;
  EvmPacket packet;
};

}  // namespace

Result<std::vector<std::uint8_t>> scene_to_evm(const scene::Scene& s, const ImportOptions& o, Diagnostics& warnings) {
  auto gathered = gather(s, o, "evm", warnings);
  if (!gathered) return gathered.error();
  const Gathered& g = gathered.value();
  return catch_parse_errors([&]() -> std::vector<std::uint8_t> {
    const Json empty = Json::object();
    const Json& h = g.header ? *g.header : empty;
    const EvmModel* tpl = o.evm_template;
    const std::size_t nb = g.skeleton.parent.size();
    if (nb > 255) fail(0, "skeleton", "more joints than an EVM palette can address", "<= 255", std::to_string(nb));
    EvmModel m;
    m.layout = target_layout(o.layout, g.header, tpl ? std::optional<Layout>(tpl->layout) : std::nullopt);
    EvmHeader& hd = m.header;
    if (tpl) hd = tpl->header;
    else {
      hd.type = kEvmTypeFormatV2;
      hd.texture = strcode(o.model_name);
    }
    hd.type = jnum<std::uint32_t>(h, "type", hd.type);
    hd.texture = jnum<std::uint32_t>(h, "texture", hd.texture);
    hd.mc_pad = jarray<std::uint32_t, 3>(h, "mc_pad", hd.mc_pad);
    Vec3 stored_min = jvec3(h, "bbox_min", hd.bbox_min), stored_max = jvec3(h, "bbox_max", hd.bbox_max);
    const bool same_bones = tpl && tpl->bones.size() == nb;
    std::size_t regular = 0;
    m.bones.resize(nb);
    for (std::size_t i = 0; i < nb; ++i) {
      EvmBone& b = m.bones[i];
      if (same_bones) b = tpl->bones[i];
      const Json& je = g.skeleton.extras[i] ? *g.skeleton.extras[i] : empty;
      b.flag = jnum<std::uint32_t>(je, "flag", b.flag);
      b.box_min = jvec4(je, "box_min", b.box_min);
      b.box_max = jvec4(je, "box_max", b.box_max);
      const int p = g.skeleton.parent[i];
      const auto stored_parent = jnum<std::int64_t>(je, "parent", p);
      b.parent = p >= 0 || stored_parent == p || stored_parent >= 0 ? p : static_cast<std::int32_t>(stored_parent);
      const auto& w = g.skeleton.world[i];
      const double tol = 1e-6 * (1 + std::fabs(w[0]) + std::fabs(w[1]) + std::fabs(w[2])) / g.scale + 1e-3;
      const Vec3 root = jvec3(je, "root_offset", Vec3{float(w[0]), float(w[1]), float(w[2])});
      b.root_offset = std::fabs(root.x - w[0]) + std::fabs(root.y - w[1]) + std::fabs(root.z - w[2]) <= tol
                          ? root : Vec3{float(w[0]), float(w[1]), float(w[2])};
      const Vec3 base = p >= 0 ? m.bones[std::size_t(p)].root_offset : Vec3{};
      const Vec3 rel{b.root_offset.x - base.x, b.root_offset.y - base.y, b.root_offset.z - base.z};
      const Vec3 t = jvec3(je, "translation", rel);
      b.translation = std::fabs(t.x - rel.x) + std::fabs(t.y - rel.y) + std::fabs(t.z - rel.z) <= tol ? t : rel;
      if (!(g.skeleton.extras[i] && jget(je, "extended") && je["extended"] == true)) ++regular;
    }
    hd.n_models = jnum<std::uint32_t>(h, "n_models", same_bones ? tpl->header.n_models : static_cast<std::uint32_t>(regular));
    if (hd.n_models > nb) hd.n_models = static_cast<std::uint32_t>(regular);
    // Positions: 1.11.4 unless the type says LARGE; set LARGE (warned) when 1.11.4 cannot hold them.
    double extent = 0;
    for (const auto& p : g.primitives)
      for (const auto& v : p.verts)
        for (double c : v.pos) extent = std::max(extent, std::fabs(c));
    if ((hd.type & kEvmTypeLarge) == 0 && extent * 16 > 32767.5 && extent <= 32767.5) {
      hd.type |= kEvmTypeLarge;
      warnings.add(Severity::warning, 0, "type", "positions exceed 1.11.4 (+-2048 units): LARGE (1.15.0) set",
                   "<= 2047.97", std::to_string(extent));
    }
    const double to_stored = m.large() ? 1.0 : 16.0;
    const bool v2 = m.weights_v2();
    Storage storage;
    std::vector<PacketOut> out;
    std::size_t next_order = 1u << 30;
    double dropped = 0;
    std::size_t moved_vertices = 0;
    double beyond = 0, beyond_max = 0;  // influences past the 4 an EVM vertex holds (glTF JOINTS_1...)
    std::size_t beyond_vertices = 0;
    auto make_packet = [&](const SrcPrimitive& p, const std::vector<StripVertex>& sv, bool exact,
                           const std::array<std::uint8_t, 8>& mat, std::uint32_t n_mats) {
      const Json& pe = p.packet ? *p.packet : empty;
      EvmPacket k;
      k.flag = jnum<std::uint32_t>(pe, "flag", 0x48 | (p.uv_sets > 1 ? 0x80 : 0) | (p.uv_sets > 2 ? 0x100 : 0) |
                                                    (p.tex_id[1] ? 0x10 : 0) | (p.tex_id[2] ? 0x20 : 0));
      k.flag_pad = jnum<std::uint32_t>(pe, "flag_pad", 0);
      k.tex_id = p.tex_id;
      k.tex_pad = jarray<std::uint32_t, 3>(pe, "tex_pad", k.tex_pad);
      k.rgbs = jnum<std::uint64_t>(pe, "rgbs", 0), k.pad = jnum<std::uint64_t>(pe, "pad", 0);
      const auto n = static_cast<std::uint32_t>(sv.size());
      const auto stored_n = jnum<std::uint32_t>(pe, "n_verts", n);
      k.n_verts = exact && ((stored_n >> 16) != 0 ? (stored_n & 0xFFFF) : stored_n) == n ? stored_n : n;
      k.mat_id = mat;
      k.n_mats = n_mats;
      const auto raw_n = exact ? jints<std::int16_t>(pe, "normals") : std::vector<std::int16_t>{};
      const auto npad = exact ? jints<std::int16_t>(pe, "norm_pad") : std::vector<std::int16_t>{};
      const auto raw_w = exact ? jints<std::uint8_t>(pe, "weights") : std::vector<std::uint8_t>{};
      std::array<bool, 3> sets{true, p.uv_sets > 1, p.uv_sets > 2};
      std::array<std::vector<std::int16_t>, 3> uvw, uvp;
      if (exact) {
        if (const Json* us = jget(pe, "uv_sets"); us && us->is_array() && us->size() == 3)
          for (int q = 0; q < 3; ++q) sets[q] = (*us)[q].is_boolean() && (*us)[q].get<bool>();
        if (const Json* wp = jget(pe, "uv_wp"); wp && wp->is_array() && wp->size() == 3)
          for (std::size_t q = 0; q < 3; ++q) uvw[q] = jints<std::int16_t>((*wp)[q], "w"), uvp[q] = jints<std::int16_t>((*wp)[q], "pad");
      }
      std::vector<std::uint8_t> vb, nb2, ub[3], wb;
      for (std::size_t i = 0; i < sv.size(); ++i) {
        const SrcVertex& v = p.verts[sv[i].source];
        const std::string where = "packet vertex";
        for (int c = 0; c < 3; ++c) put_s16(vb, to_s16(v.pos[c] * to_stored, where + " position", true));
        put_s16(vb, static_cast<std::int16_t>(sv[i].kick));
        bool raw_ok = raw_n.size() == sv.size() * 3;
        if (raw_ok) {
          const double x = raw_n[i * 3] / 4096.0, y = raw_n[i * 3 + 1] / 4096.0, z = raw_n[i * 3 + 2] / 4096.0;
          const double len = std::sqrt(x * x + y * y + z * z);
          raw_ok = len == 0 ? v.normal[1] == 1 && v.normal[0] == 0 && v.normal[2] == 0
                            : std::fabs(x / len - v.normal[0]) + std::fabs(y / len - v.normal[1]) + std::fabs(z / len - v.normal[2]) < 1e-4;
        }
        for (int c = 0; c < 3; ++c) put_s16(nb2, raw_ok ? raw_n[i * 3 + c] : to_s16(double(v.normal[c]) * 4096, where + " normal", false));
        put_s16(nb2, npad.size() == sv.size() ? npad[i] : std::int16_t{0});
        for (int q = 0; q < 3; ++q) {
          if (!sets[q]) continue;
          for (int c = 0; c < 2; ++c)
            put_s16(ub[q], to_s16(double(v.uv[q][c]) * 4096, where + " UV" + std::to_string(q) + " (outside -8..8)", false));
          put_s16(ub[q], uvw[q].size() == sv.size() ? uvw[q][i] : std::int16_t{4096});
          put_s16(ub[q], uvp[q].size() == sv.size() ? uvp[q][i] : std::int16_t{0});
        }
        if (v.dropped > 0) beyond += v.dropped, ++beyond_vertices, beyond_max = std::max(beyond_max, double(v.dropped));
        if (raw_w.size() == sv.size() * 8 && raw_weights_match(&raw_w[i * 8], v2, mat, v)) {
          wb.insert(wb.end(), raw_w.begin() + std::ptrdiff_t(i * 8), raw_w.begin() + std::ptrdiff_t(i * 8 + 8));
          continue;
        }
        double lost = 0;
        const auto q = quantise(v, lost);
        if (lost > 0) dropped += lost, ++moved_vertices;
        std::array<std::uint8_t, 8> rec{};
        for (int s4 = 0; s4 < 4; ++s4) {
          if (q[s4] == 0) continue;
          const auto slot = static_cast<std::uint8_t>(std::find(mat.begin(), mat.end(), v.joints[s4]) - mat.begin());
          if (v2) rec[s4] = q[s4], rec[4 + s4] = static_cast<std::uint8_t>(slot * 4);
          else rec[slot] = static_cast<std::uint8_t>(rec[slot] + q[s4]);
        }
        wb.insert(wb.end(), rec.begin(), rec.end());
      }
      k.verts = storage.add(std::move(vb));
      k.norms = storage.add(std::move(nb2));
      for (int q = 0; q < 3; ++q)
        if (sets[q]) k.uvs[q] = storage.add(std::move(ub[q]));
      const bool had_weights = !exact || !p.packet || !jget(pe, "weights") || !pe["weights"].is_null();
      if (had_weights) k.weights = storage.add(std::move(wb));
      return k;
    };
    for (const auto& p : g.primitives) {
      const auto kicks = exact_kicks(p);
      const std::size_t order = p.packet ? jnum<std::size_t>(*p.packet, "index", next_order) : next_order;
      if (!kicks.empty() && kicks.size() <= kEvmPacketVertexLimit) {
        const auto mat = jarray<std::uint8_t, 8>(*p.packet, "mat_id", {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
        bool ok = true;  // every influence must have a slot in the stored palette
        for (const auto& v : p.verts)
          for (int k = 0; k < 4 && ok; ++k) ok = !(v.weights[k] > 0) || std::find(mat.begin(), mat.end(), v.joints[k]) != mat.end();
        if (ok) {
          std::vector<StripVertex> sv(kicks.size());
          for (std::size_t i = 0; i < sv.size(); ++i) sv[i] = {static_cast<std::uint32_t>(i), kicks[i]};
          out.push_back({order, make_packet(p, sv, true, mat, jnum<std::uint32_t>(*p.packet, "n_mats", 0))});
          continue;
        }
      }
      // Groups of consecutive triangles whose vertices use at most 8 joints, then strips.
      std::vector<std::vector<Triangle>> groups(1);
      std::set<int> used;
      for (const auto& t : order_for_strips(p.tris)) {  // strip order first: neighbours share joints too
        std::set<int> with = used;
        for (auto i : t)
          for (int k = 0; k < 4; ++k)
            if (p.verts[i].weights[k] > 0) with.insert(p.verts[i].joints[k]);
        if (with.size() > kEvmMaxMats && !groups.back().empty()) {
          groups.emplace_back();
          with.clear();
          for (auto i : t)
            for (int k = 0; k < 4; ++k)
              if (p.verts[i].weights[k] > 0) with.insert(p.verts[i].joints[k]);
        }
        if (with.size() > kEvmMaxMats) fail(0, "triangle", "one triangle uses more than 8 joints", "<= 8", std::to_string(with.size()));
        used = std::move(with);
        groups.back().push_back(t);
      }
      std::vector<std::uint16_t> source_kicks;
      if (p.packet)
        for (auto k : jints<std::int16_t>(*p.packet, "kicks")) source_kicks.push_back(static_cast<std::uint16_t>(k));
      if (source_kicks.size() != p.verts.size()) source_kicks.clear();
      StripEncodeOptions so;
      so.max_vertices = kEvmPacketVertexLimit;
      so.source_kicks = source_kicks;
      for (const auto& group : groups)
        for (const auto& strip : encode_strips(group, so)) {
          std::array<std::uint8_t, 8> mat{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
          std::uint32_t n_mats = 0;
          for (const auto& x : strip)
            for (int k = 0; k < 4; ++k) {
              const auto& v = p.verts[x.source];
              if (!(v.weights[k] > 0) || std::find(mat.begin(), mat.begin() + n_mats, v.joints[k]) != mat.begin() + n_mats) continue;
              mat[n_mats++] = static_cast<std::uint8_t>(v.joints[k]);
            }
          out.push_back({next_order++, make_packet(p, strip, false, mat, n_mats)});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const PacketOut& a, const PacketOut& b) { return a.order < b.order; });
    for (auto& po : out) m.packets.push_back(std::move(po.packet));
    // An EVM without packets has no packet pointer, and so no recognisable layout.
    if (m.packets.empty()) fail(0, "meshes", "no triangles to write", ">= 1 triangle", "0");
    if (moved_vertices != 0)
      warnings.add(Severity::warning, 0, "weights", "influences below 1/256 dropped by 0.1.7 quantisation", "0 weight moved",
                   std::to_string(moved_vertices) + " vertices, total " + std::to_string(dropped));
    if (beyond_vertices != 0)
      warnings.add(Severity::warning, 0, "weights",
                   "influences past the 4 heaviest were moved to them (EVM holds 4 per vertex)", "0 weight moved",
                   std::to_string(beyond_vertices) + " vertices, total " + std::to_string(beyond) + ", largest " +
                       std::to_string(beyond_max));
    // Boxes in model space: each joint's over the vertices it weighs, the header's over all.
    const double from_stored = 1.0 / to_stored;
    std::vector<std::vector<std::array<double, 3>>> per_joint(nb);
    std::vector<std::array<double, 3>> all;
    for (const auto& k : m.packets) {
      for (std::size_t v = 0; v < k.verts.data.size() / 8; ++v) {
        const std::array<double, 3> pt{s16_at(k.verts.data, v, 0) * from_stored, s16_at(k.verts.data, v, 1) * from_stored,
                                       s16_at(k.verts.data, v, 2) * from_stored};
        all.push_back(pt);
        std::array<EvmInfluence, 8> inf{};
        const std::size_t c = evm_influences(m, k, v, inf);
        for (std::size_t q = 0; q < c && q < inf.size(); ++q)
          if (inf[q].joint >= 0 && std::size_t(inf[q].joint) < nb) per_joint[std::size_t(inf[q].joint)].push_back(pt);
      }
    }
    for (std::size_t i = 0; i < nb; ++i) {
      EvmBone& b = m.bones[i];
      std::vector<std::array<double, 3>> local = per_joint[i];  // the other reading: joint-relative
      for (auto& pt : local) pt = {pt[0] - b.root_offset.x, pt[1] - b.root_offset.y, pt[2] - b.root_offset.z};
      const Vec4 lo0 = b.box_min, hi0 = b.box_max;
      fit_box(per_joint[i], &b.box_min.x, &b.box_max.x, &lo0.x, &hi0.x, &local);
    }
    fit_box(all, &hd.bbox_min.x, &hd.bbox_max.x, &stored_min.x, &stored_max.x);
    if (tpl && tpl->layout == m.layout && tpl->bones.size() == nb && tpl->packets.size() == m.packets.size() &&
        tpl->header.n_packs == m.packets.size()) {
      bool same = true;
      for (std::size_t j = 0; j < m.packets.size() && same; ++j) {
        const auto& a = tpl->packets[j];
        const auto& b = m.packets[j];
        same = a.verts.data.size() == b.verts.data.size() && a.norms.data.size() == b.norms.data.size() &&
               a.weights.present() == b.weights.present() && a.weights.data.size() == b.weights.data.size();
        for (int q = 0; q < 3; ++q) same = same && a.uvs[q].present() == b.uvs[q].present() && a.uvs[q].data.size() == b.uvs[q].data.size();
      }
      if (same) {
        m.gaps = tpl->gaps, m.file_size = tpl->file_size, hd.n_packs = tpl->header.n_packs, hd.packet = tpl->header.packet;
        for (std::size_t i = 0; i < nb; ++i) m.bones[i].file_offset = tpl->bones[i].file_offset;
        for (std::size_t j = 0; j < m.packets.size(); ++j) {
          const auto& a = tpl->packets[j];
          auto& b = m.packets[j];
          b.file_offset = a.file_offset, b.verts.pointer = a.verts.pointer, b.norms.pointer = a.norms.pointer;
          b.weights.pointer = a.weights.pointer;
          for (int q = 0; q < 3; ++q) b.uvs[q].pointer = a.uvs[q].pointer;
        }
        return write_evm(m);
      }
    }
    auto built = build_evm(m, m.layout);
    if (!built) throw ParseError(built.error());
    return std::move(built).value();
  });
}

}  // namespace boneyard::mgs2
