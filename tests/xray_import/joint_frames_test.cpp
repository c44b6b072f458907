// Joint frames turned as Blender's default import does (bone_heuristic='TEMPERANCE'): a glTF
// whose every joint frame is turned by a constant rotation (up to 180 degrees), with its rest
// pose and keys written in the turned frames, imports to the same motions as the original; a
// joint that moved is an error naming it. Synthetic: the turn is applied here to our own export.
#include <cmath>

#include "import_support.h"

namespace boneyard::test {
namespace {

struct Q {
  double x = 0, y = 0, z = 0, w = 1;
};
Q mul(const Q& a, const Q& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
Q inv(const Q& q) { return {-q.x, -q.y, -q.z, q.w}; }
Q axis_angle(double x, double y, double z, double degrees) {
  const double n = std::sqrt(x * x + y * y + z * z), h = degrees * M_PI / 360;
  return {x / n * std::sin(h), y / n * std::sin(h), z / n * std::sin(h), std::cos(h)};
}
void rotate(const Q& q, float* v) {
  const Q p = mul(mul(q, {v[0], v[1], v[2], 0}), inv(q));
  v[0] = float(p.x), v[1] = float(p.y), v[2] = float(p.z);
}
void turn_quat(const Q& pre, const Q& post, float* v) {
  const Q r = mul(mul(pre, {v[0], v[1], v[2], v[3]}), post);
  v[0] = float(r.x), v[1] = float(r.y), v[2] = float(r.z), v[3] = float(r.w);
}

// Every joint frame turned by turns[j]: rest and keys become parent^-1 * x * own (rotations) and
// parent^-1 * t (translations), which is what a DCC writes when it re-orients its bones.
void turn_joints(scene::Scene& s, const std::vector<Q>& turns) {
  auto parent_turn = [&](std::size_t j) { return s.skeleton.joints[j].parent < 0 ? Q{} : turns[s.skeleton.joints[j].parent]; };
  for (std::size_t j = 0; j < s.skeleton.joints.size(); ++j) {
    auto& jt = s.skeleton.joints[j];
    const Q pre = inv(parent_turn(j));
    float r[4] = {jt.rotation.x, jt.rotation.y, jt.rotation.z, jt.rotation.w};
    turn_quat(pre, turns[j], r);
    jt.rotation = {r[0], r[1], r[2], r[3]};
    float t[3] = {jt.translation.x, jt.translation.y, jt.translation.z};
    rotate(pre, t);
    jt.translation = {t[0], t[1], t[2]};
  }
  for (auto& a : s.animations)
    for (auto& c : a.channels) {
      const Q pre = inv(parent_turn(c.joint));
      if (c.path == scene::Channel::Path::rotation) {
        for (std::size_t i = 0; i < c.values.size(); i += 4) turn_quat(pre, turns[c.joint], c.values.data() + i);
        c.shorts.clear();  // the turned keys are floats (as a DCC tool writes them)
      }
      else if (c.path == scene::Channel::Path::translation)
        for (std::size_t i = 0; i < c.values.size(); i += 3) rotate(pre, c.values.data() + i);
    }
}

std::vector<Q> some_turns(std::size_t n) {
  const Q choices[] = {axis_angle(0, 0, 1, 90), axis_angle(1, 0, 0, 180), axis_angle(1, 1, 1, 120),
                       axis_angle(0, 1, 0, -37), axis_angle(1, 2, 3, 179.5)};
  std::vector<Q> v;
  for (std::size_t j = 0; j < n; ++j) v.push_back(choices[j % 5]);
  return v;
}

struct Turned {
  std::shared_ptr<const FileData> omf_bytes;
  Result<xray::OmfFile> omf = Finding{};
  Result<xray::OgfFile> ogf = Finding{};
  scene::Scene scene;
};

// The shipped arm (or only its motions, on a flat armature) exported, turned, written as a glb
// and read back as a user's DCC export would be.
Turned turned_arm(bool with_model, void (*edit)(scene::Scene&) = nullptr) {
  Turned t;
  t.omf_bytes = load(source_dir() / "examples/wave.omf");
  t.omf = xray::read_omf(t.omf_bytes);
  t.ogf = xray::read_ogf(load(source_dir() / "examples/wave_arm.ogf"));
  EXPECT_TRUE(t.omf && t.ogf);
  scene::Scene s = with_model ? xray::skeleton_scene(t.ogf.value(), "arm").value() : xray::flat_scene(t.omf->motions, "flat");
  Diagnostics w;
  EXPECT_TRUE(xray::add_motions(s, with_model ? &t.ogf.value() : nullptr, t.omf->motions, "wave", w));
  turn_joints(s, some_turns(s.skeleton.joints.size()));
  if (edit) edit(s);
  const auto glb = gltf::write(s, gltf::Container::glb).main;
  auto back = read_glb(glb, w);
  EXPECT_TRUE(back);
  t.scene = std::move(back).value();
  return t;
}

bool same_keys(const xray::MotionSet& a, const xray::MotionSet& b, std::string& why) {
  for (std::size_t m = 0; m < a.motions.size(); ++m)
    for (std::size_t r = 0; r < a.motions[m].bones.size(); ++r)
      for (std::size_t f = 0; f < a.motions[m].frames; ++f) {
        Quat qa = scene::normalized(a.motions[m].bones[r].rotation(f)), qb = scene::normalized(b.motions[m].bones[r].rotation(f));
        if (scene::dot(qa, qb) < 0) qb = {-qb.x, -qb.y, -qb.z, -qb.w};
        const double step = 1.0 / 32767 + 1e-6;
        const Vec3 ta = a.motions[m].bones[r].translation(f), tb = b.motions[m].bones[r].translation(f);
        const double dt = std::max({std::fabs(ta.x - tb.x), std::fabs(ta.y - tb.y), std::fabs(ta.z - tb.z)});
        const Vec3 size = a.motions[m].bones[r].translation_size;
        const double tstep = std::max({std::fabs(size.x), std::fabs(size.y), std::fabs(size.z)}) + 1e-6;
        if (std::fabs(qa.x - qb.x) > step || std::fabs(qa.y - qb.y) > step || std::fabs(qa.z - qb.z) > step ||
            std::fabs(qa.w - qb.w) > step || dt > tstep) {
          why = "motion " + std::to_string(m) + " record " + std::to_string(r) + " frame " + std::to_string(f);
          return false;
        }
      }
  return true;
}

TEST(JointFrames, TurnedFramesComeBackInEngineSpace) {
  for (bool with_model : {true, false})
    for (bool pass_skeleton : {true, false}) {
      if (!with_model && pass_skeleton) continue;
      SCOPED_TRACE(with_model ? (pass_skeleton ? "--skeleton" : "bind pose from the joint extras") : "flat armature");
      Turned t = turned_arm(with_model);
      xray::XrayImportOptions o;
      if (pass_skeleton) o.skeleton = &t.ogf.value();
      Diagnostics w;
      auto out = xray::scene_to_omf(t.scene, o, w);
      ASSERT_TRUE(out) << out.error().message;
      std::string why;
      EXPECT_TRUE(same_keys(t.omf->motions, out->motions, why)) << why;
      std::size_t lines = 0;
      for (const auto& f : w.findings())
        if (f.message.find("joint frames are turned") != std::string::npos) {
          ++lines;
          EXPECT_NE(f.found.find("3 joint(s): root, upper_arm, forearm"), std::string::npos) << f.found;
        }
      EXPECT_EQ(lines, 1u) << "the corrected joints are named in one line";
      // With the original as template, the corrected keys are the template's: the same file.
      o.template_omf = &t.omf.value();
      Diagnostics w2;
      xray::ImportStats st;
      auto same = xray::scene_to_omf(t.scene, o, w2, &st);
      ASSERT_TRUE(same);
      const auto bytes = xray::write_omf(same.value());
      EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), t.omf_bytes->bytes().data(),
                             t.omf_bytes->bytes().data() + t.omf_bytes->bytes().size()))
          << st.template_records << " of " << st.records << " records from the template, container "
          << st.template_container;
    }
}

TEST(JointFrames, UnturnedImportReportsNothing) {
  auto omf = xray::read_omf(load(source_dir() / "examples/wave.omf"));
  auto ogf = xray::read_ogf(load(source_dir() / "examples/wave_arm.ogf"));
  ASSERT_TRUE(omf && ogf);
  auto glb = export_glb(omf->motions, &ogf.value());
  ASSERT_TRUE(glb);
  Diagnostics w;
  auto sc = read_glb(*glb, w);
  ASSERT_TRUE(sc);
  auto out = xray::scene_to_omf(sc.value(), {}, w);
  ASSERT_TRUE(out);
  for (const auto& f : w.findings()) EXPECT_EQ(f.message.find("joint frames"), std::string::npos) << f.message;
}

TEST(JointFrames, MovedJointIsAnErrorNamingIt) {
  Turned t = turned_arm(true, [](scene::Scene& s) { s.skeleton.joints[2].translation.x += 0.01f; });
  xray::XrayImportOptions o;
  o.skeleton = &t.ogf.value();
  Diagnostics w;
  auto out = xray::scene_to_omf(t.scene, o, w);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().path, "node \"forearm\"");
  EXPECT_NE(out.error().message.find("skeleton mismatch"), std::string::npos);
  EXPECT_NE(out.error().found.find(" m away"), std::string::npos) << out.error().found;  // 1 cm
}

}  // namespace
}  // namespace boneyard::test
