// LZHuf (core/lzhuf.h) and compressed chunks (core/chunks.h open_chunk): round trips, the SDK's
// own stream re-encoded byte for byte, and the refusals of hostile streams. blender-xray's
// decoder checks our encoder independently in tests/interop (lzhuf_interop.py).
#include <random>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/chunks.h"
#include "boneyard/core/lzhuf.h"
#include "test_support.h"

namespace boneyard {
namespace {

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned seed, int alphabet = 256) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, alphabet - 1);
  std::vector<std::uint8_t> out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(pick(rng));
  return out;
}

// Text-like data: words from a small vocabulary, so that matches of every length and distance occur.
std::vector<std::uint8_t> wordy_bytes(std::size_t n, unsigned seed) {
  using namespace std::string_view_literals;
  static const std::string_view kWords[] = {"bip01_"sv, "spine"sv, "head"sv, "l_hand"sv, "r_clavicle"sv,
                                            "\0\0\0\x80"sv, "  "sv, "stalker"sv, "\x01\x00\x00\x00"sv, "motion"sv,
                                            "crc"sv, "0.5"sv, "weapon_"sv, "\xFF\xFE"sv};
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> out;
  while (out.size() < n) {
    const std::string_view w = kWords[rng() % std::size(kWords)];
    out.insert(out.end(), w.begin(), w.end());
    if (rng() % 5 == 0) out.push_back(static_cast<std::uint8_t>(rng()));
  }
  out.resize(n);
  return out;
}

void expect_round_trip(const std::vector<std::uint8_t>& data) {
  const auto packed = lzhuf_encode(data);
  ASSERT_GE(packed.size(), 4u);
  EXPECT_EQ(load_le<std::uint32_t>(packed.data()), data.size());
  auto unpacked = lzhuf_decode(packed);
  ASSERT_TRUE(unpacked.ok()) << unpacked.error().message;
  EXPECT_EQ(unpacked.value(), data) << data.size() << " bytes";
}

TEST(Lzhuf, RoundTripsEveryKindOfInput) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 59u, 60u, 61u, 119u, 120u, 121u, 4035u, 4036u, 4095u, 4096u, 4097u, 9000u})
    expect_round_trip(random_bytes(n, static_cast<unsigned>(n)));
  expect_round_trip(random_bytes(70000, 7));  // 70,000 literals: the tree is rebuilt several times
  expect_round_trip(random_bytes(30000, 8, 3));
  expect_round_trip(wordy_bytes(50000, 9));
  expect_round_trip(std::vector<std::uint8_t>(100000, 0x20));  // spaces: matches into the initial window
  expect_round_trip(std::vector<std::uint8_t>(100000, 0x00));  // 60-byte matches only
}

TEST(Lzhuf, CompressesRepetitiveDataAndStaysNearTheBound) {
  const std::vector<std::uint8_t> zeros(480000, 0);
  const auto packed = lzhuf_encode(zeros);
  EXPECT_LT(packed.size(), 20000u);
  // The bound the decoder enforces holds for the best case the encoder produces.
  EXPECT_LE(zeros.size(), lzhuf_max_unpacked_size(packed.size() - 4));
}

TEST(Lzhuf, RefusesADeclaredSizeTheStreamCannotHoldBeforeAllocating) {
  std::vector<std::uint8_t> bomb = {0xF0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0};
  auto r = lzhuf_decode(bomb, 1000, "0x7777");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 1000u);
  EXPECT_NE(r.error().message.find("more than the LZHuf stream can hold"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().expected, "at most 384 bytes (48 per packed byte)");
  EXPECT_EQ(r.error().found, "4294967280 bytes");
  EXPECT_EQ(r.error().path, "0x7777 unpacked size");
}

TEST(Lzhuf, RefusesShortPayloadsTruncatedStreamsAndOverlongMatches) {
  auto short_payload = lzhuf_decode(std::vector<std::uint8_t>{1, 0}, 8, "0x7777");
  ASSERT_FALSE(short_payload.ok());
  EXPECT_EQ(short_payload.error().message, "truncated");

  const auto data = wordy_bytes(20000, 3);
  auto packed = lzhuf_encode(data);
  auto cut = packed;
  cut.resize(packed.size() / 2);
  auto truncated = lzhuf_decode(cut, 100, "0x7777");
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.error().message.find("ends before the declared size"), std::string::npos);
  EXPECT_EQ(truncated.error().offset, 100 + cut.size());

  // The same stream declaring one byte less: its last match no longer fits.
  const std::vector<std::uint8_t> run(1000, 'a');
  auto overlong = lzhuf_encode(run);
  overlong[0] -= 1;
  auto r = lzhuf_decode(overlong, 0, "0x7777");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("match runs past the declared unpacked size"), std::string::npos) << r.error().message;
}

TEST(Lzhuf, EmptyContentIsTheSizeAlone) {
  const auto packed = lzhuf_encode({});
  EXPECT_EQ(packed, (std::vector<std::uint8_t>{0, 0, 0, 0}));
  auto r = lzhuf_decode(packed);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.value().empty());
}

// blender-xray's test object whose body the SDK compressed (chunk 0x80007777): it unpacks, and
// packing the unpacked body again gives the SDK's bytes exactly.
TEST(Lzhuf, ReencodesTheSdksCompressedObjectBodyByteForByte) {
  BONEYARD_REQUIRE_SAMPLES("xray/sdk/blender-xray");
  const auto file = test::read_file(test::samples_dir() / "xray/sdk/blender-xray/test_fmt_old.object");
  ASSERT_EQ(file.size(), 782u);
  const ChunkList list = split_chunks(file, 0);
  ASSERT_EQ(list.chunks.size(), 1u);
  const Chunk& body = list.chunks[0];
  EXPECT_EQ(body.raw_id, 0x80007777u);
  EXPECT_EQ(list.find(0x7777), &body);  // find_chunk masks bit 31
  auto content = open_chunk(body, "0x7777");
  ASSERT_TRUE(content.ok()) << content.error().message;
  EXPECT_TRUE(content->is_unpacked());
  EXPECT_EQ(content->bytes.size(), 1645u);
  // The unpacked body is a chunk list again: the object's version chunk 0x0900 holds 16.
  const ChunkList inner = split_chunks(content->bytes, 0);
  EXPECT_TRUE(inner.trailing.empty());
  const Chunk* version = inner.find(0x0900);
  ASSERT_NE(version, nullptr);
  EXPECT_EQ(load_le<std::uint16_t>(version->payload.data()), 16);

  const auto repacked = lzhuf_encode(content->bytes);
  ASSERT_EQ(repacked.size(), body.payload.size());
  EXPECT_TRUE(std::equal(repacked.begin(), repacked.end(), body.payload.begin())) << "the SDK's encoder wrote other bytes";

  // write_chunk_content: the stored payload when unchanged; packed anew (and unpacking to the
  // edit) otherwise.
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  write_chunk_content(w, content.value(), content->bytes);
  EXPECT_EQ(out, file);
  std::vector<std::uint8_t> edited(content->bytes.begin(), content->bytes.end());
  edited.back() ^= 1;
  std::vector<std::uint8_t> out2;
  ByteWriter w2(out2);
  write_chunk_content(w2, content.value(), edited);
  const ChunkList again = split_chunks(out2, 0);
  ASSERT_EQ(again.chunks.size(), 1u);
  EXPECT_EQ(again.chunks[0].raw_id, 0x80007777u);
  auto reread = open_chunk(again.chunks[0], "0x7777");
  ASSERT_TRUE(reread.ok());
  EXPECT_TRUE(std::equal(edited.begin(), edited.end(), reread->bytes.begin(), reread->bytes.end()));
}

// Protected .ogf files set bit 31 on chunks that are not compressed: find_chunk (ChunkList::find)
// gives their payload as stored; only open_chunk would try to unpack it.
TEST(Lzhuf, FindChunkKeepsAStoredPayloadWhoseBit31IsSet) {
  BONEYARD_REQUIRE_SAMPLES("xray/cop");
  const auto file = test::read_file(test::samples_dir() / "xray/cop/handflash_hud.ogf");
  const ChunkList list = split_chunks(file, 0);
  const Chunk* header = list.find(0x1);
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->raw_id, 0x80000001u);
  ASSERT_EQ(header->payload.size(), 44u);
  EXPECT_EQ(header->payload[0], 4);  // OGF version 4, plain
}

TEST(Chunks, OpenChunkGivesAPlainPayloadAsStored) {
  std::vector<std::uint8_t> file;
  ByteWriter w(file);
  const std::vector<std::uint8_t> payload = {1, 2, 3};
  write_chunk(w, 0x10, payload);
  const ChunkList list = split_chunks(file, 0);
  auto c = open_chunk(list.chunks[0], "0x10");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->is_unpacked());
  EXPECT_EQ(c->payload_offset, 8u);
  EXPECT_EQ(std::vector<std::uint8_t>(c->bytes.begin(), c->bytes.end()), payload);
}

}  // namespace
}  // namespace boneyard
