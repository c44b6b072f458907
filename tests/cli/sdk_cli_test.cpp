// The SDK's motion files through the CLI: info, validate, dump, convert (rewrite and .skl <-> .skls)
// and the `boneyard omf` edits under their other names (`skls`, `anm`), on files laid out by hand.
#include <cmath>
#include <cstring>

#include "cli_harness.h"
#include "sdk_fixtures.h"
#include "test_support.h"

namespace boneyard {
namespace {

using namespace boneyard::test;
using namespace boneyard::test::sdk;

std::vector<std::uint8_t> bytes_of(const std::filesystem::path& p) { return read_file(p); }

class SdkCli : public CliTest {};

TEST_F(SdkCli, InfoValidateDumpAndRewrite) {
  const auto skls = write("a.skls", skls_of({motion_body(7), motion_body(6, 1, false, "walk")}));
  auto r = run_cli("info " + quote(skls));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("X-Ray SDK skeletal motions (.skls)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("walk"), std::string::npos);
  r = run_cli("validate " + quote(skls));
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("ok (skls)"), std::string::npos) << r.out;
  r = run_cli("dump " + quote(skls));
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("{\"format\":\"skls\",\"motions\":[{\"name\":\"idle\",\"version\":7,", 0), 0u) << r.out.substr(0, 200);
  r = run_cli("convert " + quote(skls) + " -o " + quote(dir_ / "b.skls"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of(dir_ / "b.skls"), bytes_of(skls));

  const auto anm = write("cam.anm", chunk_of(kChunkObjectMotion, anm_body(4)));
  r = run_cli("info " + quote(anm));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("version 4 (rotation stored p, h, b)"), std::string::npos) << r.out;
  r = run_cli("convert " + quote(anm) + " -o " + quote(dir_ / "cam2.anm"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of(dir_ / "cam2.anm"), bytes_of(anm));
}

TEST_F(SdkCli, SklAndSklsConvertIntoEachOther) {
  const auto one = write("one.skls", skls_of({motion_body(6)}));
  auto r = run_cli("convert " + quote(one) + " -o " + quote(dir_ / "one.skl"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto skl = bytes_of(dir_ / "one.skl");
  EXPECT_EQ(skl, chunk_of(kChunkSkeletonMotion, motion_body(6)));
  r = run_cli("convert " + quote(dir_ / "one.skl") + " -o " + quote(dir_ / "back.skls"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of(dir_ / "back.skls"), bytes_of(one));
  const auto two = write("two.skls", skls_of({motion_body(6), motion_body(6, 1, false, "walk")}));
  r = run_cli("convert " + quote(two) + " -o " + quote(dir_ / "two.skl"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a .skl holds one motion and this .skls has 2"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "two.skl"));
}

TEST_F(SdkCli, BadInputGetsOneClearLineWithItsPlace) {
  auto body = motion_body(6);
  const float nan = std::nanf("");
  std::memcpy(body.data() + 5 + 8, &nan, 4);  // the fps
  const auto bad = write("bad.skls", skls_of({body}));
  auto r = run_cli("validate " + quote(bad));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("error at byte 17 (0x11) in motion 0 \"idle\" fps: fps is not a positive number"), std::string::npos)
      << r.out;
  std::vector<std::uint8_t> cut = skls_of({motion_body(6)});
  cut.resize(cut.size() - 3);
  const auto truncated = write("cut.skls", cut);
  r = run_cli("info " + quote(truncated));
  EXPECT_EQ(r.code, 1);
  // The last envelope's two 9-byte keys no longer fit: its count is checked before its keys.
  EXPECT_NE(r.err.find("in motion 0 bone 1 b: count past the data (expected at most 1 elements of 9 bytes, found 2)"),
            std::string::npos)
      << r.err;
}

TEST_F(SdkCli, SklsEditsShareTheOmfCommand) {
  const auto a = write("a.skls", skls_of({motion_body(6, 2, false, "idle"), motion_body(6, 1, false, "walk")}));
  auto r = run_cli("skls list " + quote(a));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("walk"), std::string::npos);
  EXPECT_NE(r.out.find("31 frames  cycle"), std::string::npos) << r.out;

  r = run_cli("skls rename " + quote(a) + " walk stroll -o " + quote(dir_ / "b.skls"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("renamed \"walk\" to \"stroll\""), std::string::npos) << r.out;
  r = run_cli("skls rename " + quote(a) + " walk idle -o " + quote(dir_ / "x.skls"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("another motion already has this name"), std::string::npos) << r.err;

  // Marks on a v6 motion make it v7; the motions not touched keep their bytes.
  r = run_cli("skls set " + quote(dir_ / "b.skls") + " idle --speed 2 --add-mark step 0 0.5 -o " + quote(dir_ / "c.skls"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("version 6 -> 7"), std::string::npos) << r.out;
  r = run_cli("dump " + quote(dir_ / "c.skls"));
  EXPECT_NE(r.out.find("\"name\":\"idle\",\"version\":7,"), std::string::npos);
  EXPECT_NE(r.out.find("\"speed\":2,"), std::string::npos);
  EXPECT_NE(r.out.find("\"marks\":[{\"name\":\"step\",\"intervals\":[[0,0.5]]}]"), std::string::npos);
  const auto c = bytes_of(dir_ / "c.skls");
  const auto walk = motion_body(6, 1, false, "stroll");
  EXPECT_TRUE(std::equal(walk.begin(), walk.end(), c.end() - static_cast<std::ptrdiff_t>(walk.size())));
  r = run_cli("skls set " + quote(a) + " idle --add-mark step 0 5 -o " + quote(dir_ / "d.skls"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("lies outside motion"), std::string::npos) << r.err;

  // extract to a .skl (one motion), merge back with the clash renamed, delete.
  r = run_cli("skls extract " + quote(a) + " walk -o " + quote(dir_ / "walk.skl"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(bytes_of(dir_ / "walk.skl"), chunk_of(kChunkSkeletonMotion, motion_body(6, 1, false, "walk")));
  r = run_cli("skls merge " + quote(a) + " " + quote(dir_ / "walk.skl") + " -o " + quote(dir_ / "m.skls"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--rename-clashes"), std::string::npos);
  r = run_cli("skls merge " + quote(a) + " " + quote(dir_ / "walk.skl") + " -o " + quote(dir_ / "m.skls") + " --rename-clashes");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("renamed \"walk\" from file 2 to \"walk_2\""), std::string::npos) << r.out;
  r = run_cli("skls delete " + quote(dir_ / "m.skls") + " 'walk*' --in-place");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir_ / "m.skls.bak"));
  EXPECT_EQ(bytes_of(dir_ / "m.skls"), skls_of({motion_body(6, 2, false, "idle")}));
  r = run_cli("skls delete " + quote(dir_ / "walk.skl") + " walk -o " + quote(dir_ / "e.skl"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("a .skl holds one motion"), std::string::npos) << r.err;
  r = run_cli("skls repair " + quote(a) + " -o " + quote(dir_ / "f.skls"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("repair is for .omf files"), std::string::npos) << r.err;
}

TEST_F(SdkCli, AnAnmIsRenamedAndRefusesWhatItCannotHold) {
  const auto anm = write("cam.anm", chunk_of(kChunkObjectMotion, anm_body(5)));
  auto r = run_cli("anm rename " + quote(anm) + " camera shake --in-place");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir_ / "cam.anm.bak"));
  r = run_cli("anm list " + quote(anm));
  EXPECT_NE(r.out.find("shake"), std::string::npos) << r.out;
  r = run_cli("anm set " + quote(anm) + " shake --speed 2 -o " + quote(dir_ / "x.anm"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("an .anm has no motion params"), std::string::npos) << r.err;
  r = run_cli("omf merge " + quote(anm) + " " + quote(dir_ / "cam.anm.bak") + " -o " + quote(dir_ / "y.anm"));
  EXPECT_EQ(r.code, 2);
}

}  // namespace
}  // namespace boneyard
