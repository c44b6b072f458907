// Where a model and its .cmdl disagree, the way the Master Collection reads the pair
// (docs/mgs2-cmdl.md "Pair check"): each record draws one packet, each vertex stands for the strip
// vertex its OIDX names, and each record's triangles are the packet's strip.
#include <algorithm>
#include <cstring>
#include <map>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "cmdl_derive.h"

namespace boneyard::mgs2 {

namespace detail {

std::vector<Influence> influences(const std::uint8_t* bone_index, const std::uint16_t* bone_weight,
                                  const std::vector<std::uint32_t>& bones) {
  std::vector<Influence> out;
  for (int k = 0; k < 4; ++k) {
    const float w = half_to_float(bone_weight[k]);
    if (w == 0) continue;
    const std::size_t slot = bone_index[k];
    const std::int64_t joint = slot < bones.size() ? std::int64_t{bones[slot]} : -1;
    auto it = std::find_if(out.begin(), out.end(), [&](const Influence& i) { return i.joint == joint; });
    if (it == out.end()) {
      out.push_back({joint, w});
    } else {
      it->weight += w;
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool influences_close(const std::vector<Influence>& a, const std::vector<Influence>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].joint != b[i].joint || !(std::fabs(a[i].weight - b[i].weight) <= 1.0f / 256 + 1e-3f * b[i].weight)) return false;
  return true;
}

}  // namespace detail

namespace {

using detail::CmdlSource;
using detail::CmdlSourcePacket;
using detail::CmdlVertex;

// The .cmdl's columns that have one element per vertex (others are the validator's business).
struct Columns {
  std::size_t n = 0;
  const CmdlSection* sec[8] = {};
  const std::uint8_t* data[8] = {};

  explicit Columns(const CmdlFile& c) : n(c.vertex_count()) {
    for (int k = 0; k < 8; ++k) {
      const auto col = static_cast<CmdlColumn>(k);
      sec[k] = c.find(col);
      const std::size_t size = cmdl_column_info(col).element_size;
      if (sec[k] != nullptr && sec[k]->size == n * size && sec[k]->data.size() == n * size) data[k] = sec[k]->data.data();
    }
  }
  const std::uint8_t* at(CmdlColumn c, std::size_t v) const {
    const auto k = std::size_t(c);
    return data[k] == nullptr ? nullptr : data[k] + v * cmdl_column_info(c).element_size;
  }
  std::uint64_t offset(CmdlColumn c, std::size_t v) const {
    const auto k = std::size_t(c);
    return sec[k] == nullptr ? 0 : sec[k]->data_offset() + v * cmdl_column_info(c).element_size;
  }
};

// A kind of disagreement within one record: how many, and the first.
struct Tally {
  std::size_t count = 0;
  std::uint64_t offset = 0;
  std::size_t first = 0;
  std::string expected, found;
  void add(std::uint64_t at, std::size_t what, const std::string& e = {}, const std::string& f = {}) {
    if (count++ == 0) offset = at, first = what, expected = e, found = f;
  }
};

std::string floats_text(const float* v, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

class PairCheck {
 public:
  PairCheck(const CmdlSource& src, const CmdlFile& c, Diagnostics& out) : src_(src), c_(c), cols_(c), out_(out) {}

  void run() {
    check_columns();
    if (cols_.data[std::size_t(CmdlColumn::original_index)] == nullptr || cols_.data[0] == nullptr) return;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> packet_of;
    for (std::size_t k = 0; k < src_.packets.size(); ++k) packet_of.emplace(std::pair{src_.packets[k].mesh, src_.packets[k].sub_mesh}, k);
    std::vector<bool> drawn(src_.packets.size(), false);
    for (std::size_t r = 0; r < c_.tail.meshes.size(); ++r) {
      const CmdlMesh& m = c_.tail.meshes[r];
      const auto it = packet_of.find({m.mesh, m.sub_mesh});
      if (it == packet_of.end()) {
        out_.add(Severity::error, m.file_offset, record_path(r), "the record names no packet of the model", "a packet of the model",
                 "mesh " + std::to_string(m.mesh) + " sub-mesh " + std::to_string(m.sub_mesh));
        continue;
      }
      if (drawn[it->second]) {
        out_.add(Severity::error, m.file_offset, record_path(r), "a second record for the same packet: it is drawn twice",
                 "one record per packet", src_.packets[it->second].label);
        continue;
      }
      drawn[it->second] = true;
      check_record(r, m, src_.packets[it->second]);
    }
    for (std::size_t k = 0; k < src_.packets.size(); ++k)
      if (!drawn[k] && !src_.packets[k].tris.empty())
        out_.add(Severity::error, c_.tail.file_offset, "tail", "a packet that draws triangles has no record: the game does not draw it",
                 "a record for " + src_.packets[k].label, "none (" + std::to_string(src_.packets[k].tris.size()) + " triangles)");
    note_vertex_count();
  }

 private:
  std::string record_path(std::size_t r) const { return "mesh record " + std::to_string(r); }

  void check_columns() {
    static const char* const kLayer[3] = {"UV set 0", "UV set 1", "UV set 2"};
    for (int s = 0; s < 3; ++s) {
      const auto col = static_cast<CmdlColumn>(int(CmdlColumn::uv0) + s);
      const bool has = c_.find(col) != nullptr;
      if (src_.uv_layers[std::size_t(s)] && !has)
        out_.add(Severity::warning, 0, std::string(cmdl_column_info(col).tag), std::string("the model has ") + kLayer[s] +
                 " but the .cmdl has no such section: the game maps it with nothing", "a section", "none");
      if (!src_.uv_layers[std::size_t(s)] && has)
        out_.add(Severity::info, c_.find(col)->file_offset, std::string(cmdl_column_info(col).tag),
                 std::string("the .cmdl has a section for ") + kLayer[s] + ", which no packet of the model stores");
    }
    for (auto col : {CmdlColumn::bone_index, CmdlColumn::bone_weight}) {
      const bool has = c_.find(col) != nullptr;
      if (src_.evm && !has)
        out_.add(Severity::error, 0, std::string(cmdl_column_info(col).tag), "an .evm's .cmdl without bone indices and weights: its vertices cannot be skinned",
                 "a section", "none");
      if (!src_.evm && has)
        out_.add(Severity::info, c_.find(col)->file_offset, std::string(cmdl_column_info(col).tag), "bone data in the .cmdl of a .kms (KMS vertices follow their unit)");
    }
    if (c_.find(CmdlColumn::original_index) == nullptr)
      out_.add(Severity::error, 0, "OIDX", "no OIDX section: the .cmdl's vertices cannot be tied to the model's", "a section", "none");
    if (cols_.data[std::size_t(CmdlColumn::original_index)] == nullptr || cols_.data[0] == nullptr)
      out_.add(Severity::info, 0, "cmdl", "POS0 or OIDX unusable: the vertices were not compared with the model");
  }

  void check_record(std::size_t r, const CmdlMesh& m, const CmdlSourcePacket& p) {
    const std::string path = record_path(r) + " (" + p.label + ")";
    // The game skins a .cmdl vertex through its record's bone list (SeaLouse orders it by first use,
    // not as mat_id): only the joints each vertex ends on matter, checked per vertex below.
    if (src_.evm && m.bones != p.bones)
      out_.add(Severity::info, m.file_offset + 0x2B, path + " bones", "the bone list is not the packet's mat_id palette "
               "(vertices are checked through it)", bones_text(p.bones), bones_text(m.bones));
    if (!src_.evm && !m.bones.empty())
      out_.add(Severity::warning, m.file_offset + 0x2B, path + " bones", "a .kms record with bones (KMS vertices follow their unit)", "0",
               std::to_string(m.bones.size()));
    if (std::uint64_t{m.start_vertex} + m.vertex_count > cols_.n ||
        std::uint64_t{m.start_index} + m.index_count > c_.tail.n_indices || m.index_count % 3 != 0)
      return;  // the validator reports the ranges; nothing here can be compared
    const std::vector<std::uint32_t>& canon = first_.of(p);
    std::vector<std::int64_t> strip_of(m.vertex_count, -1);  // record vertex -> canonical strip vertex
    Tally outside, foreign, position, normal, uv[3], weight, w, bones;
    for (std::size_t i = 0; i < m.vertex_count; ++i) {
      const std::size_t v = m.start_vertex + i;
      const std::uint32_t o = load_le<std::uint32_t>(cols_.at(CmdlColumn::original_index, v));
      const std::uint64_t at = cols_.offset(CmdlColumn::original_index, v);
      if (o >= src_.strip_total) {
        outside.add(at, v, "< " + std::to_string(src_.strip_total), std::to_string(o));
        continue;
      }
      if (o < p.strip_base || o >= p.strip_base + p.verts.size()) {
        foreign.add(at, v, std::to_string(p.strip_base) + ".." + std::to_string(p.strip_base + p.verts.size() - 1), std::to_string(o));
        continue;
      }
      const std::size_t s = o - p.strip_base;
      strip_of[i] = std::int64_t(canon[s]);
      compare_vertex(v, p.verts[s], {p.own_weight[s], p.stored_weight[s]}, m, p, position, normal, uv, weight, w, bones);
    }
    report(outside, path + " OIDX", "vertices whose OIDX is past the model's strip stream", Severity::error);
    report(foreign, path + " OIDX", "vertices whose OIDX names a strip vertex of another packet", Severity::error);
    report(position, path + " POS0", "vertices placed elsewhere than the strip vertex their OIDX names", Severity::error);
    report(bones, path + " BONI/BONW", "vertices skinned to other joints than the strip vertex their OIDX names", Severity::error);
    report(weight, path + " BONW", "vertices whose weights differ from the strip vertex their OIDX names", Severity::warning);
    report(normal, path + " NRM0", "vertices whose normal differs from the strip vertex their OIDX names", Severity::warning);
    for (int s = 0; s < 3; ++s)
      report(uv[s], path + " TEX" + std::to_string(s), "vertices whose UVs differ from the strip vertex their OIDX names", Severity::warning);
    report(w, path + " POS0 w", "vertices whose w is neither 1 nor the unit's own weight (as the game or as SeaLouse reads it)",
           Severity::warning);
    check_triangles(path, m, p, canon, strip_of);
    check_box(path, m);
  }

  void compare_vertex(std::size_t v, const CmdlVertex& want, std::array<float, 2> own, const CmdlMesh& m, const CmdlSourcePacket& p,
                      Tally& position, Tally& normal, Tally* uv, Tally& weight, Tally& w, Tally& bones) {
    float pos[4];
    std::memcpy(pos, cols_.at(CmdlColumn::position, v), 16);
    const std::uint64_t pos_at = cols_.offset(CmdlColumn::position, v);
    if (!detail::positions_close(pos, want.position.data(), src_.position_step))
      position.add(pos_at, v, floats_text(want.position.data(), 3), floats_text(pos, 3));
    if (!(pos[3] == 1.0f || std::fabs(pos[3] - own[0]) <= 1.0f / 4096 || std::fabs(pos[3] - own[1]) <= 1.0f / 4096))
      w.add(pos_at + 12, v, "1, " + std::to_string(own[0]) + " or " + std::to_string(own[1]), std::to_string(pos[3]));
    if (const std::uint8_t* nrm = cols_.at(CmdlColumn::normal, v); nrm != nullptr && !detail::normals_close(load_le<std::uint32_t>(nrm), want.normal)) {
      const auto a = unpack_normal(want.normal), b = unpack_normal(load_le<std::uint32_t>(nrm));
      normal.add(cols_.offset(CmdlColumn::normal, v), v, floats_text(a.data(), 3), floats_text(b.data(), 3));
    }
    for (int s = 0; s < 3; ++s) {
      const auto col = static_cast<CmdlColumn>(int(CmdlColumn::uv0) + s);
      const std::uint8_t* e = cols_.at(col, v);
      if (e == nullptr || !src_.uv_layers[std::size_t(s)]) continue;
      const std::uint16_t u = load_le<std::uint16_t>(e), t = load_le<std::uint16_t>(e + 2);
      if (!detail::halves_close(u, want.uv[std::size_t(s * 2)], 1.0f / 4096) || !detail::halves_close(t, want.uv[std::size_t(s * 2 + 1)], 1.0f / 4096)) {
        const float a[2] = {half_to_float(want.uv[std::size_t(s * 2)]), half_to_float(want.uv[std::size_t(s * 2 + 1)])};
        const float b[2] = {half_to_float(u), half_to_float(t)};
        uv[s].add(cols_.offset(col, v), v, floats_text(a, 2), floats_text(b, 2));
      }
    }
    if (!src_.evm) return;
    const std::uint8_t* bi = cols_.at(CmdlColumn::bone_index, v);
    const std::uint8_t* bw = cols_.at(CmdlColumn::bone_weight, v);
    if (bi == nullptr || bw == nullptr) return;
    std::uint16_t halves[4];
    std::memcpy(halves, bw, 8);
    const auto theirs = detail::influences(bi, halves, m.bones);
    const auto ours = detail::influences(want.bone_index.data(), want.bone_weight.data(), p.bones);
    if (detail::influences_close(theirs, ours)) return;
    bool same_joints = theirs.size() == ours.size();
    for (std::size_t i = 0; same_joints && i < ours.size(); ++i) same_joints = theirs[i].joint == ours[i].joint;
    (same_joints ? weight : bones).add(cols_.offset(CmdlColumn::bone_index, v), v, influences_text(ours), influences_text(theirs));
  }

  // The record's triangles against the packet's strip, both through canonical strip vertices.
  void check_triangles(const std::string& path, const CmdlMesh& m, const CmdlSourcePacket& p, const std::vector<std::uint32_t>& canon,
                       const std::vector<std::int64_t>& strip_of) {
    using Tri = std::array<std::int64_t, 3>;
    const auto rotated = [](Tri t) {
      while (t[0] > t[1] || t[0] > t[2]) t = {t[1], t[2], t[0]};
      return t;
    };
    std::vector<Tri> want, have;
    for (const auto& t : p.tris) want.push_back(rotated({std::int64_t(canon[t[0]]), std::int64_t(canon[t[1]]), std::int64_t(canon[t[2]])}));
    Tally out_of_range;
    for (std::size_t i = m.start_index; i < std::size_t{m.start_index} + m.index_count; i += 3) {
      std::int64_t corner[3];
      bool ok = true;
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t v = c_.tail.index(i + std::size_t(k));
        if (v < m.start_vertex || v - m.start_vertex >= m.vertex_count) {
          out_of_range.add(c_.tail.file_offset + 4 + (i + std::size_t(k)) * 4, i / 3,
                           std::to_string(m.start_vertex) + ".." + std::to_string(std::int64_t{m.start_vertex} + m.vertex_count - 1), std::to_string(v));
          ok = false;
          break;
        }
        corner[k] = strip_of[v - m.start_vertex];
        if (corner[k] < 0) ok = false;
      }
      if (ok) have.push_back(rotated({corner[0], corner[2], corner[1]}));  // the .cmdl winding is (0, 2, 1) of the strip's
    }
    report(out_of_range, path + " triangles", "triangles using vertices outside the record's vertex range", Severity::error);
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    std::vector<Tri> missing, extra;
    std::set_difference(want.begin(), want.end(), have.begin(), have.end(), std::back_inserter(missing));
    std::set_difference(have.begin(), have.end(), want.begin(), want.end(), std::back_inserter(extra));
    std::size_t turned = 0;
    for (const auto& t : extra) {
      const Tri back = rotated({t[0], t[2], t[1]});
      const auto it = std::lower_bound(missing.begin(), missing.end(), back);
      if (it != missing.end() && *it == back) missing.erase(it), ++turned;
    }
    const std::size_t added = extra.size() - turned;
    const std::uint64_t at = c_.tail.file_offset + 4 + std::uint64_t{m.start_index} * 4;
    if (!missing.empty())
      out_.add(Severity::error, at, path + " triangles", "triangles of the packet's strip that the record does not draw",
               std::to_string(p.tris.size()) + " triangles", std::to_string(missing.size()) + " missing (first: strip vertices " +
                   tri_text(missing.front()) + ")");
    if (added != 0)
      out_.add(Severity::error, at, path + " triangles", "triangles the record draws that the packet's strip does not have",
               "0", std::to_string(added));
    if (turned != 0)
      out_.add(Severity::warning, at, path + " triangles", "triangles turned over (the other side faces out)", "the strip's winding",
               std::to_string(turned) + " reversed");
  }

  void check_box(const std::string& path, const CmdlMesh& m) {
    const float lo[3] = {m.bbox_min.x, m.bbox_min.y, m.bbox_min.z}, hi[3] = {m.bbox_max.x, m.bbox_max.y, m.bbox_max.z};
    for (std::size_t v = m.start_vertex; v < std::size_t{m.start_vertex} + m.vertex_count; ++v) {
      float pos[4];
      std::memcpy(pos, cols_.at(CmdlColumn::position, v), 16);
      for (int c = 0; c < 3; ++c) {
        const float eps = src_.position_step + 1e-5f * std::fabs(pos[c]);
        if (!(pos[c] >= lo[c] - eps && pos[c] <= hi[c] + eps)) {
          out_.add(Severity::warning, m.file_offset, path + " box", "the record's box does not hold its vertices",
                   floats_text(lo, 3) + ".." + floats_text(hi, 3), "vertex " + std::to_string(v) + " at " + floats_text(pos, 3));
          return;
        }
      }
    }
  }

  void note_vertex_count() {
    std::size_t derived = 0;
    std::vector<std::uint8_t> used;
    for (const auto& p : src_.packets) {
      used.assign(p.verts.size(), 0);
      for (const auto& t : p.tris)
        for (auto v : t) used[v] = 1;
      const auto& canon = first_.of(p, &used);
      for (std::size_t i = 0; i < p.verts.size(); ++i) derived += used[i] != 0 && canon[i] == i ? 1 : 0;
    }
    if (derived != cols_.n)
      out_.add(Severity::info, 0, "POS0", "vertex count differs from boneyard's derivation (another merge of equal vertices; the game reads either)",
               std::to_string(derived), std::to_string(cols_.n));
  }

  void report(const Tally& t, const std::string& path, const std::string& what, Severity s) {
    if (t.count == 0) return;
    out_.add(s, t.offset, path, std::to_string(t.count) + " " + what + " (first: vertex " + std::to_string(t.first) + ")", t.expected, t.found);
  }

  static std::string bones_text(const std::vector<std::uint32_t>& b) {
    std::string s = "[";
    for (std::size_t i = 0; i < b.size(); ++i) s += (i ? ", " : "") + std::to_string(b[i]);
    return s + "]";
  }
  static std::string influences_text(const std::vector<detail::Influence>& inf) {
    std::string s = "{";
    for (std::size_t i = 0; i < inf.size(); ++i)
      s += (i ? ", " : "") + (inf[i].joint < 0 ? std::string("none") : "joint " + std::to_string(inf[i].joint)) + ": " + std::to_string(inf[i].weight);
    return s + "}";
  }
  static std::string tri_text(const std::array<std::int64_t, 3>& t) {
    return std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " + std::to_string(t[2]);
  }

  const CmdlSource& src_;
  const CmdlFile& c_;
  Columns cols_;
  Diagnostics& out_;
  detail::FirstEqual first_;
};

template <class Model>
void check_any(const Model& model, const CmdlFile& cmdl, Diagnostics& out) {
  auto src = detail::cmdl_source(model);
  if (!src) {
    out.add(src.error());
    return;
  }
  PairCheck(src.value(), cmdl, out).run();
}

}  // namespace

void check_cmdl_pair(const KmsFile& model, const CmdlFile& cmdl, Diagnostics& out) { check_any(model, cmdl, out); }
void check_cmdl_pair(const EvmFile& model, const CmdlFile& cmdl, Diagnostics& out) { check_any(model, cmdl, out); }

}  // namespace boneyard::mgs2
