// The CLI's glTF paths end to end: single conversion to .gltf (+ .bin) with warnings on stderr,
// --skeleton, and --recursive with a broken file (exit 1, summary, no partial output).
#include "gltf_test_support.h"
#include "ogf_fixture.h"

namespace boneyard::test {
namespace {

TEST(CliGltf, ConvertsOmfWithAndWithoutSkeleton) {
  TempDir tmp;
  write_bytes(tmp.path() / "rich.omf", omf_bytes(rich_spec()));
  Buf refs;
  refs.str("rich");
  write_bytes(tmp.path() / "m.ogf", model({{"root", ""}, {"spine", "root"}}, &refs));
  CliRun r = run_cli("convert " + quote(tmp.path() / "rich.omf") + " -o " + quote(tmp.path() / "flat.gltf"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning at byte 0 (0x0) in skeleton: no skeleton given (--skeleton model.ogf): exported a "
                       "flat armature"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(fs::exists(tmp.path() / "flat.bin"));
  r = run_cli("convert " + quote(tmp.path() / "rich.omf") + " --skeleton " + quote(tmp.path() / "m.ogf") + " -o " +
              quote(tmp.path() / "s.glb"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");  // the skeleton fits: no warning
  r = run_cli("convert " + quote(tmp.path() / "m.ogf") + " -o " + quote(tmp.path() / "m.glb"));
  EXPECT_EQ(r.code, 0) << r.err;  // refs relative to the model's folder (no "meshes" ancestor)
  EXPECT_GT(fs::file_size(tmp.path() / "m.glb"), fs::file_size(tmp.path() / "s.glb") / 2);
  // Wrong skeleton: a clear error and no output.
  write_bytes(tmp.path() / "three.ogf", model({{"root", ""}, {"spine", "root"}, {"head", "spine"}}));
  r = run_cli("convert " + quote(tmp.path() / "rich.omf") + " --skeleton " + quote(tmp.path() / "three.ogf") + " -o " +
              quote(tmp.path() / "bad.glb"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("bone-count mismatch between the motions and the skeleton"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(tmp.path() / "bad.glb"));
}

TEST(CliGltf, RecursiveBatchReportsFailuresAndExitsOne) {
  TempDir tmp;
  const fs::path in = tmp.path() / "in";
  write_bytes(in / "a" / "rich.omf", omf_bytes(rich_spec()));
  auto cut = omf_bytes(rich_spec());
  cut.resize(30);
  write_bytes(in / "b" / "broken.omf", cut);
  CliRun r = run_cli("convert --recursive " + quote(in) + " -o " + quote(tmp.path() / "out") + " -j 2");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("0 converted, 1 with warnings, 1 failed (of 2)\n  failed: " + (in / "b" / "broken.omf").string() +
                            ": ",
                        0),
            0u)
      << r.out;
  EXPECT_NE(r.err.find("[2/2] "), std::string::npos) << r.err;  // one progress line per file
  EXPECT_NE(r.err.find((in / "b" / "broken.omf").string() + ": error at byte"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(tmp.path() / "out" / "a" / "rich.glb"));
  EXPECT_FALSE(fs::exists(tmp.path() / "out" / "b"));
}

}  // namespace
}  // namespace boneyard::test
