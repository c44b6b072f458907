// Pins the bytes the glTF -> .kms/.evm import writes for the 51,200-triangle character of
// tests/support/mgs2_character.h (the model bench_mgs2_gltf measures): speed work on the import
// (glTF reading, gathering, strip ordering, palettes, packets, quantisation) must not change them.
// The sizes and FNV-1a hashes are those the code of bdda287 wrote, before that work.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "mgs2/scene/mgs2_scene_common.h"
#include "mgs2_character.h"
#include "mgs2_gltf_support.h"

namespace boneyard::test {
namespace {

std::string fnv1a(const std::vector<std::uint8_t>& b) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (auto c : b) h = (h ^ c) * 0x100000001b3ull;
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return std::to_string(b.size()) + " bytes, fnv1a " + text;
}

std::vector<std::uint8_t> to_model(const scene::Scene& s, const char* ext) {
  Diagnostics w;
  auto r = mgs2::scene_to_model(s, ext, {}, "character", w);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), ext));
  return r.ok() ? std::move(r).value() : std::vector<std::uint8_t>{};
}

class Mgs2ImportBytes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Diagnostics w;
    plain_ = new scene::Scene(via_glb(mgs2_character(32), w));  // no extras: re-stripped
  }
  static void TearDownTestSuite() { delete plain_; }
  static scene::Scene* plain_;
};
scene::Scene* Mgs2ImportBytes::plain_ = nullptr;

TEST_F(Mgs2ImportBytes, KmsFromPlainGltfAndFromItsExport) {
  const auto kms = to_model(*plain_, ".kms");
  EXPECT_EQ(fnv1a(kms), "1130624 bytes, fnv1a 467aadf4e50a3aca");
  // Our export of it comes back through the exact path to the same bytes.
  Diagnostics w;
  auto m = mgs2::read_kms(FileData::from_view(kms, nullptr));
  ASSERT_TRUE(m.ok());
  const auto again = to_model(via_glb(mgs2::kms_to_scene(m.value(), {}, w).value(), w), ".kms");
  EXPECT_TRUE(again == kms) << fnv1a(again);
}

TEST_F(Mgs2ImportBytes, EvmFromPlainGltfAndFromItsExport) {
  const auto evm = to_model(*plain_, ".evm");
  EXPECT_EQ(fnv1a(evm), "1905968 bytes, fnv1a a2d7add3d9a8f33d");
  Diagnostics w;
  auto m = mgs2::read_evm(FileData::from_view(evm, nullptr));
  ASSERT_TRUE(m.ok());
  const auto again = to_model(via_glb(mgs2::evm_to_scene(m.value(), {}, w).value(), w), ".evm");
  EXPECT_TRUE(again == evm) << fnv1a(again);
}

// Ties everywhere (tests/support/mgs2_character.h, mgs2_tangle): palettes that overflow 8 joints,
// triangles whose unit is a close call, directed edges shared by several triangles; our exports of
// the results come back to the same bytes (stored weights of up to 4 joints checked per vertex).
TEST(Mgs2ImportBytesTangle, KmsAndEvmFromPlainGltfAndFromTheirExports) {
  Diagnostics w;
  const scene::Scene plain = via_glb(mgs2_tangle(), w);
  const auto kms = to_model(plain, ".kms"), evm = to_model(plain, ".evm");
  EXPECT_EQ(fnv1a(kms), "64720 bytes, fnv1a 940b5add167aff07");
  EXPECT_EQ(fnv1a(evm), "91888 bytes, fnv1a f91b13d5d1d99faa");
  auto k = mgs2::read_kms(FileData::from_view(kms, nullptr));
  auto e = mgs2::read_evm(FileData::from_view(evm, nullptr));
  ASSERT_TRUE(k.ok() && e.ok());
  EXPECT_TRUE(to_model(via_glb(mgs2::kms_to_scene(k.value(), {}, w).value(), w), ".kms") == kms);
  EXPECT_TRUE(to_model(via_glb(mgs2::evm_to_scene(e.value(), {}, w).value(), w), ".evm") == evm);
}

}  // namespace
}  // namespace boneyard::test

// The extras' base64 (export side) against RFC 4648's test vectors, and back through from_b64.
TEST(Mgs2Base64, Rfc4648VectorsBothWays) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"", "b64:"}, {"f", "b64:Zg=="}, {"fo", "b64:Zm8="}, {"foo", "b64:Zm9v"},
      {"foob", "b64:Zm9vYg=="}, {"fooba", "b64:Zm9vYmE="}, {"foobar", "b64:Zm9vYmFy"}};
  for (const auto& [plain, coded] : cases) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(plain.data());
    EXPECT_EQ(boneyard::to_b64(bytes, plain.size()), coded);
    std::vector<std::uint8_t> back;
    ASSERT_TRUE(boneyard::from_b64(coded, back)) << coded;
    EXPECT_EQ(std::string(back.begin(), back.end()), plain);
  }
}
