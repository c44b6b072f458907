// Scene -> .kms: units from the model joints, packets from primitives. A primitive that still
// matches the strip in its extras keeps its vertex order and kick flags (byte-exact round trip);
// any other is re-stripped (encode_strips) per unit within the packet limit.
#include <algorithm>
#include <cmath>
#include <map>

#include "boneyard/mgs2/strcode.h"
#include "core/byte_reader.h"
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
// Joints are tried in increasing order (ties go to the first).
int triangle_unit(const SrcPrimitive& p, const Triangle& t, const std::vector<KmsUnit>& units) {
  std::array<std::pair<int, double>, 12> sum{};  // (joint, weight), sorted by joint; 3 vertices x 4
  std::size_t n = 0;
  for (auto i : t)
    for (int k = 0; k < 4; ++k) {
      if (!(p.verts[i].weights[k] > 0)) continue;
      const int j = p.verts[i].joints[k];
      std::size_t at = 0;
      while (at < n && sum[at].first < j) ++at;
      if (at == n || sum[at].first != j) {
        std::move_backward(sum.begin() + std::ptrdiff_t(at), sum.begin() + std::ptrdiff_t(n), sum.begin() + std::ptrdiff_t(n + 1));
        sum[at] = {j, 0.0}, ++n;
      }
      sum[at].second += p.verts[i].weights[k];
    }
  const auto weight_of = [&](int j) -> const double* {
    for (std::size_t a = 0; a < n; ++a)
      if (sum[a].first == j) return &sum[a].second;
    return nullptr;
  };
  int best = 0;
  double best_cover = -1, best_own = -1;
  for (std::size_t a = 0; a < n; ++a) {
    const auto [j, w] = sum[a];
    const int parent = j >= 0 && std::size_t(j) < units.size() ? units[std::size_t(j)].parent : -1;
    const double* pw = parent >= 0 && parent < j ? weight_of(parent) : nullptr;
    const double cover = w + (pw ? *pw : 0.0);
    if (cover > best_cover + 1e-9 || (std::fabs(cover - best_cover) <= 1e-9 && w > best_own))
      best = j, best_cover = cover, best_own = w;
  }
  return best;
}

struct KmsPacketOut {
  std::size_t unit = 0;
  std::size_t order = 0;  // stored packet index, or after them
  KmsPacket packet;
};

// The steps of scene_to_kms over one gathered scene; the members are what the steps share.
class KmsBuilder {
 public:
  KmsBuilder(const Gathered& g, const Mgs2ImportOptions& o, Diagnostics& warnings)
      : g_(g), o_(o), warnings_(warnings), h_(g.header ? *g.header : empty_), tpl_(o.kms_template),
        n_units_(g.skeleton.parent.size()) {}

  // Header, units and packets from the gathered scene. Fails through fail(), which scene_to_kms
  // turns into its Result.
  void assemble() {
    if (n_units_ > 0x7FFFFFFF) fail(0, "skeleton", "too many units", "< 2^31", std::to_string(n_units_));
    build_header();
    build_units();
    limit_ = m_.packet_vertex_limit();
    packets_from_primitives();
    packets_without_triangles();
    std::stable_sort(out_.begin(), out_.end(), [](const KmsPacketOut& a, const KmsPacketOut& b) {
      return a.unit != b.unit ? a.unit < b.unit : a.order < b.order;
    });
    for (auto& po : out_) m_.units[po.unit].packets.push_back(std::move(po.packet));
    fit_boxes();
    if (moved_.vertices != 0)
      warnings_.add(Severity::warning, 0, "weights",
                    "influences outside a vertex's unit and its parent were moved to them (KMS holds two)",
                    "0 weight moved", std::to_string(moved_.vertices) + " vertices, total " + std::to_string(moved_.total) +
                        ", largest " + std::to_string(moved_.max));
  }

  // The bytes: at the template's offsets when its placement still fits, else a fresh layout.
  Result<std::vector<std::uint8_t>> finish() {
    if (keeps_template_placement()) {
      copy_template_placement();
      return write_kms(m_);
    }
    return build_kms(m_, m_.layout);
  }

 private:
  void build_header() {
    m_.layout = choose_layout(o_, g_.header, tpl_ ? std::optional<Layout>(tpl_->layout) : std::nullopt, warnings_);
    KmsHeader& hd = m_.header;
    if (tpl_) hd = tpl_->header;
    else {
      hd.data_format = kKmsNorm;
      hd.texture = strcode(o_.model_name);
    }
    hd.data_format = jnum<std::uint32_t>(h_, "data_format", hd.data_format);
    hd.texture = jnum<std::uint32_t>(h_, "texture", hd.texture);
    hd.pad = jarray<std::uint32_t, 3>(h_, "pad", hd.pad);
    hd.position = jvec3(h_, "position", hd.position);
    stored_min_ = jvec3(h_, "bbox_min", hd.bbox_min), stored_max_ = jvec3(h_, "bbox_max", hd.bbox_max);
  }

  // Units: raw extras values when they still give the glTF's rest positions.
  void build_units() {
    KmsHeader& hd = m_.header;
    const bool same_units = tpl_ && tpl_->units.size() == n_units_;
    world_.resize(n_units_);
    std::size_t regular = 0;
    m_.units.resize(n_units_);
    for (std::size_t i = 0; i < n_units_; ++i) {
      KmsUnit& u = m_.units[i];
      const Json* e = g_.skeleton.extras[i];
      const Json& je = e ? *e : empty_;
      if (same_units) u.type = tpl_->units[i].type, u.pad = tpl_->units[i].pad, u.bbox_min = tpl_->units[i].bbox_min,
                      u.bbox_max = tpl_->units[i].bbox_max;
      u.type = jnum<std::uint32_t>(je, "type", u.type);
      u.pad = jarray<std::uint64_t, 3>(je, "pad", u.pad);
      u.bbox_min = jvec3(je, "bbox_min", u.bbox_min);
      u.bbox_max = jvec3(je, "bbox_max", u.bbox_max);
      const int p = g_.skeleton.parent[i];
      u.parent = stored_parent(je, p);
      const std::array<double, 3> base = p >= 0 ? world_[std::size_t(p)]
                                                 : std::array<double, 3>{hd.position.x, hd.position.y, hd.position.z};
      const auto& w = g_.skeleton.world[i];
      const Vec3 raw = jvec3(je, "position", Vec3{float(w[0] - base[0]), float(w[1] - base[1]), float(w[2] - base[2])});
      const double err = std::fabs(base[0] + raw.x - w[0]) + std::fabs(base[1] + raw.y - w[1]) + std::fabs(base[2] + raw.z - w[2]);
      const double tolerance = 1e-6 * (1 + std::fabs(base[0]) + std::fabs(base[1]) + std::fabs(base[2])) / g_.scale + 1e-3;
      u.position = err <= tolerance ? raw : Vec3{float(w[0] - base[0]), float(w[1] - base[1]), float(w[2] - base[2])};
      world_[i] = {base[0] + u.position.x, base[1] + u.position.y, base[2] + u.position.z};
      if ((u.type & kUnitExtend) == 0) ++regular;
    }
    hd.n_models = jnum<std::uint32_t>(h_, "n_models", same_units ? tpl_->header.n_models : static_cast<std::uint32_t>(regular));
    if (hd.n_models > n_units_) hd.n_models = static_cast<std::uint32_t>(regular);
  }

  // The weight a vertex of an envelope packet gives its unit (4096 = all), the stored one when it
  // still agrees with the glTF's.
  std::int16_t unit_weight(double wu, double wp, bool envelope, const std::vector<std::int16_t>& raw_w, std::size_t i,
                           std::size_t n) const {
    std::int16_t w = 4096;
    if (envelope) w = static_cast<std::int16_t>(std::lround(std::clamp(wu / std::max(wu + wp, 1e-9), 0.0, 1.0) * 4096));
    if (raw_w.size() == n) {
      const double stored = std::clamp(raw_w[i] / 4096.0, 0.0, 1.0);
      if (!envelope || std::fabs(stored - wu / std::max(wu + wp, 1e-9)) <= 1.0 / 8192 + 1e-6) w = raw_w[i];
    }
    return w;
  }

  // One packet from strip vertices `sv` (sources into p.verts) of unit u.
  KmsPacket make_packet(const SrcPrimitive& p, std::size_t u, const std::vector<StripVertex>& sv, bool exact) {
    const int parent = m_.units[u].parent >= 0 && std::size_t(m_.units[u].parent) < u ? m_.units[u].parent : -1;
    const Json& pe = p.fields ? *p.fields : empty_;
    KmsPacket k;
    bool envelope = false;
    for (const auto& x : sv) envelope |= parent >= 0 && weight_on(p.verts[x.source], parent) > 1.0 / 8192;
    k.flag = p.flag;
    if (!exact || envelope) k.flag = envelope ? (k.flag | kPackEnvelope) : (k.flag & ~kPackEnvelope);
    envelope = (k.flag & kPackEnvelope) != 0 && parent >= 0;
    k.tex_id = p.tex_id;
    k.tex_pad = jarray<std::uint32_t, 3>(pe, "tex_pad", k.tex_pad);
    k.rgbs = jnum<std::uint64_t>(pe, "rgbs", 0);
    k.pad = jnum<std::uint64_t>(pe, "pad", 0);
    k.pad2 = jnum<std::uint64_t>(pe, "pad2", 0);
    k.n_verts = stored_vertex_count(pe, sv.size(), exact);
    const auto raw_w = exact ? jints<std::int16_t>(pe, "w") : std::vector<std::int16_t>{};
    const auto raw_n = exact ? jints<std::int16_t>(pe, "normals") : std::vector<std::int16_t>{};
    const std::array<bool, 3> sets = stored_uv_sets(pe, p, exact);
    std::vector<std::uint8_t> vb, nb, ub[3];
    vb.reserve(sv.size() * 8), nb.reserve(sv.size() * 8);
    for (int q = 0; q < 3; ++q)
      if (sets[q]) ub[q].reserve(sv.size() * 4);
    const std::string where = "unit " + std::to_string(u) + " vertex";
    for (std::size_t i = 0; i < sv.size(); ++i) {
      const SrcVertex& v = p.verts[sv[i].source];
      for (int c = 0; c < 3; ++c) put_s16(vb, to_s16(v.pos[c] - world_[u][c], where, " position", true));
      const double wu = weight_on(v, static_cast<int>(u));
      const double wp = parent >= 0 ? weight_on(v, parent) : 0;
      // Weights are shares of the 4 kept influences; the glTF's further ones (dropped) moved too.
      moved_.add(v.dropped + (1 - v.dropped) * (envelope ? 1 - wu - wp : 1 - wu));
      put_s16(vb, unit_weight(wu, wp, envelope, raw_w, i, sv.size()));
      put_normal(nb, raw_n, i, sv.size(), v, where);
      put_s16(nb, static_cast<std::int16_t>(sv[i].kick));
      for (int q = 0; q < 3; ++q)
        if (sets[q])
          for (int c = 0; c < 2; ++c) put_s16(ub[q], to_s16(double(v.uv[q][c]) * 4096, where, kUvOutOfRange[q], false));
    }
    k.verts = storage_.add(std::move(vb));
    k.norms = storage_.add(std::move(nb));
    for (int q = 0; q < 3; ++q)
      if (sets[q]) k.uvs[q] = storage_.add(std::move(ub[q]));
    return k;
  }

  void packets_from_primitives() {
    for (const auto& p : g_.primitives) {
      const auto kicks = exact_kicks(p);
      const bool own_unit = p.unit >= 0 && std::size_t(p.unit) < n_units_;
      const std::size_t order = p.fields ? jnum<std::size_t>(*p.fields, "index", next_order_) : next_order_;
      if (!kicks.empty() && own_unit && kicks.size() <= limit_) {
        std::vector<StripVertex> sv(kicks.size());
        for (std::size_t i = 0; i < sv.size(); ++i) sv[i] = {static_cast<std::uint32_t>(i), kicks[i]};
        out_.push_back({std::size_t(p.unit), order, make_packet(p, std::size_t(p.unit), sv, true)});
        continue;
      }
      std::map<std::size_t, std::vector<Triangle>> by_unit;
      for (const auto& t : p.tris) by_unit[own_unit ? std::size_t(p.unit) : std::size_t(triangle_unit(p, t, m_.units))].push_back(t);
      const std::vector<std::uint16_t> source_kicks = stored_source_kicks(p);
      StripEncodeOptions so;
      so.max_vertices = limit_;
      so.source_kicks = source_kicks;
      for (const auto& [u, tris] : by_unit)
        for (const auto& strip : encode_strips(order_for_strips(tris), so))
          out_.push_back({u, p.fields ? order : next_order_++, make_packet(p, u, strip, false)});
    }
  }

  // Packets that draw nothing live only in our mesh extras.
  void packets_without_triangles() {
    for (const Json* me : g_.mesh_extras) {
      const Json* list = me ? jget(*me, "without_triangles") : nullptr;
      const auto u = me ? jnum<std::int64_t>(*me, "unit", -1) : -1;
      if (list == nullptr || !list->is_array() || u < 0 || std::size_t(u) >= n_units_) continue;
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
        k.verts = storage_.add(bytes(e, "verts"));
        k.norms = storage_.add(bytes(e, "norms"));
        if (const Json* uvs = jget(e, "uvs"); uvs && uvs->is_array() && uvs->size() == 3)
          for (std::size_t q = 0; q < 3; ++q)
            if (!(*uvs)[q].is_null()) k.uvs[q] = storage_.add(bytes(Json{{"a", (*uvs)[q]}}, "a"));
        if (k.verts.data.size() != std::size_t(k.vertex_count()) * 8) k.n_verts = static_cast<std::uint32_t>(k.verts.data.size() / 8);
        out_.push_back({std::size_t(u), jnum<std::size_t>(e, "index", next_order_++), k});
      }
    }
  }

  // Boxes: unit-local for units, model space for the header (docs/mgs2-gltf.md).
  void fit_boxes() {
    std::vector<std::array<double, 3>> all, all_local;
    for (std::size_t i = 0; i < n_units_; ++i) {
      KmsUnit& u = m_.units[i];
      std::vector<std::array<double, 3>> pts;
      for (const auto& k : u.packets)
        for (std::size_t v = 0; v < k.verts.data.size() / 8; ++v) {
          pts.push_back({double(s16_at(k.verts.data, v, 0)), double(s16_at(k.verts.data, v, 1)), double(s16_at(k.verts.data, v, 2))});
          all.push_back({world_[i][0] + pts.back()[0], world_[i][1] + pts.back()[1], world_[i][2] + pts.back()[2]});
        }
      all_local.insert(all_local.end(), pts.begin(), pts.end());
      std::vector<std::array<double, 3>> model(all.end() - static_cast<std::ptrdiff_t>(pts.size()), all.end());
      const Vec3 lo0 = u.bbox_min, hi0 = u.bbox_max;
      fit_box(pts, &u.bbox_min.x, &u.bbox_max.x, &lo0.x, &hi0.x, &model);
    }
    fit_box(all, &m_.header.bbox_min.x, &m_.header.bbox_max.x, &stored_min_.x, &stored_max_.x, &all_local);
  }

  // The template's own placement (gaps, order, padding) holds when the structure is unchanged.
  bool keeps_template_placement() const {
    if (!tpl_ || tpl_->layout != m_.layout || tpl_->units.size() != n_units_) return false;
    bool same = true;
    for (std::size_t i = 0; i < n_units_ && same; ++i) {
      const auto& a = tpl_->units[i].packets;
      const auto& b = m_.units[i].packets;
      same = a.size() == b.size() && tpl_->units[i].n_packs == a.size();
      for (std::size_t j = 0; j < a.size() && same; ++j) same = same_array_sizes(a[j], b[j]);
    }
    return same && tpl_->header.n_x_models == n_units_;
  }

  void copy_template_placement() {
    m_.gaps = tpl_->gaps;
    m_.file_size = tpl_->file_size;
    for (std::size_t i = 0; i < n_units_; ++i) {
      m_.units[i].file_offset = tpl_->units[i].file_offset;
      m_.units[i].packs = tpl_->units[i].packs;
      m_.units[i].n_packs = tpl_->units[i].n_packs;
      for (std::size_t j = 0; j < m_.units[i].packets.size(); ++j) copy_array_pointers(tpl_->units[i].packets[j], m_.units[i].packets[j]);
    }
  }

  const Json empty_ = Json::object();
  const Gathered& g_;
  const Mgs2ImportOptions& o_;
  Diagnostics& warnings_;
  const Json& h_;
  const KmsFile* tpl_;
  const std::size_t n_units_;
  KmsFile m_;
  Vec3 stored_min_{}, stored_max_{};
  std::vector<std::array<double, 3>> world_;  // unit rest positions, model space
  std::size_t limit_ = 0;
  std::vector<KmsPacketOut> out_;
  Storage storage_;
  Moved moved_;
  std::size_t next_order_ = 1u << 30;
};

}  // namespace

Result<std::vector<std::uint8_t>> scene_to_kms(const scene::Scene& s, const Mgs2ImportOptions& o, Diagnostics& warnings) {
  auto gathered = gather(s, o, "kms", warnings);
  if (!gathered) return gathered.error();
  return run_builder<KmsBuilder>(gathered.value(), o, warnings);
}

}  // namespace boneyard::mgs2
