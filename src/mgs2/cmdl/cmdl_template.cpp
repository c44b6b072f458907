// What a template .cmdl (the original model's) gives a derived one: whatever the model does not
// determine (docs/mgs2-cmdl.md "Template"). Everything the model determines (which vertices,
// which triangles, which bones) stays derived; a template value is kept only where it still
// stands for the model's.
#include <algorithm>
#include <cstring>
#include <map>

#include "cmdl_derive.h"

namespace boneyard::mgs2::detail {

namespace {

using RecordKey = std::pair<std::uint32_t, std::uint32_t>;  // mesh, sub-mesh

std::map<RecordKey, const CmdlMesh*> records_of(const CmdlFile& tpl) {
  std::map<RecordKey, const CmdlMesh*> out;
  for (const auto& m : tpl.tail.meshes) out.try_emplace(RecordKey{m.mesh, m.sub_mesh}, &m);
  return out;
}

// Sections in the template's order (known ones the model still has, unknown ones when the vertex
// count is unchanged), with the template's entry fields, then the derived ones it lacks.
void order_sections(CmdlBuild& b, const CmdlFile& tpl, std::size_t n_verts, Diagnostics* notes) {
  std::vector<CmdlBuild::Section> derived = std::move(b.sections), out;
  std::vector<bool> placed(derived.size(), false);
  std::size_t dropped = 0;
  for (const auto& t : tpl.sections) {
    if (t.column() == CmdlColumn::unknown) {
      if (tpl.vertex_count() != n_verts || t.data.size() != t.size) {
        ++dropped;
        continue;
      }
      CmdlBuild::Section s{t.tag, t.format, t.field_06, t.pad, t.pad2, std::vector<std::uint8_t>(t.data.begin(), t.data.end())};
      out.push_back(std::move(s));
      continue;
    }
    bool used = false;
    for (std::size_t i = 0; i < derived.size(); ++i) {
      if (placed[i] || derived[i].tag != t.tag) continue;
      placed[i] = used = true;
      derived[i].format = t.format;
      derived[i].field_06 = t.field_06;
      derived[i].pad = t.pad;
      derived[i].pad2 = t.pad2;
      out.push_back(std::move(derived[i]));
    }
    // A known column the derived .cmdl does not have (a UV set no packet stores any more, bone
    // columns for a KMS), or a second section of one: the model has no values for it.
    if (!used && notes != nullptr)
      notes->add(Severity::warning, 0, "cmdl template", "a section of the template left out: the model has no values for it",
                 "each of the model's columns once", std::string(t.tag_text()));
  }
  for (std::size_t i = 0; i < derived.size(); ++i)
    if (!placed[i]) out.push_back(std::move(derived[i]));
  b.sections = std::move(out);
  if (dropped != 0 && notes != nullptr)
    notes->add(Severity::warning, 0, "cmdl template", "unknown sections of the template left out: the vertex count changed",
               std::to_string(tpl.vertex_count()) + " vertices", std::to_string(n_verts));
}

// The template's index of the derived record holding each vertex (or -1).
std::vector<const CmdlMesh*> template_record_per_vertex(const Derived& d, const std::map<RecordKey, const CmdlMesh*>& tpl) {
  std::vector<const CmdlMesh*> out(d.size(), nullptr);
  for (const auto& m : d.meshes) {
    const auto it = tpl.find(RecordKey{m.mesh, m.sub_mesh});
    if (it == tpl.end()) continue;
    for (std::size_t v = m.start_vertex; v < std::size_t{m.start_vertex} + m.vertex_count; ++v) out[v] = it->second;
  }
  return out;
}

// The derived record holding each vertex.
std::vector<const CmdlMesh*> derived_record_per_vertex(const Derived& d) {
  std::vector<const CmdlMesh*> out(d.size(), nullptr);
  for (const auto& m : d.meshes)
    for (std::size_t v = m.start_vertex; v < std::size_t{m.start_vertex} + m.vertex_count; ++v) out[v] = &m;
  return out;
}

// The columns whose template values keep_values compares one by one with the model's.
bool compared_per_value(CmdlColumn c) {
  switch (c) {
    case CmdlColumn::position:
    case CmdlColumn::normal:
    case CmdlColumn::uv0:
    case CmdlColumn::uv1:
    case CmdlColumn::uv2:
      return true;
    default:
      return false;
  }
}

// Template values kept where they stand for the model's; returns how many elements were kept.
std::size_t keep_values(CmdlBuild& b, const CmdlSource& src, const Derived& d, const CmdlFile& tpl,
                        const std::map<RecordKey, const CmdlMesh*>& records) {
  const std::size_t n = d.size();
  // A known column's data in the template, when it holds one element per vertex (an unknown
  // section has no element size: it is never compared, order_sections kept it whole).
  const auto tpl_data = [&](CmdlColumn c) -> const std::uint8_t* {
    const std::size_t size = cmdl_column_info(c).element_size;
    const CmdlSection* s = size == 0 ? nullptr : tpl.find(c);
    return s != nullptr && s->data.size() == n * size && s->size == n * size ? s->data.data() : nullptr;
  };
  const std::uint8_t* oidx = tpl_data(CmdlColumn::original_index);
  if (tpl.vertex_count() != n || oidx == nullptr) return 0;
  for (std::size_t v = 0; v < n; ++v)
    if (load_le<std::uint32_t>(oidx + v * 4) != d.oidx[v]) return 0;
  const auto record_of = template_record_per_vertex(d, records);
  std::size_t kept = 0;
  const std::uint8_t* boni = tpl_data(CmdlColumn::bone_index);
  const std::uint8_t* bonw = tpl_data(CmdlColumn::bone_weight);
  std::vector<std::uint8_t>* boni_out = nullptr;
  std::vector<std::uint8_t>* bonw_out = nullptr;
  for (auto& s : b.sections) {
    const CmdlColumn c = cmdl_column(std::string_view(s.tag.data(), 4));
    if (c == CmdlColumn::bone_index) boni_out = &s.data;
    if (c == CmdlColumn::bone_weight) bonw_out = &s.data;
    // Value by value: POS0, NRM0 and TEX0-2 only (BONI/BONW below, OIDX matched above; unknown
    // sections are the template's own bytes already).
    if (!compared_per_value(c)) continue;
    const std::uint8_t* t = tpl_data(c);
    if (t == nullptr) continue;
    const std::size_t size = cmdl_column_info(c).element_size;
    for (std::size_t v = 0; v < n; ++v) {
      const std::uint8_t* e = t + v * size;
      bool same = false;
      if (c == CmdlColumn::position) {
        float p[4];
        std::memcpy(p, e, 16);
        const auto w = d.weights(v);
        same = positions_close(p, d.vert(v).position.data(), src.position_step) &&
               (p[3] == 1.0f || std::fabs(p[3] - w[0]) <= 1.0f / 4096 || std::fabs(p[3] - w[1]) <= 1.0f / 4096);
      } else if (c == CmdlColumn::normal) {
        same = normals_close(load_le<std::uint32_t>(e), d.vert(v).normal);
      } else {
        const std::size_t layer = std::size_t(c) - std::size_t(CmdlColumn::uv0);
        same = halves_close(load_le<std::uint16_t>(e), d.vert(v).uv[layer * 2], 1.0f / 4096) &&
               halves_close(load_le<std::uint16_t>(e + 2), d.vert(v).uv[layer * 2 + 1], 1.0f / 4096);
      }
      if (same) std::memcpy(s.data.data() + v * size, e, size), ++kept;
    }
  }
  if (boni != nullptr && bonw != nullptr && boni_out != nullptr && bonw_out != nullptr) {
    const auto derived_record = derived_record_per_vertex(d);
    for (std::size_t v = 0; v < n; ++v) {
      if (record_of[v] == nullptr || derived_record[v] == nullptr) continue;
      std::uint16_t w[4];
      std::memcpy(w, bonw + v * 8, 8);
      const auto theirs = influences(boni + v * 4, w, record_of[v]->bones);
      const auto ours = influences(d.vert(v).bone_index.data(), d.vert(v).bone_weight.data(), derived_record[v]->bones);
      if (!influences_close(theirs, ours)) continue;
      std::memcpy(boni_out->data() + v * 4, boni + v * 4, 4);
      std::memcpy(bonw_out->data() + v * 8, bonw + v * 8, 8);
      kept += 2;
    }
  }
  return kept;
}

using Tri = std::array<std::uint32_t, 3>;
Tri rotated(Tri t) {
  while (t[0] > t[1] || t[0] > t[2]) t = {t[1], t[2], t[0]};
  return t;
}

// Each record whose template twin covers the same vertices and indices and holds the same
// triangles keeps the template's order and rotation; returns how many records did.
std::size_t keep_triangle_order(CmdlBuild& b, const CmdlFile& tpl, const std::map<RecordKey, const CmdlMesh*>& records) {
  std::size_t kept = 0;
  for (const auto& m : b.meshes) {
    const auto it = records.find(RecordKey{m.mesh, m.sub_mesh});
    if (it == records.end()) continue;
    const CmdlMesh& t = *it->second;
    if (t.start_vertex != m.start_vertex || t.vertex_count != m.vertex_count || t.start_index != m.start_index ||
        t.index_count != m.index_count || std::uint64_t{t.start_index} + t.index_count > tpl.tail.n_indices || m.index_count % 3 != 0)
      continue;
    std::vector<Tri> ours, theirs;
    for (std::size_t i = m.start_index; i < std::size_t{m.start_index} + m.index_count; i += 3) {
      ours.push_back(rotated({b.indices[i], b.indices[i + 1], b.indices[i + 2]}));
      theirs.push_back(rotated({tpl.tail.index(i), tpl.tail.index(i + 1), tpl.tail.index(i + 2)}));
    }
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    if (ours != theirs) continue;
    for (std::size_t i = m.start_index; i < std::size_t{m.start_index} + m.index_count; ++i) b.indices[i] = tpl.tail.index(i);
    ++kept;
  }
  return kept;
}

bool box_holds(const CmdlMesh& box, const CmdlMesh& of, float step) {
  const float lo[3] = {box.bbox_min.x, box.bbox_min.y, box.bbox_min.z}, hi[3] = {box.bbox_max.x, box.bbox_max.y, box.bbox_max.z};
  const float vlo[3] = {of.bbox_min.x, of.bbox_min.y, of.bbox_min.z}, vhi[3] = {of.bbox_max.x, of.bbox_max.y, of.bbox_max.z};
  for (int c = 0; c < 3; ++c)
    if (!(lo[c] <= vlo[c] + step && hi[c] >= vhi[c] - step)) return false;
  return true;
}

}  // namespace

void apply_template(CmdlBuild& b, const CmdlSource& src, const Derived& d, const CmdlFile& tpl, Diagnostics* notes) {
  b.magic = tpl.magic;
  b.version = tpl.version;
  b.tail_pad = tpl.tail.pad;
  for (const auto& g : tpl.gaps)
    if (g.offset == tpl.tail.end) b.trailing.assign(g.bytes.begin(), g.bytes.end());
  order_sections(b, tpl, d.size(), notes);
  const auto records = records_of(tpl);
  const std::size_t values = keep_values(b, src, d, tpl, records);
  const std::size_t orders = keep_triangle_order(b, tpl, records);
  std::size_t fields = 0;
  for (auto& m : b.meshes) {
    const auto it = records.find(RecordKey{m.mesh, m.sub_mesh});
    if (it == records.end()) continue;
    const CmdlMesh& t = *it->second;
    m.field_18 = t.field_18;
    m.field_1a = t.field_1a;
    m.field_80 = t.field_80;
    m.field_pre = t.field_pre;
    if (box_holds(t, m, src.position_step)) m.bbox_min = t.bbox_min, m.bbox_max = t.bbox_max;
    ++fields;
  }
  if (notes != nullptr)
    notes->add(Severity::info, 0, "cmdl template",
               "the template .cmdl gave the entry fields and section order, the fields of " + std::to_string(fields) + " of " +
                   std::to_string(b.meshes.size()) + " records, " + std::to_string(values) +
                   " vertex values and the triangle order of " + std::to_string(orders) + " records");
}

}  // namespace boneyard::mgs2::detail
