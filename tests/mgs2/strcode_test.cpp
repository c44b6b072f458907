// StrCode24 and the names table.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "boneyard/mgs2/strcode.h"
#include "boneyard/registry/convert_request.h"

namespace boneyard::test {
namespace {

TEST(Strcode, KnownIds) {
  EXPECT_EQ(mgs2::strcode("null_msk.bmp"), 0x00B7E31EU);
  EXPECT_EQ(mgs2::strcode("w03b1"), 0x88D878U);
  EXPECT_EQ(mgs2::strcode("vr_clear_code"), 0xFA2497U);
  EXPECT_EQ(mgs2::strcode("w24c0_flag_mh"), 0xDFA642U);
}

// The vectors of ../shared/docs/mgs2-next.md section 6 (the Master Collection's index ids), and the
// ids the Community Bugfix Compilation's index files give its own models and textures.
TEST(Strcode, TheNotesVectorsAndMasterCollectionIndexIds) {
  EXPECT_EQ(mgs2::strcode("w24c1"), 0x89dc98U);
  EXPECT_EQ(mgs2::strcode("sna_def_mt"), 0x55aab1U);
  EXPECT_EQ(mgs2::strcode("chair_magnet"), 0xd220e0U);
  EXPECT_EQ(mgs2::strcode("ric_mid"), 0x615edcU);
  EXPECT_EQ(mgs2::strcode("cam_radio_mh_mt"), 0x15f007U);
  EXPECT_EQ(mgs2::strcode("transcache"), 0x573de0U);
  EXPECT_EQ(mgs2::strcode("spacecore_hos_maleb_mid"), 0xe49799U);  // manifest: .../cache/00e49799.kms
  EXPECT_EQ(mgs2::strcode("spacecore_hos_arm02"), 0x7dde8aU);      // bp_assets: .../00472fd3/007dde8a.ctxr
}

TEST(Strcode, CaseMattersAndZeroBecomesOne) {
  EXPECT_NE(mgs2::strcode("W03B1"), mgs2::strcode("w03b1"));  // no lower-casing
  EXPECT_EQ(mgs2::strcode(""), 1U);
  // Bytes above 0x7F are unsigned: 0xFF adds 255, not -1.
  EXPECT_EQ(mgs2::strcode("\xFF"), 0xFFU);
  // The 24-bit rotate: 'a' after five rotations of 1 lands in the top bits and wraps.
  std::uint32_t id = 0;
  for (char c : std::string("abcdefgh")) {
    id = ((id >> 19) | (id << 5)) & 0xFFFFFF;
    id = (id + static_cast<std::uint8_t>(c)) & 0xFFFFFF;
  }
  EXPECT_EQ(mgs2::strcode("abcdefgh"), id);
}

// Every form the game and boneyard name texture files (docs/textures.md "Texture files by id").
TEST(Strcode, TextureFileNames) {
  const auto ids = [](std::string_view file) { return mgs2::parse_texture_file_name(file).ids(); };
  // The Master Collection's own names, with the ids its bp_assets.txt gives them: one texture id
  // hashes the name without ".bmp", another with it; the file stands for both.
  EXPECT_EQ(ids("chair_magnet.bmp.ctxr"), (std::vector<std::uint32_t>{mgs2::strcode("chair_magnet.bmp"), 0xd220e0U}));
  EXPECT_EQ(ids("null_msk.bmp.ctxr"), (std::vector<std::uint32_t>{0xb7e31eU, mgs2::strcode("null_msk")}));
  const auto variant = mgs2::parse_texture_file_name("teallamp.bmp_dba50e6cbe3e141d31988b35585846d4.ctxr");
  EXPECT_EQ(variant.name, "teallamp");
  EXPECT_TRUE(variant.variant);
  EXPECT_EQ(variant.ids(), (std::vector<std::uint32_t>{mgs2::strcode("teallamp.bmp"), mgs2::strcode("teallamp")}));
  EXPECT_EQ(ids("tank_break.trans.bmp.ctxr"),
            (std::vector<std::uint32_t>{mgs2::strcode("tank_break.trans.bmp"), mgs2::strcode("tank_break.trans")}));
  // Converted files: <name>.png / .dds / .ctxr, a .bmp in the name or not, any case of ".BMP".
  EXPECT_EQ(ids("null_msk.png"), ids("null_msk.bmp.ctxr"));
  EXPECT_EQ(ids("null_msk.dds"), ids("null_msk.BMP.png"));
  EXPECT_FALSE(mgs2::parse_texture_file_name("null_msk.png").variant);
  // Named by the id: 8 hex digits (the game's files, earlier --textures PNGs), 6 (`boneyard
  // texture`'s PNGs of a .tri), "<8 hex>.img" and its variants; any case of hex digit.
  EXPECT_EQ(ids("00a1adce.ctxr"), (std::vector<std::uint32_t>{0xa1adceU}));
  EXPECT_EQ(ids("b7e31e.png"), (std::vector<std::uint32_t>{0xb7e31eU}));
  EXPECT_EQ(ids("B7E31E.png"), (std::vector<std::uint32_t>{0xb7e31eU}));
  EXPECT_EQ(ids("00005011.img.ctxr"), (std::vector<std::uint32_t>{0x5011U}));
  EXPECT_EQ(ids("0003a157.img_03f17ff9395846ea5bf936552c3b988a.ctxr"), (std::vector<std::uint32_t>{0x3a157U}));
  EXPECT_EQ(ids("00b7e31e.bmp.ctxr"), (std::vector<std::uint32_t>{0xb7e31eU}));
  // Not ids: 7 hex digits, "<6 hex>.img", a suffix of 31 hex digits (a name that happens to hold "_").
  EXPECT_EQ(ids("abcdef1.png"), (std::vector<std::uint32_t>{mgs2::strcode("abcdef1.bmp"), mgs2::strcode("abcdef1")}));
  EXPECT_FALSE(mgs2::parse_texture_file_name("b7e31e.img.png").id);
  const auto short_suffix = mgs2::parse_texture_file_name("a_0123456789abcdef0123456789abcde.png");
  EXPECT_FALSE(short_suffix.variant);
  EXPECT_EQ(short_suffix.name, "a_0123456789abcdef0123456789abcde");
}

TEST(TextureNames, LoadsOneNamePerLine) {
  const auto path = std::filesystem::temp_directory_path() / "boneyard_mgs2_names.txt";
  {
    std::ofstream out(path, std::ios::binary);
    out << "null_msk.bmp\r\n\n  w03b1  \nnull_msk.bmp\n";
  }
  TextureNames names;
  EXPECT_TRUE(load_texture_names(names, path.string()).ok());
  EXPECT_EQ(names.size(), 2U);
  ASSERT_NE(names.find(0xB7E31E), nullptr);
  EXPECT_EQ(*names.find(0xB7E31E), "null_msk.bmp");
  EXPECT_EQ(*names.find(0x88D878), "w03b1");
  EXPECT_EQ(names.find(0x123456), nullptr);
  std::filesystem::remove(path);
  const auto missing = load_texture_names(names, "/nonexistent/names.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.error().io);
  EXPECT_NE(missing.error().message.find("/nonexistent/names.txt: cannot read names file"), std::string::npos)
      << missing.error().message;
}

}  // namespace
}  // namespace boneyard::test
