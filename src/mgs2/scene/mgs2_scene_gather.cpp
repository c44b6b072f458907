// Scene -> model units and model joints, the common first step of the .kms and .evm builders.
// glTF nodes are all scene joints; the model's joints are those our extras number, else the
// skin's, else every node, else one joint at the origin.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>

#include "boneyard/mgs2/strcode.h"
#include "core/byte_reader.h"
#include "mgs2_scene_import.h"

namespace boneyard::mgs2::detail {

namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

}  // namespace

void fail_s16(double v, std::string_view where, std::string_view what, bool scale_hint) {
  fail(0, std::string(where) + std::string(what),
       std::string("value does not fit 16-bit fixed point") +
           (scale_hint ? "; choose a smaller --scale (metres per model unit are divided out)" : ""),
       "-32768..32767", num(v));
}

std::vector<std::uint16_t> exact_kicks(const SrcPrimitive& p) {
  if (p.packet == nullptr) return {};
  std::vector<std::uint16_t> kicks;
  for (auto k : jints<std::int16_t>(*p.packet, "kicks")) kicks.push_back(static_cast<std::uint16_t>(k));
  if (kicks.size() != p.verts.size() || kicks.empty()) return {};
  std::vector<std::uint8_t> rec(kicks.size() * 8, 0);
  for (std::size_t i = 0; i < kicks.size(); ++i) {
    rec[i * 8 + 6] = static_cast<std::uint8_t>(kicks[i] & 0xFF);
    rec[i * 8 + 7] = static_cast<std::uint8_t>(kicks[i] >> 8);
  }
  const auto tris = decode_strip(Bytes(rec.data(), rec.size()), kicks.size());
  return tris == p.tris ? kicks : std::vector<std::uint16_t>{};
}

namespace {
bool holds(const std::vector<std::array<double, 3>>& pts, const float* lo, const float* hi) {
  if (lo == nullptr || hi == nullptr) return false;
  for (const auto& p : pts)
    for (int k = 0; k < 3; ++k)
      if (!(lo[k] <= p[k] + 1e-3 && hi[k] >= p[k] - 1e-3)) return false;
  return true;
}
}  // namespace

void fit_box(const std::vector<std::array<double, 3>>& pts, float* lo, float* hi, const float* stored_lo,
             const float* stored_hi, const std::vector<std::array<double, 3>>* alt) {
  const bool keep = pts.empty() || holds(pts, stored_lo, stored_hi) || (alt && holds(*alt, stored_lo, stored_hi));
  if (keep) {
    for (int k = 0; k < 3; ++k) lo[k] = stored_lo ? stored_lo[k] : 0, hi[k] = stored_hi ? stored_hi[k] : 0;
    return;
  }
  double a[3] = {INFINITY, INFINITY, INFINITY}, b[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (const auto& p : pts)
    for (int k = 0; k < 3; ++k) a[k] = std::min(a[k], p[k]), b[k] = std::max(b[k], p[k]);
  for (int k = 0; k < 3; ++k) lo[k] = static_cast<float>(a[k]), hi[k] = static_cast<float>(b[k]);
}

std::array<bool, 3> stored_uv_sets(const Json& packet_extras, const SrcPrimitive& p, bool exact) {
  std::array<bool, 3> sets = p.uv_present;
  if (exact)
    if (const Json* us = jget(packet_extras, "uv_sets"); us && us->is_array() && us->size() == 3)
      for (int q = 0; q < 3; ++q) sets[q] = (*us)[q].is_boolean() && (*us)[q].get<bool>();
  return sets;
}

std::vector<std::uint16_t> stored_source_kicks(const SrcPrimitive& p) {
  std::vector<std::uint16_t> source_kicks;
  if (p.packet)
    for (auto k : jints<std::int16_t>(*p.packet, "kicks")) source_kicks.push_back(static_cast<std::uint16_t>(k));
  if (source_kicks.size() != p.verts.size()) source_kicks.clear();
  if (source_kicks.empty() && p.kick_low) source_kicks.assign(p.verts.size(), *p.kick_low);
  return source_kicks;
}

Layout choose_layout(const Mgs2ImportOptions& o, const Json* header, std::optional<Layout> from_template, Diagnostics& warnings) {
  if (o.layout) return *o.layout;
  if (const Json* v = header ? jget(*header, "layout") : nullptr; v && v->is_string())
    if (auto l = parse_layout(v->get_ref<const std::string&>())) return *l;
  if (from_template) return *from_template;
  warnings.add(Severity::warning, 0, "layout",
               std::string(header ? "the glTF's MGS2 extras name no layout" : "no MGS2 extras in the glTF") +
                   " and no --template: writing the PS2 layout (--layout mc for the Master Collection)",
               "a layout", "ps2 (default)");
  return Layout::ps2;
}

void put_normal(std::vector<std::uint8_t>& out, const std::vector<std::int16_t>& raw_n, std::size_t i, std::size_t n,
                const SrcVertex& v, std::string_view where) {
  bool raw_ok = raw_n.size() == n * 3;
  if (raw_ok) {
    const double x = raw_n[i * 3] / 4096.0, y = raw_n[i * 3 + 1] / 4096.0, z = raw_n[i * 3 + 2] / 4096.0;
    const double len = std::sqrt(x * x + y * y + z * z);
    raw_ok = len == 0 ? v.normal[1] == 1 && v.normal[0] == 0 && v.normal[2] == 0
                      : std::fabs(x / len - v.normal[0]) + std::fabs(y / len - v.normal[1]) + std::fabs(z / len - v.normal[2]) < 1e-4;
  }
  for (int c = 0; c < 3; ++c) put_s16(out, raw_ok ? raw_n[i * 3 + c] : to_s16(double(v.normal[c]) * 4096, where, " normal", false));
}

namespace {

// The steps of gather over one scene; the members are what the steps share.
class Gatherer {
 public:
  Gatherer(const scene::Scene& s, const Mgs2ImportOptions& o, const char* format, Diagnostics& warnings)
      : s_(s), o_(o), format_(format), warnings_(warnings), joints_(s.skeleton.joints), nodes_(joints_.size()) {}

  Gathered run() {
    read_header();
    g_.tpl = template_view(o_, std::string_view(format_) == "kms");
    world_ = scene::world_matrices(s_.skeleton);
    number_joints();
    build_skeleton();
    check_bind_pose();
    for (std::size_t mi = 0; mi < s_.meshes.size(); ++mi) read_mesh(mi);
    warn_counts();
    // Nothing to draw (no meshes, or only points and lines) is an error, not an empty model; our
    // extras' packets without triangles still make a model of their own.
    const bool stored_packets = std::any_of(g_.mesh_extras.begin(), g_.mesh_extras.end(), [](const Json* me) {
      const Json* list = me ? jget(*me, "without_triangles") : nullptr;
      return list != nullptr && list->is_array() && !list->empty();
    });
    if (g_.primitives.empty() && !stored_packets)
      fail(0, "meshes", "no triangles to write (points and lines are not written)", ">= 1 triangle", "0");
    return std::move(g_);
  }

 private:
  void read_header() {
    if (const Json* h = jget(json_of(s_.extras), kSceneKey)) {
      if (jget(*h, "format") && (*h)["format"] == format_) g_.header = h;
      else warnings_.add(Severity::warning, 0, "extras", "the glTF's MGS2 extras describe another format; ignored", format_,
                         jget(*h, "format") ? (*h)["format"].dump() : "none");
    }
    g_.scale = o_.scale.value_or(g_.header ? jnum<double>(*g_.header, "scale", kDefaultScale) : kDefaultScale);
    if (!(g_.scale > 0) || !std::isfinite(g_.scale)) fail(0, "--scale", "scale must be a positive number", "> 0", num(g_.scale));
  }

  // Model joints: numbered by our extras, our names or the template, else the skin's order
  // (order_joints), else a single one at the origin.
  void number_joints() {
    joint_of_.assign(nodes_, -1);
    JointOrder order = order_joints(s_, world_, g_.scale, format_, g_.tpl.get(), g_.header != nullptr, warnings_);
    node_of_ = std::move(order.node_of);
    order_source_ = std::move(order.source);
    if (node_of_.empty()) {
      node_of_.push_back(-1);
      warnings_.add(Severity::warning, 0, "skeleton", "no nodes: one joint at the origin holds every mesh");
    }
    for (std::size_t j = 0; j < node_of_.size(); ++j)
      if (node_of_[j] >= 0) joint_of_[std::size_t(node_of_[j])] = static_cast<int>(j);
  }

  // The node itself or its nearest ancestor that is a joint.
  int nearest_joint(int node) const {
    for (std::size_t steps = 0; node >= 0 && std::size_t(node) < nodes_ && steps <= nodes_; ++steps) {
      if (joint_of_[std::size_t(node)] >= 0) return joint_of_[std::size_t(node)];
      node = joints_[std::size_t(node)].parent;
    }
    return -1;
  }

  std::string joint_label(std::size_t j) const {
    const int n = node_of_[j];
    return n >= 0 && !joints_[std::size_t(n)].name.empty() ? joints_[std::size_t(n)].name : "joint " + std::to_string(j);
  }

  void build_skeleton() {
    for (std::size_t j = 0; j < node_of_.size(); ++j) {
      const int n = node_of_[j];
      g_.skeleton.parent.push_back(n >= 0 ? nearest_joint(joints_[std::size_t(n)].parent) : -1);
      g_.skeleton.extras.push_back(n >= 0 ? jget(json_of(joints_[std::size_t(n)].extras), kJointKey) : nullptr);
      std::array<double, 3> w{};
      if (n >= 0) {
        const auto& m = world_[std::size_t(n)];
        w = {m[12] / g_.scale, m[13] / g_.scale, m[14] / g_.scale};
      }
      g_.skeleton.world.push_back(w);
    }
  }

  // The bind pose MGS2 joints had: the template's, else the one our joint extras record (KMS:
  // stored offsets from the header's base; EVM: root offsets); nullopt where neither says.
  std::vector<std::optional<std::array<double, 3>>> bind_pose(std::string& source) const {
    const std::size_t n = node_of_.size();
    std::vector<std::optional<std::array<double, 3>>> bind(n);
    if (g_.tpl && g_.tpl->world.size() == n) {
      source = "the --template";
      for (std::size_t j = 0; j < n; ++j) bind[j] = g_.tpl->world[j];
      return bind;
    }
    source = "the glTF's mgs2_joint extras";
    // The extras are in model units at the scale the export recorded: a --scale other than that
    // one rescales the model on purpose, so they no longer describe it.
    const double recorded = g_.header ? jnum<double>(*g_.header, "scale", kDefaultScale) : kDefaultScale;
    if (o_.scale && *o_.scale != recorded) return bind;
    const bool kms = std::string_view(format_) == "kms";
    const Vec3 base = g_.header ? jvec3(*g_.header, "position", Vec3{}) : Vec3{};
    float f[3];
    for (std::size_t j = 0; j < n; ++j) {
      const Json* e = g_.skeleton.extras[j];
      if (e == nullptr || !jfloats(*e, kms ? "position" : "root_offset", f, 3)) continue;
      const int p = g_.skeleton.parent[j];
      if (!kms) bind[j] = {f[0], f[1], f[2]};
      else if (p < 0) bind[j] = {base.x + f[0], base.y + f[1], base.z + f[2]};
      else if (std::size_t(p) < j && bind[std::size_t(p)])
        bind[j] = {(*bind[std::size_t(p)])[0] + f[0], (*bind[std::size_t(p)])[1] + f[1], (*bind[std::size_t(p)])[2] + f[2]};
    }
    return bind;
  }

  // Scope of the rest pose: MGS2 joints are translations. A joint whose glTF frame is turned
  // (Blender's default bone orientation) keeps its place, so only its rotation is dropped, and the
  // meshes, read in model space, are unaffected; a joint away from its bind pose is another
  // skeleton, an error naming it.
  void check_bind_pose() {
    std::string source;
    const auto bind = bind_pose(source);
    double largest = 0;
    std::vector<std::string> turned;
    for (std::size_t j = 0; j < node_of_.size(); ++j) {
      const auto& w = g_.skeleton.world[j];
      if (bind[j] && position_distance(w, *bind[j]) > bind_tolerance(*bind[j], g_.scale)) {
        const auto& b = *bind[j];
        fail(0, "skeleton " + joint_label(j),
             "rest position is " + num(position_distance(w, b)) + " model units from its bind pose in " + source +
                 ": a different skeleton" +
                 (g_.tpl ? "" : " (to build a new one, export the glTF without the joint extras, e.g. Blender's Custom Properties off)"),
             "(" + num(b[0]) + ", " + num(b[1]) + ", " + num(b[2]) + ")", "(" + num(w[0]) + ", " + num(w[1]) + ", " + num(w[2]) + ")");
      }
      if (node_of_[j] < 0) continue;
      const double turn = frame_turn(world_[std::size_t(node_of_[j])]);
      if (turn > 1e-4) turned.push_back(joint_label(j)), largest = std::max(largest, turn);
    }
    if (turned.empty()) return;
    std::string names;
    for (std::size_t i = 0; i < turned.size() && i < 8; ++i) names += (i ? ", " : "") + turned[i];
    if (turned.size() > 8) names += ", ...";
    warnings_.add(Severity::warning, 0, "skeleton",
                  "joint frames turned (e.g. Blender's bone orientation), taken by position: " + std::to_string(turned.size()) +
                      " joints (" + names + "), largest turn " + num(std::round(largest * 180 / std::numbers::pi * 10) / 10) +
                      " deg; MGS2 joints are translations and the meshes are in model space, so nothing else changes",
                  "0 turned joints", std::to_string(turned.size()));
  }

  // How far a world matrix's frame is from the identity: its rotation angle (radians), or 1 when it
  // also scales.
  static double frame_turn(const scene::Mat4& m) {
    double len[3];
    for (int c = 0; c < 3; ++c) len[c] = std::sqrt(m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] + m[c * 4 + 2] * m[c * 4 + 2]);
    for (double l : len)
      if (std::fabs(l - 1) > 1e-4) return 1;
    const double trace = m[0] / len[0] + m[5] / len[1] + m[10] / len[2];
    return std::acos(std::clamp((trace - 1) / 2, -1.0, 1.0));
  }

  void read_mesh(std::size_t mi) {
    const scene::Mesh& mesh = s_.meshes[mi];
    const Json* me = jget(json_of(mesh.extras), kMeshKey);
    g_.mesh_extras.push_back(me);
    const int node = mesh.joint;
    const bool has_node = node >= 0 && std::size_t(node) < nodes_;
    const int rigid_joint = std::max(has_node ? nearest_joint(node) : -1, 0);
    const scene::Mat4 identity = scene::trs_matrix({}, {}, {1, 1, 1});
    for (std::size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
      const scene::Primitive* prim = &mesh.primitives[pi];
      scene::Primitive with_normals;
      if (prim->normals.size() != prim->vertex_count() * 3) {
        with_normals = *prim;
        scene::compute_normals(with_normals);
        prim = &with_normals;
        ++no_normals_;
      }
      const std::size_t n = prim->vertex_count();
      SrcPrimitive p;
      p.mesh = mi;
      p.order = pi;
      p.packet = jget(json_of(mesh.primitives[pi].extras), kPacketKey);  // not the local copy: it outlives this loop
      p.unit = me ? static_cast<int>(jnum<std::int64_t>(*me, "unit", -1)) : -1;
      p.uv_sets = std::min<std::size_t>(prim->uvs.size(), 3);
      if (p.uv_sets == 0 && p.packet == nullptr) ++no_uvs_;  // our packets may have none
      const bool skinned = mesh.skinned && prim->joints.size() == n * 4 && prim->weights.size() == n * 4;
      if (mesh.skinned && !skinned) ++rigid_skin_;
      const scene::Mat4& m = skinned || !has_node ? identity : world_[std::size_t(node)];
      p.verts.resize(n);
      for (std::size_t v = 0; v < n; ++v) read_vertex(*prim, v, m, p.uv_sets, skinned ? -1 : rigid_joint, rigid_joint, p.verts[v]);
      for (std::size_t t = 0; t + 2 < prim->indices.size(); t += 3)
        p.tris.push_back({prim->indices[t], prim->indices[t + 1], prim->indices[t + 2]});
      if (p.tris.empty() && p.packet == nullptr) continue;
      identify(*prim, p);
      g_.primitives.push_back(std::move(p));
    }
  }

  // What glTF (or Blender) drops and the builders need: texture ids, packet flag, UV arrays and
  // kick low bits, from our primitive extras, else the material and the template's packet that
  // holds the same triangles, else defaults (a single-sided material gives a culled packet).
  void identify(const scene::Primitive& prim, SrcPrimitive& p) {
    const scene::Material* mat = prim.material < s_.materials.size() ? &s_.materials[prim.material] : nullptr;
    if (mat) p.double_sided = mat->double_sided;
    p.uv_present = {true, p.uv_sets > 1, p.uv_sets > 2};
    const MaterialIds named = mat ? material_texture_ids(*mat) : MaterialIds{};
    if (p.packet) {
      p.fields = p.packet;
      p.tex_id = jarray<std::uint32_t, 3>(*p.packet, "tex_id", named.ids);
      p.flag = jnum<std::uint32_t>(*p.packet, "flag", default_packet_flag(p));
      return;
    }
    // A DCC tool gives every primitive of a mesh all its UV maps: one that is all zeros is none.
    for (std::size_t q = 1; q < 3; ++q)
      if (p.uv_present[q] && std::all_of(p.verts.begin(), p.verts.end(), [&](const SrcVertex& v) { return v.uv[q][0] == 0 && v.uv[q][1] == 0; }))
        p.uv_present[q] = false;
    const TemplateView::Packet* tp = g_.tpl ? template_packet(*g_.tpl, p) : nullptr;
    if (named.from != MaterialIds::From::none) p.tex_id = named.ids;
    else if (tp) p.tex_id = tp->tex_id;
    else unnamed_texture(mat, prim.material, p);
    if (!tp) {
      p.flag = default_packet_flag(p);
      if (!p.double_sided) p.kick_low = kKickCulledLow;
      return;
    }
    p.fields = &tp->fields;
    p.uv_present = tp->uv_sets;
    p.flag = tp->flag;
    p.kick_low = tp->kick_low;
    // The glTF's sidedness wins over the template's (a user may have turned culling on or off).
    const bool tpl_double = (tp->flag & kPackCulling) == 0 || tp->kick_low.value_or(kKickDefaultLow) == kKickDefaultLow;
    if (p.double_sided != tpl_double) {
      if (!p.double_sided) p.flag |= kPackCullOn;
      p.kick_low = p.double_sided ? kKickDefaultLow : kKickCulledLow;
    }
  }

  // A material that names no texture the way our export does: its name hashed as a texture file
  // name (as other tools name materials), or id 0 when it has no name; both said once.
  void unnamed_texture(const scene::Material* mat, std::uint32_t index, SrcPrimitive& p) {
    if (mat && !mat->name.empty()) {
      p.tex_id = {id_from_file_name(mat->name), 0, 0};
      hashed_materials_.emplace(index, std::make_pair(mat->name, p.tex_id[0]));
    } else {
      ++no_texture_name_;
    }
  }

  // Vertex v of prim in model units: placed by m, bound wholly to `bound_joint` when that is >= 0
  // (rigid), else by its skin weights (falling back to `rigid_joint` when they sum to nothing).
  void read_vertex(const scene::Primitive& prim, std::size_t v, const scene::Mat4& m, std::size_t uv_sets, int bound_joint,
                   int rigid_joint, SrcVertex& sv) {
    const float* q = &prim.positions[v * 3];
    const float* nn = &prim.normals[v * 3];
    double len = 0;
    for (int k = 0; k < 3; ++k) {
      sv.pos[std::size_t(k)] = (m[k] * q[0] + m[4 + k] * q[1] + m[8 + k] * q[2] + m[12 + k]) / g_.scale;
      const double r = m[k] * nn[0] + m[4 + k] * nn[1] + m[8 + k] * nn[2];
      sv.normal[std::size_t(k)] = static_cast<float>(r);
      len += r * r;
    }
    len = std::sqrt(len);
    // Our own (unit) normals must pass through untouched; others are renormalised.
    if (len > 0 && std::fabs(len - 1) > 1e-6)
      for (auto& c : sv.normal) c = static_cast<float>(c / len);
    for (std::size_t k = 0; k < uv_sets; ++k) sv.uv[k] = {prim.uvs[k][v * 2], prim.uvs[k][v * 2 + 1]};
    if (bound_joint >= 0) {
      sv.joints = {static_cast<std::uint16_t>(bound_joint), 0, 0, 0};
      sv.weights = {1, 0, 0, 0};
      return;
    }
    for (int k = 0; k < 4; ++k) {
      const float w = prim.weights[v * 4 + k];
      if (!(w > 0)) continue;
      int j = prim.joints[v * 4 + k] < nodes_ ? nearest_joint(prim.joints[v * 4 + k]) : -1;
      if (j < 0 || joint_of_[prim.joints[v * 4 + k]] != j) ++remapped_;
      j = std::max(j, 0);
      std::size_t slot = 0;  // merge joints that map to the same model joint
      while (slot < 4 && sv.weights[slot] > 0 && sv.joints[slot] != j) ++slot;
      if (slot == 4) continue;
      sv.joints[slot] = static_cast<std::uint16_t>(j);
      sv.weights[slot] += w;
    }
    float sum = sv.weights[0] + sv.weights[1] + sv.weights[2] + sv.weights[3];
    if (v < prim.dropped_weights.size() && prim.dropped_weights[v] > 0 && sum > 0)
      sv.dropped = prim.dropped_weights[v] / (sum + prim.dropped_weights[v]);
    if (!(sum > 0)) sv.joints = {static_cast<std::uint16_t>(rigid_joint), 0, 0, 0}, sv.weights = {1, 0, 0, 0}, sum = 1;
    for (auto& w : sv.weights) w /= sum;
    for (int a = 1; a < 4; ++a)
      for (int b = a; b > 0 && sv.weights[b] > sv.weights[b - 1]; --b)
        std::swap(sv.weights[b], sv.weights[b - 1]), std::swap(sv.joints[b], sv.joints[b - 1]);
  }

  void warn_counts() {
    if (no_normals_) warnings_.add(Severity::warning, 0, "meshes", "primitives without normals: normals computed", "NORMAL", std::to_string(no_normals_) + " primitives");
    if (no_uvs_) warnings_.add(Severity::warning, 0, "meshes", "primitives without UVs: zero UVs written", "TEXCOORD_0", std::to_string(no_uvs_) + " primitives");
    if (remapped_) warnings_.add(Severity::warning, 0, "weights", "influences on nodes outside the skeleton moved to the nearest joint above", "0", std::to_string(remapped_));
    if (rigid_skin_) warnings_.add(Severity::warning, 0, "weights", "skinned primitives without JOINTS_0/WEIGHTS_0 bound rigidly", "0", std::to_string(rigid_skin_));
    if (!hashed_materials_.empty()) {
      std::string list;
      for (const auto& [index, named] : hashed_materials_) {
        char id[16];
        std::snprintf(id, sizeof id, "%06X", named.second);
        list += (list.empty() ? "'" : ", '") + named.first + "' -> 0x" + id;
      }
      warnings_.add(Severity::warning, 0, "textures",
                    "materials named neither as boneyard writes them (8 hex digits or texture file names, '+' between slots) "
                    "nor by mgs2_textures extras nor a --template packet: texture id = StrCode24 of the name (+ \".bmp\")",
                    "a texture name", list);
    }
    if (no_texture_name_)
      warnings_.add(Severity::warning, 0, "textures",
                    "primitives whose material names no texture (none, or unnamed without extras) and no --template packet: "
                    "texture id 0 (untextured)", "a texture name", std::to_string(no_texture_name_) + " primitives");
  }

  const scene::Scene& s_;
  const Mgs2ImportOptions& o_;
  const char* format_;
  Diagnostics& warnings_;
  const std::vector<scene::Joint>& joints_;
  const std::size_t nodes_;
  Gathered g_;
  std::string order_source_;   // where the joint order came from (order_joints)
  std::vector<int> joint_of_;  // scene node -> model joint, or -1
  std::vector<int> node_of_;   // model joint -> scene node, or -1 (the lone joint at the origin)
  std::vector<scene::Mat4> world_;
  std::size_t no_normals_ = 0, no_uvs_ = 0, remapped_ = 0, rigid_skin_ = 0, no_texture_name_ = 0;
  std::map<std::uint32_t, std::pair<std::string, std::uint32_t>> hashed_materials_;  // index -> (name, id), warned
};

}  // namespace

Result<Gathered> gather(const scene::Scene& s, const Mgs2ImportOptions& o, const char* format, Diagnostics& warnings) {
  return catch_parse_errors([&] { return Gatherer(s, o, format, warnings).run(); });
}

}  // namespace boneyard::mgs2::detail
