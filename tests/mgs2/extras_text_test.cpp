// The MGS2 export prints its per-packet and mesh extras as JSON text itself
// (src/mgs2/scene/mgs2_extras_text.h) instead of building nlohmann documents: the text must be exactly
// what nlohmann prints for the document it parses to (the glTF files written before carried that
// text), and reading it as a document must give the members the importer needs.
#include <gtest/gtest.h>

#include <deque>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "scene/extras_json.h"
#include "scene/extras_text.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "mgs2_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;
using Json = nlohmann::json;

const std::vector<std::uint8_t>& keep(std::vector<std::uint8_t> b) {
  static std::deque<std::vector<std::uint8_t>> kept;
  kept.push_back(std::move(b));
  return kept.back();
}

// Every extras of the scene: its text is nlohmann's dump of its own parse.
void expect_canonical_extras(const scene::Scene& s) {
  std::vector<const scene::Extras*> all = {&s.extras, &s.skeleton.extras};
  for (const auto& j : s.skeleton.joints) all.push_back(&j.extras);
  for (const auto& m : s.materials) all.push_back(&m.extras);
  for (const auto& m : s.meshes) {
    all.push_back(&m.extras);
    for (const auto& p : m.primitives) all.push_back(&p.extras);
  }
  for (const scene::Extras* e : all) {
    const std::string text = e->text();
    if (text.empty()) continue;
    EXPECT_EQ(text, Json::parse(text).dump(-1, ' ', false, Json::error_handler_t::replace));
    EXPECT_EQ(text, json_of(*e).dump(-1, ' ', false, Json::error_handler_t::replace));
  }
}

// A packet whose every vertex restarts the strip (it draws nothing, so it goes to the mesh
// extras whole), and a normal that normalising changes (its stored triple goes to extras).
// The shared printers (scene/extras_text.h) against nlohmann's own: numbers (integral ones take a
// shortcut), and strings with and without characters to escape.
TEST(ExtrasText, NumbersAndStringsPrintAsNlohmannWould) {
  const double values[] = {0.0, -0.0, 1.0, -1.0, 10.0, 0.5, -2.25, 1e-5, 123456789.0, 1e14, 999999999999999.0, 1e15,
                           -1e15, 1e16, 3.4028234663852886e38, 1.401298464324817e-45, 0.1, 100.5, 4096.0, -7e-3,
                           std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()};
  for (const double v : values) {
    std::string text;
    scene::append_double(text, v);
    EXPECT_EQ(text, Json(v).dump()) << v;
  }
  for (int i = -3000; i <= 3000; ++i) {
    const double v = i * 0.25;
    std::string text;
    scene::append_double(text, v);
    EXPECT_EQ(text, Json(v).dump()) << v;
  }
  for (const std::string& s : std::initializer_list<std::string>{"plain", "", "quote \" in", "back\\slash", "tab\t", std::string("nul\0x", 5), "cyrillic \xd0\xb1"}) {
    std::string text;
    scene::append_string(text, s);
    EXPECT_EQ(text, Json(s).dump()) << s;
  }
}

TEST(Mgs2ExtrasText, KmsPacketsAndMeshesPrintAsNlohmannWould) {
  for (bool mc : {false, true})
    for (bool multitex : {false, true}) {
      SCOPED_TRACE(std::string(mc ? "mc" : "ps2") + (multitex ? " multitex" : ""));
      auto f = mgs2fx::standard_kms(mc, multitex);
      f.units[0].packets[0].norms[3] = {100, 0, 0, 0x0FFF};
      auto silent = f.units[0].packets[0];
      for (auto& n : silent.norms) n[3] = -28673;  // 0x8FFF: no vertex draws
      f.units[0].packets.push_back(silent);
      const auto& bytes = keep(mgs2fx::kms_bytes(f));
      auto m = read_kms(FileData::from_view(as_bytes(bytes), nullptr));
      ASSERT_TRUE(m.ok());
      Diagnostics w;
      auto s = kms_to_scene(m.value(), {}, w);
      ASSERT_TRUE(s.ok());
      expect_canonical_extras(s.value());
      const Json& packet = json_of(s.value().meshes[0].primitives[0].extras)["mgs2_packet"];
      EXPECT_TRUE(packet.contains("normals"));
      EXPECT_EQ(packet["uv_sets"], Json::array({true, multitex, false}));
      const Json& mesh = json_of(s.value().meshes[0].extras)["mgs2_mesh"];
      EXPECT_EQ(mesh["packets"], 2);
      EXPECT_EQ(mesh["unit"], 0);
      ASSERT_EQ(mesh["without_triangles"].size(), 1U);
      EXPECT_EQ(mesh["without_triangles"][0]["index"], 1);
      EXPECT_TRUE(mesh["without_triangles"][0]["verts"].is_string());
    }
}

TEST(Mgs2ExtrasText, EvmPacketsAndMeshesPrintAsNlohmannWould) {
  for (bool mc : {false, true})
    for (bool v1 : {false, true}) {
      SCOPED_TRACE(std::string(mc ? "mc" : "ps2") + (v1 ? " v1" : ""));
      auto f = mgs2fx::standard_evm(mc, false, v1);
      f.packets[0].norms[2] = {0, 100, 0, 0};
      auto silent = f.packets[0];
      for (auto& v : silent.verts) v[3] = -28673;
      silent.uvs[0].clear();
      silent.weights.clear();
      f.packets.push_back(silent);
      const auto& bytes = keep(mgs2fx::evm_bytes(f));
      auto m = read_evm(FileData::from_view(as_bytes(bytes), nullptr));
      ASSERT_TRUE(m.ok());
      Diagnostics w;
      auto s = evm_to_scene(m.value(), {}, w);
      ASSERT_TRUE(s.ok());
      expect_canonical_extras(s.value());
      const Json& packet = json_of(s.value().meshes[0].primitives[0].extras)["mgs2_packet"];
      EXPECT_TRUE(packet.contains("normals"));
      EXPECT_EQ(packet["mat_id"], Json::array({0, 1, 255, 255, 255, 255, 255, 255}));
      EXPECT_TRUE(packet["uv_wp"][0].is_object());
      EXPECT_TRUE(packet["uv_wp"][1].is_null());
      EXPECT_TRUE(packet["weights"].is_string());
      const Json& mesh = json_of(s.value().meshes[0].extras)["mgs2_mesh"];
      EXPECT_FALSE(mesh.contains("unit"));
      ASSERT_EQ(mesh["without_triangles"].size(), 1U);
      EXPECT_TRUE(mesh["without_triangles"][0]["weights"].is_null());
      EXPECT_TRUE(mesh["without_triangles"][0]["uvs"][0].is_null());
    }
}

}  // namespace
}  // namespace boneyard::test
