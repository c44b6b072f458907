// Which glTF joint is which model joint, which textures a material names, and which packet of the
// --template a primitive comes from: what a DCC tool (Blender) drops or reorders on the way
// (docs/mgs2-gltf.md "Identity"). Blender writes skin joints depth-first, keeps node names and,
// with custom properties exported, node and material extras (a material extras value it cannot
// store as a property comes back as the Python repr of it, a string), and drops primitive extras.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "boneyard/mgs2/strcode.h"
#include "boneyard/mgs2/strips.h"
#include "mgs2_scene_import.h"

namespace boneyard::mgs2::detail {

namespace {

// ---- joint order ------------------------------------------------------------------------------

// The joints our export wrote: the skin's (Blender keeps every bone in it), else every node.
std::vector<int> candidate_joints(const scene::Scene& s) {
  const std::size_t nodes = s.skeleton.joints.size();
  std::vector<int> out;
  std::vector<bool> seen(nodes, false);
  for (auto n : s.skeleton.skin)
    if (n < nodes && !seen[n]) seen[n] = true, out.push_back(static_cast<int>(n));
  if (out.empty())
    for (std::size_t i = 0; i < nodes; ++i) out.push_back(static_cast<int>(i));
  return out;
}

// Model joint -> node when `number` numbers the candidates 0..k-1 without gaps or repeats; the
// candidates it leaves unnumbered follow in skin order. nullopt when it numbers none, or badly.
template <class Number>
std::optional<std::vector<int>> numbered(const scene::Scene& s, const std::vector<int>& cands, Number number,
                                         const char* what, Diagnostics& warnings) {
  std::map<long long, int> by_number;
  std::vector<int> rest;
  bool repeated = false;
  for (int node : cands) {
    const std::optional<long long> k = number(node);
    if (!k) rest.push_back(node);
    else if (*k < 0 || !by_number.emplace(*k, node).second) repeated = true;
  }
  if (by_number.empty()) return std::nullopt;
  if (repeated || by_number.rbegin()->first != static_cast<long long>(by_number.size()) - 1) {
    warnings.add(Severity::warning, 0, "skeleton", std::string(what) + " number the joints with gaps or repeats; not used",
                 "0.." + std::to_string(cands.size() - 1), "up to " + std::to_string(by_number.rbegin()->first));
    return std::nullopt;
  }
  std::vector<int> out;
  for (const auto& [k, node] : by_number) out.push_back(node);
  if (!rest.empty()) {
    std::string names;
    for (std::size_t i = 0; i < rest.size() && i < 4; ++i) names += (i ? ", " : "") + s.skeleton.joints[std::size_t(rest[i])].name;
    warnings.add(Severity::warning, 0, "skeleton",
                 "joints without " + std::string(what) + " come after joint " + std::to_string(out.size() - 1) + " in skin order",
                 "every joint numbered", std::to_string(rest.size()) + " (" + names + (rest.size() > 4 ? ", ..." : "") + ")");
  }
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

// N of "unit_N" (KMS) or "joint_N" (EVM), the names our export gives joints.
std::optional<long long> number_in_name(const std::string& name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 9 || name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  long long k = 0;
  for (std::size_t i = prefix.size(); i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return std::nullopt;
    k = k * 10 + (name[i] - '0');
  }
  return k;
}

// The candidate nearest above `node` (itself excluded), or -1.
int candidate_parent(const scene::Scene& s, const std::vector<bool>& is_cand, int node) {
  const std::size_t nodes = s.skeleton.joints.size();
  int p = s.skeleton.joints[std::size_t(node)].parent;
  for (std::size_t steps = 0; p >= 0 && std::size_t(p) < nodes && steps <= nodes; ++steps) {
    if (is_cand[std::size_t(p)]) return p;
    p = s.skeleton.joints[std::size_t(p)].parent;
  }
  return -1;
}

// Template joint i -> the glTF joint with the matched parent at its bind position (the first in
// skin order when several are). nullopt when a template joint has no counterpart.
std::optional<std::vector<int>> matched_to_template(const scene::Scene& s, const std::vector<int>& cands,
                                                    const std::vector<scene::Mat4>& world, double scale,
                                                    const TemplateView& tpl, Diagnostics& warnings) {
  if (tpl.parent.size() != cands.size()) {
    warnings.add(Severity::warning, 0, "--template", "the template's skeleton has another joint count: its joints are not used",
                 std::to_string(tpl.parent.size()) + " joints", std::to_string(cands.size()));
    return std::nullopt;
  }
  std::vector<bool> is_cand(s.skeleton.joints.size(), false), used(s.skeleton.joints.size(), false);
  for (int c : cands) is_cand[std::size_t(c)] = true;
  std::vector<int> out;
  for (std::size_t i = 0; i < tpl.parent.size(); ++i) {
    const int tp = tpl.parent[i];
    const int want_parent = tp >= 0 && std::size_t(tp) < i ? out[std::size_t(tp)] : -1;
    int found = -1;
    for (int c : cands) {
      if (used[std::size_t(c)] || candidate_parent(s, is_cand, c) != want_parent) continue;
      const auto& m = world[std::size_t(c)];
      const std::array<double, 3> w{m[12] / scale, m[13] / scale, m[14] / scale};
      if (position_distance(w, tpl.world[i]) <= bind_tolerance(tpl.world[i], scale)) {
        found = c;
        break;
      }
    }
    if (found < 0) {
      warnings.add(Severity::warning, 0, "--template",
                   "the template's " + std::string(tpl.joint_name) + "_" + std::to_string(i) +
                       " has no glTF joint at its place: joint order not taken from the template",
                   "a joint under the matched parent within " + std::to_string(bind_tolerance(tpl.world[i], scale)) + " units", "none");
      return std::nullopt;
    }
    used[std::size_t(found)] = true;
    out.push_back(found);
  }
  return out;
}

}  // namespace

double position_distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

double bind_tolerance(const std::array<double, 3>& at, double scale) {
  return kBindPoseTolerance / scale + 1e-6 * (std::fabs(at[0]) + std::fabs(at[1]) + std::fabs(at[2]));
}

JointOrder order_joints(const scene::Scene& s, const std::vector<scene::Mat4>& world, double scale, const char* format,
                        const TemplateView* tpl, bool ours, Diagnostics& warnings) {
  const std::vector<int> cands = candidate_joints(s);
  if (cands.empty()) return {{}, "none"};
  const auto from_extras = [&](int node) -> std::optional<long long> {
    const Json* e = jget(json_of(s.skeleton.joints[std::size_t(node)].extras), kJointKey);
    const Json* idx = e ? jget(*e, "index") : nullptr;
    if (idx == nullptr || !idx->is_number_integer()) return std::nullopt;
    return idx->get<long long>();
  };
  if (auto order = numbered(s, cands, from_extras, "the mgs2_joint extras", warnings)) return {std::move(*order), "extras"};
  const std::string prefix = std::string(std::string_view(format) == "kms" ? "unit" : "joint") + "_";
  const auto from_name = [&](int node) { return number_in_name(s.skeleton.joints[std::size_t(node)].name, prefix); };
  if (auto order = numbered(s, cands, from_name, ("the names " + prefix + "N").c_str(), warnings)) return {std::move(*order), "names"};
  if (tpl)
    if (auto order = matched_to_template(s, cands, world, scale, *tpl, warnings)) return {std::move(*order), "template"};
  if (ours || tpl)
    warnings.add(Severity::warning, 0, "skeleton",
                 "joint order taken from the skin (no mgs2_joint extras, no " + prefix + "N names, no matching --template): "
                 "motions address " + std::string(std::string_view(format) == "kms" ? "units" : "joints") + " by index",
                 "a numbering", "skin order");
  return {cands, "skin"};
}

// ---- template ---------------------------------------------------------------------------------

namespace {

TriangleKey key_of(const std::array<std::array<double, 3>, 3>& corners) {
  std::array<std::array<std::int64_t, 3>, 3> c{};
  for (int k = 0; k < 3; ++k)
    for (int a = 0; a < 3; ++a) c[std::size_t(k)][std::size_t(a)] = std::llround(corners[std::size_t(k)][std::size_t(a)] * 16);
  std::sort(c.begin(), c.end());
  TriangleKey key{};
  for (int k = 0; k < 9; ++k) key[std::size_t(k)] = c[std::size_t(k / 3)][std::size_t(k % 3)];
  return key;
}

// The most common low bits among the drawing vertices of a strip (kicks in `records`).
std::optional<std::uint16_t> common_kick_low(Bytes records, std::size_t n) {
  std::map<std::uint16_t, std::size_t> count;
  for (std::size_t i = 0; i < n; ++i)
    if ((kick_at(records, i) & kKickNoDraw) == 0) ++count[static_cast<std::uint16_t>(kick_at(records, i) & 0x7FFF)];
  if (count.empty()) return std::nullopt;
  return std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) { return a.second < b.second; })->first;
}

// Adds one template packet: `kicks` = the records holding its kick flags, `at(v)` its model-space
// vertex positions.
template <class Packet, class Position>
void add_packet(TemplateView& t, const Packet& p, std::size_t unit, Json fields, Bytes kicks, std::size_t n, Position at) {
  TemplateView::Packet tp;
  tp.unit = unit;
  tp.tex_id = p.tex_id;
  tp.flag = p.flag;
  for (int q = 0; q < 3; ++q) tp.uv_sets[std::size_t(q)] = p.uvs[std::size_t(q)].present();
  tp.kick_low = common_kick_low(kicks, n);
  tp.fields = std::move(fields);
  const std::size_t id = t.packets.size();
  t.packets.push_back(std::move(tp));
  for_each_strip_triangle(kicks, n, [&](const Triangle& tri) { t.by_triangle.emplace(key_of({at(tri[0]), at(tri[1]), at(tri[2])}), id); });
}

std::shared_ptr<const TemplateView> kms_view(const KmsFile& m) {
  auto t = std::make_shared<TemplateView>();
  t->joint_name = "unit";
  const Vec3& base = m.header.position;
  for (std::size_t i = 0; i < m.units.size(); ++i) {
    const int p = m.units[i].parent;
    const bool child = p >= 0 && std::size_t(p) < i;
    t->parent.push_back(child ? p : -1);
    const std::array<double, 3> b = child ? t->world[std::size_t(p)] : std::array<double, 3>{base.x, base.y, base.z};
    const Vec3& o = m.units[i].position;
    t->world.push_back({b[0] + o.x, b[1] + o.y, b[2] + o.z});
  }
  for (std::size_t i = 0; i < m.units.size(); ++i)
    for (std::size_t k = 0; k < m.units[i].packets.size(); ++k) {
      const KmsPacket& p = m.units[i].packets[k];
      const std::size_t n = std::min<std::size_t>({p.vertex_count(), p.verts.data.size() / 8, p.norms.data.size() / 8});
      Json fields{{"index", k}, {"tex_pad", p.tex_pad}, {"rgbs", p.rgbs}, {"pad", p.pad}, {"pad2", p.pad2}};
      const auto& w = t->world[i];
      add_packet(*t, p, i, std::move(fields), p.norms.data, n, [&](std::uint32_t v) {
        return std::array<double, 3>{w[0] + s16_at(p.verts.data, v, 0), w[1] + s16_at(p.verts.data, v, 1), w[2] + s16_at(p.verts.data, v, 2)};
      });
    }
  return t;
}

std::shared_ptr<const TemplateView> evm_view(const EvmFile& m) {
  auto t = std::make_shared<TemplateView>();
  t->joint_name = "joint";
  for (std::size_t i = 0; i < m.bones.size(); ++i) {
    const int p = m.bones[i].parent;
    t->parent.push_back(p >= 0 && std::size_t(p) < i ? p : -1);
    const Vec3& r = m.bones[i].root_offset;
    t->world.push_back({r.x, r.y, r.z});
  }
  const double s = m.position_scale();
  for (std::size_t k = 0; k < m.packets.size(); ++k) {
    const EvmPacket& p = m.packets[k];
    const std::size_t n = std::min<std::size_t>({p.vertex_count(), p.verts.data.size() / 8, p.norms.data.size() / 8});
    Json fields{{"index", k}, {"flag_pad", p.flag_pad}, {"tex_pad", p.tex_pad}, {"rgbs", p.rgbs}, {"pad", p.pad}};
    add_packet(*t, p, 0, std::move(fields), p.verts.data, n, [&](std::uint32_t v) {
      return std::array<double, 3>{s16_at(p.verts.data, v, 0) * s, s16_at(p.verts.data, v, 1) * s, s16_at(p.verts.data, v, 2) * s};
    });
  }
  return t;
}

}  // namespace

std::shared_ptr<const TemplateView> template_view(const Mgs2ImportOptions& o, bool kms) {
  if (kms && o.kms_template) return kms_view(*o.kms_template);
  if (!kms && o.evm_template) return evm_view(*o.evm_template);
  return nullptr;
}

const TemplateView::Packet* template_packet(const TemplateView& tpl, const SrcPrimitive& p) {
  std::map<std::size_t, std::size_t> votes;
  for (const auto& t : p.tris) {
    auto it = tpl.by_triangle.find(key_of({p.verts[t[0]].pos, p.verts[t[1]].pos, p.verts[t[2]].pos}));
    if (it != tpl.by_triangle.end()) ++votes[it->second];
  }
  if (votes.empty()) return nullptr;
  const auto best = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return &tpl.packets[best->first];
}

// ---- textures ---------------------------------------------------------------------------------

namespace {

// JSON text from the Python repr of a value (what Blender stores for an extras value it cannot
// keep as a property, e.g. a list holding None): quotes, None, True, False.
Json from_python_repr(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"') {  // a string: re-quoted with ", its escapes kept
      out += '"';
      for (++i; i < text.size() && text[i] != c; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
          if (text[i + 1] != '\'') out += '\\';
          out += text[++i];
          continue;
        }
        if (text[i] == '"') out += '\\';
        out += text[i];
      }
      out += '"';
    } else if (text.compare(i, 4, "None") == 0) {
      out += "null", i += 3;
    } else if (text.compare(i, 4, "True") == 0) {
      out += "true", i += 3;
    } else if (text.compare(i, 5, "False") == 0) {
      out += "false", i += 4;
    } else {
      out += c;
    }
  }
  return Json::parse(out, nullptr, false);
}

std::optional<std::uint32_t> hex_id(std::string_view s) {
  if (s.size() != 8 || !std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c); })) return std::nullopt;
  return static_cast<std::uint32_t>(std::stoul(std::string(s), nullptr, 16));
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Ids from a material name as our export writes it: slots joined by '+', each 8 hex digits or a
// texture file name (with its extension, from --names), then " (single-sided)"; Blender's ".001"
// suffix of a repeated name is removed first. nullopt when the name is not of that form.
std::optional<std::array<std::uint32_t, 3>> ids_from_our_name(std::string name) {
  if (name.size() > 4 && name[name.size() - 4] == '.' &&
      std::all_of(name.end() - 3, name.end(), [](unsigned char c) { return std::isdigit(c); }))
    name.resize(name.size() - 4);
  if (ends_with(name, kSingleSidedSuffix)) name.resize(name.size() - std::string_view(kSingleSidedSuffix).size());
  std::array<std::uint32_t, 3> ids{};
  std::size_t slot = 0, start = 0;
  while (true) {
    const std::size_t plus = name.find('+', start);
    const std::string part = name.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    if (slot == 3 || part.empty()) return std::nullopt;
    if (auto id = hex_id(part)) ids[slot] = *id;
    else if (part.find('.') != std::string::npos && part.find_first_of("/\\") == std::string::npos) ids[slot] = strcode(part);
    else return std::nullopt;
    ++slot;
    if (plus == std::string::npos) return ids;
    start = plus + 1;
  }
}

}  // namespace

std::uint32_t id_from_file_name(std::string name) {
  if (name.empty()) return 0;
  const auto slash = name.find_last_of("/\\");
  if (slash != std::string::npos) name = name.substr(slash + 1);
  if (ends_with(name, ".png")) name.resize(name.size() - 4);
  if (auto id = hex_id(name)) return *id;
  // 6 hex digits: how `boneyard texture` (and SeaLouse) name the PNGs of a .tri.
  if (name.size() == 6 && std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isxdigit(c); }))
    return static_cast<std::uint32_t>(std::stoul(name, nullptr, 16));
  if (name.find('.') == std::string::npos) name += ".bmp";
  return strcode(name);
}

MaterialIds material_texture_ids(const scene::Material& m) {
  const Json* e = jget(json_of(m.extras), kMaterialKey);
  Json parsed;
  if (e && e->is_string()) {
    parsed = from_python_repr(e->get_ref<const std::string&>());
    e = parsed.is_object() ? &parsed : nullptr;
  }
  if (e) {
    const Json* ids = jget(*e, "tex_id");
    if (ids && ids->is_array() && ids->size() == 3 &&
        std::all_of(ids->begin(), ids->end(), [](const Json& x) { return x.is_number_unsigned() && x.get<std::uint64_t>() <= 0xFFFFFFFFu; }))
      return {{(*ids)[0].get<std::uint32_t>(), (*ids)[1].get<std::uint32_t>(), (*ids)[2].get<std::uint32_t>()}, MaterialIds::From::extras};
    const Json* names = jget(*e, "names");
    if (names && names->is_array() && names->size() == 3 && (*names)[0].is_string() && !(*names)[0].get_ref<const std::string&>().empty()) {
      MaterialIds out{{}, MaterialIds::From::extras};
      for (std::size_t k = 0; k < 3; ++k)
        if ((*names)[k].is_string() && !(*names)[k].get_ref<const std::string&>().empty()) out.ids[k] = strcode((*names)[k].get<std::string>());
      return out;
    }
  }
  if (auto ids = ids_from_our_name(m.name)) return {*ids, MaterialIds::From::name};
  if (!m.image_name.empty()) return {{id_from_file_name(m.image_name), 0, 0}, MaterialIds::From::image};
  return {{}, MaterialIds::From::none};
}

}  // namespace boneyard::mgs2::detail
