// The compact glTF of issue 14 scope 2, pinned on a real motion set so that a change that gives
// back any of the gains fails: equal arrays written once, one two-key time accessor per motion
// for its held tracks, channels that read the same accessors sharing a sampler, accessor indices
// numbered by how often samplers name them (short indices where they repeat), and the inner keys
// of runs of equal keys left out.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/xray_scene.h"
#include "gltf_test_support.h"

namespace boneyard::test {
namespace {

struct Glb {
  nlohmann::json doc;
  std::size_t json_bytes = 0;
  std::vector<std::uint8_t> bin;
};

Glb parse_glb(const std::vector<std::uint8_t>& b) {
  auto u32 = [&](std::size_t at) {
    return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 |
           std::uint32_t(b[at + 3]) << 24;
  };
  Glb g;
  g.json_bytes = u32(12);
  g.doc = nlohmann::json::parse(b.begin() + 20, b.begin() + 20 + static_cast<std::ptrdiff_t>(g.json_bytes));
  const std::size_t bin_at = 20 + g.json_bytes;
  if (bin_at + 8 <= b.size()) g.bin.assign(b.begin() + static_cast<std::ptrdiff_t>(bin_at + 8), b.end());
  return g;
}

// The bytes an accessor covers (tightly packed: the writer never sets a byteStride).
std::string accessor_bytes(const Glb& g, const nlohmann::json& a) {
  static const std::map<int, std::size_t> component{{5120, 1}, {5121, 1}, {5122, 2}, {5123, 2}, {5125, 4}, {5126, 4}};
  static const std::map<std::string, std::size_t> width{{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT4", 16}};
  const auto& view = g.doc["bufferViews"][a["bufferView"].get<std::size_t>()];
  const std::size_t at = view.value("byteOffset", std::size_t{0}) + a.value("byteOffset", std::size_t{0});
  const std::size_t n = a["count"].get<std::size_t>() * component.at(a["componentType"]) * width.at(a["type"]);
  return std::string(reinterpret_cast<const char*>(g.bin.data()) + at, n);
}

Glb knife_glb() {
  auto omf = xray::read_omf(open_file(samples_dir() / "xray/cop/wpn_hand_knife_hud_animation.omf"));
  EXPECT_TRUE(omf);
  Diagnostics warnings;
  auto sc = xray::omf_to_scene(omf->motions, {"wpn_hand_knife_hud_animation.omf", {}, {}}, warnings);
  EXPECT_TRUE(sc);
  return parse_glb(gltf::write(sc.value(), gltf::Container::glb).main);
}

TEST(CompactGltf, KnifeMotionsShareAccessorsSamplersAndShortIndices) {
  BONEYARD_REQUIRE_SAMPLES("xray/cop");
  const Glb g = knife_glb();
  const auto& accessors = g.doc["accessors"];
  const auto& animations = g.doc["animations"];
  ASSERT_EQ(animations.size(), 18u);

  // Figures of the writer as of issue 14 (the code before it wrote 679,456 bytes: 1,543
  // accessors, 1,512 samplers, 327,232 bytes of JSON, 5,687 keys inside runs of equal keys).
  std::size_t samplers = 0, inner_run_keys = 0;
  for (const auto& a : animations) {
    samplers += a["samplers"].size();
    for (const auto& s : a["samplers"]) {
      const auto& out = accessors[s["output"].get<std::size_t>()];
      const std::string bytes = accessor_bytes(g, out);
      const std::size_t key = bytes.size() / out["count"].get<std::size_t>();
      auto at = [&](std::size_t k) { return std::string_view(bytes).substr(k * key, key); };
      for (std::size_t k = 1; k + 1 < out["count"].get<std::size_t>(); ++k)
        inner_run_keys += at(k) == at(k - 1) && at(k) == at(k + 1);
    }
  }
  EXPECT_LE(g.json_bytes + g.bin.size() + 28, 384536u);
  EXPECT_LE(accessors.size(), 1094u);
  EXPECT_LE(samplers, 1511u);
  EXPECT_LE(g.json_bytes, 237148u);
  EXPECT_LE(inner_run_keys, 295u) << "keys inside runs of equal keys are left out where that saves bytes";

  // No two accessors of the same kind over the same bytes.
  std::set<std::string> seen;
  for (const auto& a : accessors) {
    const std::string key = a["type"].get<std::string>() + "/" + std::to_string(a["componentType"].get<int>()) + "/" +
                            (a.value("normalized", false) ? "n" : "") + "/" + accessor_bytes(g, a);
    EXPECT_TRUE(seen.insert(key).second) << a.dump();
  }

  std::vector<std::size_t> named(accessors.size(), 0);
  for (const auto& a : animations) {
    std::set<std::pair<std::size_t, std::size_t>> pairs;
    std::set<std::size_t> held_inputs;
    float motion_end = 0;
    for (const auto& s : a["samplers"]) {
      const std::size_t in = s["input"], out = s["output"];
      EXPECT_TRUE(pairs.insert({in, out}).second) << "two samplers read the same accessors in " << a["name"];
      ++named[in], ++named[out];
      motion_end = std::max(motion_end, accessors[in]["max"][0].get<float>());
      if (accessors[out]["count"].get<std::size_t>() <= 2) held_inputs.insert(in);
    }
    // Held tracks: one two-key time accessor, from 0 to the end of the motion.
    ASSERT_LE(held_inputs.size(), 1u) << a["name"];
    for (const std::size_t in : held_inputs) {
      EXPECT_EQ(accessors[in]["count"], 2);
      EXPECT_EQ(accessors[in]["min"][0].get<float>(), 0.0f);
      EXPECT_EQ(accessors[in]["max"][0].get<float>(), motion_end) << a["name"];
    }
  }
  // Accessors that samplers name most come first.
  for (std::size_t i = 1; i < named.size(); ++i) EXPECT_GE(named[i - 1], named[i]) << "accessor " << i;
}

}  // namespace
}  // namespace boneyard::test
