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
