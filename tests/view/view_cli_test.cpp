// `boneyard view` on the command line: where the page goes, refusals, --open through xdg-open.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "boneyard/view.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace boneyard;

struct CliRun {
  int code = -1;
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

class ViewCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("boneyard_view_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    arm_ = dir_ / "wave_arm.ogf";
    fs::copy_file(test::source_dir() / "examples/wave_arm.ogf", arm_);
    fs::copy_file(test::source_dir() / "examples/wave.omf", dir_ / "wave.omf");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `env` is prepended to the command (e.g. "PATH=/x").
  CliRun run(const std::string& args, const std::string& env = "") {
    const fs::path out = dir_ / ".stdout", err = dir_ / ".stderr";
    const std::string cmd = env + " " + q(test::cli_path()) + " view " + args + " >" + q(out) + " 2>" + q(err);
    const int status = std::system(cmd.c_str());
    CliRun r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  fs::path dir_, arm_;
};

#define REQUIRE_BUNDLE()                                                              \
  do {                                                                                \
    if (!view::bundle_available()) GTEST_SKIP() << view::bundle_unavailable_reason(); \
  } while (0)

TEST_F(ViewCli, WithoutThreeJsSaysWhy) {
  if (view::bundle_available()) GTEST_SKIP() << "this build has three.js";
  const CliRun r = run(q(arm_));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("npm ci"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "wave_arm.ogf.html"));
}

TEST_F(ViewCli, WritesNextToTheInputByDefault) {
  REQUIRE_BUNDLE();
  const CliRun r = run(q(arm_));
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string html = slurp(dir_ / "wave_arm.ogf.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("id=\"boneyard-data\""), std::string::npos);
  for (const auto& e : fs::directory_iterator(dir_))  // no temporary file left behind
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

TEST_F(ViewCli, SeveralFilesMakeOnePage) {
  REQUIRE_BUNDLE();
  const CliRun r = run(q(arm_) + " " + q(dir_ / "wave.omf") + " --skeleton " + q(arm_) + " -o " + q(dir_ / "both.html"));
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("2 files"), std::string::npos) << r.out;
  const std::string html = slurp(dir_ / "both.html");
  EXPECT_NE(html.find("\"name\":\"" + arm_.string() + "\""), std::string::npos);
  EXPECT_NE(html.find("\"name\":\"" + (dir_ / "wave.omf").string() + "\""), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "wave.omf.html"));
}

TEST_F(ViewCli, RefusesToOverwriteAnInput) {
  REQUIRE_BUNDLE();
  const auto before = slurp(arm_);
  const CliRun r = run(q(arm_) + " -o " + q(arm_));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("refusing"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(arm_), before);
}

TEST_F(ViewCli, UnreadableFilesAreReportedAndLeftOut) {
  REQUIRE_BUNDLE();
  CliRun r = run(q(dir_ / "missing.ogf") + " -o " + q(dir_ / "none.html"));
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "none.html"));  // nothing to show: no page
  std::ofstream(dir_ / "junk.ogf") << "not a model";
  r = run(q(dir_ / "junk.ogf") + " " + q(arm_) + " -o " + q(dir_ / "some.html"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("junk.ogf"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("1 file"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "some.html"));
}

TEST_F(ViewCli, OpenWithoutXdgOpenIsAnError) {
  REQUIRE_BUNDLE();
  fs::create_directories(dir_ / "empty_bin");
  const CliRun r = run(q(arm_) + " --open", "PATH=" + q(dir_ / "empty_bin"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("xdg-open was not found"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "wave_arm.ogf.html"));  // the page is written anyway
}

TEST_F(ViewCli, OpenRunsXdgOpenOnThePage) {
  REQUIRE_BUNDLE();
  const fs::path bin = dir_ / "bin";
  fs::create_directories(bin);
  std::ofstream(bin / "xdg-open") << "#!/bin/sh\nprintf '%s' \"$1\" > '" << (dir_ / "opened").string() << "'\n";
  fs::permissions(bin / "xdg-open", fs::perms::owner_all);
  const CliRun r = run(q(arm_) + " --open -o " + q(dir_ / "page.html"), "PATH=" + q(bin) + ":/usr/bin:/bin");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "opened"), fs::absolute(dir_ / "page.html").string());
}

}  // namespace
