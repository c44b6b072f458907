// The output plan (registry/output_plan.h): what a command may write, decided before it writes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "boneyard/registry/output_plan.h"

namespace fs = std::filesystem;

namespace boneyard {
namespace {

class OutputPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("boneyard_plan_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "in.omf") << "x";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OutputPlanTest, AnOutputIsNeverTheInputByNameCaseOrLink) {
  OutputPlan plan;
  plan.add_read(dir_ / "in.omf", "the input file");
  auto same = plan.add_write(dir_ / "in.omf");
  ASSERT_FALSE(same);
  EXPECT_TRUE(same.error().usage);
  EXPECT_NE(same.error().message.find("refusing to overwrite the input file"), std::string::npos);
  EXPECT_FALSE(plan.add_write(dir_ / "IN.OMF"));
  EXPECT_FALSE(plan.add_write(dir_ / "sub" / ".." / "in.omf"));
  fs::create_symlink(dir_ / "in.omf", dir_ / "link.omf");
  EXPECT_FALSE(plan.add_write(dir_ / "link.omf"));
  fs::create_hard_link(dir_ / "in.omf", dir_ / "hard.omf");
  EXPECT_FALSE(plan.add_write(dir_ / "hard.omf"));
  EXPECT_TRUE(plan.add_write(dir_ / "out.glb"));
  EXPECT_TRUE(plan.writes().size() == 1);
}

TEST_F(OutputPlanTest, TwoOutputsOfOneRunAreDistinct) {
  OutputPlan plan;
  ASSERT_TRUE(plan.add_write(dir_ / "m.glb"));
  auto twice = plan.add_write(dir_ / "M.GLB");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("would write it twice"), std::string::npos);
  EXPECT_TRUE(plan.add_write(dir_ / "m_2.glb"));
}

TEST_F(OutputPlanTest, OnlyRegularFilesAreReplaced) {
  OutputPlan plan;
  fs::create_directory(dir_ / "folder.glb");
  ASSERT_EQ(::mkfifo((dir_ / "fifo.glb").c_str(), 0600), 0);
  EXPECT_NE(plan.add_write(dir_ / "folder.glb").error().message.find("a folder"), std::string::npos);
  EXPECT_NE(plan.add_write(dir_ / "fifo.glb").error().message.find("a FIFO"), std::string::npos);
  EXPECT_NE(plan.add_write("/dev/null").error().message.find("a device"), std::string::npos);
  std::ofstream(dir_ / "old.glb") << "old";
  EXPECT_TRUE(plan.add_write(dir_ / "old.glb"));  // an existing regular file is replaced as asked
}

TEST_F(OutputPlanTest, ReadsAfterAWriteWasPlannedAreCheckedBeforeCommitting) {
  OutputPlan plan;
  ASSERT_TRUE(plan.add_write(dir_ / "_win" / "t.cmdl"));
  EXPECT_TRUE(plan.check());
  plan.add_read(dir_ / "_win" / "t.cmdl", "the template's .cmdl");
  auto late = plan.check();
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().message.find("the template's .cmdl"), std::string::npos);
}

}  // namespace
}  // namespace boneyard
