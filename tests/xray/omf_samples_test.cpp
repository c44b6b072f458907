// Every shipped example .omf/.ogf (examples/) and every real one in ../shared/samples/xray when
// the samples are there: read, validated with the severity that its SOURCES.md line implies (the
// examples are clean), and rewritten byte for byte. KnownContents skips without the samples.
#include <map>

#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/omf/omf.h"
#include "test_support.h"

namespace boneyard::xray {
namespace {

namespace fs = std::filesystem;

enum class Expect { clean, warnings, errors };

// From SOURCES.md: the two structurally invalid files, and the CRC-0 modder file.
const std::map<std::string, Expect> kExpected = {
    {"cop/dev_hand_geiger_hud_animation.omf", Expect::errors},
    {"tools/write_read.omf", Expect::errors},
    {"cop/dev_geiger_hud_animation.omf", Expect::warnings},
};

std::shared_ptr<const FileData> open(const fs::path& p) {
  auto f = FileData::open(p);
  return f.value();
}

// The examples first, then the samples (when present), each group sorted.
std::vector<fs::path> samples(const std::string& ext) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(test::source_dir() / "examples"))
    if (e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  if (!test::have_samples("xray")) return out;
  const auto shipped = static_cast<std::ptrdiff_t>(out.size());
  for (const auto& e : fs::recursive_directory_iterator(test::samples_dir() / "xray"))
    if (e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin() + shipped, out.end());
  return out;
}

std::string rel(const fs::path& p) {
  if (p.parent_path() == test::source_dir() / "examples") return "examples/" + p.filename().string();
  return fs::relative(p, test::samples_dir() / "xray").generic_string();
}

TEST(OmfSamples, EveryOmfReadsValidatesAsDocumentedAndRewritesByteExact) {
  const auto files = samples(".omf");
  ASSERT_GE(files.size(), test::have_samples("xray") ? 15u : 1u);  // 14 samples and examples/wave.omf
  for (const auto& p : files) {
    SCOPED_TRACE(rel(p));
    auto data = open(p);
    auto f = read_omf(data);
    ASSERT_TRUE(f) << format_finding(f.error(), rel(p));
    const Diagnostics d = validate_omf(f.value());
    const auto it = kExpected.find(rel(p));
    const Expect expect = it == kExpected.end() ? Expect::clean : it->second;
    EXPECT_EQ(d.has_errors(), expect == Expect::errors);
    if (expect == Expect::clean) {
      EXPECT_EQ(d.count(Severity::warning), 0u);
    }
    if (expect == Expect::warnings) {
      EXPECT_GT(d.count(Severity::warning), 0u);
    }
    const auto written = write_omf(f.value());
    EXPECT_TRUE(std::equal(written.begin(), written.end(), data->bytes().begin(), data->bytes().end()));
  }
}

TEST(OmfSamples, EveryOgfRewritesByteExact) {
  const auto files = samples(".ogf");
  ASSERT_GE(files.size(), 1u);  // examples/wave_arm.ogf
  std::size_t v3 = 0;
  for (const auto& p : files) {
    SCOPED_TRACE(rel(p));
    auto data = open(p);
    if (looks_like_ogf_v3(data->bytes())) {  // OGF v3 (sdk/blender-xray): its own reader and writer
      auto f = read_ogf_v3(data);
      ASSERT_TRUE(f) << format_finding(f.error(), rel(p));
      const auto written = write_ogf_v3(f.value());
      EXPECT_TRUE(std::equal(written.begin(), written.end(), data->bytes().begin(), data->bytes().end()));
      ++v3;
      continue;
    }
    auto f = read_ogf(data);
    ASSERT_TRUE(f) << format_finding(f.error(), rel(p));
    const auto written = write_ogf(f.value());
    EXPECT_TRUE(std::equal(written.begin(), written.end(), data->bytes().begin(), data->bytes().end()));
  }
  EXPECT_EQ(v3, test::have_samples("xray") ? 1u : 0u);
}

TEST(OmfSamples, KnownContents) {
  BONEYARD_REQUIRE_SAMPLES("xray");
  const fs::path dir = test::samples_dir() / "xray";
  {
    auto f = read_omf(open(dir / "cop/headflash_hud_anims.omf"));
    ASSERT_TRUE(f);
    const auto& set = f->motions;
    ASSERT_EQ(set.motions.size(), 1u);
    EXPECT_EQ(set.params.motions[0].name, "idle");
    EXPECT_EQ(set.motions[0].frames, 2u);
    EXPECT_EQ(set.motions[0].bones.at(0).flags, 0x02);
  }
  {
    auto f = read_omf(open(dir / "cop/wpn_hand_knife_hud_animation.omf"));
    ASSERT_TRUE(f);
    const auto& p = f->motions.params;
    EXPECT_EQ(p.bone_count(), 42u);
    EXPECT_EQ(p.motions.size(), 18u);
    int with_marks = 0;
    for (const auto& m : p.motions) {
      if (m.marks.empty()) continue;
      ++with_marks;
      EXPECT_TRUE(m.marks[0].name == "Left" || m.marks[0].name == "Right") << m.marks[0].name;
    }
    EXPECT_EQ(with_marks, 3);
  }
  {
    auto f = read_omf(open(dir / "soc/zombi_animation.omf"));
    ASSERT_TRUE(f);
    EXPECT_EQ(f->motions.params.version, 3);
    EXPECT_EQ(f->motions.params.bone_count(), 41u);
    EXPECT_EQ(f->motions.motions.size(), 69u);
    for (const auto& m : f->motions.motions)
      for (const auto& b : m.bones) EXPECT_FALSE(b.translation_16bit());
  }
  {
    auto f = read_omf(open(dir / "cop/hand_unarmed.omf"));
    ASSERT_TRUE(f);
    EXPECT_EQ(f->motions.params.bone_count(), 42u);
    EXPECT_TRUE(f->motions.motions.empty());
  }
  {
    auto f = read_ogf(open(dir / "soc/rat_1.ogf"));
    ASSERT_TRUE(f);
    ASSERT_TRUE(f->motions.has_value());
    EXPECT_EQ(f->motions->motions.size(), 45u);
    EXPECT_EQ(f->motions->params.bone_count(), 29u);
    EXPECT_FALSE(validate_ogf(f.value()).has_errors());
    auto omf = extract_omf(f.value());
    ASSERT_TRUE(omf);
    auto again = read_omf(FileData::from_vector(omf.value()));
    ASSERT_TRUE(again);
    EXPECT_EQ(again->motions.motions.size(), 45u);
  }
}

}  // namespace
}  // namespace boneyard::xray
