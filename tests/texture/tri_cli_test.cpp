// `boneyard texture` on MGS2 .tri files: a .tri to a folder of PNGs (by id or name, raw or scaled
// alpha) and back into the template's entries, its refusals and output planning; info, validate,
// dump and the lossless rewrite through the Documents.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "boneyard/mgs2/strcode.h"
#include "boneyard/texture/texture.h"
#include "boneyard/texture/tri/tri.h"
#include "cli_harness.h"
#include "tri_fixture.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using namespace boneyard::texture;
namespace fx = boneyard::test::trifx;

std::vector<std::uint8_t> read_file(const fs::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

PngFile png_at(const fs::path& p) {
  auto r = read_png(read_file(p));
  EXPECT_TRUE(r) << p << ": " << (r ? "" : r.error().message);
  return r ? std::move(r).value() : PngFile{};
}

class TriCli : public CliTest {
 protected:
  std::string q(const std::string& name) const { return quote(dir_ / name); }
  fx::File file_ = fx::standard(false);
  std::vector<std::uint8_t> bytes_ = fx::build(file_);
};

TEST_F(TriCli, ToPngsByIdAndBackByteForByte) {
  write("w03b1.tri", bytes_);
  CliRun r = run_cli("texture " + q("w03b1.tri") + " -o " + q("out"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("4 written, 0 failed (of 4)"), std::string::npos) << r.out;
  const char* names[] = {"b7e31e.png", "123456.png", "654321.png", "0a1b2c.png"};
  for (std::size_t i = 0; i < 4; ++i) {
    const PngFile png = png_at(dir_ / "out" / names[i]);
    EXPECT_EQ(png.image.width, file_.textures[i].width);
    EXPECT_EQ(png.image.rgba, fx::expected_rgba(file_.textures[i])) << names[i];
    EXPECT_EQ(tri_png_alpha(png.chunks), TriAlpha::raw);
  }
  // Alpha above 0x80 is a warning of validate, not of the conversion.
  EXPECT_EQ(r.err, "");
  // Back: unedited PNGs give the template's bytes.
  r = run_cli("texture " + q("out") + " -o " + q("back.tri") + " --template " + q("w03b1.tri"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "back.tri"), bytes_);
  EXPECT_NE(r.err.find("b7e31e.png (texture 0xB7E31E): unchanged"), std::string::npos) << r.err;
}

TEST_F(TriCli, ScaledAlphaAndNamesRoundTrip) {
  write("w03b1.tri", bytes_);
  std::ofstream(dir_ / "names.txt") << "null_msk.bmp\nnot_in_it.bmp\n";
  CliRun r = run_cli("texture " + q("w03b1.tri") + " -o " + q("out") + " --alpha scaled --names " + q("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  const PngFile png = png_at(dir_ / "out" / "null_msk.png");  // ".bmp" left out
  ASSERT_EQ(png.image.width, 72u);
  const auto raw = fx::expected_rgba(file_.textures[0]);
  for (std::size_t p = 0; p < raw.size(); p += 4) ASSERT_EQ(png.image.rgba[p + 3], scale_ps2_alpha(raw[p + 3]));
  EXPECT_EQ(tri_png_alpha(png.chunks), TriAlpha::scaled);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "123456.png"));
  // Back without --alpha: the PNGs' trIa chunk says scaled. Texture 0a1b2c's alpha above 0x80 was
  // clipped by the scaling: that one changes (to 0x80) and is re-encoded; the rest comes back.
  r = run_cli("texture " + q("out") + " -o " + q("back.tri") + " --template " + q("w03b1.tri"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("null_msk.png (texture 0xB7E31E): unchanged"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0a1b2c.png (texture 0x0A1B2C): re-encoded"), std::string::npos) << r.err;
  auto back = read_tri(FileData::from_vector(read_file(dir_ / "back.tri")));
  ASSERT_TRUE(back);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(decode_tri(back.value(), i)->rgba, fx::expected_rgba(file_.textures[i]));
  // Matched without the names list too (StrCode24 of the stem + ".bmp").
  r = run_cli("texture " + q("out") + " -o " + q("back2.tri") + " --template " + q("w03b1.tri"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "back2.tri"), read_file(dir_ / "back.tri"));
}

TEST_F(TriCli, AnEditedPngGoesBackIntoItsEntry) {
  // c uses colours 0..7 of the CLUT it shares with b: b may take new colours in 8..15.
  file_.textures[2].indices = fx::pattern(16, 16, 8, 3);
  bytes_ = fx::build(file_);
  write("w03b1.tri", bytes_);
  ASSERT_EQ(run_cli("texture " + q("w03b1.tri") + " -o " + q("out")).code, 0);
  // A PNG of two colours, one of them new, in b's place.
  Image two{24, 24, {}};
  for (std::uint32_t i = 0; i < 24 * 24; ++i)
    two.rgba.insert(two.rgba.end(), {std::uint8_t(i % 2 ? 250 : 10), 20, 30, std::uint8_t(i % 3 ? 0x80 : 0x10)});
  auto png = encode_png(two);
  ASSERT_TRUE(png);
  write("out/123456.png", png.value());
  CliRun r = run_cli("texture " + q("out") + " -o " + q("edited.tri") + " --template " + q("w03b1.tri"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("123456.png (texture 0x123456): re-encoded (4 colours, 4 new in the CLUT)"), std::string::npos) << r.err;
  // boneyard reads it back as it was edited; the other textures are as they were.
  ASSERT_EQ(run_cli("texture " + q("edited.tri") + " -o " + q("again")).code, 0);
  EXPECT_EQ(png_at(dir_ / "again" / "123456.png").image.rgba, two.rgba);
  for (const char* n : {"b7e31e.png", "654321.png", "0a1b2c.png"})
    EXPECT_EQ(png_at(dir_ / "again" / n).image.rgba, png_at(dir_ / "out" / n).image.rgba) << n;
  r = run_cli("validate " + q("edited.tri"));
  EXPECT_EQ(r.code, 0) << r.out;
}

TEST_F(TriCli, RefusalsNameTheTextureAndWriteNothing) {
  write("w03b1.tri", bytes_);
  ASSERT_EQ(run_cli("texture " + q("w03b1.tri") + " -o " + q("out")).code, 0);
  // Another size.
  auto png = encode_png(Image{8, 8, std::vector<std::uint8_t>(256, 0x40)});
  write("out/b7e31e.png", png.value());
  CliRun r = run_cli("texture " + q("out") + " -o " + q("x.tri") + " --template " + q("w03b1.tri"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("b7e31e.png (texture 0xB7E31E): the image is not the size of its texture in the .tri"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("expected 72x32, found 8x8"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.tri"));
  // More colours than a 4-bit CLUT holds.
  Image many{24, 24, {}};
  for (std::uint32_t i = 0; i < 24 * 24; ++i) many.rgba.insert(many.rgba.end(), {std::uint8_t(i % 40), 1, 2, 0x80});
  fs::remove(dir_ / "out" / "b7e31e.png");
  write("out/123456.png", encode_png(many).value());
  r = run_cli("texture " + q("out") + " -o " + q("x.tri") + " --template " + q("w03b1.tri"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("123456.png (texture 0x123456): the image has more colours than its PSMT4 texture's CLUT holds"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("expected at most 16 colours, found 40 colours"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "x.tri"));
  // A PNG that names no texture.
  fs::remove(dir_ / "out" / "123456.png");
  write("out/stranger.png", encode_png(Image{1, 1, {1, 2, 3, 4}}).value());
  r = run_cli("texture " + q("out") + " -o " + q("x.tri") + " --template " + q("w03b1.tri"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("stranger.png: names no texture of the template w03b1.tri"), std::string::npos) << r.err;
  // Usage: no template; the template as the output; a .tri to a .png; options for other textures.
  r = run_cli("texture " + q("out") + " -o " + q("x.tri"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--template"), std::string::npos) << r.err;
  r = run_cli("texture " + q("out") + " -o " + q("w03b1.tri") + " --template " + q("w03b1.tri"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("refusing to overwrite the --template"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(dir_ / "w03b1.tri"), bytes_);
  r = run_cli("texture " + q("w03b1.tri") + " -o " + q("one.png"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a .tri holds several textures: -o names a folder"), std::string::npos) << r.err;
  r = run_cli("texture " + q("w03b1.tri") + " -o " + q("o2") + " --mip 1");
  EXPECT_EQ(r.code, 2);
  r = run_cli("texture " + q("out/654321.png") + " -o " + q("x.png") + " --alpha scaled");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("apply only to MGS2 .tri textures"), std::string::npos) << r.err;
}

// Names that differ only in case are one file on Windows: the second is written as _2 and found
// again on the way back. A folder where a PNG would go refuses the whole conversion up front.
TEST_F(TriCli, OutputPlanningCaseCollisionsAndFolders) {
  file_.textures[1].id = mgs2::strcode("Foo.bmp");
  file_.textures[2].id = mgs2::strcode("foo.bmp");
  ASSERT_NE(file_.textures[1].id, file_.textures[2].id);
  bytes_ = fx::build(file_);
  write("s.tri", bytes_);
  std::ofstream(dir_ / "names.txt") << "Foo.bmp\nfoo.bmp\ncon.bmp\n";
  CliRun r = run_cli("texture " + q("s.tri") + " -o " + q("out") + " --names " + q("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "Foo.png"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "foo_2.png"));
  EXPECT_NE(r.err.find("warning: written as foo_2.png: entry 1 is Foo.png already"), std::string::npos) << r.err;
  r = run_cli("texture " + q("out") + " -o " + q("back.tri") + " --template " + q("s.tri") + " --names " + q("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "back.tri"), bytes_);
  // A folder named like an output: refused before anything is written.
  fs::create_directories(dir_ / "out2" / "b7e31e.png");
  write("w.tri", fx::build(fx::standard(false)));
  r = run_cli("texture " + q("w.tri") + " -o " + q("out2"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("refusing to write over a folder"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out2" / "123456.png"));
  // The names list is never an output (here it is where texture b7e31e's PNG would go).
  fs::create_directories(dir_ / "out3");
  std::ofstream(dir_ / "out3" / "B7E31E.png") << "unrelated.bmp\n";
  r = run_cli("texture " + q("w.tri") + " -o " + q("out3") + " --names " + q("out3/B7E31E.png"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("refusing to overwrite the --names list"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "out3" / "B7E31E.png"), "unrelated.bmp\n");
}

// A folder (or several inputs) holding .tri files: each .tri into a folder of its own, named as
// `texture X.tri -o DIR` names its PNGs, beside the .dds and .ctxr files' PNGs; folder names that
// another output needs are renamed (said); every PNG is planned before anything is written.
TEST_F(TriCli, FoldersOfTriFilesEachIntoAFolderOfItsOwn) {
  write("in/w03b1.tri", bytes_);
  fx::File mc = fx::standard(true);
  write("in/sub/W03B1.tri", fx::build(mc));  // another folder: no clash
  write("in/x.tri", bytes_);
  const auto dds = read_file(fs::path(BONEYARD_SOURCE_DIR) / "tests" / "fuzz_seeds" / "fuzz_dds" / "rgba_8x8.dds");
  write("in/x/y.dds", dds);  // its PNG goes into out/x/: x.tri's folder becomes x_tri
  write("in/broken.tri", std::vector<std::uint8_t>(12, 0));
  CliRun r = run_cli("texture " + q("in") + " -o " + q("out") + " --alpha scaled -j 2");
  EXPECT_EQ(r.code, 1) << r.err;  // broken.tri fails alone
  EXPECT_NE(r.out.find("13 written, 1 failed (of 14)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("broken.tri: error"), std::string::npos) << r.err;
  const char* names[] = {"b7e31e.png", "123456.png", "654321.png", "0a1b2c.png"};
  for (const char* folder : {"out/w03b1", "out/sub/W03B1", "out/x_tri"})
    for (std::size_t i = 0; i < 4; ++i) {
      const PngFile png = png_at(dir_ / folder / names[i]);
      auto want = fx::expected_rgba(file_.textures[i]);
      for (std::size_t p = 3; p < want.size(); p += 4) want[p] = scale_ps2_alpha(want[p]);
      EXPECT_EQ(png.image.rgba, want) << folder << "/" << names[i];
      EXPECT_EQ(tri_png_alpha(png.chunks), TriAlpha::scaled);
    }
  EXPECT_TRUE(fs::exists(dir_ / "out" / "x" / "y.png"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "x" / "b7e31e.png"));
  EXPECT_NE(r.err.find("warning: written into x_tri/"), std::string::npos) << r.err;
  // Several inputs: a .tri among them goes into its own folder too; --names names its PNGs; the
  // folder (alpha raw) goes back into its .tri byte for byte.
  std::ofstream(dir_ / "names.txt") << "null_msk.bmp\n";
  r = run_cli("texture " + q("in/w03b1.tri") + " " + q("in/x/y.dds") + " -o " + q("two") + " --names " + q("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "two" / "w03b1" / "null_msk.png"));
  EXPECT_TRUE(fs::exists(dir_ / "two" / "y.png"));
  r = run_cli("texture " + q("two/w03b1") + " -o " + q("back.tri") + " --template " + q("in/w03b1.tri") + " --names " +
              q("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "back.tri"), bytes_);
  // A PNG of a .tri that would go over a folder refuses the whole batch before anything is written.
  fs::create_directories(dir_ / "three" / "w03b1" / "123456.png");
  r = run_cli("texture " + q("in") + " -o " + q("three"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("refusing to write over a folder"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "three" / "x"));
  // .tri options with no .tri among the inputs are a usage error, before anything is written.
  r = run_cli("texture " + q("in/x") + " -o " + q("four") + " --alpha scaled");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("the inputs hold no .tri"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "four"));
}

TEST_F(TriCli, DocumentsInfoValidateDumpRewrite) {
  write("w03b1.tri", bytes_);
  CliRun r = run_cli("info " + q("w03b1.tri"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("format: TRI (MGS2 textures), PS2 layout"), std::string::npos) << r.out;
  r = run_cli("validate " + q("w03b1.tri"));
  EXPECT_EQ(r.code, 0) << r.out;  // a warning only (alpha above 0x80)
  EXPECT_NE(r.out.find("alpha above 0x80"), std::string::npos) << r.out;
  r = run_cli("dump " + q("w03b1.tri"));
  ASSERT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "tri");
  EXPECT_EQ(j["textures"][1]["id_hex"], "123456");
  EXPECT_EQ(j["textures"][1]["x"], 8);
  EXPECT_EQ(j["textures"][1]["csay"], 2);
  r = run_cli("convert " + q("w03b1.tri") + " -o " + q("same.tri"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "same.tri"), bytes_);
  // A broken entry: validate exits 1 and names it; the other textures still convert.
  auto broken = bytes_;
  broken[0x20 + 0x50 + 2] = static_cast<std::uint8_t>((broken[0x20 + 0x50 + 2] & 0x0F) | 0x20);  // PSM 0x12
  write("broken.tri", broken);
  r = run_cli("validate " + q("broken.tri"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("entry 0 (texture 0xB7E31E) TEX0 PSM: pixel storage mode not decoded"), std::string::npos) << r.out;
  r = run_cli("texture " + q("broken.tri") + " -o " + q("part"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("3 written, 1 failed (of 4)"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "part" / "b7e31e.png"));
  EXPECT_TRUE(fs::exists(dir_ / "part" / "123456.png"));
}

}  // namespace
}  // namespace boneyard::test
