// Bad input: truncation everywhere, offsets past the end, absurd counts, corrupted bytes.
// Every case must end in one clean Finding (or a valid read), never a crash or a hang.
#include <gtest/gtest.h>

#include "boneyard/registry/document.h"
#include "boneyard/mgs2/cmdl/cmdl_report.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/cmdl/cmdl.h"
#include "cmdl_fixture.h"
#include "mgs2_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;
using namespace boneyard::test::mgs2fx;

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

std::vector<std::vector<std::uint8_t>> kms_fixtures() {
  std::vector<std::vector<std::uint8_t>> out;
  for (bool mc : {false, true})
    for (bool mt : {false, true}) out.push_back(kms_bytes(standard_kms(mc, mt)));
  return out;
}
std::vector<std::vector<std::uint8_t>> evm_fixtures() {
  std::vector<std::vector<std::uint8_t>> out;
  for (bool mc : {false, true})
    for (bool large : {false, true})
      for (bool v1 : {false, true}) out.push_back(evm_bytes(standard_evm(mc, large, v1)));
  return out;
}

// Everything a user can ask of a document, to run on damaged bytes.
void exercise(const std::vector<std::uint8_t>& b, const char* name) {
  auto doc = open_document(FileData::from_vector(b), name, {});
  if (!doc.ok()) {
    EXPECT_FALSE(doc.error().message.empty());
    return;
  }
  (void)doc.value()->info();
  (void)doc.value()->validate();
  JsonWriter w;
  doc.value()->dump(w, {});
  DumpOptions raw;
  raw.raw = true;
  doc.value()->dump(w, raw);
  for (const char* layout : {"ps2", "mc"}) {
    boneyard::ConvertOptions o;
    o.settings.layout = layout;
    (void)convert_in_memory(*doc.value(), doc.value()->format() == "kms" ? ".kms" : ".evm", o);
  }
}

TEST(BadInput, KmsTruncatedAtEveryByte) {
  for (const auto& full : kms_fixtures()) {
    const std::size_t data_end = full.size() - 5;  // the fixtures end with 5 trailing bytes
    for (std::size_t cut = 0; cut < full.size(); ++cut) {
      const Bytes part(full.data(), cut);
      auto r = read_kms(FileData::from_view(part, nullptr));
      if (cut < data_end) {
        ASSERT_FALSE(r.ok()) << "cut at " << cut;
        EXPECT_LE(r.error().offset, full.size());
        EXPECT_FALSE(r.error().path.empty());
      } else {
        EXPECT_TRUE(r.ok()) << "cut at " << cut;
      }
      exercise(std::vector<std::uint8_t>(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut)), "t.kms");
    }
  }
}

TEST(BadInput, EvmTruncatedAtEveryByte) {
  for (const auto& full : evm_fixtures()) {
    const std::size_t data_end = full.size() - 3;
    for (std::size_t cut = 0; cut < full.size(); ++cut) {
      auto r = read_evm(FileData::from_view(Bytes(full.data(), cut), nullptr));
      if (cut < data_end) {
        ASSERT_FALSE(r.ok()) << "cut at " << cut;
        EXPECT_LE(r.error().offset, full.size());
      } else {
        EXPECT_TRUE(r.ok()) << "cut at " << cut;
      }
      exercise(std::vector<std::uint8_t>(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut)), "t.evm");
    }
  }
}

TEST(BadInput, KmsOffsetPastTheEnd) {
  auto b = kms_bytes(standard_kms(false, false));
  put32(b, 0xF0 + 0x18, 0xFFFFFF00);
  auto r = read_kms(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 0xF0U + 0x18);
  EXPECT_EQ(r.error().path, "unit 1 packet 0 normals");
  EXPECT_EQ(r.error().message, "array past the end of the file");
  EXPECT_EQ(r.error().found, "offset 0xFFFFFF00");
  // MC: a non-zero high dword makes the 64-bit pointer absurd.
  b = kms_bytes(standard_kms(true, false));
  put32(b, 0xE0 + 0x20 + 4, 1);
  r = read_kms(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "unit 0 packet 0 vertices");
  // The packet table itself past the end.
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0x40 + 0x30, 0x10000);
  r = read_kms(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "unit 0 packs");
  EXPECT_EQ(r.error().offset, 0x70U);
}

TEST(BadInput, AbsurdCounts) {
  auto b = kms_bytes(standard_kms(false, false));
  put32(b, 0x08, 0xFFFFFFFF);  // n_x_models
  auto r = read_kms(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "count past the data");
  EXPECT_EQ(r.error().found, "4294967295");
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0x40 + 0x04, 0xFFFFFFFF);  // n_packs
  r = read_kms(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "unit 0 packs");
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0xC0 + 0x04, 0xFFFF);  // n_verts: low half only, 65535 vertices do not fit
  r = read_kms(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().path, "unit 0 packet 0 vertices");
  b = kms_bytes(standard_kms(false, false));
  put32(b, 0xC0 + 0x04, 0xFFFFFFFF);
  EXPECT_FALSE(read_kms(FileData::from_view(as_bytes(b), nullptr)).ok());

  auto e = evm_bytes(standard_evm(false, false, false));
  put32(e, 0x28, 0xFFFFFFFF);  // n_packs
  auto er = read_evm(FileData::from_view(as_bytes(e), nullptr));
  ASSERT_FALSE(er.ok());
  EXPECT_EQ(er.error().path, "header packet");
  e = evm_bytes(standard_evm(false, false, false));
  put32(e, 0x04, 0xFFFFFFFF);  // n_x_models: layout undetectable, then forced
  EXPECT_FALSE(read_evm(FileData::from_view(as_bytes(e), nullptr)).ok());
  er = read_evm(FileData::from_view(as_bytes(e), nullptr), Layout::ps2);
  ASSERT_FALSE(er.ok());
  EXPECT_EQ(er.error().message, "count past the data");
  e = evm_bytes(standard_evm(false, false, false));
  put32(e, 0xF0 + 0x10, 0x7FFF);  // n_verts
  EXPECT_FALSE(read_evm(FileData::from_view(as_bytes(e), nullptr)).ok());
}

TEST(BadInput, ParentCyclesDoNotHang) {
  auto f = standard_kms(false, false);
  f.units[0].parent = 1;
  f.units[1].parent = 0;
  const auto b = kms_bytes(f);
  auto m = read_kms(FileData::from_view(as_bytes(b), nullptr));
  ASSERT_TRUE(m.ok());
  Diagnostics d;
  d.append(validate_kms(m.value()));
  EXPECT_TRUE(d.has_errors());
  exercise(b, "c.kms");
}

TEST(BadInput, EveryByteCorrupted) {
  // Each byte set to 0xFF, then to 0x80: parse, validate, dump and convert must stay clean.
  for (const auto& full : kms_fixtures()) {
    for (std::size_t i = 0; i < full.size(); ++i) {
      for (std::uint8_t v : {std::uint8_t{0xFF}, std::uint8_t{0x80}}) {
        auto b = full;
        b[i] = v;
        exercise(b, "x.kms");
      }
    }
  }
  for (const auto& full : evm_fixtures()) {
    for (std::size_t i = 0; i < full.size(); ++i) {
      for (std::uint8_t v : {std::uint8_t{0xFF}, std::uint8_t{0x80}}) {
        auto b = full;
        b[i] = v;
        exercise(b, "x.evm");
      }
    }
  }
}

// A .cmdl and its model: the spec fixtures (cmdl_fixture.h).
struct CmdlPair {
  std::vector<std::uint8_t> model, cmdl;
  bool kms;
};
std::vector<CmdlPair> cmdl_pairs() {
  using namespace boneyard::test::cmdlfx;
  return {{kms_bytes(standard_kms(true, true)), cmdl_bytes(standard_kms_cmdl(true)), true},
          {kms_bytes(plain_kms(true)), cmdl_bytes(plain_kms_cmdl()), true},
          {evm_bytes(standard_evm(true, false, false)), cmdl_bytes(standard_evm_cmdl(false)), false}};
}

// Everything boneyard does with a .cmdl, alone and with its model, on damaged bytes.
template <class Model>
void exercise_pair(const Model& model, const CmdlFile& c) {
  Diagnostics d;
  check_cmdl_pair(model, c, d);
  (void)derive_cmdl(model, &c, &d);
  Diagnostics w;
  (void)cmdl_to_scene(c, model, Mgs2ExportOptions{}, w);
}
void exercise_cmdl(const std::vector<std::uint8_t>& b, const CmdlPair& p) {
  auto c = read_cmdl(FileData::from_view(as_bytes(b), nullptr));
  if (!c.ok()) {
    EXPECT_FALSE(c.error().message.empty());
    return;
  }
  Diagnostics d;
  d.append(validate_cmdl(c.value()));
  JsonWriter w;
  dump_cmdl(w, c.value(), false);
  dump_cmdl(w, c.value(), true);
  (void)describe_cmdl(c.value());
  EXPECT_TRUE(same_bytes(as_bytes(write_cmdl(c.value())), as_bytes(b)));
  if (p.kms) {
    exercise_pair(read_kms(FileData::from_view(as_bytes(p.model), nullptr)).value(), c.value());
  } else {
    exercise_pair(read_evm(FileData::from_view(as_bytes(p.model), nullptr)).value(), c.value());
  }
}

TEST(BadInput, CmdlTruncatedAtEveryByte) {
  for (const auto& p : cmdl_pairs()) {
    for (std::size_t cut = 0; cut < p.cmdl.size(); ++cut) {
      const std::vector<std::uint8_t> b(p.cmdl.begin(), p.cmdl.begin() + long(cut));
      auto r = read_cmdl(FileData::from_view(as_bytes(b), nullptr));
      EXPECT_FALSE(r.ok()) << "cut at " << cut;  // the last record ends the file
      exercise_cmdl(b, p);
    }
  }
}

TEST(BadInput, CmdlEveryByteCorrupted) {
  // Each byte set to 0xFF, then to 0x80: read, validate, dump, rewrite, pair, template and scene
  // stay clean; a model corrupted the same way still gets a .cmdl that pairs with it, or an error.
  for (const auto& p : cmdl_pairs()) {
    for (std::size_t i = 0; i < p.cmdl.size(); ++i) {
      for (std::uint8_t v : {std::uint8_t{0xFF}, std::uint8_t{0x80}}) {
        auto b = p.cmdl;
        b[i] = v;
        exercise_cmdl(b, p);
      }
    }
  }
}

}  // namespace
}  // namespace boneyard::test
