// `boneyard texture` and the texture Documents (info, validate, dump, convert) through the CLI.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/dds/dds.h"
#include "cli_harness.h"
#include "dds_fixture.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using namespace texture;

std::vector<std::uint8_t> read_file(const fs::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

std::vector<std::uint8_t> cube_dds() {
  DdsSpec s;
  s.mips = 2;
  s.caps2 = kDdsCaps2Cubemap | kDdsCaps2AllFaces;
  const std::uint16_t colours[6] = {0xF800, 0x07E0, 0x001F, 0xFFE0, 0xF81F, 0x07FF};
  for (auto c : colours) {
    const auto b = repeat(dxt1_block(c, c, 0), 2);
    s.data.insert(s.data.end(), b.begin(), b.end());
  }
  return dds_bytes(s);
}

Image png_at(const fs::path& p) {
  auto r = read_png(read_file(p));
  EXPECT_TRUE(r) << p << ": " << (r ? "" : r.error().message);
  return r ? r->image : Image{};
}

TEST(TextureCli, InfoValidateDumpAndConvertLikeEveryFormat) {
  TempDir tmp;
  DdsSpec s;
  s.width = s.height = 8;
  s.mips = 3;
  s.data.assign(40, 0);  // 32 + 8: the 1x1 level is missing
  const fs::path dds = write_bytes(tmp.path() / "t.dds", dds_bytes(s));
  CliRun r = run_cli("info " + quote(dds));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("mip levels: 3 declared, 2 stored (8x8 .. 4x4)"), std::string::npos) << r.out;
  r = run_cli("validate " + quote(dds));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("error at byte 168 (0xA8) in level 2: mip chain shorter than declared: the data ends before "
                       "this level (expected 3 levels per face, found 2)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("FAIL (dds): 1 error"), std::string::npos) << r.out;
  r = run_cli("dump " + quote(dds));
  EXPECT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "dds");
  EXPECT_EQ(j["mips_stored"], 2);
  // convert: a rewrite is byte for byte (--force past the finding); .png is the top level.
  r = run_cli("convert " + quote(dds) + " -o " + quote(tmp.path() / "u.dds") + " --force");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(tmp.path() / "u.dds"), dds_bytes(s));
  r = run_cli("convert " + quote(dds) + " -o " + quote(tmp.path() / "u.png") + " --force");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(png_at(tmp.path() / "u.png").width, 8u);
}

TEST(TextureCli, CubeMapsAsSixFacesOrACross) {
  TempDir tmp;
  const fs::path dds = write_bytes(tmp.path() / "sky.dds", cube_dds());
  CliRun r = run_cli("texture " + quote(dds) + " -o " + quote(tmp.path() / "sky.png"));
  EXPECT_EQ(r.code, 0) << r.err;
  for (const char* face : {"posx", "negx", "posy", "negy", "posz", "negz"})
    EXPECT_TRUE(fs::exists(tmp.path() / ("sky_" + std::string(face) + ".png"))) << face;
  EXPECT_EQ(png_at(tmp.path() / "sky_negy.png").rgba[0], 255);  // face 3 is yellow
  EXPECT_FALSE(fs::exists(tmp.path() / "sky.png"));
  r = run_cli("texture " + quote(dds) + " -o " + quote(tmp.path() / "cross.png") + " --cross --mip 1");
  EXPECT_EQ(r.code, 0) << r.err;
  const Image cross = png_at(tmp.path() / "cross.png");
  ASSERT_EQ(cross.width, 8u);  // 4 faces of 2x2 across, 3 down
  ASSERT_EQ(cross.height, 6u);
  auto at = [&](std::uint32_t x, std::uint32_t y) { return cross.rgba[(y * cross.width + x) * 4 + 3]; };
  EXPECT_EQ(at(0, 0), 0);    // empty corner
  EXPECT_EQ(at(2, 0), 255);  // +Y above +Z
  EXPECT_EQ(cross.rgba[(2 * cross.width + 4) * 4 + 0], 255);  // +X (red) right of +Z
  // A level that is not there: exit 1, nothing written.
  r = run_cli("texture " + quote(dds) + " -o " + quote(tmp.path() / "deep.png") + " --mip 5");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("level not stored"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp.path() / "deep_posx.png"));
  r = run_cli("texture " + quote(dds) + " -o " + quote(tmp.path() / "sky2.dds"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a cube map converts only to PNG"), std::string::npos) << r.err;
}

TEST(TextureCli, PngToDdsAndCtxrAndBack) {
  TempDir tmp;
  Image im{16, 8, {}};
  for (std::uint32_t i = 0; i < 16 * 8; ++i) im.rgba.insert(im.rgba.end(), {std::uint8_t(i), 100, 200, 255});
  const fs::path png = write_bytes(tmp.path() / "a.png", encode_png(im).value());
  CliRun r = run_cli("texture " + quote(png) + " -o " + quote(tmp.path() / "a.dds"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("validate " + quote(tmp.path() / "a.dds"));
  EXPECT_EQ(r.code, 0) << r.out;
  r = run_cli("info " + quote(tmp.path() / "a.dds"));
  EXPECT_NE(r.out.find("DXT1"), std::string::npos);
  EXPECT_NE(r.out.find("5 declared, 5 stored"), std::string::npos) << r.out;
  r = run_cli("texture " + quote(png) + " -o " + quote(tmp.path() / "b.dds") + " --format rgba --no-mips");
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("texture " + quote(tmp.path() / "b.dds") + " -o " + quote(tmp.path() / "b.png"));
  EXPECT_EQ(png_at(tmp.path() / "b.png").rgba, im.rgba);
  // .ctxr -> PNG -> .ctxr is byte for byte.
  const auto original = ctxr_bytes(8, 8, 4, {{1, 2, 3, 255}, {4, 5, 6, 255}, {7, 8, 9, 255}, {10, 11, 12, 255}});
  const fs::path ctxr = write_bytes(tmp.path() / "c.ctxr", original);
  r = run_cli("texture " + quote(ctxr) + " -o " + quote(tmp.path() / "c.png"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("texture " + quote(tmp.path() / "c.png") + " -o " + quote(tmp.path() / "d.ctxr"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(tmp.path() / "d.ctxr"), original);
  r = run_cli("texture " + quote(png) + " -o " + quote(tmp.path() / "e.ctxr"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run_cli("validate " + quote(tmp.path() / "e.ctxr"));
  EXPECT_EQ(r.code, 0) << r.out;
  // Options that do not fit the output are usage errors.
  r = run_cli("texture " + quote(png) + " -o " + quote(tmp.path() / "f.png") + " --format dxt5");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--format applies only to a .dds output"), std::string::npos) << r.err;
  r = run_cli("texture " + quote(ctxr) + " -o " + quote(tmp.path() / "f.png") + " --cross");
  EXPECT_EQ(r.code, 2);
  r = run_cli("texture " + quote(png) + " -o " + quote(tmp.path() / "f.tga"));
  EXPECT_EQ(r.code, 2);
}

TEST(TextureCli, FoldersConvertEveryTextureAndABrokenOneFailsAlone) {
  TempDir tmp;
  fs::create_directories(tmp.path() / "in/act");
  DdsSpec s;
  s.data = dxt1_block(0xF800, 0xF800, 0);
  write_bytes(tmp.path() / "in/act/red.dds", dds_bytes(s));
  write_bytes(tmp.path() / "in/blue.ctxr", ctxr_bytes(2, 2, 1, {{255, 0, 0, 255}}));
  s.fourcc = "ZZZZ";
  write_bytes(tmp.path() / "in/act/odd.dds", dds_bytes(s));
  CliRun r = run_cli("texture " + quote(tmp.path() / "in") + " -o " + quote(tmp.path() / "out") + " -j 2");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("2 written, 1 failed (of 3)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("odd.dds: error at byte 84 (0x54) in pixel format FourCC: unknown FourCC"), std::string::npos) << r.err;
  EXPECT_EQ(png_at(tmp.path() / "out/act/red.png").rgba[0], 255);
  EXPECT_EQ(png_at(tmp.path() / "out/blue.png").rgba[2], 255);
  EXPECT_FALSE(fs::exists(tmp.path() / "out/act/odd.png"));
}

}  // namespace
}  // namespace boneyard::test
