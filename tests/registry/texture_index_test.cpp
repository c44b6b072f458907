// MGS2 texture files by id (registry/formats.h index_mgs2_texture_files): every name form the game
// and boneyard's outputs use, under either of the ids a texture name hashes to, and the one rule
// that picks a file when several claim an id (docs/textures.md "Texture files by id").
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "boneyard/mgs2/strcode.h"
#include "registry/formats.h"

namespace fs = std::filesystem;

namespace boneyard {
namespace {

class TextureIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("boneyard_texture_index_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void touch(const std::string& relative) {
    fs::create_directories((dir_ / relative).parent_path());
    std::ofstream(dir_ / relative) << "x";
  }
  // The file chosen for `id`, relative to the folder ("" when none).
  std::string chosen(const registry::Mgs2TextureIndex& index, std::uint32_t id) const {
    const auto f = index.find(id);
    return f ? f->path.lexically_relative(dir_).generic_string() : std::string();
  }
  fs::path dir_;
};

const std::vector<std::string_view> kModelOrder = {".ctxr", ".dds", ".png"};

TEST_F(TextureIndexTest, EveryNameFormUnderEitherId) {
  touch("flatlist/_win/chair_magnet.bmp.ctxr");                                  // the Master Collection's own name
  touch("flatlist/_win/null_msk.bmp_0123456789abcdef0123456789abcdef.ctxr");   // a second file of a name
  touch("png/stripes.png");                                                     // a converted texture
  touch("dds/metal.dds");
  touch("ids/00a1adce.ctxr");                                                   // named by the id: 8 hex digits
  touch("ids/0a1b2c.png");                                                      // 6, as `boneyard texture` names a .tri's
  touch("ids/00005011.img.ctxr");
  touch("other/readme.txt");
  const registry::Mgs2TextureIndex index(dir_, kModelOrder);
  // bp_assets: chair_magnet.bmp.ctxr is texture 00d220e0 = StrCode24("chair_magnet"), null_msk.bmp.ctxr
  // is 00b7e31e = StrCode24("null_msk.bmp"): a file is found under both forms of its name.
  EXPECT_EQ(chosen(index, 0xd220e0), "flatlist/_win/chair_magnet.bmp.ctxr");
  EXPECT_EQ(chosen(index, mgs2::strcode("chair_magnet.bmp")), "flatlist/_win/chair_magnet.bmp.ctxr");
  EXPECT_EQ(chosen(index, 0xb7e31e), "flatlist/_win/null_msk.bmp_0123456789abcdef0123456789abcdef.ctxr");
  EXPECT_EQ(chosen(index, mgs2::strcode("null_msk")), "flatlist/_win/null_msk.bmp_0123456789abcdef0123456789abcdef.ctxr");
  EXPECT_EQ(chosen(index, mgs2::strcode("stripes.bmp")), "png/stripes.png");
  EXPECT_EQ(chosen(index, mgs2::strcode("stripes")), "png/stripes.png");
  EXPECT_EQ(chosen(index, mgs2::strcode("metal.bmp")), "dds/metal.dds");
  EXPECT_EQ(chosen(index, 0xa1adce), "ids/00a1adce.ctxr");
  EXPECT_EQ(chosen(index, 0x0a1b2c), "ids/0a1b2c.png");
  EXPECT_EQ(chosen(index, 0x5011), "ids/00005011.img.ctxr");
  // A name of hex digits is its id only; other extensions are not textures.
  EXPECT_EQ(chosen(index, mgs2::strcode("00a1adce.bmp")), "");
  EXPECT_EQ(chosen(index, mgs2::strcode("readme.bmp")), "");
  for (const std::uint32_t id : {0xd220e0u, 0xb7e31eu, 0xa1adceu, 0x0a1b2cu, 0x5011u, mgs2::strcode("stripes")})
    EXPECT_EQ(index.find(id)->others, 0u) << std::hex << id;
  // The old rule hashed "<stem>.bmp": chair_magnet.bmp.ctxr was "chair_magnet.bmp.bmp", found by no model.
  EXPECT_FALSE(index.find(mgs2::strcode("chair_magnet.bmp.bmp")));
}

TEST_F(TextureIndexTest, SeveralFilesForOneIdTheDocumentedFirst) {
  // The game's format first, and the same texture in another format is no other candidate.
  touch("a/body.png");
  touch("b/body.bmp.ctxr");
  touch("c/body.dds");
  registry::Mgs2TextureIndex index(dir_, kModelOrder);
  EXPECT_EQ(chosen(index, mgs2::strcode("body.bmp")), "b/body.bmp.ctxr");
  EXPECT_EQ(index.find(mgs2::strcode("body.bmp"))->others, 0u);
  // A name without "_<md5>" before its variants, whatever their folders; the variant is counted.
  touch("a/face.bmp_ffffffffffffffffffffffffffffffff.ctxr");
  touch("z/face.bmp.ctxr");
  index = registry::Mgs2TextureIndex(dir_, kModelOrder);
  EXPECT_EQ(chosen(index, mgs2::strcode("face")), "z/face.bmp.ctxr");
  EXPECT_EQ(index.find(mgs2::strcode("face"))->others, 1u);
  EXPECT_EQ(index.find(mgs2::strcode("face"))->next.lexically_relative(dir_).generic_string(),
            "a/face.bmp_ffffffffffffffffffffffffffffffff.ctxr");
  // The same name and format in two folders: the first path ignoring case (as on every system).
  touch("B_over/arm.bmp.ctxr");
  touch("a_base/arm.bmp.ctxr");
  index = registry::Mgs2TextureIndex(dir_, kModelOrder);
  EXPECT_EQ(chosen(index, mgs2::strcode("arm")), "a_base/arm.bmp.ctxr");
  EXPECT_EQ(index.find(mgs2::strcode("arm"))->others, 1u);
  // The id stated by a name of hex digits before a name that hashes to it (a .png before a .ctxr).
  const std::uint32_t leg = mgs2::strcode("leg.bmp");
  char hex[16];
  std::snprintf(hex, sizeof hex, "%08x.png", leg);
  touch(std::string("ids/") + hex);
  touch("a/leg.ctxr");
  index = registry::Mgs2TextureIndex(dir_, kModelOrder);
  EXPECT_EQ(chosen(index, leg), std::string("ids/") + hex);
  EXPECT_EQ(index.find(leg)->others, 1u);
  // mc-register's index: .ctxr only.
  index = registry::Mgs2TextureIndex(dir_, {".ctxr"});
  EXPECT_EQ(chosen(index, leg), "a/leg.ctxr");
  EXPECT_EQ(chosen(index, mgs2::strcode("body.bmp")), "b/body.bmp.ctxr");
}

}  // namespace
}  // namespace boneyard
