// `boneyard view` on the command line: where the page goes, refusals, --open through xdg-open.
#include <filesystem>
#include <fstream>
#include <string>

#include "boneyard/view/view.h"
#include "cli_harness.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace boneyard;

using test::CliRun;
using test::quote;
using test::slurp;

class ViewCli : public test::CliTest {
 protected:
  ViewCli() {
    fs::copy_file(test::source_dir() / "examples/wave_arm.ogf", arm_);
    fs::copy_file(test::source_dir() / "examples/wave.omf", dir_ / "wave.omf");
  }

  // `env` is prepended to the command (e.g. "PATH=/x").
  static CliRun run_view(const std::string& args, const std::string& env = "") {
    return test::run_cli("view " + args, env);
  }

  const fs::path arm_ = dir_ / "wave_arm.ogf";
};

#define REQUIRE_BUNDLE()                                                              \
  do {                                                                                \
    if (!view::bundle_available()) GTEST_SKIP() << view::bundle_unavailable_reason(); \
  } while (0)

TEST_F(ViewCli, WithoutThreeJsSaysWhy) {
  if (view::bundle_available()) GTEST_SKIP() << "this build has three.js";
  const CliRun r = run_view(quote(arm_));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("npm ci"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "wave_arm.ogf.html"));
}

TEST_F(ViewCli, WritesNextToTheInputByDefault) {
  REQUIRE_BUNDLE();
  const CliRun r = run_view(quote(arm_));
  EXPECT_EQ(r.code, 0) << r.err;
  const std::string html = slurp(dir_ / "wave_arm.ogf.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("id=\"boneyard-data\""), std::string::npos);
  for (const auto& e : fs::directory_iterator(dir_))  // no temporary file left behind
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

TEST_F(ViewCli, SeveralFilesMakeOnePage) {
  REQUIRE_BUNDLE();
  const CliRun r = run_view(quote(arm_) + " " + quote(dir_ / "wave.omf") + " --skeleton " + quote(arm_) + " -o " + quote(dir_ / "both.html"));
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
  const CliRun r = run_view(quote(arm_) + " -o " + quote(arm_));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("refusing"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(arm_), before);
}

TEST_F(ViewCli, UnreadableFilesAreReportedAndLeftOut) {
  REQUIRE_BUNDLE();
  CliRun r = run_view(quote(dir_ / "missing.ogf") + " -o " + quote(dir_ / "none.html"));
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "none.html"));  // nothing to show: no page
  std::ofstream(dir_ / "junk.ogf") << "not a model";
  r = run_view(quote(dir_ / "junk.ogf") + " " + quote(arm_) + " -o " + quote(dir_ / "some.html"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("junk.ogf"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("1 file"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "some.html"));
}

TEST_F(ViewCli, OpenWithoutXdgOpenIsAnError) {
  REQUIRE_BUNDLE();
  fs::create_directories(dir_ / "empty_bin");
  const CliRun r = run_view(quote(arm_) + " --open", "PATH=" + quote(dir_ / "empty_bin"));
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
  const CliRun r = run_view(quote(arm_) + " --open -o " + quote(dir_ / "page.html"), "PATH=" + quote(bin) + ":/usr/bin:/bin");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(dir_ / "opened"), fs::absolute(dir_ / "page.html").string());
}

}  // namespace
