#include "boneyard/core/json_writer.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_report.h"
#include "omf_fixture.h"
#include "test_support.h"

#include <nlohmann/json.hpp>

namespace boneyard::xray {
namespace {

using test::omf_bytes;
using test::OmfSpec;

std::shared_ptr<const FileData> data(std::vector<std::uint8_t> v) { return FileData::from_vector(std::move(v)); }

OmfFile read_ok(const std::vector<std::uint8_t>& bytes) {
  auto r = read_omf(data(bytes));
  if (!r) ADD_FAILURE() << format_finding(r.error(), "fixture");
  return std::move(r).value();
}

// A complete v4 file written out byte by byte: 1 part "p" with bone "b" (index 0), one motion
// "m" of 1 frame whose only record has a static rotation (flags 2) and a constant translation.
const std::vector<std::uint8_t> kTinyOmf = {
    0x0E, 0, 0, 0, 47, 0, 0, 0,                    // chunk 0xE, 47 bytes
    0x00, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0,         //   sub-chunk 0: count 1
    0x01, 0, 0, 0, 27, 0, 0, 0,                    //   sub-chunk 1, 27 bytes
    'm', 0, 1, 0, 0, 0,                            //     name "m", 1 frame
    0x02,                                          //     flags: rotation static, translation constant
    0, 0, 0, 0, 0, 0, 0xFF, 0x7F,                  //     rotation (0, 0, 0, 32767)
    0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40,  // translation (1, 2, 3)
    0x0F, 0, 0, 0, 46, 0, 0, 0,                    // chunk 0xF, 46 bytes
    4, 0, 1, 0,                                    //   version 4, 1 part
    'p', 0, 1, 0, 'b', 0, 0, 0, 0, 0,              //   part "p": 1 bone "b" index 0
    1, 0,                                          //   1 motion
    'm', 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0,          //   "m", flags 0, all parts, id 0
    0, 0, 0x80, 0x3F, 0, 0, 0x80, 0x3F,            //   speed 1, power 1
    0, 0, 0, 0x40, 0, 0, 0x80, 0x3F,               //   accrue 2, falloff 1
    0, 0, 0, 0,                                    //   no marks
};

TEST(OmfReader, ReadsAFileLaidOutByHand) {
  OmfFile f = read_ok(kTinyOmf);
  const auto& set = f.motions;
  EXPECT_EQ(set.params.version, 4);
  ASSERT_EQ(set.params.parts.size(), 1u);
  EXPECT_EQ(set.params.parts[0].name, "p");
  EXPECT_EQ(set.params.parts[0].bones[0].name, "b");
  ASSERT_EQ(set.motions.size(), 1u);
  EXPECT_EQ(set.motions[0].name, "m");
  EXPECT_EQ(set.motions[0].frames, 1u);
  const BoneKeys& b = set.motions[0].bones.at(0);
  EXPECT_TRUE(b.rotation_static());
  EXPECT_FALSE(b.translation_keyed());
  EXPECT_EQ(b.rotation(0), (Quat{0, 0, 0, 1}));
  EXPECT_EQ(b.translation(0), (Vec3{1, 2, 3}));
  EXPECT_EQ(set.params.motions[0].accrue, 2.0f);
  EXPECT_EQ(write_omf(f), kTinyOmf);
  EXPECT_EQ(validate_omf(f).findings().size(), 0u);
}

TEST(OmfReader, DecodesKeysLikeTheEngine) {
  OmfFile f = read_ok(omf_bytes(test::rich_spec()));
  const auto& walk = f.motions.motions.at(0);
  ASSERT_EQ(walk.bones.size(), 2u);
  const BoneKeys& b0 = walk.bones[0];
  EXPECT_EQ(b0.rotation_key_count(), 3u);
  EXPECT_FLOAT_EQ(b0.rotation(1).x, 16384.0f / 32767.0f);
  EXPECT_FLOAT_EQ(b0.rotation(1).w, 28377.0f / 32767.0f);
  EXPECT_EQ(b0.rotation(2).x, -1.0f);
  // translation = q * size + init, per axis, size stored before init
  EXPECT_FLOAT_EQ(b0.translation(0).x, 2.27f);
  EXPECT_FLOAT_EQ(b0.translation(0).z, -61.0f);
  EXPECT_FLOAT_EQ(b0.translation(2).x, -0.27f);
  EXPECT_FLOAT_EQ(b0.translation(2).y, 2.02f);
  const BoneKeys& b1 = walk.bones[1];
  EXPECT_TRUE(b1.rotation_static());
  EXPECT_EQ(b1.rotation(2), (Quat{0, 1, 0, 0}));  // static: every frame gives the one key
  EXPECT_FALSE(b1.translation_16bit());          // bit 2 without bit 0 means nothing
  EXPECT_EQ(b1.flags, 0x06);
  EXPECT_EQ(b1.translation(1), (Vec3{0.5f, -0.25f, 4.0f}));
  const BoneKeys& s0 = f.motions.motions.at(1).bones[0];
  EXPECT_TRUE(s0.translation_16bit());
  EXPECT_FLOAT_EQ(s0.translation(0).x, 3.2767f);
  EXPECT_FLOAT_EQ(s0.translation(0).y, 1.0f - 6.5534f);
  EXPECT_FLOAT_EQ(s0.translation(1).z, -0.15f);
  const BoneKeys& s1 = f.motions.motions.at(1).bones[1];
  EXPECT_EQ(s1.translation_key(1), (std::array<std::int32_t, 3>{-1, -2, -3}));
  EXPECT_EQ(s1.rotation(0).w, -1.0f);
}

TEST(OmfReader, ReadsParamsAndMarks) {
  OmfFile f = read_ok(omf_bytes(test::rich_spec()));
  const Params& p = f.motions.params;
  ASSERT_EQ(p.parts.size(), 2u);
  EXPECT_EQ(p.parts[1].bones[0].name, "root");
  EXPECT_EQ(p.parts[0].bones[0].index, 1u);
  ASSERT_EQ(p.motions.size(), 2u);
  ASSERT_EQ(p.motions[0].marks.size(), 2u);
  EXPECT_EQ(p.motions[0].marks[0].name, "Left");
  EXPECT_FLOAT_EQ(p.motions[0].marks[0].intervals[0].end, 0.5667f);
  EXPECT_EQ(p.motions[0].marks[1].intervals.size(), 2u);
  EXPECT_TRUE(p.motions[1].is_fx());
  EXPECT_EQ(motion_flag_words(p.motions[1].flags), "fx,stop_at_end");
  EXPECT_EQ(motion_flag_words(0), "-");
  EXPECT_EQ(motion_flag_words(0x100), "bit8");
}

TEST(OmfReader, ReadsEveryParamsVersion) {
  for (int v : {1, 2, 3}) {
    OmfSpec s = test::rich_spec();
    s.version = static_cast<std::uint16_t>(v);
    const auto bytes = omf_bytes(s);
    OmfFile f = read_ok(bytes);
    EXPECT_EQ(f.motions.params.version, v);
    EXPECT_TRUE(f.motions.params.motions[0].marks.empty());
    EXPECT_EQ(f.motions.motions.size(), 2u);
    EXPECT_EQ(f.motions.params.parts[0].bones[0].index, v == 2 ? 0u : 1u);  // v2: position in the part
    EXPECT_EQ(f.motions.params.parts[0].bones[0].name, v == 1 ? "" : "spine");
    EXPECT_EQ(write_omf(f), bytes) << "version " << v;
  }
}

TEST(OmfReader, ZeroMotionsAreLegal) {
  OmfSpec s = test::rich_spec();
  s.keys.clear();
  s.params.clear();
  OmfFile f = read_ok(omf_bytes(s));
  EXPECT_TRUE(f.motions.motions.empty());
  EXPECT_EQ(f.motions.declared_count, 0u);
  EXPECT_FALSE(validate_omf(f).has_errors());
  EXPECT_EQ(write_omf(f), omf_bytes(s));
}

TEST(OmfWriter, KeepsBit31IdsUnknownChunksAndTrailingBytes) {
  OmfSpec s = test::rich_spec();
  s.motions_id = 0x8000000E;
  s.params_id = 0x8000000F;
  s.keys[0].name = "\x91\x0A\xFFgarbage";
  s.params[1].motion_id = 4711;
  auto bytes = omf_bytes(s);
  test::Buf extra;
  extra.chunk(0x20, test::Buf().u32(7)).u8(1).u8(2).u8(3);
  bytes.insert(bytes.end(), extra.b.begin(), extra.b.end());
  OmfFile f = read_ok(bytes);
  EXPECT_EQ(f.chunks.size(), 3u);
  EXPECT_EQ(f.trailing.size(), 3u);
  EXPECT_EQ(write_omf(f), bytes);
}

TEST(OmfWriter, EditedKeysGetCorrectCrcs) {
  OmfFile f = read_ok(omf_bytes(test::rich_spec()));
  BoneKeys& b = f.motions.motions[0].bones[0];
  std::vector<std::uint8_t> keys(b.rotation_keys.begin(), b.rotation_keys.end());
  keys[0] = 0x10;  // change one component
  b.rotation_keys = f.keep(keys);
  update_crcs(b);
  const auto written = write_omf(f);
  OmfFile again = read_ok(written);
  const Diagnostics d = validate_omf(again);
  EXPECT_EQ(d.count(Severity::warning), 0u);
  EXPECT_EQ(again.motions.motions[0].bones[0].rotation_key(0).x, 0x10);
  EXPECT_EQ(again.motions.motions[0].bones[0].rotation_crc, test::zcrc(keys));
}

TEST(OmfReader, EveryTruncationIsAnErrorNeverACrash) {
  const auto full = omf_bytes(test::rich_spec());
  for (std::size_t n = 0; n < full.size(); ++n) {
    std::vector<std::uint8_t> cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    auto r = read_omf(data(cut));
    if (r) {
      EXPECT_TRUE(validate_omf(r.value()).has_errors()) << "prefix of " << n << " bytes validated clean";
      EXPECT_EQ(write_omf(r.value()), cut) << "prefix " << n;
    } else {
      EXPECT_FALSE(r.error().message.empty());
      EXPECT_LE(r.error().offset, n);
    }
  }
}

TEST(OmfReader, AbsurdCountsFailCleanly) {
  OmfSpec s = test::rich_spec();
  s.keys[0].frames = 0xFFFFFFFF;
  OmfFile f = read_ok(omf_bytes(s));
  ASSERT_FALSE(f.motions.motions[0].readable);
  EXPECT_EQ(f.motions.motions[0].readable.error().path, "0xE/1 bone 0 rotation keys");
  EXPECT_EQ(write_omf(f), omf_bytes(s));

  auto bytes = omf_bytes(test::rich_spec());
  // Part count is the u16 right after the version in 0xF: make it 0xFFFF.
  const auto motions_size = test::Buf().add(test::motions_payload(test::rich_spec())).b.size();
  const std::size_t part_count_at = 8 + motions_size + 8 + 2;
  bytes[part_count_at] = 0xFF;
  bytes[part_count_at + 1] = 0xFF;
  auto r = read_omf(data(bytes));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().path.find("0xF"), std::string::npos);
}

TEST(OmfReader, RejectsFilesWithoutParams) {
  test::Buf b;
  b.chunk(0xE, test::motions_payload(test::rich_spec()));
  auto r = read_omf(data(b.b));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("missing chunk 0xF"), std::string::npos);
}

TEST(OmfDump, FollowsTheSchema) {
  OmfFile f = read_ok(omf_bytes(test::rich_spec()));
  JsonWriter w;
  dump_omf(w, f, false);
  const auto j = nlohmann::json::parse(w.str());
  EXPECT_EQ(j["format"], "omf");
  EXPECT_EQ(j["params_version"], 4);
  EXPECT_EQ(j["parts"][0]["name"], "upper");
  EXPECT_EQ(j["parts"][0]["bones"][0]["index"], 1);
  const auto& m0 = j["motions"][0];
  EXPECT_EQ(m0["name"], "walk");
  EXPECT_EQ(m0["keys_name"], "walk");
  EXPECT_EQ(m0["frames"], 3);
  EXPECT_EQ(m0["bone_or_part"], 65535);
  EXPECT_EQ(m0["marks"][0]["name"], "Left");
  EXPECT_FLOAT_EQ(m0["marks"][0]["intervals"][0][1].get<float>(), 0.5667f);
  EXPECT_EQ(m0["bones"][0]["rotation"].size(), 3u);
  EXPECT_EQ(m0["bones"][1]["rotation"].size(), 1u);     // static
  EXPECT_EQ(m0["bones"][1]["translation"].size(), 1u);  // constant
  EXPECT_FLOAT_EQ(m0["bones"][0]["translation"][0][0].get<float>(), 2.27f);
  EXPECT_FALSE(m0["bones"][0].contains("rotation_crc"));

  JsonWriter raw;
  dump_omf(raw, f, true);
  const auto r = nlohmann::json::parse(raw.str());
  const auto& rb = r["motions"][0]["bones"][0];
  EXPECT_EQ(rb["rotation_keys"][1][0], 16384);
  EXPECT_EQ(rb["translation_keys"][0][2], -128);
  EXPECT_FLOAT_EQ(rb["translation_size"][2].get<float>(), 0.5f);
  EXPECT_TRUE(rb.contains("rotation_crc"));
}

TEST(OmfDump, Version1BoneNamesAreNullAndNamesAreUtf8) {
  OmfSpec s = test::rich_spec();
  s.version = 1;
  s.params[0].name = "\xE1\xE5\xE3";  // "бег" in cp1251
  OmfFile f = read_ok(omf_bytes(s));
  JsonWriter w;
  dump_omf(w, f, false);
  const auto j = nlohmann::json::parse(w.str());
  EXPECT_TRUE(j["parts"][0]["bones"][0]["name"].is_null());
  EXPECT_EQ(j["motions"][0]["name"], "\xD0\xB1\xD0\xB5\xD0\xB3");
}

TEST(OmfInfo, DescribesMotions) {
  OmfFile f = read_ok(omf_bytes(test::rich_spec()));
  const std::string s = describe_omf(f);
  EXPECT_NE(s.find("params version 4, 2 part(s), 2 bone(s)"), std::string::npos) << s;
  EXPECT_NE(s.find("walk"), std::string::npos);
  EXPECT_NE(s.find("0.067"), std::string::npos);  // 3 frames at 30 fps = 2/30 s
  EXPECT_NE(s.find("fx,stop_at_end"), std::string::npos);
  EXPECT_NE(s.find("Left 0.2-0.567s"), std::string::npos) << s;
  EXPECT_NE(s.find("2 8-bit + 1 16-bit + 1 constant"), std::string::npos) << s;
}

TEST(OmfParams, EffectiveValuesFollowTheEngine) {
  MotionParams m;
  m.speed = 1.0f;
  m.accrue = 2.0f;
  m.falloff = 2.0f;
  EXPECT_EQ(quantize_param(1.0f), 655);
  EXPECT_EQ(quantize_param(-1.0f), 0);
  EXPECT_EQ(quantize_param(1000.0f), 65535);
  const auto e = effective_params(m);
  EXPECT_TRUE(e.falloff_clamped);
  EXPECT_NEAR(e.accrue, 1.5 * 1310 / 655.35, 1e-5);
  EXPECT_NEAR(e.falloff, 1.5 * 1309 / 655.35, 1e-5);
  m.accrue = 0.0f;
  EXPECT_NEAR(effective_params(m).falloff, 1.5 * 65535 / 655.35, 1e-3);  // wraps as in the engine
  m.flags = kMotionFx;
  EXPECT_FALSE(effective_params(m).falloff_clamped);
}

}  // namespace
}  // namespace boneyard::xray
