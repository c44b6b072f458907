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

namespace boneyard::test {
namespace {

// The glTF text of a .glb written by the CLI.
std::string glb_json(const fs::path& p) {
  const auto b = read_file(p);
  const std::uint32_t n = std::uint32_t(b[12]) | std::uint32_t(b[13]) << 8 | std::uint32_t(b[14]) << 16 |
                          std::uint32_t(b[15]) << 24;
  return std::string(reinterpret_cast<const char*>(b.data()) + 20, n);
}

// --motions keeps the matching motions; rotations are normalised SHORTs unless --float-rotations;
// both are refused where they do not apply (glTF -> .omf).
TEST(CliGltf, MotionsGlobAndFloatRotations) {
  TempDir tmp;
  write_bytes(tmp.path() / "rich.omf", omf_bytes(rich_spec()));
  CliRun r = run_cli("convert " + quote(tmp.path() / "rich.omf") + " -o " + quote(tmp.path() / "all.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string all = glb_json(tmp.path() / "all.glb");
  EXPECT_NE(all.find("\"componentType\":5122,\"count\":3,\"type\":\"VEC4\",\"normalized\":true"), std::string::npos);
  EXPECT_NE(all.find("\"name\":\"walk\""), std::string::npos);
  r = run_cli("convert " + quote(tmp.path() / "rich.omf") + " -o " + quote(tmp.path() / "w.glb") +
              " --motions 'W*' --float-rotations");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string w = glb_json(tmp.path() / "w.glb");
  EXPECT_NE(w.find("\"name\":\"walk\""), std::string::npos);
  EXPECT_EQ(w.find("5122"), std::string::npos) << "float rotations only";
  EXPECT_LT(w.size(), all.size());
  // The other motion of rich_spec is gone.
  std::size_t animations = 0;
  for (std::size_t at = w.find("\"samplers\""); at != std::string::npos; at = w.find("\"samplers\"", at + 1)) ++animations;
  EXPECT_EQ(animations, 1u);
  r = run_cli("convert " + quote(tmp.path() / "all.glb") + " -o " + quote(tmp.path() / "back.omf") + " --motions walk");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--motions"), std::string::npos) << r.err;
  // The unedited .glb comes back to the identical .omf without a template.
  r = run_cli("convert " + quote(tmp.path() / "all.glb") + " -o " + quote(tmp.path() / "back.omf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(tmp.path() / "back.omf"), read_file(tmp.path() / "rich.omf"));
}

}  // namespace
}  // namespace boneyard::test
