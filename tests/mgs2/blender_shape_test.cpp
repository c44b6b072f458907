// The identity rules of glTF -> .kms/.evm on glTFs shaped like Blender's export (issue 12 scope 5,
// the MGS2 part of scope 1, scope 6), without Blender: depth-first skin, turned joint frames,
// extras lost or turned into strings, renamed joints and materials. tests/blender/ runs the real
// thing on the same fixtures.
#include <gtest/gtest.h>

#include <deque>

#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/strcode.h"
#include "mgs2/scene/mgs2_scene_import.h"
#include "mgs2_blender_shape.h"
#include "mgs2_branching_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;

const std::vector<std::uint8_t>& keep(std::vector<std::uint8_t> b) {
  static std::deque<std::vector<std::uint8_t>> kept;
  kept.push_back(std::move(b));
  return kept.back();
}
template <class T>
T must(Result<T> r) {
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "model"));
  return r.ok() ? std::move(r).value() : T{};
}
KmsFile read_k(const std::vector<std::uint8_t>& b) { return must(read_kms(FileData::from_view(as_bytes(keep(b)), nullptr))); }
EvmFile read_e(const std::vector<std::uint8_t>& b) { return must(read_evm(FileData::from_view(as_bytes(keep(b)), nullptr))); }

std::array<std::uint32_t, 4> texture_ids() {
  std::array<std::uint32_t, 4> ids{};
  for (int i = 0; i < 4; ++i) ids[std::size_t(i)] = strcode(mgs2fx::kBranchingTextureNames[i]);
  return ids;
}
TextureNames texture_names() {
  TextureNames n;
  for (const char* name : mgs2fx::kBranchingTextureNames) n.add(name);
  return n;
}
const KmsFile& branching_kms(bool mc = false) {
  static const KmsFile ps2 = read_k(mgs2fx::kms_bytes(mgs2fx::branching_kms(false, texture_ids())));
  static const KmsFile mcm = read_k(mgs2fx::kms_bytes(mgs2fx::branching_kms(true, texture_ids())));
  return mc ? mcm : ps2;
}
const EvmFile& branching_evm(bool mc = false) {
  static const EvmFile ps2 = read_e(mgs2fx::evm_bytes(mgs2fx::branching_evm(false, texture_ids())));
  static const EvmFile mcm = read_e(mgs2fx::evm_bytes(mgs2fx::branching_evm(true, texture_ids())));
  return mc ? mcm : ps2;
}

// Our export of the model (texture names from --names when `named`), as Blender gives it back.
scene::Scene kms_via_blender(const KmsFile& m, const BlenderShape& shape, Diagnostics& w, bool named = true) {
  static const TextureNames names = texture_names();
  Mgs2ExportOptions e;
  if (named) e.names = &names;
  return blender_shaped(must(kms_to_scene(m, e, w)), shape, w);
}
scene::Scene evm_via_blender(const EvmFile& m, const BlenderShape& shape, Diagnostics& w) {
  return blender_shaped(must(evm_to_scene(m, {}, w)), shape, w);
}

bool has_warning(const Diagnostics& d, const std::string& text) {
  for (const auto& f : d.findings())
    if (f.severity == Severity::warning && (f.message + " " + f.found).find(text) != std::string::npos) return true;
  return false;
}

// ---- joint order --------------------------------------------------------------------------------

TEST(Mgs2Blender, FixtureSkinIsReorderedDepthFirst) {
  Diagnostics w;
  const scene::Scene s = kms_via_blender(branching_kms(), {}, w);
  std::vector<std::string> names;
  for (auto j : s.skeleton.skin) names.push_back(s.skeleton.joints[j].name);
  EXPECT_EQ(names, (std::vector<std::string>{"unit_0", "unit_1", "unit_4", "unit_5", "unit_2", "unit_3"}));
}

TEST(Mgs2Blender, UnitOrderFromExtrasNamesOrTemplateNeverTheSkin) {
  struct Case {
    const char* what;
    BlenderShape shape;
    bool with_template;
  };
  const Case cases[] = {
      {"extras kept", {}, false},
      {"extras lost: the unit_N names", {.node_extras = false, .material_extras = false}, false},
      {"extras lost, joints renamed: the template", {.node_extras = false, .material_extras = false, .rename_joints = true}, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    Diagnostics w;
    const scene::Scene s = kms_via_blender(branching_kms(), c.shape, w);
    Mgs2ImportOptions o;
    if (c.with_template) o.kms_template = &branching_kms();
    const KmsFile back = read_k(must(scene_to_kms(s, o, w)));
    expect_same_identity(branching_kms(), back);
    EXPECT_TRUE(has_warning(w, "joint frames turned")) << dump_findings(w);
    EXPECT_FALSE(has_warning(w, "joint order taken from the skin")) << dump_findings(w);
  }
  // The same for EVM joints (joint_N names, root offsets).
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string("evm ") + c.what);
    Diagnostics w;
    const scene::Scene s = evm_via_blender(branching_evm(), c.shape, w);
    Mgs2ImportOptions o;
    if (c.with_template) o.evm_template = &branching_evm();
    expect_same_identity(branching_evm(), read_e(must(scene_to_evm(s, o, w))));
  }
}

TEST(Mgs2Blender, OnlyTheSkinLeftIsSaid) {
  // Renamed joints, no extras, and a template of another model: the skin's order is all there is.
  Diagnostics w;
  const scene::Scene s = kms_via_blender(branching_kms(), {.node_extras = false, .material_extras = false, .rename_joints = true}, w);
  Mgs2ImportOptions o;
  const KmsFile other = read_k(mgs2fx::kms_bytes(mgs2fx::standard_kms(false, false)));
  o.kms_template = &other;
  const KmsFile back = read_k(must(scene_to_kms(s, o, w)));
  EXPECT_EQ(view_of(back).parents, (std::vector<int>{-1, 0, 1, 1, 0, 4}));  // the renumbering
  EXPECT_TRUE(has_warning(w, "joint order taken from the skin")) << dump_findings(w);
  EXPECT_TRUE(has_warning(w, "another joint count")) << dump_findings(w);
}

TEST(Mgs2Blender, JointsWithoutNumbersComeAfterTheNumberedOnes) {
  Diagnostics w;
  scene::Scene s = kms_via_blender(branching_kms(), {.node_extras = false, .material_extras = false}, w);
  // A bone added in Blender under unit_2, first in the skin.
  scene::Joint extra;
  extra.name = "new_bone";
  for (auto i : s.skeleton.skin)  // the joint node unit_2, not the mesh node of that name
    if (s.skeleton.joints[i].name == "unit_2") extra.parent = static_cast<int>(i);
  s.skeleton.joints.push_back(extra);
  s.skeleton.skin.insert(s.skeleton.skin.begin(), static_cast<std::uint32_t>(s.skeleton.joints.size() - 1));
  const KmsFile back = read_k(must(scene_to_kms(s, {}, w)));
  EXPECT_EQ(view_of(back).parents, (std::vector<int>{-1, 0, 0, 2, 1, 1, 2}));
  EXPECT_TRUE(has_warning(w, "new_bone")) << dump_findings(w);
}

// ---- bind pose ------------------------------------------------------------------------------------

TEST(Mgs2Blender, MovedJointIsAnErrorNamingIt) {
  for (bool with_template : {true, false}) {
    SCOPED_TRACE(with_template ? "template" : "extras");
    Diagnostics w;
    scene::Scene s = kms_via_blender(branching_kms(), {.turn_frames = false}, w);
    for (auto& j : s.skeleton.joints)
      if (j.name == "unit_3" && !json_of(j.extras).is_null()) j.translation.x += 0.005f;  // 5 units
    Mgs2ImportOptions o;
    if (with_template) o.kms_template = &branching_kms();
    const auto r = scene_to_kms(s, o, w);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().path.find("unit_3"), std::string::npos) << r.error().path;
    EXPECT_NE(r.error().message.find("different skeleton"), std::string::npos) << r.error().message;
    // Within the tolerance (Blender's noise is 1e-6 m) it is the same joint.
    for (auto& j : s.skeleton.joints)
      if (j.name == "unit_3" && !json_of(j.extras).is_null()) j.translation.x -= 0.005f - 2e-6f;
    EXPECT_TRUE(scene_to_kms(s, o, w).ok());
  }
}

TEST(Mgs2Blender, TurnedFramesAreListedInOneLine) {
  Diagnostics w;
  const scene::Scene s = evm_via_blender(branching_evm(), {}, w);
  Diagnostics convert;
  ASSERT_TRUE(scene_to_evm(s, {}, convert).ok());
  std::size_t lines = 0;
  for (const auto& f : convert.findings())
    if (f.message.find("joint frames turned") != std::string::npos) {
      ++lines;
      EXPECT_NE(f.message.find("6 joints (joint_0, joint_1, joint_2, joint_3, joint_4, joint_5)"), std::string::npos) << f.message;
    }
  EXPECT_EQ(lines, 1U) << dump_findings(convert);
}

// ---- texture ids ------------------------------------------------------------------------------------

TEST(Mgs2Blender, MaterialNamesAsBoneyardWritesThem) {
  using detail::MaterialIds;
  const auto ids = texture_ids();
  struct Case {
    const char* name;
    std::array<std::uint32_t, 3> want;
  };
  const Case cases[] = {
      {"00ABC29F", {0xABC29F, 0, 0}},
      {"00ABC29F+00D1A3FF+002F64BD (single-sided)", {0xABC29F, 0xD1A3FF, 0x2F64BD}},
      {"00ABC29F+00000000+002F64BD", {0xABC29F, 0, 0x2F64BD}},
      {"body.bmp+body_spec.bmp+env_metal.bmp.001", {ids[0], ids[1], ids[2]}},
      {"face.bmp (single-sided).001", {ids[3], 0, 0}},
  };
  for (const auto& c : cases) {
    scene::Material m;
    m.name = c.name;
    const MaterialIds got = detail::material_texture_ids(m);
    EXPECT_EQ(got.from, MaterialIds::From::name) << c.name;
    EXPECT_EQ(got.ids, c.want) << c.name;
  }
  for (const char* unreadable : {"", "Material", "skin+", "a+b+c+d.bmp"}) {
    scene::Material m;
    m.name = unreadable;
    EXPECT_EQ(detail::material_texture_ids(m).from, MaterialIds::From::none) << unreadable;
  }
  // Extras win over the name; Blender's repr string of them too (None is no Python-free JSON).
  scene::Material m;
  m.name = "Material.003";
  json_of(m.extras)["mgs2_textures"] = "{'names': [None, None, None], 'tex_id': [7069468, 0, 0]}";
  EXPECT_EQ(detail::material_texture_ids(m).ids, (std::array<std::uint32_t, 3>{7069468, 0, 0}));
  json_of(m.extras)["mgs2_textures"] = nlohmann::json{{"names", {"face.bmp", "", ""}}};  // ids lost, names kept
  EXPECT_EQ(detail::material_texture_ids(m).ids, (std::array<std::uint32_t, 3>{ids[3], 0, 0}));
  m.extras = {};
  m.image_name = "textures/body.png";
  EXPECT_EQ(detail::material_texture_ids(m).ids, (std::array<std::uint32_t, 3>{ids[0], 0, 0}));
}

TEST(Mgs2Blender, TextureIdsSurviveLostOrStringExtrasAndSuffixes) {
  const BlenderShape shapes[] = {
      {.extras_as_repr = true},
      {.material_extras = false, .material_suffix = true},
      {.node_extras = false, .material_extras = false},
  };
  for (bool named : {true, false})
    for (const auto& shape : shapes) {
      Diagnostics w;
      const KmsFile back = read_k(must(scene_to_kms(kms_via_blender(branching_kms(), shape, w, named), {}, w)));
      expect_same_identity(branching_kms(), back);
      EXPECT_FALSE(has_warning(w, "texture id")) << dump_findings(w);
    }
  // Our current export writes "" for unknown names, so Blender keeps the extras as an object.
  Diagnostics w;
  const scene::Scene s = must(kms_to_scene(branching_kms(), {}, w));
  EXPECT_EQ(json_of(s.materials[0].extras)["mgs2_textures"]["names"], nlohmann::json({"", "", ""}));
}

TEST(Mgs2Blender, UnreadableNamesAreWarnedAndTheTemplateFillsIn) {
  Diagnostics w;
  scene::Scene s = kms_via_blender(branching_kms(), {.node_extras = false, .material_extras = false}, w);
  for (auto& m : s.materials) m.name = m.name.find("face") == 0 ? "skin" : "";
  // Without a template: "skin" is hashed as a file name and said, nameless ones are id 0 and said.
  Diagnostics plain;
  const KmsFile guessed = read_k(must(scene_to_kms(s, {}, plain)));
  EXPECT_TRUE(has_warning(plain, "'skin' -> 0x" )) << dump_findings(plain);
  EXPECT_TRUE(has_warning(plain, "texture id 0")) << dump_findings(plain);
  EXPECT_EQ(guessed.units[2].packets.at(0).tex_id[0], strcode("skin.bmp"));
  EXPECT_EQ(guessed.units[0].packets.at(0).tex_id[0], 0U);
  // With the template, the packet holding the same triangles gives the ids of the nameless ones.
  Diagnostics with;
  Mgs2ImportOptions o;
  o.kms_template = &branching_kms();
  const KmsFile back = read_k(must(scene_to_kms(s, o, with)));
  EXPECT_FALSE(has_warning(with, "texture id 0")) << dump_findings(with);
  EXPECT_EQ(back.units[0].packets.at(0).tex_id, branching_kms().units[0].packets[0].tex_id);
  EXPECT_EQ(back.units[1].packets.at(0).tex_id, branching_kms().units[1].packets[0].tex_id);
}

// ---- packet fields, layout --------------------------------------------------------------------------

TEST(Mgs2Blender, TemplateRestoresWhatTheGltfDoesNotCarry) {
  Diagnostics w;
  const scene::Scene s = kms_via_blender(branching_kms(), {.node_extras = false, .material_extras = false}, w);
  Mgs2ImportOptions o;
  o.kms_template = &branching_kms();
  const KmsFile back = read_k(must(scene_to_kms(s, o, w)));
  EXPECT_EQ(back.header.data_format, branching_kms().header.data_format);
  EXPECT_EQ(back.header.texture, branching_kms().header.texture);
  EXPECT_EQ(back.header.position, branching_kms().header.position);
  for (std::size_t u = 0; u < back.units.size(); ++u)
    for (std::size_t k = 0; k < back.units[u].packets.size(); ++k) {
      const auto& a = branching_kms().units[u].packets.at(k);
      const auto& b = back.units[u].packets[k];
      EXPECT_EQ(a.flag, b.flag) << "unit " << u << " packet " << k;  // EMAP, culling, UV sets
      for (int q = 0; q < 3; ++q) EXPECT_EQ(a.uvs[q].present(), b.uvs[q].present()) << "unit " << u << " uv " << q;
    }
  // Without it, the flags glTF implies: the same textures, UV sets and culling, no EMAP.
  Diagnostics w2;
  const KmsFile plain = read_k(must(scene_to_kms(s, {}, w2)));
  EXPECT_EQ(plain.units[1].packets.at(0).flag, 0xF9U);  // TEX0-2 | UV0 | UV1 | ENVELOPE
  EXPECT_EQ(plain.units[2].packets.at(0).flag, 0x4CU);  // TEX0 | UV0 | CULLON
}

TEST(Mgs2Blender, ZeroUvMapsBlenderAddsAreNotStored) {
  Diagnostics w;
  scene::Scene s = evm_via_blender(branching_evm(), {.node_extras = false, .material_extras = false}, w);
  for (auto& p : s.meshes.at(0).primitives)  // Blender gives every primitive all of the mesh's UV maps
    if (p.uvs.size() == 1) p.uvs.push_back(std::vector<float>(p.vertex_count() * 2, 0.0f));
  const EvmFile back = read_e(must(scene_to_evm(s, {}, w)));
  for (std::size_t k = 0; k < back.packets.size(); ++k)
    EXPECT_EQ(back.packets[k].uvs[1].present(), branching_evm().packets[k].uvs[1].present()) << "packet " << k;
}

TEST(Mgs2Blender, LayoutFromExtrasTemplateOrAnnouncedDefault) {
  const KmsFile& mc = branching_kms(true);
  {
    Diagnostics w;
    const KmsFile back = read_k(must(scene_to_kms(kms_via_blender(mc, {}, w), {}, w)));
    EXPECT_EQ(back.layout, Layout::mc);
    EXPECT_FALSE(has_warning(w, "PS2 layout")) << dump_findings(w);
  }
  const scene::Scene plain = [&] {
    Diagnostics w;
    return kms_via_blender(mc, {.node_extras = false, .material_extras = false}, w);
  }();
  {
    Diagnostics w;
    Mgs2ImportOptions o;
    o.kms_template = &mc;
    EXPECT_EQ(read_k(must(scene_to_kms(plain, o, w))).layout, Layout::mc);
    EXPECT_FALSE(has_warning(w, "PS2 layout")) << dump_findings(w);
  }
  Diagnostics w;
  EXPECT_EQ(read_k(must(scene_to_kms(plain, {}, w))).layout, Layout::ps2);
  std::size_t said = 0;
  for (const auto& f : w.findings()) said += f.message.find("writing the PS2 layout") != std::string::npos;
  EXPECT_EQ(said, 1U) << dump_findings(w);
}

// ---- n_mats -----------------------------------------------------------------------------------------

TEST(Mgs2Blender, NMatsInTheSpecsOrSeaLousesReading) {
  EvmFile m = branching_evm(true);
  std::vector<std::uint32_t> stored;
  for (const auto& p : m.packets) stored.push_back(p.n_mats);
  EXPECT_EQ(stored, (std::vector<std::uint32_t>{3, 6, 2}));  // matrices used: packet 1 uses all six joints
  EXPECT_EQ(must(set_n_mats(m, NMatsReading::sealouse)), 1U);
  std::vector<std::uint32_t> influences;
  for (const auto& p : m.packets) influences.push_back(p.n_mats);
  EXPECT_EQ(influences, (std::vector<std::uint32_t>{3, 4, 2}));  // the largest count of influences per vertex
  EXPECT_EQ(must(set_n_mats(m, NMatsReading::spec)), 1U);
  EXPECT_EQ(m.packets[1].n_mats, 6U);
  // Through glTF, exact packets keep their stored n_mats unless asked.
  Diagnostics w;
  const scene::Scene s = must(evm_to_scene(branching_evm(true), {}, w));
  Mgs2ImportOptions o;
  o.n_mats = NMatsReading::sealouse;
  const EvmFile back = read_e(must(scene_to_evm(via_glb(s, w), o, w)));
  EXPECT_EQ(back.packets.at(1).n_mats, 4U);
  EXPECT_EQ(read_e(must(scene_to_evm(via_glb(s, w), {}, w))).packets.at(1).n_mats, 6U);
  // SeaLouse's reading exists only for V2 weights.
  EvmFile v1 = read_e(mgs2fx::evm_bytes(mgs2fx::standard_evm(false, false, true)));
  EXPECT_FALSE(set_n_mats(v1, NMatsReading::sealouse).ok());
}

}  // namespace
}  // namespace boneyard::test
