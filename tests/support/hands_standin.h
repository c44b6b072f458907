// A stand-in for the first-person hands of an Anomaly-based mod (issue 37): a 42-bone model whose
// 53 motion refs (more than the stock CoP engine's 48) name 53 .omf files of 52 motions each
// (2,756 motions), with runs of held keys as real hands have (static tracks, keys that stay on one
// value for several frames, mostly constant translations): like the real hands, its glTF samples
// to more values than the ratio to the file's size that bounded the sampler before issue 37. Laid
// out field by field by the test fixtures (tests/xray/omf_fixture.h, ogf_mesh_fixture.h), from a
// fixed seed: the same bytes on every run, nothing committed. Used by
// tests/registry/check_roundtrip_test.cpp and by bench/hands_standin.cpp (the figures in
// docs/performance.md).
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ogf_mesh_fixture.h"
#include "omf_fixture.h"

namespace boneyard::test {

struct HandsStandIn {
  std::filesystem::path meshes;  // the meshes root (refs are relative to it)
  std::filesystem::path model;   // meshes/dynamics/weapons/wpn_hand/wpn_hand_standin.ogf
  std::size_t motion_files = 0, motions = 0;
  std::uint64_t omf_bytes = 0, ogf_bytes = 0;
};

namespace hands_detail {

// The 42 bones of X-Ray hands (3ds Max biped names), parents first.
struct HandBone {
  std::string name;
  int parent;
};
inline std::vector<HandBone> hand_bones() {
  std::vector<HandBone> b = {{"bip01", -1}};
  auto add = [&](const std::string& name, int parent) {
    b.push_back({name, parent});
    return int(b.size()) - 1;
  };
  for (const char side : {'l', 'r'}) {
    const std::string s(1, side);
    const int clavicle = add(s + "_clavicle", 0);
    const int upper = add(s + "_upperarm", clavicle);
    const int fore = add(s + "_forearm", upper);
    add(s + "_forearm_twist", fore);
    const int hand = add(s + "_hand", fore);
    for (int f = 1; f <= 4; ++f) {
      const std::string base = "bip01_" + s + "_finger" + std::to_string(f);
      const int a = add(base, hand);
      const int c = add(base + "1", a);
      add(base + "2", c);
    }
    const int t0 = add(s + "_finger0", hand);
    const int t1 = add(s + "_finger01", t0);
    add(s + "_finger02", t1);
    if (side == 'l') add("lead_gun", 0);
  }
  return b;
}

// A small deterministic generator (xorshift64*).
struct Random {
  std::uint64_t s;
  std::uint64_t next() {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
  double unit() { return double(next() >> 11) / double(1ull << 53); }  // [0, 1)
  int between(int lo, int hi) { return lo + int(next() % std::uint64_t(hi - lo + 1)); }
};

// A unit quaternion near the identity, as the file's 16-bit components.
inline Q quat_near(Random& r, double spread) {
  double x = (r.unit() - 0.5) * spread, y = (r.unit() - 0.5) * spread, z = (r.unit() - 0.5) * spread;
  double w = std::sqrt(std::max(0.0, 1.0 - x * x - y * y - z * z));
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  auto q = [&](double v) { return int(std::lround(v / n * 32767.0)); };
  return {q(x), q(y), q(z), q(w)};
}

inline void write_file(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Keys that hold their value for runs of frames (3 to 30), as animators' hands keys do.
template <class Make>
auto held_runs(Random& r, std::uint32_t frames, Make make) {
  std::vector<decltype(make())> keys;
  while (keys.size() < frames) {
    const auto value = make();
    for (int run = r.between(3, 30); run > 0 && keys.size() < frames; --run) keys.push_back(value);
  }
  return keys;
}

inline std::vector<std::uint8_t> motion_file(const std::vector<HandBone>& bones, unsigned file, unsigned count,
                                             Random& r) {
  OmfSpec spec;
  spec.version = 4;
  PartSpec part{"default", {}};
  for (std::size_t i = 0; i < bones.size(); ++i) part.bones.push_back({bones[i].name, std::uint32_t(i)});
  spec.parts = {part};
  for (unsigned m = 0; m < count; ++m) {
    const std::string name = "standin" + std::to_string(file) + "_motion" + std::to_string(m);
    MotionKeysSpec keys{name, std::uint32_t(r.between(20, 60)), {}, {}};
    for (std::size_t b = 0; b < bones.size(); ++b) {
      BoneSpec bone;
      const bool static_rotation = r.unit() < 0.5;
      const bool keyed_translation = b < 2 || r.unit() < 0.12;  // the root and a clavicle move
      bone.flags = std::uint8_t((static_rotation ? 2 : 0) | (keyed_translation ? 1 | 4 : 0));
      if (static_rotation) bone.rot = {quat_near(r, 0.6)};
      else bone.rot = held_runs(r, keys.frames, [&] { return quat_near(r, 0.6); });
      const F3 bind{0.05f * float(b % 5), 0.01f * float(b % 3), -0.02f * float(b % 7)};
      bone.init = bind;
      if (keyed_translation) {
        bone.size = {1.0e-4f, 1.0e-4f, 1.0e-4f};
        bone.trans = held_runs(r, keys.frames, [&] { return T3{r.between(-300, 300), r.between(-300, 300), r.between(-300, 300)}; });
      }
      keys.bones.push_back(bone);
    }
    spec.keys.push_back(std::move(keys));
    spec.params.push_back({name, m % 3 == 0 ? 0x2u : 0x0u, 0xFFFF, std::uint16_t(m), 1.0f, 1.0f, 2.0f, 2.0f, {}});
  }
  return omf_bytes(spec);
}

// The model: header type 3, one 2-link skinned child (two triangles per bone), 0xD, 0x10 with a
// generated bind pose, 0x18 with every ref.
inline std::vector<std::uint8_t> model_file(const std::vector<HandBone>& bones, const std::vector<std::string>& refs,
                                            Random& r) {
  ChildSpec c;
  c.format = 2;
  c.texture = "act\\act_arm_standin";
  for (std::size_t b = 0; b < bones.size(); ++b) {
    const float x = 0.03f * float(b);
    for (int k = 0; k < 4; ++k) {
      MeshVertex v;
      v.p = {x + 0.01f * float(k & 1), 0.01f * float(k >> 1), 0.2f};
      v.n = {0, 0, -1};
      v.u = float(k & 1), v.v = float(k >> 1);
      const unsigned parent = bones[b].parent < 0 ? unsigned(b) : unsigned(bones[b].parent);
      v.bones = {unsigned(b), parent, 0, 0};
      v.stored_weights = {float(0.6 + 0.4 * r.unit()), 0, 0};
      c.vertices.push_back(skinned_vertex(2, v));
    }
    const unsigned o = unsigned(4 * b);
    for (unsigned i : {o, o + 1, o + 2, o + 1, o + 3, o + 2}) c.indices.push_back(i);
  }
  Buf header;
  header.u32(4u | (3u << 8));
  for (float v : {-1.0f, -1.0f, -1.0f, 2.0f, 1.0f, 1.0f, 0.5f, 0.0f, 0.0f, 2.0f}) header.f32(v);
  Buf names;
  names.u32(std::uint32_t(bones.size()));
  for (const auto& b : bones) {
    names.str(b.name).str(b.parent < 0 ? "" : bones[std::size_t(b.parent)].name);
    for (int i = 0; i < 9; ++i) names.f32(i % 4 == 0 ? 1.0f : 0.0f);  // box rotation: identity
    for (int i = 0; i < 3; ++i) names.f32(0.0f);                      // box centre
    for (int i = 0; i < 3; ++i) names.f32(0.05f);                     // half size
  }
  Buf ik;
  for (std::size_t b = 0; b < bones.size(); ++b) {
    ik.u32(1).str("default_object");
    for (int i = 0; i < 112; ++i) ik.u8(0);
    ik.u32(0);
    for (int i = 0; i < 3; ++i) ik.f32(0).f32(0).f32(1).f32(1);
    ik.f32(1).f32(1).u32(0).f32(0).f32(0).f32(0);
    ik.f32(float(r.unit() - 0.5)).f32(float(r.unit() - 0.5)).f32(float(r.unit() - 0.5));  // bind rotation
    ik.f32(0.05f * float(b % 5)).f32(0.01f * float(b % 3)).f32(-0.02f * float(b % 7));      // bind position
    ik.f32(10.0f).f32(0).f32(0).f32(0);
  }
  Buf refs_chunk;
  refs_chunk.u32(std::uint32_t(refs.size()));
  for (const auto& ref : refs) refs_chunk.str(ref);
  Buf desc;
  desc.str("standin").str("boneyard tests").u32(0).str("").u32(0).str("").u32(0);
  Buf f;
  f.chunk(0x1, header).chunk(0x12, desc).chunk(0x9, children({child(c)})).chunk(0xD, names).chunk(0x10, ik);
  f.chunk(0x18, refs_chunk);
  return f.b;
}

}  // namespace hands_detail

// Writes the stand-in under `root` (root/meshes/...): `files` motion files of `motions_per_file`
// motions each, referenced by one model.
inline HandsStandIn write_hands_standin(const std::filesystem::path& root, unsigned files = 53,
                                        unsigned motions_per_file = 52) {
  using namespace hands_detail;
  HandsStandIn out;
  out.meshes = root / "meshes";
  const auto bones = hand_bones();
  Random r{0x9E3779B97F4A7C15ull};
  std::vector<std::string> refs;
  for (unsigned f = 0; f < files; ++f) {
    const std::string folder = "dynamics\\weapons\\wpn_standin" + std::to_string(f);
    const std::string ref = folder + "\\wpn_hand_standin" + std::to_string(f) + "_hud_animation";
    refs.push_back(ref);
    const auto bytes = motion_file(bones, f, motions_per_file, r);
    write_file(out.meshes / "dynamics" / "weapons" / ("wpn_standin" + std::to_string(f)) /
                   ("wpn_hand_standin" + std::to_string(f) + "_hud_animation.omf"),
               bytes);
    out.omf_bytes += bytes.size();
    out.motions += motions_per_file;
  }
  out.motion_files = files;
  out.model = out.meshes / "dynamics" / "weapons" / "wpn_hand" / "wpn_hand_standin.ogf";
  const auto model = model_file(bones, refs, r);
  write_file(out.model, model);
  out.ogf_bytes = model.size();
  return out;
}

}  // namespace boneyard::test
