#include <cmath>
#include <csignal>
#include <filesystem>
#include <limits>

#include <sys/stat.h>
#include <zlib.h>

#include "boneyard/core/bytes.h"
#include "boneyard/core/chunks.h"
#include "boneyard/core/crc32.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/interrupt.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/core/text.h"
#include "core/byte_reader.h"
#include "test_support.h"

namespace boneyard {
namespace {

std::vector<std::uint8_t> bytes_of(std::initializer_list<int> v) {
  std::vector<std::uint8_t> out;
  for (int b : v) out.push_back(static_cast<std::uint8_t>(b));
  return out;
}

TEST(ByteReader, ReadsLittleEndianFields) {
  auto data = bytes_of({0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x80, 0x3F, 'a', 'b', 0, 'c', '\r', '\n'});
  ByteReader r(data, 100);
  EXPECT_EQ(r.u16("a"), 0x1234);
  EXPECT_EQ(r.u32("b"), 0x12345678u);
  EXPECT_EQ(r.f32("c"), 1.0f);
  EXPECT_EQ(r.offset(), 110u);
  EXPECT_EQ(r.stringz("d"), "ab");
  EXPECT_EQ(r.string_crlf("e"), "c");
  EXPECT_TRUE(r.at_end());
}

TEST(ByteReader, ShortReadReportsOffsetFieldAndCounts) {
  auto data = bytes_of({1, 2, 3});
  ByteReader r(data, 40);
  r.u8("x");
  try {
    r.u32("frame count");
    FAIL() << "expected a ParseError";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.finding().offset, 41u);
    EXPECT_EQ(e.finding().path, "frame count");
    EXPECT_EQ(e.finding().expected, "4 bytes");
    EXPECT_EQ(e.finding().found, "2 bytes");
  }
}

TEST(ByteReader, HugeCountsFailBeforeAllocation) {
  auto data = bytes_of({0, 0, 0, 0, 0, 0, 0, 0});
  ByteReader r(data, 0);
  EXPECT_THROW(r.need_array(0xFFFFFFFFu, 8, "keys"), ParseError);
  EXPECT_THROW(r.need_array(std::numeric_limits<std::uint64_t>::max(), 3, "keys"), ParseError);
  EXPECT_NO_THROW(r.need_array(1, 8, "keys"));
  EXPECT_THROW(r.need_array(2, 8, "keys"), ParseError);
}

TEST(ByteReader, UnterminatedStringsFail) {
  auto data = bytes_of({'a', 'b', '\r'});
  ByteReader r(data, 0);
  EXPECT_THROW(r.stringz("name"), ParseError);
  EXPECT_THROW(r.string_crlf("name"), ParseError);
}

TEST(Chunks, SplitsAndKeepsOverrunAsTrailing) {
  auto data = bytes_of({0x0E, 0, 0, 0x80, 2, 0, 0, 0, 0xAA, 0xBB, 0x0F, 0, 0, 0, 9, 0, 0, 0, 1});
  ChunkList list = split_chunks(data, 0);
  ASSERT_EQ(list.chunks.size(), 1u);
  EXPECT_EQ(list.chunks[0].id(), 0xEu);
  EXPECT_TRUE(list.chunks[0].compress_bit());
  EXPECT_EQ(list.chunks[0].payload.size(), 2u);
  ASSERT_TRUE(list.overrun.has_value());
  EXPECT_EQ(list.overrun->offset, 10u);
  EXPECT_EQ(list.overrun->declared_size, 9u);
  EXPECT_EQ(list.overrun->available, 1u);
  EXPECT_EQ(list.trailing.size(), 9u);
  EXPECT_EQ(list.find(0xE), &list.chunks[0]);
  EXPECT_EQ(list.find(0xF), nullptr);
}

TEST(Chunks, OverrunWithAChunkIdIsATruncatedChunk) {
  // 0xF (bit 31 set) whose size runs past the end: the file was cut inside that chunk.
  auto cut = bytes_of({0x0F, 0, 0, 0x80, 9, 0, 0, 0, 1});
  ASSERT_TRUE(split_chunks(cut, 0).overrun.has_value());
  EXPECT_TRUE(split_chunks(cut, 0).overrun->truncated_chunk());
  // Text after the last chunk (real OGFs carry the rest of a motion-ref name) is only junk.
  auto text = bytes_of({'z', 'o', 'm', 'b', 'i', 'e', 'd', '_', '1'});
  ASSERT_TRUE(split_chunks(text, 0).overrun.has_value());
  EXPECT_FALSE(split_chunks(text, 0).overrun->truncated_chunk());
}

TEST(Chunks, WriterReproducesHeaders) {
  std::vector<std::uint8_t> out;
  ByteWriter w(out);
  auto at = begin_chunk(w, 0x8000000Fu);
  w.u16(7);
  end_chunk(w, at);
  EXPECT_EQ(out, bytes_of({0x0F, 0, 0, 0x80, 2, 0, 0, 0, 7, 0}));
}

TEST(Crc32, MatchesZlibCheckValue) {
  const std::string s = "123456789";
  EXPECT_EQ(crc32(Bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())), 0xCBF43926u);
  EXPECT_EQ(crc32(Bytes()), 0u);
}

// The CRC-32 (libdeflate's) against zlib's on random bytes: every length 0..300 at every
// alignment 0..15 (the folding loops take the unaligned head, 16/64-byte blocks and the tail
// separately), then large buffers, odd sizes and a constant run.
TEST(Crc32, MatchesZlibOnEveryLengthAndAlignment) {
  std::vector<std::uint8_t> buf((8u << 20) + 64);
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (auto& b : buf) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b = static_cast<std::uint8_t>(x >> 32);
  }
  const auto zlib = [](const std::uint8_t* p, std::size_t n) {
    return static_cast<std::uint32_t>(::crc32(::crc32(0L, Z_NULL, 0), p, static_cast<uInt>(n)));
  };
  for (std::size_t align = 0; align < 16; ++align)
    for (std::size_t n = 0; n <= 300; ++n)
      ASSERT_EQ(crc32(Bytes(buf.data() + align, n)), zlib(buf.data() + align, n)) << "length " << n << " alignment " << align;
  for (std::size_t n : {std::size_t(4095), std::size_t(65536), std::size_t(1000003), std::size_t(8u << 20)})
    for (std::size_t align : {0, 1, 7, 63})
      EXPECT_EQ(crc32(Bytes(buf.data() + align, n)), zlib(buf.data() + align, n)) << "length " << n << " alignment " << align;
  const std::vector<std::uint8_t> same(1u << 20, 0xFF);
  EXPECT_EQ(crc32(Bytes(same.data(), same.size())), zlib(same.data(), same.size()));
}

TEST(Text, Cp1251RoundTrip) {
  const std::string cp = "\xCF\xF0\xE8\xEF\xFF\xF2\xFC";  // "Прип'ять" letters in cp1251
  const std::string utf8 = cp1251_to_utf8(cp);
  EXPECT_EQ(utf8, "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xBF\xD1\x8F\xD1\x82\xD1\x8C");
  EXPECT_EQ(utf8_to_cp1251(utf8), cp);
  EXPECT_FALSE(utf8_to_cp1251("\xE2\x82\xAC\xF0\x9F\x98\x80").has_value());  // an emoji has no cp1251 byte
  EXPECT_EQ(printable(std::string("a\nb", 3)), "a\\x0Ab");
}

TEST(JsonWriter, EscapesAndFormatsNumbers) {
  JsonWriter w;
  w.begin_object().field("s", "a\"b\\c\n\x01").field("f", 0.1f).field("n", std::nanf(""));
  w.key("a").begin_array().value(-3).value(std::uint64_t{4000000000u}).value(true).end_array().end_object();
  EXPECT_EQ(w.str(), R"({"s":"a\"b\\c\n\u0001","f":0.1,"n":null,"a":[-3,4000000000,true]})");
}

TEST(Diagnostics, FormatsFileOffsetPathExpectedFound) {
  Finding f{Severity::error, 1234, "0xE/3 bone 1 rotation keys", "truncated", "80 bytes", "12 bytes"};
  EXPECT_EQ(format_finding(f, "a.omf"),
            "a.omf: error at byte 1234 (0x4D2) in 0xE/3 bone 1 rotation keys: truncated (expected 80 bytes, found 12 "
            "bytes)");
  Diagnostics d;
  d.add(Severity::warning, 9, "x", "w");
  d.add(f);
  d.sort_by_offset();
  EXPECT_EQ(d.findings().front().offset, 9u);
  EXPECT_TRUE(d.has_errors());
  EXPECT_EQ(d.count(Severity::warning), 1u);
}

TEST(FileIo, AtomicWriteLeavesNoTemporaryAndReadsBack) {
  const auto dir = std::filesystem::temp_directory_path() / ("boneyard_io_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "out.bin";
  auto data = bytes_of({1, 2, 3, 4});
  ASSERT_TRUE(write_file_atomic(path, data).ok());
  ASSERT_TRUE(write_file_atomic(path, data).ok());  // replaces an existing file
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
  auto opened = FileData::open(path);
  ASSERT_TRUE(opened.ok());
  auto f = opened.value();
  EXPECT_EQ(std::vector<std::uint8_t>(f->bytes().begin(), f->bytes().end()), data);
  EXPECT_TRUE(same_file(path, dir / "." / "out.bin"));
  const auto no_folder = write_file_atomic(dir / "missing" / "x.bin", data);
  ASSERT_FALSE(no_folder.ok());
  EXPECT_TRUE(no_folder.error().io);
  EXPECT_NE(no_folder.error().message.find("cannot create"), std::string::npos) << no_folder.error().message;
  // A directory is an I/O problem like a missing file (issue 11: both exit 2).
  auto d = FileData::open(dir);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message, "is a directory, not a file");
  auto missing = FileData::open(dir / "nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.error().io);
  std::filesystem::remove_all(dir);
}

TEST(FileIo, InPlaceEditKeepsModeFollowsLinksAndNeverOverwritesBackups) {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("boneyard_inplace_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto real = dir / "real.bin";
  const auto link = dir / "link.bin";
  ASSERT_TRUE(write_file_atomic(real, bytes_of({1, 2, 3})).ok());
  fs::permissions(real, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink("real.bin", link);

  auto prepared = prepare_in_place_edit(link);
  ASSERT_TRUE(prepared.ok()) << prepared.error().message;
  const InPlaceTarget t = prepared.value();
  EXPECT_EQ(t.target, fs::canonical(real));
  EXPECT_EQ(t.mode, 0600u);

  auto first = write_backup(link, bytes_of({1, 2, 3}), t.mode);
  auto second = write_backup(link, bytes_of({4}), t.mode);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first.value(), fs::path(link.string() + ".bak"));
  EXPECT_EQ(second.value(), fs::path(link.string() + ".bak.1"));
  EXPECT_EQ(fs::file_size(link.string() + ".bak"), 3u);  // the first backup was not replaced

  ASSERT_TRUE(write_file_atomic_mode(t.target, bytes_of({9, 9}), t.mode, &t.owner).ok());
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(fs::file_size(real), 2u);
  EXPECT_EQ(fs::status(real).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);

  // No write bit for anyone: refused, also for root.
  fs::permissions(real, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  auto read_only = prepare_in_place_edit(link);
  ASSERT_FALSE(read_only.ok());
  EXPECT_NE(read_only.error().message.find("read-only"), std::string::npos);
  const auto folder = prepare_in_place_edit(dir);  // not a regular file
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("is not a regular file"), std::string::npos) << folder.error().message;
  fs::remove_all(dir);
}

// Only regular files are read: a FIFO would block in open(2), /dev/zero would be read forever.
TEST(FileIo, RefusesWhatIsNotARegularFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("boneyard_io_special_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto f = FileData::open(fifo);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message, "is a FIFO, not a regular file");
  auto zero = FileData::open("/dev/zero");
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().message, "is a character device, not a regular file");
  std::filesystem::create_symlink("/dev/zero", dir / "zero.omf");
  auto link = check_regular_file(dir / "zero.omf");
  ASSERT_FALSE(link.ok());
  EXPECT_EQ(link.error().message, "is a character device, not a regular file");
  EXPECT_EQ(check_regular_file(dir).error().message, "is a directory, not a file");
  const auto empty = dir / "empty";
  ASSERT_TRUE(write_file_atomic(empty, {}).ok());
  EXPECT_TRUE(check_regular_file(empty).ok());
  auto e = FileData::open(empty);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e.value()->bytes().size(), 0u);
  std::filesystem::remove_all(dir);
}

TEST(FileIo, InterruptedWriteLeavesNothing) {
  const auto dir = std::filesystem::temp_directory_path() / ("boneyard_int_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  request_interrupt(SIGINT);  // as the signal handler does
  const auto written = write_file_atomic(dir / "out.bin", bytes_of({1, 2, 3}));
  clear_interrupt();
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().message.find("interrupted"), std::string::npos) << written.error().message;
  EXPECT_TRUE(std::filesystem::is_empty(dir));  // neither the output nor its temporary
  EXPECT_EQ(remove_temporaries(), 0u);           // and nothing left registered
  EXPECT_TRUE(write_file_atomic(dir / "out.bin", bytes_of({1, 2, 3})).ok());  // cleared: writes again
  std::filesystem::remove_all(dir);
}

TEST(FileIo, RegisteredTemporariesAreRemoved) {
  const auto dir = std::filesystem::temp_directory_path() / ("boneyard_reg_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto tmp = dir / ".x.tmp";
  ASSERT_TRUE(write_file_atomic(tmp, bytes_of({7})).ok());
  register_temporary(tmp);
  register_temporary(dir / ".never_created.tmp");
  EXPECT_EQ(remove_temporaries(), 1u);
  EXPECT_FALSE(std::filesystem::exists(tmp));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace boneyard
