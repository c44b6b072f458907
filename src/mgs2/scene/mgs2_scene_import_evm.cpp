// Scene -> .evm: skeleton entries from the model joints, packets of at most 32 strip vertices and
// 8 matrices, 4 influences per vertex quantised to 0.1.7 bytes that sum to 128. A primitive that
// still matches its extras keeps strip, palette and weight bytes (byte-exact round trip).
#include <algorithm>
#include <cmath>

#include "boneyard/mgs2/strcode.h"
#include "core/byte_reader.h"
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
// the glTF influences: equal within 1/128 means the stored bytes still hold. Runs for every vertex
// of an exact packet, so the (at most 8) stored joints live in small arrays.
bool raw_weights_match(const std::uint8_t* w, bool v2, const std::array<std::uint8_t, 8>& mat, const SrcVertex& v) {
  std::array<int, 8> joint{};
  std::array<double, 8> stored{};
  std::size_t n = 0;
  double sum = 0;
  for (int k = 0; k < (v2 ? 4 : 8); ++k) {
    if (w[k] == 0) continue;
    const unsigned slot = v2 ? w[4 + k] / 4U : unsigned(k);
    if (slot >= 8 || mat[slot] == 0xFF) return false;
    std::size_t at = 0;
    while (at < n && joint[at] != mat[slot]) ++at;
    if (at == n) joint[n++] = mat[slot];
    stored[at] += w[k];
    sum += w[k];
  }
  if (sum <= 0) return false;
  const auto source_weight = [&](int j) {
    double src = 0;
    for (int k = 0; k < 4; ++k)
      if (v.weights[k] > 0 && v.joints[k] == j) src += v.weights[k];
    return src;
  };
  const auto stored_weight = [&](int j) {
    for (std::size_t a = 0; a < n; ++a)
      if (joint[a] == j) return stored[a];
    return 0.0;
  };
  // Every joint either side names must agree.
  for (int k = 0; k < 4; ++k) {
    if (!(v.weights[k] > 0)) continue;
    const int j = v.joints[k];
    if (j >= 256 || std::fabs(stored_weight(j) / sum - source_weight(j)) > 1.0 / 128 + 1e-4) return false;
  }
  for (std::size_t a = 0; a < n; ++a)
    if (std::fabs(stored[a] / sum - source_weight(joint[a])) > 1.0 / 128 + 1e-4) return false;
  return true;
}

struct EvmPacketOut {
  std::size_t order = 0;
  EvmPacket packet;
};

// The steps of scene_to_evm over one gathered scene; the members are what the steps share.
class EvmBuilder {
 public:
  EvmBuilder(const Gathered& g, const Mgs2ImportOptions& o, Diagnostics& warnings)
      : g_(g), o_(o), warnings_(warnings), h_(g.header ? *g.header : empty_), tpl_(o.evm_template),
        nb_(g.skeleton.parent.size()) {}

  // Header, bones and packets from the gathered scene. Fails through fail(), which scene_to_evm
  // turns into its Result.
  void assemble() {
    if (nb_ > 255) fail(0, "skeleton", "more joints than an EVM palette can address", "<= 255", std::to_string(nb_));
    build_header();
    build_bones();
    choose_position_format();
    packets_from_primitives();
    std::stable_sort(out_.begin(), out_.end(), [](const EvmPacketOut& a, const EvmPacketOut& b) { return a.order < b.order; });
    for (auto& po : out_) m_.packets.push_back(std::move(po.packet));
    // An EVM without packets has no packet pointer, and so no recognisable layout.
    if (m_.packets.empty()) fail(0, "meshes", "no triangles to write", ">= 1 triangle", "0");
  }

  // n_mats, weight warnings and boxes, then the bytes: at the template's offsets when its
  // placement still fits, else a fresh layout.
  Result<std::vector<std::uint8_t>> finish() {
    if (o_.n_mats)
      if (auto r = set_n_mats(m_, *o_.n_mats); !r) return r.error();
    warn_weights();
    fit_boxes();
    if (keeps_template_placement()) {
      copy_template_placement();
      return write_evm(m_);
    }
    return build_evm(m_, m_.layout);
  }

 private:
  void build_header() {
    m_.layout = choose_layout(o_, g_.header, tpl_ ? std::optional<Layout>(tpl_->layout) : std::nullopt, warnings_);
    EvmHeader& hd = m_.header;
    if (tpl_) hd = tpl_->header;
    else {
      hd.type = kEvmTypeFormatV2;
      hd.texture = strcode(o_.model_name);
    }
    hd.type = jnum<std::uint32_t>(h_, "type", hd.type);
    hd.texture = jnum<std::uint32_t>(h_, "texture", hd.texture);
    hd.mc_pad = jarray<std::uint32_t, 3>(h_, "mc_pad", hd.mc_pad);
    stored_min_ = jvec3(h_, "bbox_min", hd.bbox_min), stored_max_ = jvec3(h_, "bbox_max", hd.bbox_max);
  }

  // Bones: raw extras values when they still give the glTF's rest positions.
  void build_bones() {
    const bool same_bones = tpl_ && tpl_->bones.size() == nb_;
    std::size_t regular = 0;
    m_.bones.resize(nb_);
    for (std::size_t i = 0; i < nb_; ++i) {
      EvmBone& b = m_.bones[i];
      if (same_bones) b = tpl_->bones[i];
      const Json& je = g_.skeleton.extras[i] ? *g_.skeleton.extras[i] : empty_;
      b.flag = jnum<std::uint32_t>(je, "flag", b.flag);
      b.box_min = jvec4(je, "box_min", b.box_min);
      b.box_max = jvec4(je, "box_max", b.box_max);
      const int p = g_.skeleton.parent[i];
      b.parent = stored_parent(je, p);
      const auto& w = g_.skeleton.world[i];
      const double tol = 1e-6 * (1 + std::fabs(w[0]) + std::fabs(w[1]) + std::fabs(w[2])) / g_.scale + 1e-3;
      const Vec3 root = jvec3(je, "root_offset", Vec3{float(w[0]), float(w[1]), float(w[2])});
      b.root_offset = std::fabs(root.x - w[0]) + std::fabs(root.y - w[1]) + std::fabs(root.z - w[2]) <= tol
                          ? root : Vec3{float(w[0]), float(w[1]), float(w[2])};
      const Vec3 base = p >= 0 ? m_.bones[std::size_t(p)].root_offset : Vec3{};
      const Vec3 rel{b.root_offset.x - base.x, b.root_offset.y - base.y, b.root_offset.z - base.z};
      const Vec3 t = jvec3(je, "translation", rel);
      b.translation = std::fabs(t.x - rel.x) + std::fabs(t.y - rel.y) + std::fabs(t.z - rel.z) <= tol ? t : rel;
      // Blender stores the flag as a number (custom properties have no booleans).
      const Json* ext = jget(je, "extended");
      if (!(ext && ((ext->is_boolean() && ext->get<bool>()) || (ext->is_number() && ext->get<double>() != 0)))) ++regular;
    }
    EvmHeader& hd = m_.header;
    hd.n_models = jnum<std::uint32_t>(h_, "n_models", same_bones ? tpl_->header.n_models : static_cast<std::uint32_t>(regular));
    if (hd.n_models > nb_) hd.n_models = static_cast<std::uint32_t>(regular);
  }

  // Positions: 1.11.4 unless the type says LARGE; set LARGE (warned) when 1.11.4 cannot hold them.
  void choose_position_format() {
    EvmHeader& hd = m_.header;
    double extent = 0;
    for (const auto& p : g_.primitives)
      for (const auto& v : p.verts)
        for (double c : v.pos) extent = std::max(extent, std::fabs(c));
    if ((hd.type & kEvmTypeLarge) == 0 && extent * 16 > 32767.5 && extent <= 32767.5) {
      hd.type |= kEvmTypeLarge;
      warnings_.add(Severity::warning, 0, "type", "positions exceed 1.11.4 (+-2048 units): LARGE (1.15.0) set",
                    "<= 2047.97", std::to_string(extent));
    }
    to_stored_ = m_.large() ? 1.0 : 16.0;
    v2_ = m_.weights_v2();
  }

  // Appends vertex i's 8 weight bytes: the stored ones (raw_w, 8 per vertex of n) while they still
  // give the glTF's influences, else the influences quantised onto the palette `mat`.
  void put_weights(std::vector<std::uint8_t>& wb, const std::vector<std::uint8_t>& raw_w, std::size_t i, std::size_t n,
                   const std::array<std::uint8_t, 8>& mat, const SrcVertex& v) {
    if (raw_w.size() == n * 8 && raw_weights_match(&raw_w[i * 8], v2_, mat, v)) {
      wb.insert(wb.end(), raw_w.begin() + std::ptrdiff_t(i * 8), raw_w.begin() + std::ptrdiff_t(i * 8 + 8));
      return;
    }
    double lost = 0;
    const auto q = quantise(v, lost);
    if (lost > 0) dropped_ += lost, ++moved_vertices_;
    std::array<std::uint8_t, 8> rec{};
    for (int s4 = 0; s4 < 4; ++s4) {
      if (q[s4] == 0) continue;
      const auto slot = static_cast<std::uint8_t>(std::find(mat.begin(), mat.end(), v.joints[s4]) - mat.begin());
      if (v2_) rec[s4] = q[s4], rec[4 + s4] = static_cast<std::uint8_t>(slot * 4);
      else rec[slot] = static_cast<std::uint8_t>(rec[slot] + q[s4]);
    }
    wb.insert(wb.end(), rec.begin(), rec.end());
  }

  // One packet from strip vertices `sv` (sources into p.verts) with the matrix palette `mat`.
  EvmPacket make_packet(const SrcPrimitive& p, const std::vector<StripVertex>& sv, bool exact,
                        const std::array<std::uint8_t, 8>& mat, std::uint32_t n_mats) {
    const Json& pe = p.fields ? *p.fields : empty_;
    EvmPacket k;
    k.flag = p.flag;
    k.flag_pad = jnum<std::uint32_t>(pe, "flag_pad", 0);
    k.tex_id = p.tex_id;
    k.tex_pad = jarray<std::uint32_t, 3>(pe, "tex_pad", k.tex_pad);
    k.rgbs = jnum<std::uint64_t>(pe, "rgbs", 0), k.pad = jnum<std::uint64_t>(pe, "pad", 0);
    k.n_verts = stored_vertex_count(pe, sv.size(), exact);
    k.mat_id = mat;
    k.n_mats = n_mats;
    const auto raw_n = exact ? jints<std::int16_t>(pe, "normals") : std::vector<std::int16_t>{};
    const auto npad = exact ? jints<std::int16_t>(pe, "norm_pad") : std::vector<std::int16_t>{};
    const auto raw_w = exact ? jints<std::uint8_t>(pe, "weights") : std::vector<std::uint8_t>{};
    const std::array<bool, 3> sets = stored_uv_sets(pe, p, exact);
    std::array<std::vector<std::int16_t>, 3> uvw, uvp;
    if (exact)
      if (const Json* wp = jget(pe, "uv_wp"); wp && wp->is_array() && wp->size() == 3)
        for (std::size_t q = 0; q < 3; ++q) uvw[q] = jints<std::int16_t>((*wp)[q], "w"), uvp[q] = jints<std::int16_t>((*wp)[q], "pad");
    std::vector<std::uint8_t> vb, nb2, ub[3], wb;
    vb.reserve(sv.size() * 8), nb2.reserve(sv.size() * 8), wb.reserve(sv.size() * 8);
    for (int q = 0; q < 3; ++q)
      if (sets[q]) ub[q].reserve(sv.size() * 8);
    constexpr std::string_view where = "packet vertex";
    for (std::size_t i = 0; i < sv.size(); ++i) {
      const SrcVertex& v = p.verts[sv[i].source];
      for (int c = 0; c < 3; ++c) put_s16(vb, to_s16(v.pos[c] * to_stored_, where, " position", true));
      put_s16(vb, static_cast<std::int16_t>(sv[i].kick));
      put_normal(nb2, raw_n, i, sv.size(), v, where);
      put_s16(nb2, npad.size() == sv.size() ? npad[i] : std::int16_t{0});
      for (int q = 0; q < 3; ++q) {
        if (!sets[q]) continue;
        for (int c = 0; c < 2; ++c)
          put_s16(ub[q], to_s16(double(v.uv[q][c]) * 4096, where, kUvOutOfRange[q], false));
        put_s16(ub[q], uvw[q].size() == sv.size() ? uvw[q][i] : std::int16_t{4096});
        put_s16(ub[q], uvp[q].size() == sv.size() ? uvp[q][i] : std::int16_t{0});
      }
      if (v.dropped > 0) beyond_ += v.dropped, ++beyond_vertices_, beyond_max_ = std::max(beyond_max_, double(v.dropped));
      put_weights(wb, raw_w, i, sv.size(), mat, v);
    }
    k.verts = storage_.add(std::move(vb));
    k.norms = storage_.add(std::move(nb2));
    for (int q = 0; q < 3; ++q)
      if (sets[q]) k.uvs[q] = storage_.add(std::move(ub[q]));
    const bool had_weights = !exact || !p.packet || !jget(pe, "weights") || !pe["weights"].is_null();
    if (had_weights) k.weights = storage_.add(std::move(wb));
    return k;
  }

  // The stored strip and palette of a primitive that still matches them, as one packet.
  bool exact_packet(const SrcPrimitive& p) {
    const auto kicks = exact_kicks(p);
    const std::size_t order = p.fields ? jnum<std::size_t>(*p.fields, "index", next_order_) : next_order_;
    if (kicks.empty() || kicks.size() > kEvmPacketVertexLimit) return false;
    const auto mat = jarray<std::uint8_t, 8>(*p.packet, "mat_id", {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
    bool ok = true;  // every influence must have a slot in the stored palette
    for (const auto& v : p.verts)
      for (int k = 0; k < 4 && ok; ++k) ok = !(v.weights[k] > 0) || std::find(mat.begin(), mat.end(), v.joints[k]) != mat.end();
    if (!ok) return false;
    std::vector<StripVertex> sv(kicks.size());
    for (std::size_t i = 0; i < sv.size(); ++i) sv[i] = {static_cast<std::uint32_t>(i), kicks[i]};
    out_.push_back({order, make_packet(p, sv, true, mat, jnum<std::uint32_t>(*p.packet, "n_mats", 0))});
    return true;
  }

  // Groups of consecutive triangles whose vertices use at most 8 joints (a packet's palette). The
  // joint sets are small (at most 8 + 12), so they are plain vectors.
  static std::vector<std::vector<Triangle>> palette_groups(const SrcPrimitive& p) {
    std::vector<std::vector<Triangle>> groups(1);
    std::vector<int> used, with;
    const auto add_joints = [&](const Triangle& t, std::vector<int>& set) {
      for (auto i : t)
        for (int k = 0; k < 4; ++k)
          if (p.verts[i].weights[k] > 0 && std::find(set.begin(), set.end(), p.verts[i].joints[k]) == set.end())
            set.push_back(p.verts[i].joints[k]);
    };
    for (const auto& t : order_for_strips(p.tris)) {  // strip order first: neighbours share joints too
      with = used;
      add_joints(t, with);
      if (with.size() > kEvmMaxMats && !groups.back().empty()) {
        groups.emplace_back();
        with.clear();
        add_joints(t, with);
      }
      if (with.size() > kEvmMaxMats) fail(0, "triangle", "one triangle uses more than 8 joints", "<= 8", std::to_string(with.size()));
      std::swap(used, with);
      groups.back().push_back(t);
    }
    return groups;
  }

  void packets_from_primitives() {
    for (const auto& p : g_.primitives) {
      if (exact_packet(p)) continue;
      const std::size_t order = p.fields ? jnum<std::size_t>(*p.fields, "index", next_order_) : next_order_;
      const auto groups = palette_groups(p);
      const std::vector<std::uint16_t> source_kicks = stored_source_kicks(p);
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
          out_.push_back({p.fields ? order : next_order_++, make_packet(p, strip, false, mat, n_mats)});
        }
    }
  }

  void warn_weights() {
    if (moved_vertices_ != 0)
      warnings_.add(Severity::warning, 0, "weights", "influences below 1/256 dropped by 0.1.7 quantisation", "0 weight moved",
                    std::to_string(moved_vertices_) + " vertices, total " + std::to_string(dropped_));
    if (beyond_vertices_ != 0)
      warnings_.add(Severity::warning, 0, "weights",
                    "influences past the 4 heaviest were moved to them (EVM holds 4 per vertex)", "0 weight moved",
                    std::to_string(beyond_vertices_) + " vertices, total " + std::to_string(beyond_) + ", largest " +
                        std::to_string(beyond_max_));
  }

  // Boxes in model space: each joint's over the vertices it weighs, the header's over all.
  void fit_boxes() {
    const double from_stored = 1.0 / to_stored_;
    std::vector<std::vector<std::array<double, 3>>> per_joint(nb_);
    std::vector<std::array<double, 3>> all;
    for (const auto& k : m_.packets) {
      for (std::size_t v = 0; v < k.verts.data.size() / 8; ++v) {
        const std::array<double, 3> pt{s16_at(k.verts.data, v, 0) * from_stored, s16_at(k.verts.data, v, 1) * from_stored,
                                       s16_at(k.verts.data, v, 2) * from_stored};
        all.push_back(pt);
        std::array<EvmInfluence, 8> inf{};
        const std::size_t c = evm_influences(m_, k, v, inf);
        for (std::size_t q = 0; q < c && q < inf.size(); ++q)
          if (inf[q].joint >= 0 && std::size_t(inf[q].joint) < nb_) per_joint[std::size_t(inf[q].joint)].push_back(pt);
      }
    }
    for (std::size_t i = 0; i < nb_; ++i) {
      EvmBone& b = m_.bones[i];
      std::vector<std::array<double, 3>> local = per_joint[i];  // the other reading: joint-relative
      for (auto& pt : local) pt = {pt[0] - b.root_offset.x, pt[1] - b.root_offset.y, pt[2] - b.root_offset.z};
      const Vec4 lo0 = b.box_min, hi0 = b.box_max;
      fit_box(per_joint[i], &b.box_min.x, &b.box_max.x, &lo0.x, &hi0.x, &local);
    }
    fit_box(all, &m_.header.bbox_min.x, &m_.header.bbox_max.x, &stored_min_.x, &stored_max_.x);
  }

  // The template's own placement (gaps, order, padding) holds when the structure is unchanged.
  bool keeps_template_placement() const {
    if (!(tpl_ && tpl_->layout == m_.layout && tpl_->bones.size() == nb_ && tpl_->packets.size() == m_.packets.size() &&
          tpl_->header.n_packs == m_.packets.size()))
      return false;
    bool same = true;
    for (std::size_t j = 0; j < m_.packets.size() && same; ++j) {
      const auto& a = tpl_->packets[j];
      const auto& b = m_.packets[j];
      same = a.weights.present() == b.weights.present() && a.weights.data.size() == b.weights.data.size() &&
             same_array_sizes(a, b);
    }
    return same;
  }

  void copy_template_placement() {
    EvmHeader& hd = m_.header;
    m_.gaps = tpl_->gaps, m_.file_size = tpl_->file_size, hd.n_packs = tpl_->header.n_packs, hd.packet = tpl_->header.packet;
    for (std::size_t i = 0; i < nb_; ++i) m_.bones[i].file_offset = tpl_->bones[i].file_offset;
    for (std::size_t j = 0; j < m_.packets.size(); ++j) {
      copy_array_pointers(tpl_->packets[j], m_.packets[j]);
      m_.packets[j].weights.pointer = tpl_->packets[j].weights.pointer;
    }
  }

  const Json empty_ = Json::object();
  const Gathered& g_;
  const Mgs2ImportOptions& o_;
  Diagnostics& warnings_;
  const Json& h_;
  const EvmFile* tpl_;
  const std::size_t nb_;  // bones
  EvmFile m_;
  Vec3 stored_min_{}, stored_max_{};
  double to_stored_ = 16.0;  // model units -> stored position units
  bool v2_ = false;          // weights as 4 (weight, slot) pairs
  Storage storage_;
  std::vector<EvmPacketOut> out_;
  std::size_t next_order_ = 1u << 30;
  double dropped_ = 0;
  std::size_t moved_vertices_ = 0;
  double beyond_ = 0, beyond_max_ = 0;  // influences past the 4 an EVM vertex holds (glTF JOINTS_1...)
  std::size_t beyond_vertices_ = 0;
};

}  // namespace

Result<std::vector<std::uint8_t>> scene_to_evm(const scene::Scene& s, const Mgs2ImportOptions& o, Diagnostics& warnings) {
  auto gathered = gather(s, o, "evm", warnings);
  if (!gathered) return gathered.error();
  return run_builder<EvmBuilder>(gathered.value(), o, warnings);
}

}  // namespace boneyard::mgs2
