// End-to-end: the boneyard binary on MGS2 fixture files written to a temporary folder.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mgs2_fixture.h"
#include "test_support.h"

namespace boneyard::test {
namespace {

namespace fs = std::filesystem;
using namespace boneyard::test::mgs2fx;

struct CliRun {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class Mgs2Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("boneyard_mgs2_cli_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                             static_cast<std::streamsize>(bytes.size()));
    return "'" + p.string() + "'";
  }
  std::string path(const std::string& name) const { return "'" + (dir_ / name).string() + "'"; }

  CliRun run(const std::string& args) {
    const fs::path out = dir_ / ".stdout", err = dir_ / ".stderr";
    const std::string cmd = cli_path().string() + " " + args + " >" + out.string() + " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    CliRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  fs::path dir_;
};

TEST_F(Mgs2Cli, Strcode) {
  const CliRun r = run("strcode null_msk.bmp w03b1");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "0x00B7E31E  null_msk.bmp\n0x0088D878  w03b1\n");
  EXPECT_EQ(run("strcode").code, 2);
}

TEST_F(Mgs2Cli, InfoDumpValidate) {
  const std::string kms = write("a.kms", kms_bytes(standard_kms(false, false)));
  CliRun r = run("info " + kms);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("layout ps2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("extended"), std::string::npos) << r.out;
  r = run("validate " + kms);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ok (kms)"), std::string::npos) << r.out;
  r = run("dump " + kms);
  EXPECT_EQ(r.code, 0);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["units"][0]["packets"][0]["triangles"], nlohmann::json({{0, 2, 1}, {1, 2, 3}}));
  r = run("dump --raw " + kms);
  EXPECT_EQ(nlohmann::json::parse(r.out)["units"][0]["packets"][0]["vertices"][3], nlohmann::json({10, 10, 0, 2048}));

  const std::string evm = write("b.evm", evm_bytes(standard_evm(true, false, false)));
  r = run("info " + evm);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("layout mc"), std::string::npos) << r.out;
  r = run("validate " + evm);
  EXPECT_EQ(r.code, 0) << r.out;
  r = run("dump " + evm);
  EXPECT_EQ(nlohmann::json::parse(r.out)["format"], "evm");
}

TEST_F(Mgs2Cli, Names) {
  const std::string kms = write("a.kms", kms_bytes(standard_kms(true, false)));
  std::ofstream(dir_ / "names.txt") << "w03b1\nnull_msk.bmp\n";
  CliRun r = run("info --names " + path("names.txt") + " " + kms);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("0x88D878 (w03b1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(null_msk.bmp)"), std::string::npos) << r.out;
  r = run("dump --names " + path("names.txt") + " " + kms);
  EXPECT_EQ(nlohmann::json::parse(r.out)["texture"], "w03b1");
  r = run("dump --names " + path("missing.txt") + " " + kms);
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty());
}

TEST_F(Mgs2Cli, ValidateFindingsAndBadFiles) {
  auto f = standard_kms(false, false);
  f.units[0].parent = 1;
  f.units[1].parent = 0;
  const std::string cyc = write("cyc.kms", kms_bytes(f));
  CliRun r = run("validate " + cyc);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("parent cycle"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error at byte"), std::string::npos) << r.out;

  auto bytes = kms_bytes(standard_kms(false, false));
  bytes.resize(0x130);
  const std::string cut = write("cut.kms", bytes);
  r = run("info " + cut);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("array past the end of the file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("in unit 0 packet 0 vertices"), std::string::npos) << r.err;
  r = run("dump " + cut);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.out.empty());
  r = run("info " + path("nonexistent.kms"));
  EXPECT_EQ(r.code, 2);

  auto w = standard_evm(false, false, false);
  w.bones[1].bmax = {1, 1, 1, 0};
  const std::string warn = write("warn.evm", evm_bytes(w));
  r = run("validate " + warn);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 warning"), std::string::npos) << r.out;
  EXPECT_EQ(run("validate --strict " + warn).code, 1);
}

TEST_F(Mgs2Cli, ConvertLayouts) {
  const auto original = kms_bytes(standard_kms(false, true));
  const std::string kms = write("a.kms", original);
  CliRun r = run("convert " + kms + " -o " + path("same.kms"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "same.kms"), original);
  r = run("convert " + kms + " --layout mc -o " + path("mc.kms"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run("info " + path("mc.kms"));
  EXPECT_NE(r.out.find("layout mc"), std::string::npos) << r.out;
  r = run("convert " + path("mc.kms") + " --layout ps2 -o " + path("back.kms"));
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string d1 = run("dump " + kms).out;
  const std::string d2 = run("dump " + path("back.kms")).out;
  EXPECT_EQ(d1, d2);
  EXPECT_EQ(run("convert " + kms + " -o " + path("x.evm")).code, 2);
  EXPECT_EQ(run("convert " + kms + " --layout xbox -o " + path("y.kms")).code, 2);

  const auto evm_original = evm_bytes(standard_evm(true, true, false));
  const std::string evm = write("e.evm", evm_original);
  r = run("convert " + evm + " -o " + path("e2.evm"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "e2.evm"), evm_original);
  r = run("convert " + evm + " --layout ps2 -o " + path("e3.evm"));
  EXPECT_EQ(r.code, 0) << r.err;
  r = run("dump " + path("e3.evm"));
  EXPECT_EQ(nlohmann::json::parse(r.out)["layout"], "ps2");
  EXPECT_EQ(run("dump --layout mc " + path("e3.evm")).code, 1);
}

TEST_F(Mgs2Cli, GltfRoundTripWithTemplateIsByteExact) {
  // Fixtures with alignment filler and trailing bytes: only --template brings those back.
  const auto kms_bytes_in = kms_bytes(standard_kms(false, false));
  const std::string kms = write("a.kms", kms_bytes_in);
  CliRun r = run("convert " + kms + " -o " + path("a.glb"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run("convert " + path("a.glb") + " -o " + path("b.kms") + " --template " + kms);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "b.kms"), std::string(kms_bytes_in.begin(), kms_bytes_in.end()));
  r = run("info " + path("a.glb"));
  EXPECT_NE(r.out.find("2 meshes (2 primitives, 7 vertices, 3 triangles)"), std::string::npos) << r.out;

  const auto evm_bytes_in = evm_bytes(standard_evm(true, false, false));
  const std::string evm = write("a.evm", evm_bytes_in);
  r = run("convert " + evm + " -o " + path("a.gltf"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "a.bin"));
  r = run("convert " + path("a.gltf") + " -o " + path("b.evm") + " --template " + evm);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "b.evm"), std::string(evm_bytes_in.begin(), evm_bytes_in.end()));
  // Without a template: a valid model in the builder's layout, in the layout asked for.
  r = run("convert " + path("a.gltf") + " -o " + path("c.evm") + " --layout ps2");
  ASSERT_EQ(r.code, 0) << r.err;
  r = run("info " + path("c.evm"));
  EXPECT_NE(r.out.find("layout ps2"), std::string::npos) << r.out;
}

TEST_F(Mgs2Cli, GltfScaleTexturesAndErrors) {
  const std::string kms = write("a.kms", kms_bytes(standard_kms(false, false)));
  fs::create_directories(dir_ / "tex");
  std::ofstream(dir_ / "tex" / "null_msk.png") << "png";
  std::ofstream(dir_ / "names.txt") << "null_msk.bmp\n";
  CliRun r = run("convert " + kms + " -o " + path("a.gltf") + " --scale 1 --textures " + path("tex") + " --names " +
                 path("names.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(dir_ / "a.gltf"));
  EXPECT_EQ(j["images"][0]["uri"], "tex/null_msk.png");
  EXPECT_EQ(j["materials"][0]["name"], "null_msk.bmp");
  EXPECT_EQ(j["scenes"][0]["extras"]["mgs2"]["scale"], 1.0);
  // Scale 1 (metres = units) is kept in the extras and used on the way back.
  r = run("convert " + path("a.gltf") + " -o " + path("b.kms"));
  ASSERT_EQ(r.code, 0) << r.err;
  // A model unit of 1 km does not fit 16 bits: a clear error, no output.
  r = run("convert " + path("a.gltf") + " -o " + path("c.kms") + " --scale 0.0000001");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--scale"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "c.kms"));
  // A mesh-only glTF is no motion file.
  r = run("convert " + path("a.gltf") + " -o " + path("c.omf"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no animations"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace boneyard::test
