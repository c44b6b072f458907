// The CLI's glTF paths end to end: single conversion to .gltf (+ .bin) with warnings on stderr,
// --skeleton, and --recursive with a broken file (exit 1, summary, no partial output).
#include <cstdio>
#include <fstream>

#include "gltf_test_support.h"
#include "ogf_fixture.h"

namespace boneyard::test {
namespace {

struct CliRun {
  int code;
  std::string out;
};

CliRun run(const std::string& args, const fs::path& dir) {
  const std::string cmd = "'" + cli_path().string() + "' " + args + " 2>'" + (dir / "stderr.txt").string() + "'";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  std::ifstream err(dir / "stderr.txt");
  out += std::string((std::istreambuf_iterator<char>(err)), std::istreambuf_iterator<char>());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

void put(const fs::path& p, const std::vector<std::uint8_t>& b) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

TEST(CliGltf, ConvertsOmfWithAndWithoutSkeleton) {
  TempDir tmp;
  put(tmp.path() / "rich.omf", omf_bytes(rich_spec()));
  Buf refs;
  refs.str("rich");
  put(tmp.path() / "m.ogf", model({{"root", ""}, {"spine", "root"}}, &refs));
  CliRun r = run("convert " + q(tmp.path() / "rich.omf") + " -o " + q(tmp.path() / "flat.gltf"), tmp.path());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("flat armature"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(tmp.path() / "flat.bin"));
  r = run("convert " + q(tmp.path() / "rich.omf") + " --skeleton " + q(tmp.path() / "m.ogf") + " -o " +
              q(tmp.path() / "s.glb"),
          tmp.path());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
  r = run("convert " + q(tmp.path() / "m.ogf") + " -o " + q(tmp.path() / "m.glb"), tmp.path());
  EXPECT_EQ(r.code, 0) << r.out;  // refs relative to the model's folder (no "meshes" ancestor)
  EXPECT_GT(fs::file_size(tmp.path() / "m.glb"), fs::file_size(tmp.path() / "s.glb") / 2);
  // Wrong skeleton: a clear error and no output.
  put(tmp.path() / "three.ogf", model({{"root", ""}, {"spine", "root"}, {"head", "spine"}}));
  r = run("convert " + q(tmp.path() / "rich.omf") + " --skeleton " + q(tmp.path() / "three.ogf") + " -o " +
              q(tmp.path() / "bad.glb"),
          tmp.path());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("bone-count mismatch"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(tmp.path() / "bad.glb"));
}

TEST(CliGltf, RecursiveBatchReportsFailuresAndExitsOne) {
  TempDir tmp;
  const fs::path in = tmp.path() / "in";
  put(in / "a" / "rich.omf", omf_bytes(rich_spec()));
  auto cut = omf_bytes(rich_spec());
  cut.resize(30);
  put(in / "b" / "broken.omf", cut);
  CliRun r = run("convert --recursive " + q(in) + " -o " + q(tmp.path() / "out") + " -j 2", tmp.path());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("0 converted, 1 with warnings, 1 failed (of 2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("broken.omf"), std::string::npos);
  EXPECT_TRUE(fs::exists(tmp.path() / "out" / "a" / "rich.glb"));
  EXPECT_FALSE(fs::exists(tmp.path() / "out" / "b"));
}

}  // namespace
}  // namespace boneyard::test
