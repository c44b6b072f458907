// The corpus round trip (registry/check_roundtrip.h, `boneyard check-roundtrip`): over the real
// samples and over a stand-in generated at the scale of an Anomaly-based mod's hands (42 bones,
// 53 motion files, 2,756 motions with runs of held keys, refs beyond the stock CoP limit), every
// model comes back byte-identical with its template and converts without one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "boneyard/registry/check_roundtrip.h"
#include "boneyard/xray/ogf/ogf.h"
#include "cli_harness.h"
#include "hands_standin.h"
#include "test_support.h"

namespace boneyard::test::roundtrip {
namespace {

namespace fs = std::filesystem;
using Outcome = RoundTripItem::Outcome;

std::string details(const RoundTripItem& item) {
  std::string s = item.model.string() + ": with template " + outcome_name(item.with_template) + " " +
                  item.with_detail + "; without template " + outcome_name(item.without_template) + " " +
                  item.without_detail;
  for (const auto& w : item.warnings) s += "\n  " + w.path + ": " + w.message;
  return s;
}

TEST(CheckRoundTrip, HandsStandInComesBackWithAndWithoutTemplate) {
  TempDir dir("hands_standin");
  const HandsStandIn hands = write_hands_standin(dir.path());
  ASSERT_GE(hands.motion_files, 50u);
  ASSERT_GE(hands.motions, 2700u);
  RoundTripOptions o;
  o.input_dir = dir.path();
  o.threads = 2;
  const RoundTripResult r = check_roundtrip(o);
  ASSERT_EQ(r.items.size(), 1u);
  const RoundTripItem& item = r.items[0];
  EXPECT_EQ(item.with_template, Outcome::identical) << details(item);
  EXPECT_EQ(item.without_template, Outcome::identical) << details(item);
  EXPECT_EQ(item.motions, hands.motions) << details(item);
  EXPECT_TRUE(r.all_back());
  // The refs beyond the stock engine's 48 are what the model already is: a warning that names the
  // limit and the count, on the way back without template.
  bool warned = false;
  for (const auto& w : item.warnings)
    warned |= w.message.find("53 motion refs, more than the stock CS/CoP engine reads (48)") != std::string::npos;
  EXPECT_TRUE(warned) << details(item);
}

TEST(CheckRoundTrip, EveryRealSampleComesBack) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  RoundTripOptions o;
  o.input_dir = samples_dir() / "xray";
  o.threads = 2;
  const RoundTripResult r = check_roundtrip(o);
  ASSERT_GE(r.items.size(), 10u);
  for (const auto& item : r.items) {
    const std::string name = item.model.filename().string();
    if (name == "test_fmt_ogf_v3.ogf") {  // an OGF v3 (before 2004): not read, by design
      EXPECT_EQ(item.with_template, Outcome::refused) << details(item);
      continue;
    }
    EXPECT_EQ(item.with_template, Outcome::identical) << details(item);
    EXPECT_EQ(item.without_template, Outcome::identical) << details(item);
  }
  EXPECT_TRUE(r.all_back());
  EXPECT_EQ(r.refused, 1u);
}

TEST(CheckRoundTrip, CommandPrintsEachModelAndASummary) {
  TempDir dir("hands_cli");
  write_hands_standin(dir.path(), 3, 4);
  const auto run = run_cli("check-roundtrip " + quote(dir.path()) + " -j 2");
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("wpn_hand_standin.ogf: with template identical, without template converted"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("with template: 1 identical, 0 different, 0 failed; without template: 1 converted, 0 different, "
                         "0 failed; 0 refused by design (of 1 models"),
            std::string::npos)
      << run.out;
  // A file that is no model is refused (as `convert` refuses it), which is no failed round trip.
  std::ofstream(dir.path() / "meshes" / "broken.ogf", std::ios::binary) << "not a model";
  const auto refused = run_cli("check-roundtrip " + quote(dir.path()) + " --only with-template");
  EXPECT_EQ(refused.code, 0) << refused.out;
  EXPECT_NE(refused.out.find("refused by design: cannot be read"), std::string::npos) << refused.out;
  // A model that does not come back makes the exit code 1: here one of its motion files is broken.
  std::ofstream(dir.path() / "meshes/dynamics/weapons/wpn_standin1/wpn_hand_standin1_hud_animation.omf",
                std::ios::binary | std::ios::trunc)
      << "not motions";
  const auto failed = run_cli("check-roundtrip " + quote(dir.path()));
  EXPECT_EQ(failed.code, 1) << failed.out;
  EXPECT_NE(failed.out.find("with template: 0 identical, 0 different, 1 failed"), std::string::npos) << failed.out;
  const auto usage = run_cli("check-roundtrip " + quote(dir.path() / "missing"));
  EXPECT_EQ(usage.code, 2);
}

TEST(CheckRoundTrip, CommandOverTheSamples) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const auto run = run_cli("check-roundtrip " + quote(samples_dir() / "xray") + " -j 2");
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find(" 0 different, 0 failed; without template: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("1 refused by design"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace boneyard::test::roundtrip
