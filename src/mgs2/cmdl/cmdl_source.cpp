// A .kms / .evm seen as its .cmdl stores it: each packet's strip vertices encoded the way the
// .cmdl columns hold them, and its triangles decoded from the kick flags (docs/mgs2-cmdl.md
// "Derivation"). Both the derivation and the pair check start from here.
#include <algorithm>
#include <cmath>

#include "boneyard/core/limits.h"
#include "core/byte_reader.h"
#include "cmdl_internal.h"

namespace boneyard::mgs2::detail {

namespace {

std::uint32_t normal_of(Bytes norms, std::size_t v) {
  const double x = s16_at(norms, v, 0) / 4096.0, y = s16_at(norms, v, 1) / 4096.0, z = s16_at(norms, v, 2) / 4096.0;
  const double len = std::sqrt(x * x + y * y + z * z);
  return len > 0 ? pack_normal(x / len, y / len, z / len) : 0;
}

// UV set `s` of vertex v (records of `stride` bytes) as two halves; zeros when the packet has none.
void put_uvs(CmdlVertex& out, const std::array<ArrayRef, 3>& uvs, std::size_t n, std::size_t stride, std::size_t v) {
  for (int s = 0; s < 3; ++s) {
    const ArrayRef& a = uvs[std::size_t(s)];
    if (!a.present() || a.data.size() < n * stride) continue;
    for (int k = 0; k < 2; ++k)
      out.uv[std::size_t(s * 2 + k)] = float_to_half(load_le<std::int16_t>(a.data.data() + v * stride + k * 2) / 4096.0f);
  }
}

template <class Packet>
void note_uv_layers(CmdlSource& src, const Packet& p, std::size_t n, std::size_t stride) {
  for (int s = 0; s < 3; ++s)
    if (p.uvs[std::size_t(s)].present() && p.uvs[std::size_t(s)].data.size() >= n * stride) src.uv_layers[std::size_t(s)] = true;
}

// Packets may share arrays (the validator reports it, `--force` converts anyway): decoding every
// copy must not multiply the file. A packet's own vertex and normal records take 16 bytes per
// vertex; twice that many vertices, plus a slack, are allowed.
class VertexBudget {
 public:
  explicit VertexBudget(std::uint64_t file_size) : left_(file_size / 8 + (std::uint64_t{1} << 16)) {}
  void take(std::size_t n, std::uint64_t offset, const std::string& path) {
    if (n <= left_) {
      left_ -= n;
      return;
    }
    fail(offset, path, "packets share vertex arrays so much that the .cmdl view would take far more memory than the file",
         "<= " + std::to_string(left_) + " more vertices", std::to_string(n));
  }

 private:
  std::uint64_t left_;
};

void decode_triangles(Bytes kick_records, std::size_t n, CmdlSourcePacket& out) {
  for_each_strip_triangle(kick_records, n, [&](const Triangle& t) { out.tris.push_back(t); });
}

// EVM influences of one vertex as BONI slots and BONW halves, heaviest first (ties keep slot
// order), at most 4. Returns false when more than 4 had weight (V1 only).
bool evm_bones(const EvmFile& m, const EvmPacket& p, std::size_t v, CmdlVertex& out) {
  std::array<std::pair<std::uint8_t, std::uint8_t>, 8> inf{};  // slot, weight byte
  std::size_t c = 0;
  if (!p.weights.present() || p.weights.data.size() < (v + 1) * 8) {
    out.bone_weight[0] = float_to_half(1.0f);  // no weights stored: all on the first matrix
    return true;
  }
  const std::uint8_t* w = p.weights.data.data() + v * 8;
  if (m.weights_v2()) {
    for (int k = 0; k < 4; ++k)
      if (w[k] != 0) inf[c++] = {static_cast<std::uint8_t>(w[4 + k] / 4), w[k]};
  } else {
    for (int k = 0; k < 8; ++k)
      if (w[k] != 0) inf[c++] = {static_cast<std::uint8_t>(k), w[k]};
  }
  std::stable_sort(inf.begin(), inf.begin() + long(c), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (std::size_t k = 0; k < std::min<std::size_t>(c, 4); ++k) {
    out.bone_index[k] = inf[k].first;
    out.bone_weight[k] = float_to_half(inf[k].second / 128.0f);
  }
  return c <= 4;
}

}  // namespace

namespace {

CmdlSource kms_source(const KmsFile& m) {
  CmdlSource src;
  VertexBudget budget(m.file_size);
  src.position_step = 0.5f;
  for (std::size_t i = 0; i < m.units.size(); ++i) {
    const KmsUnit& u = m.units[i];
    const int parent = u.parent;
    for (std::size_t k = 0; k < u.packets.size(); ++k) {
      const KmsPacket& p = u.packets[k];
      const std::size_t n = std::min<std::size_t>({p.vertex_count(), p.verts.data.size() / 8, p.norms.data.size() / 8});
      budget.take(n, p.file_offset, "unit " + std::to_string(i) + " packet " + std::to_string(k));
      CmdlSourcePacket out;
      out.mesh = static_cast<std::uint32_t>(i);
      out.sub_mesh = static_cast<std::uint32_t>(k);
      out.strip_base = src.strip_total;
      out.label = "unit " + std::to_string(i) + " packet " + std::to_string(k);
      note_uv_layers(src, p, n, 4);
      out.verts.resize(n);
      out.own_weight.resize(n);
      out.stored_weight.resize(n);
      const bool envelope = (p.flag & kPackEnvelope) != 0 && parent >= 0;
      for (std::size_t v = 0; v < n; ++v) {
        CmdlVertex& cv = out.verts[v];
        for (int c = 0; c < 3; ++c) cv.position[std::size_t(c)] = float(s16_at(p.verts.data, v, c));
        cv.position[3] = 1.0f;
        out.stored_weight[v] = s16_at(p.verts.data, v, 3) / 4096.0f;
        out.own_weight[v] = envelope ? std::clamp(out.stored_weight[v], 0.0f, 1.0f) : 1.0f;
        cv.normal = normal_of(p.norms.data, v);
        put_uvs(cv, p.uvs, n, 4, v);
      }
      decode_triangles(p.norms.data, n, out);
      src.strip_total += n;
      src.packets.push_back(std::move(out));
    }
  }
  return src;
}

CmdlSource evm_source(const EvmFile& m) {
  CmdlSource src;
  VertexBudget budget(m.file_size);
  src.evm = true;
  const float scale = m.position_scale();
  src.position_step = scale / 2;
  for (std::size_t k = 0; k < m.packets.size(); ++k) {
    const EvmPacket& p = m.packets[k];
    const std::size_t n = std::min<std::size_t>({p.vertex_count(), p.verts.data.size() / 8, p.norms.data.size() / 8});
    budget.take(n, p.file_offset, "packet " + std::to_string(k));
    CmdlSourcePacket out;
    out.sub_mesh = static_cast<std::uint32_t>(k);
    out.strip_base = src.strip_total;
    out.label = "packet " + std::to_string(k);
    std::size_t used = 0;
    for (std::size_t s = 0; s < p.mat_id.size(); ++s)
      if (p.mat_id[s] != 0xFF) used = s + 1;
    out.bones.assign(p.mat_id.begin(), p.mat_id.begin() + long(used));
    note_uv_layers(src, p, n, 8);
    out.verts.resize(n);
    out.own_weight.assign(n, 1.0f);
    out.stored_weight.assign(n, 1.0f);
    for (std::size_t v = 0; v < n; ++v) {
      CmdlVertex& cv = out.verts[v];
      for (int c = 0; c < 3; ++c) cv.position[std::size_t(c)] = float(s16_at(p.verts.data, v, c)) * scale;
      cv.position[3] = 1.0f;
      cv.normal = normal_of(p.norms.data, v);
      put_uvs(cv, p.uvs, n, 8, v);
      if (!evm_bones(m, p, v, cv)) ++src.over_four;
    }
    decode_triangles(p.verts.data, n, out);
    src.strip_total += n;
    src.packets.push_back(std::move(out));
  }
  return src;
}

}  // namespace

Result<CmdlSource> cmdl_source(const KmsFile& model) {
  return catch_parse_errors([&] { return kms_source(model); });
}
Result<CmdlSource> cmdl_source(const EvmFile& model) {
  return catch_parse_errors([&] { return evm_source(model); });
}

}  // namespace boneyard::mgs2::detail
