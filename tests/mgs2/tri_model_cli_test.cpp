// PS2 models textured from their .tri: `convert model.kms|.evm -o model.glb` finds the .tri
// (the group id's file, the same stem, every .tri beside it, --textures), decodes the textures its
// packets name and embeds them; the glTF comes back to the same bytes, with and without
// --template.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "boneyard/texture/texture.h"
#include "boneyard/texture/tri/tri.h"
#include "cli_harness.h"
#include "mgs2_branching_fixture.h"
#include "tri_fixture.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using namespace boneyard::test::mgs2fx;
namespace fx = boneyard::test::trifx;

std::vector<std::uint8_t> read_file(const fs::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

struct Glb {
  nlohmann::json json;
  std::vector<std::uint8_t> bin;
};
Glb parse_glb(const std::vector<std::uint8_t>& b) {
  Glb g;
  std::uint32_t json_len = 0;
  std::memcpy(&json_len, b.data() + 12, 4);
  g.json = nlohmann::json::parse(std::string(b.begin() + 20, b.begin() + 20 + json_len));
  const std::size_t bin_at = 20 + json_len;
  if (bin_at + 8 <= b.size()) {
    std::uint32_t bin_len = 0;
    std::memcpy(&bin_len, b.data() + bin_at, 4);
    g.bin.assign(b.begin() + bin_at + 8, b.begin() + bin_at + 8 + bin_len);
  }
  return g;
}
// The embedded image `name`, decoded.
texture::Image image_named(const Glb& g, const std::string& name) {
  for (const auto& im : g.json["images"])
    if (im["name"] == name) {
      const auto& view = g.json["bufferViews"][im["bufferView"].get<std::size_t>()];
      const std::size_t at = view.value("byteOffset", 0u), len = view["byteLength"];
      auto png = texture::read_png(Bytes(g.bin.data() + at, len));
      EXPECT_TRUE(png);
      return png ? png->image : texture::Image{};
    }
  ADD_FAILURE() << "no image " << name << " in " << g.json["images"].dump();
  return {};
}
std::vector<std::uint8_t> scaled(const fx::Texture& t) {
  auto rgba = fx::expected_rgba(t);
  for (std::size_t p = 3; p < rgba.size(); p += 4) rgba[p] = texture::scale_ps2_alpha(rgba[p]);
  return rgba;
}

class TriModel : public CliTest {
 protected:
  std::string q(const std::string& name) const { return quote(dir_ / name); }
  fx::File tri_ = fx::standard(false);
};

TEST_F(TriModel, KmsFindsItsTriAndComesBackByteForByte) {
  const auto kms = kms_bytes(standard_kms(false, false));  // group 0x88D878 ("w03b1"), texture 0xB7E31E
  write("m/a.kms", kms);
  write("m/w03b1.tri", fx::build(tri_));
  CliRun r = run_cli("convert " + q("m/a.kms") + " -o " + q("a.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const Glb g = parse_glb(read_file(dir_ / "a.glb"));
  ASSERT_EQ(g.json["images"].size(), 1u) << g.json["images"].dump();
  const texture::Image im = image_named(g, "00b7e31e");
  EXPECT_EQ(im.width, 72u);
  EXPECT_EQ(im.rgba, scaled(tri_.textures[0]));  // PS2 alpha scaled: 0x80 is opaque
  EXPECT_EQ(g.json["materials"][0]["alphaMode"], "BLEND");
  // The textures change nothing on the way back: the same model as from the untextured glTF
  // (this fixture's pads and trailing bytes need the template), and with the template the
  // original bytes.
  write("plain/a.kms", kms);
  ASSERT_EQ(run_cli("convert " + q("plain/a.kms") + " -o " + q("plain.glb")).code, 0);
  EXPECT_FALSE(parse_glb(read_file(dir_ / "plain.glb")).json.contains("images"));
  ASSERT_EQ(run_cli("convert " + q("plain.glb") + " -o " + q("plain.kms")).code, 0);
  r = run_cli("convert " + q("a.glb") + " -o " + q("b.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "b.kms"), read_file(dir_ / "plain.kms"));
  r = run_cli("convert " + q("a.glb") + " -o " + q("c.kms") + " --template " + q("m/a.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "c.kms"), kms);
  // A model boneyard laid out comes back byte for byte without the template too, textured.
  write("m2/w.kms", read_file(dir_ / "plain.kms"));
  write("m2/w03b1.tri", fx::build(tri_));
  ASSERT_EQ(run_cli("convert " + q("m2/w.kms") + " -o " + q("w.glb")).code, 0);
  EXPECT_EQ(parse_glb(read_file(dir_ / "w.glb")).json["images"].size(), 1u);
  ASSERT_EQ(run_cli("convert " + q("w.glb") + " -o " + q("w2.kms")).code, 0);
  EXPECT_EQ(read_file(dir_ / "w2.kms"), read_file(dir_ / "plain.kms"));
}

TEST_F(TriModel, EvmTexturesFromEveryTriBesideIt) {
  const auto evm = evm_bytes(branching_evm(false, {0xB7E31E, 0x123456, 0x654321, 0x0A1B2C}));
  write("m/e.evm", evm);
  // No .tri has the model's stem or its group id: every .tri beside it is searched, by name.
  fx::File first = tri_;
  first.textures.resize(1);  // zz_a.tri: texture b7e31e only
  write("m/zz_a.tri", fx::build(first));
  write("m/zz_b.tri", fx::build(tri_));
  CliRun r = run_cli("convert " + q("m/e.evm") + " -o " + q("e.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Slot 0 of each packet is the base colour: b7e31e (from zz_a.tri, the first by name) and 0a1b2c.
  const Glb g = parse_glb(read_file(dir_ / "e.glb"));
  EXPECT_EQ(g.json["images"].size(), 2u) << g.json["images"].dump();
  EXPECT_EQ(image_named(g, "00b7e31e").rgba, scaled(tri_.textures[0]));
  EXPECT_EQ(image_named(g, "000a1b2c").rgba, scaled(tri_.textures[3]));  // alpha above 0x80 clipped to 255
  write("plain/e.evm", evm);
  ASSERT_EQ(run_cli("convert " + q("plain/e.evm") + " -o " + q("plain.glb")).code, 0);
  ASSERT_EQ(run_cli("convert " + q("plain.glb") + " -o " + q("plain.evm")).code, 0);
  r = run_cli("convert " + q("e.glb") + " -o " + q("f.evm"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "f.evm"), read_file(dir_ / "plain.evm"));
  r = run_cli("convert " + q("e.glb") + " -o " + q("g.evm") + " --template " + q("m/e.evm"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "g.evm"), evm);
  write("m2/w.evm", read_file(dir_ / "plain.evm"));
  write("m2/zz.tri", fx::build(tri_));
  ASSERT_EQ(run_cli("convert " + q("m2/w.evm") + " -o " + q("w.glb")).code, 0);
  EXPECT_EQ(parse_glb(read_file(dir_ / "w.glb")).json["images"].size(), 2u);
  ASSERT_EQ(run_cli("convert " + q("w.glb") + " -o " + q("w2.evm")).code, 0);
  EXPECT_EQ(read_file(dir_ / "w2.evm"), read_file(dir_ / "plain.evm"));
}

TEST_F(TriModel, GroupIdFirstTexturesFolderOverridesMissingIsAWarning) {
  const auto kms = kms_bytes(standard_kms(false, false));
  write("m/a.kms", kms);
  // a.tri has the model's stem, w03b1.tri its group id: the group id wins.
  fx::File other = tri_;
  other.textures[0].clut = fx::palette(256, 77);
  write("m/a.tri", fx::build(other));
  write("m/w03b1.tri", fx::build(tri_));
  ASSERT_EQ(run_cli("convert " + q("m/a.kms") + " -o " + q("a.glb")).code, 0);
  EXPECT_EQ(image_named(parse_glb(read_file(dir_ / "a.glb")), "00b7e31e").rgba, scaled(tri_.textures[0]));
  // --textures: its PNGs (named by id as `boneyard texture` names a .tri's) come first.
  ASSERT_EQ(run_cli("texture " + q("m/a.tri") + " -o " + q("tex") + " --alpha scaled").code, 0);
  ASSERT_EQ(run_cli("convert " + q("m/a.kms") + " -o " + q("b.glb") + " --textures " + q("tex")).code, 0);
  const Glb b = parse_glb(read_file(dir_ / "b.glb"));
  EXPECT_EQ(b.json["images"][0]["name"], "b7e31e");
  // An id that no .tri holds: one warning naming where it was looked for.
  fs::remove(dir_ / "m" / "a.tri");
  fx::File without = tri_;
  without.textures.erase(without.textures.begin());
  write("m/w03b1.tri", fx::build(without));
  CliRun r = run_cli("convert " + q("m/a.kms") + " -o " + q("c.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("texture not found: material left untextured (expected an entry 0x00B7E31E in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("w03b1.tri"), std::string::npos) << r.err;
  // A .tri that cannot be read is one warning; the conversion goes on.
  write("m/w03b1.tri", std::vector<std::uint8_t>(10, 0));
  r = run_cli("convert " + q("m/a.kms") + " -o " + q("d.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("texture archive"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not read"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace boneyard::test
