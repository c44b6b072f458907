// What boneyard may write as an .omf: names the format can hold (check_omf_name) and written
// bytes that read back valid (checked_omf_bytes).
#include "boneyard/xray/omf/omf.h"
#include "omf_fixture.h"
#include "test_support.h"

namespace boneyard::xray {
namespace {

using namespace std::string_literals;

// The message of the error, or "" when the name can be stored.
std::string why_refused(std::string_view name, OmfName kind) {
  const Status s = check_omf_name(name, kind);
  return s ? std::string() : s.error().message;
}

TEST(OmfNames, OrdinaryNamesAreFine) {
  EXPECT_TRUE(check_omf_name("wave", OmfName::motion));
  EXPECT_TRUE(check_omf_name("\xCF\xF0\xE8\xE2\xE5\xF2", OmfName::mark));  // cp1251 Cyrillic
  EXPECT_TRUE(check_omf_name(std::string(kMaxNameBytes, 'a'), OmfName::bone));
}

TEST(OmfNames, NulIsRefusedInEveryKind) {
  for (auto kind : {OmfName::motion, OmfName::mark, OmfName::part, OmfName::bone})
    EXPECT_NE(why_refused("wa\0lk"s, kind).find("NUL"), std::string::npos);
}

TEST(OmfNames, LineBreaksAreRefusedOnlyInMarks) {
  EXPECT_NE(why_refused("a\r\nb", OmfName::mark).find("CR or LF"), std::string::npos);
  EXPECT_NE(why_refused("a\nb", OmfName::mark), "");
  EXPECT_NE(why_refused("a\rb", OmfName::mark), "");
  EXPECT_EQ(why_refused("a\nb", OmfName::motion), "");  // NUL-terminated: a line break reads back
}

TEST(OmfNames, LongNamesAreRefused) {
  EXPECT_NE(why_refused(std::string(kMaxNameBytes + 1, 'a'), OmfName::motion).find("127"), std::string::npos);
}

TEST(CheckedOmfBytes, ValidBytesPassUnchanged) {
  const auto bytes = test::omf_bytes(test::rich_spec());
  auto r = checked_omf_bytes(bytes);
  ASSERT_TRUE(r) << format_finding(r.error(), "x");
  EXPECT_EQ(r.value(), bytes);
}

TEST(CheckedOmfBytes, UnreadableBytesAreRefused) {
  auto bytes = test::omf_bytes(test::rich_spec());
  bytes.resize(bytes.size() / 2);  // cut inside 0xE: 0xF is gone
  auto r = checked_omf_bytes(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path.rfind("written .omf", 0), 0u) << r.error().path;
}

TEST(CheckedOmfBytes, ValidationErrorsAreRefusedUnlessInherited) {
  test::OmfSpec s = test::rich_spec();
  ASSERT_FALSE(s.parts.empty());
  ASSERT_FALSE(s.parts[0].bones.empty());
  s.parts[0].bones[0].second = 7;  // a motion-bone index past the bones: not a permutation
  const auto bytes = test::omf_bytes(s);
  auto r = checked_omf_bytes(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path.rfind("written .omf", 0), 0u);
  // The same error in the input is not the writer's doing.
  auto input = read_omf(FileData::from_vector(bytes));
  ASSERT_TRUE(input);
  const Diagnostics before = validate_omf(input.value());
  EXPECT_TRUE(checked_omf_bytes(bytes, &before));
}

}  // namespace
}  // namespace boneyard::xray
