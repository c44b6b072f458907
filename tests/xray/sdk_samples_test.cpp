// Every real .skl, .skls and .anm of the samples (../shared/samples/xray/sdk: blender-xray's test
// files and a public weapon mod's) reads, validates without errors and rewrites byte for byte;
// skipped when the samples are absent. scripts/check_sdk_motions.sh runs the same over a whole
// mod's gamedata (1,075 .anm and 3 .skls in one public repository).
#include <filesystem>
#include <map>

#include "boneyard/core/file_io.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/envelope/envelope_report.h"
#include "boneyard/xray/skl/skl.h"
#include "test_support.h"

namespace boneyard::xray {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sample_files(std::string_view extension) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(test::samples_dir() / "xray/sdk"))
    if (entry.is_regular_file() && lower_extension(entry.path().filename().string()) == extension)
      out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string errors_of(const Diagnostics& d) {
  std::string s;
  for (const auto& f : d.findings())
    if (f.severity == Severity::error) s += "\n  " + format_finding(f, "");
  return s;
}

TEST(SdkSamples, EverySklAndSklsReadsValidatesAndRewritesByteForByte) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  std::size_t files = 0, motions = 0;
  ShapeCounts keys;
  std::map<int, std::size_t> versions;
  for (const auto& ext : {".skl", ".skls"}) {
    for (const auto& path : sample_files(ext)) {
      auto data = FileData::open(path);
      ASSERT_TRUE(data.ok()) << path;
      auto f = std::string_view(ext) == ".skl" ? read_skl(data.value()) : read_skls(data.value());
      ASSERT_TRUE(f.ok()) << path << ": " << format_finding(f.error(), "");
      EXPECT_EQ(write_skl(f.value()), std::vector<std::uint8_t>(data.value()->bytes().begin(), data.value()->bytes().end()))
          << path;
      const Diagnostics d = validate_skl(f.value());
      EXPECT_FALSE(d.has_errors()) << path << errors_of(d);
      for (const auto& m : f->motions) {
        ++versions[m.version];
        for (const auto& b : m.bones)
          for (const auto& e : b.channels()) keys.add(e);
      }
      motions += f->motions.size();
      ++files;
    }
  }
  // blender-xray's test_fmt.skl and .skls, and the mod's three .skls (converter output: v6, stepped).
  EXPECT_EQ(files, 5u);
  EXPECT_EQ(motions, 58u);
  EXPECT_EQ(versions[6], 58u);
  EXPECT_EQ(keys.keys[static_cast<int>(EnvelopeShape::stepped)], keys.total());
  std::printf("%zu files, %zu motions (all v6), %s\n", files, motions, keys.text().c_str());
}

TEST(SdkSamples, EveryAnmReadsValidatesAndRewritesByteForByte) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk");
  std::size_t files = 0;
  std::map<int, std::size_t> versions;
  ShapeCounts keys;
  for (const auto& path : sample_files(".anm")) {
    auto data = FileData::open(path);
    ASSERT_TRUE(data.ok()) << path;
    auto f = read_anm(data.value());
    ASSERT_TRUE(f.ok()) << path << ": " << format_finding(f.error(), "");
    EXPECT_EQ(write_anm(f.value()), std::vector<std::uint8_t>(data.value()->bytes().begin(), data.value()->bytes().end()))
        << path;
    const Diagnostics d = validate_anm(f.value());
    EXPECT_FALSE(d.has_errors()) << path << errors_of(d);
    ++versions[f->motion.version];
    for (const auto& e : f->motion.stored) keys.add(e);
    ++files;
  }
  // blender-xray's six (v3, v4, v5, TCB, Bezier 2D, linear) and five of the mod's (v5, TCB).
  EXPECT_EQ(files, 11u);
  EXPECT_EQ(versions[3], 1u);
  EXPECT_EQ(versions[4], 1u);
  EXPECT_EQ(versions[5], 9u);
  std::printf("%zu files, %s\n", files, keys.text().c_str());
}

// blender-xray's test_fmt_v3.anm and test_fmt_v4.anm hold the same motion, stored in the same
// channel order: blender-xray writes (and reads) v4 as h, p, b. The engine reads v4 as p, h, b, and
// so does boneyard: the v4 file's heading is the v3 file's pitch and the other way round.
TEST(SdkSamples, AV4AnmIsReadWithItsRotationSwappedAsTheEngineReadsIt) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk/blender-xray");
  const auto dir = test::samples_dir() / "xray/sdk/blender-xray";
  auto v3 = read_anm(FileData::open(dir / "test_fmt_v3.anm").value());
  auto v4 = read_anm(FileData::open(dir / "test_fmt_v4.anm").value());
  ASSERT_TRUE(v3.ok() && v4.ok());
  ASSERT_EQ(v3->motion.version, 3);
  ASSERT_EQ(v4->motion.version, 4);
  auto same = [](const Envelope& a, const Envelope& b) {
    const auto ka = decode_envelope_keys(a), kb = decode_envelope_keys(b);
    if (ka.size() != kb.size()) return false;
    for (std::size_t k = 0; k < ka.size(); ++k)
      if (ka[k].time != kb[k].time || ka[k].value != kb[k].value) return false;
    return true;
  };
  for (std::size_t i = 0; i < kMotionChannels; ++i) EXPECT_TRUE(same(v3->motion.stored[i], v4->motion.stored[i])) << i;
  EXPECT_TRUE(same(v4->motion.channel(MotionChannel::h), v3->motion.channel(MotionChannel::p)));
  EXPECT_TRUE(same(v4->motion.channel(MotionChannel::p), v3->motion.channel(MotionChannel::h)));
  EXPECT_TRUE(same(v4->motion.channel(MotionChannel::b), v3->motion.channel(MotionChannel::b)));
}

}  // namespace
}  // namespace boneyard::xray
