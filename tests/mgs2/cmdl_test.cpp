// .cmdl: reader, lossless writer, validator, derivation from a model, pair check and template,
// against files laid out from the spec (cmdl_fixture.h) and the standard model fixtures.
#include <gtest/gtest.h>

#include <cstring>

#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/mgs2/cmdl/cmdl_report.h"
#include "cmdl_fixture.h"
#include "mgs2_test_util.h"

namespace boneyard::test {
namespace {

using namespace boneyard::mgs2;
using namespace boneyard::test::cmdlfx;
using mgs2fx::evm_bytes;
using mgs2fx::kms_bytes;
using mgs2fx::standard_evm;
using mgs2fx::standard_kms;

CmdlFile must_read(const std::vector<std::uint8_t>& b, Diagnostics* notes = nullptr) {
  auto r = read_cmdl(FileData::from_view(as_bytes(b), nullptr), notes);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "fixture"));
  return r.ok() ? std::move(r).value() : CmdlFile{};
}
template <class Model, class Read>
Model model_of(const std::vector<std::uint8_t>& b, Read read) {
  auto r = read(FileData::from_view(as_bytes(b), nullptr), std::nullopt, nullptr);
  EXPECT_TRUE(r.ok());
  return r.ok() ? std::move(r).value() : Model{};
}
KmsFile kms(const std::vector<std::uint8_t>& b) { return model_of<KmsFile>(b, read_kms); }
EvmFile evm(const std::vector<std::uint8_t>& b) { return model_of<EvmFile>(b, read_evm); }

std::vector<std::uint8_t> derived(const KmsFile& m, const CmdlFile* tpl = nullptr, Diagnostics* notes = nullptr) {
  auto r = derive_cmdl(m, tpl, notes);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "derive"));
  return r.ok() ? r.value() : std::vector<std::uint8_t>{};
}
std::vector<std::uint8_t> derived(const EvmFile& m, const CmdlFile* tpl = nullptr, Diagnostics* notes = nullptr) {
  auto r = derive_cmdl(m, tpl, notes);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : format_finding(r.error(), "derive"));
  return r.ok() ? r.value() : std::vector<std::uint8_t>{};
}

std::uint32_t be32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

// The four spec fixtures: KMS with an extended unit and two UV layers, KMS with one unit and no UV
// layer (vertices merged), EVM with an extended joint (1.11.4 and LARGE), each with its model.
struct Pair {
  const char* name;
  std::vector<std::uint8_t> model;
  bool is_kms;
  std::vector<std::uint8_t> cmdl;
};
std::vector<Pair> spec_pairs() {
  return {
      {"kms extended unit, UV0+UV1", kms_bytes(standard_kms(true, true)), true, cmdl_bytes(standard_kms_cmdl(true))},
      {"kms extended unit, UV0", kms_bytes(standard_kms(true, false)), true, cmdl_bytes(standard_kms_cmdl(false))},
      {"kms one unit, no UVs", kms_bytes(plain_kms(true)), true, cmdl_bytes(plain_kms_cmdl())},
      {"evm 1.11.4, extended joint", evm_bytes(standard_evm(true, false, false)), false, cmdl_bytes(standard_evm_cmdl(false))},
      {"evm LARGE, extended joint", evm_bytes(standard_evm(true, true, false)), false, cmdl_bytes(standard_evm_cmdl(true))},
  };
}

TEST(Cmdl, FixtureFollowsTheSpecLayout) {
  const auto b = cmdl_bytes(standard_kms_cmdl(true));  // 5 sections
  EXPECT_EQ(std::string(b.begin(), b.begin() + 4), "MODL");
  EXPECT_EQ(be32_at(b, 4), 1U);
  EXPECT_EQ(load_le<std::uint32_t>(b.data() + 0x0C), 5U);
  EXPECT_EQ(std::string(b.begin() + 0x10, b.begin() + 0x14), "0SOP");
  EXPECT_EQ(load_le<std::uint16_t>(b.data() + 0x14), 2U);
  EXPECT_EQ(load_le<std::uint32_t>(b.data() + 0x18), 0xB0U);  // right after the table
  for (std::size_t i = 0xB0; i < 0xBC; ++i) EXPECT_EQ(b[i], 0xFF) << i;
  EXPECT_EQ(load_le<std::uint32_t>(b.data() + 0x38), 0x120U);  // NRM0: after 7 x 16 bytes, aligned
  EXPECT_EQ(be32_at(b, 8), 0x1A0U);                            // tail offset
  EXPECT_EQ(be32_at(b, 0x1AC), 9U);                            // the tail: index count
  EXPECT_EQ(b.size(), 0x1AC + 4 + 9 * 4 + 8 + 2 * 0x43U);
}

TEST(Cmdl, ReadsEveryField) {
  const auto b = cmdl_bytes(standard_evm_cmdl(false));
  const CmdlFile m = must_read(b);
  EXPECT_EQ(m.version, 1U);
  EXPECT_EQ(m.n_sections, 6U);
  ASSERT_EQ(m.sections.size(), 6U);
  EXPECT_EQ(m.sections[0].tag_text(), "POS0");
  EXPECT_EQ(m.sections[3].column(), CmdlColumn::bone_index);
  EXPECT_EQ(m.sections[4].format, 6U);
  EXPECT_EQ(m.sections[4].field_06, 2U);
  EXPECT_EQ(m.vertex_count(), 5U);
  EXPECT_EQ(m.tail.n_indices, 6U);
  EXPECT_EQ(m.tail.index(4), 3U);
  ASSERT_EQ(m.tail.meshes.size(), 1U);
  const CmdlMesh& r = m.tail.meshes[0];
  EXPECT_EQ(r.bones, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(r.field_18, -1);
  EXPECT_EQ(r.field_80[7], 0x80);
  EXPECT_EQ(r.bbox_max, (Vec3{10, 10, 1}));
  EXPECT_EQ(r.stored_size(), 0x43U + 8);
  EXPECT_EQ(m.tail.end, b.size());
}

TEST(Cmdl, RoundTripsByteExact) {
  for (const auto& p : spec_pairs()) {
    const CmdlFile m = must_read(p.cmdl);
    EXPECT_TRUE(same_bytes(as_bytes(write_cmdl(m)), as_bytes(p.cmdl))) << p.name;
  }
  // A file another tool laid out: an unknown section, odd constant fields, filler that is not
  // 0xFF, sections out of the usual order, trailing bytes.
  CFile odd = standard_evm_cmdl(false);
  std::swap(odd.sections[1], odd.sections[2]);
  odd.sections.push_back(CSection{"XTRA", 7, 3, {1, 2, 3, 4, 5}});
  odd.meshes[0].field_18 = 4, odd.meshes[0].field_80 = 0x7F;
  odd.filler = 0x00;
  odd.trailing = {'E', 'N', 'D'};
  const auto b = cmdl_bytes(odd);
  Diagnostics notes;
  const CmdlFile m = must_read(b, &notes);
  EXPECT_TRUE(same_bytes(as_bytes(write_cmdl(m)), as_bytes(b)));
  EXPECT_EQ(find(notes, "file", "other than the 0xFF filler").size(), 1U) << dump_findings(notes);
  Diagnostics d;
  d.append(validate_cmdl(m));
  EXPECT_EQ(d.count(Severity::error), 0U) << dump_findings(d);
  EXPECT_EQ(find(d, "XTRA", "unknown section").size(), 1U) << dump_findings(d);
  EXPECT_EQ(find(d, "mesh record 0", "constant field").size(), 1U) << dump_findings(d);
  EXPECT_EQ(find(d, "file", "bytes after the tail").size(), 1U) << dump_findings(d);
}

TEST(Cmdl, DerivedFromTheModelAsTheSpecSays) {
  for (const auto& p : spec_pairs()) {
    const auto out = p.is_kms ? derived(kms(p.model)) : derived(evm(p.model));
    EXPECT_TRUE(same_bytes(as_bytes(out), as_bytes(p.cmdl))) << p.name;
  }
  // The layout of the model does not matter: a PS2 file gives the same .cmdl.
  EXPECT_TRUE(same_bytes(as_bytes(derived(kms(kms_bytes(standard_kms(false, true))))), as_bytes(cmdl_bytes(standard_kms_cmdl(true)))));
  EXPECT_TRUE(same_bytes(as_bytes(derived(evm(evm_bytes(standard_evm(false, false, false))))),
                         as_bytes(cmdl_bytes(standard_evm_cmdl(false)))));
}

TEST(Cmdl, SpecFixturesValidateAndPairCleanly) {
  for (const auto& p : spec_pairs()) {
    const CmdlFile c = must_read(p.cmdl);
    Diagnostics d;
    d.append(validate_cmdl(c));
    if (p.is_kms) {
      check_cmdl_pair(kms(p.model), c, d);
    } else {
      check_cmdl_pair(evm(p.model), c, d);
    }
    EXPECT_TRUE(d.findings().empty()) << p.name << "\n" << dump_findings(d);
  }
}

// The pair check on a .cmdl changed in one way at a time.
Diagnostics pair_findings(const CFile& f, bool evm_pair) {
  const auto b = cmdl_bytes(f);
  const CmdlFile c = must_read(b);
  Diagnostics d;
  if (evm_pair) {
    check_cmdl_pair(evm(evm_bytes(standard_evm(true, false, false))), c, d);
  } else {
    check_cmdl_pair(kms(kms_bytes(standard_kms(true, true))), c, d);
  }
  return d;
}

TEST(Cmdl, PairCheckFindsWhereTheyDisagree) {
  CFile moved = standard_kms_cmdl(true);
  const float twelve = 12;
  std::memcpy(moved.sections[0].data.data() + 16, &twelve, 4);  // vertex 1 x: 10 -> 12
  Diagnostics d = pair_findings(moved, false);
  EXPECT_EQ(find(d, "mesh record 0 (unit 0 packet 0) POS0", "1 vertices placed elsewhere").size(), 1U) << dump_findings(d);

  CFile dropped = standard_kms_cmdl(true);
  dropped.indices.erase(dropped.indices.begin() + 3, dropped.indices.begin() + 6);
  dropped.meshes[0].index_count = 3, dropped.meshes[1].start_index = 3;
  d = pair_findings(dropped, false);
  EXPECT_EQ(find(d, "mesh record 0", "does not draw").size(), 1U) << dump_findings(d);

  CFile turned = standard_kms_cmdl(true);
  std::swap(turned.indices[1], turned.indices[2]);
  d = pair_findings(turned, false);
  EXPECT_EQ(find(d, "mesh record 0", "turned over").size(), 1U) << dump_findings(d);
  EXPECT_EQ(d.count(Severity::error), 0U) << dump_findings(d);

  CFile outside = standard_kms_cmdl(true);
  outside.sections.back().data[6 * 4] = 99;  // OIDX of vertex 6
  d = pair_findings(outside, false);
  EXPECT_EQ(find(d, "mesh record 1", "past the model's strip stream").size(), 1U) << dump_findings(d);

  CFile foreign = standard_kms_cmdl(true);
  foreign.sections.back().data[0] = 5;  // vertex 0 names unit 1's strip
  d = pair_findings(foreign, false);
  EXPECT_EQ(find(d, "mesh record 0", "another packet").size(), 1U) << dump_findings(d);

  CFile missing = standard_kms_cmdl(true);
  missing.meshes.pop_back();
  d = pair_findings(missing, false);
  EXPECT_EQ(find(d, "tail", "has no record").size(), 1U) << dump_findings(d);

  CFile stray = standard_kms_cmdl(true);
  stray.meshes[1].mesh = 7;
  d = pair_findings(stray, false);
  EXPECT_EQ(find(d, "mesh record 1", "names no packet").size(), 1U) << dump_findings(d);

  CFile no_uv1 = standard_kms_cmdl(true);
  no_uv1.sections.erase(no_uv1.sections.begin() + 3);
  d = pair_findings(no_uv1, false);
  EXPECT_EQ(find(d, "TEX1", "the model has UV set 1").size(), 1U) << dump_findings(d);

  CFile bones = standard_evm_cmdl(false);
  bones.meshes[0].bones = {0, 2};
  d = pair_findings(bones, true);
  EXPECT_EQ(find(d, "bones", "not the packet's mat_id palette").size(), 1U) << dump_findings(d);
  EXPECT_EQ(find(d, "BONI/BONW", "skinned to other joints").size(), 1U) << dump_findings(d);

  // Another order of the same bones, BONI following it (as SeaLouse writes): the same skinning.
  CFile reordered = standard_evm_cmdl(false);
  reordered.meshes[0].bones = {1, 0};
  for (std::size_t v = 0; v < 5; ++v)
    for (std::size_t k = 0; k < 4; ++k)
      if (reordered.sections[4].data[v * 8 + k * 2 + 1] != 0) reordered.sections[3].data[v * 4 + k] ^= 1;
  d = pair_findings(reordered, true);
  EXPECT_EQ(d.count(Severity::error) + d.count(Severity::warning), 0U) << dump_findings(d);
  EXPECT_EQ(find(d, "bones", "not the packet's mat_id palette").size(), 1U) << dump_findings(d);

  CFile weights = standard_evm_cmdl(false);
  weights.sections[4].data[3 * 8 + 1] = 0x38;  // vertex 3: 0.75 -> 0.5
  d = pair_findings(weights, true);
  EXPECT_EQ(find(d, "BONW", "weights differ").size(), 1U) << dump_findings(d);

  CFile box = standard_evm_cmdl(false);
  box.meshes[0].bmax = {5, 5, 5};
  d = pair_findings(box, true);
  EXPECT_EQ(find(d, "box", "does not hold its vertices").size(), 1U) << dump_findings(d);
}

TEST(Cmdl, ValidatorFindings) {
  const auto check = [](CFile f, auto&& edit, const std::string& path, const std::string& msg, Severity s) {
    auto b = cmdl_bytes(f);
    edit(b);
    auto r = read_cmdl(FileData::from_view(as_bytes(b), nullptr));
    ASSERT_TRUE(r.ok()) << format_finding(r.error(), "edited");
    Diagnostics d;
    d.append(validate_cmdl(r.value()));
    const auto hits = find(d, path, msg);
    ASSERT_EQ(hits.size(), 1U) << path << ": " << msg << "\n" << dump_findings(d);
    EXPECT_EQ(hits[0].severity, s);
  };
  const CFile k = standard_kms_cmdl(true);
  const auto none = [](std::vector<std::uint8_t>&) {};
  check(k, [](auto& b) { b[0x18 + 0x20] = 0xF0, b[0x19 + 0x20] = 0xFF; }, "section 1 NRM0 offset", "past the end of the file", Severity::error);
  check(k, [](auto& b) { b[0x10 + 0x20 * 2 + 0x10] = 24; }, "section 2 TEX0 size", "differs from the vertex count", Severity::error);
  check(k, [](auto& b) { b[0x10 + 0x20 * 2 + 0x10] = 27; }, "section 2 TEX0 size", "not a whole number", Severity::error);
  check(k, [](auto& b) { b[0x14 + 0x20] = 3; }, "section 1 NRM0 format", "format code", Severity::warning);
  check(k, [](auto& b) { b[0x10] = 'X'; }, "section 0", "unknown section", Severity::info);
  check(k, [](auto& b) { b[0x1AC + 4 + 4 * 4 + 3] = 7; }, "tail indices", "past the vertex count", Severity::error);
  check(k, [](auto& b) { b[0x1AC + 4 + 6 * 4 + 3] = 3; }, "mesh record 1 indices", "outside the record's vertex range", Severity::error);
  check(k, [](auto& b) { b[0x1AC + 4 + 36 + 8 + 0x1B + 3] = 9; }, "mesh record 0 vertices", "past the vertex count", Severity::error);
  CFile no_oidx = k;
  no_oidx.sections.pop_back();
  check(no_oidx, none, "header section count", "no OIDX section", Severity::error);
  CFile e = standard_evm_cmdl(false);
  e.sections[3].data[1] = 5;  // vertex 0 slot 1 -> 5: its weight is 0, so nothing to say
  e.sections[3].data[4 * 1 + 1] = 5;  // vertex 1 slot 1 (weight 0.5) -> past the 2 bones
  check(e, none, "mesh record 0 BONI", "weighted bone slots past the record's bone list", Severity::error);
  CFile sum = standard_evm_cmdl(false);
  sum.sections[4].data[1] = 0x38;  // vertex 0 weight 1 -> 0.5
  check(sum, none, "BONW", "do not sum to 1", Severity::warning);
}

TEST(Cmdl, BrokenFilesAreOneClearError) {
  const auto good = cmdl_bytes(standard_kms_cmdl(false));
  const auto expect_error = [](std::vector<std::uint8_t> b, const std::string& path, const std::string& msg) {
    auto r = read_cmdl(FileData::from_view(as_bytes(b), nullptr));
    ASSERT_FALSE(r.ok()) << path;
    EXPECT_NE(r.error().path.find(path), std::string::npos) << format_finding(r.error(), "x");
    EXPECT_NE(r.error().message.find(msg), std::string::npos) << format_finding(r.error(), "x");
  };
  expect_error(std::vector<std::uint8_t>(good.begin(), good.begin() + 9), "header", "truncated");
  auto b = good;
  b[0] = 'X';
  expect_error(b, "header magic", "not a .cmdl");
  b = good;
  b[0x0C] = 0xFF, b[0x0D] = 0xFF, b[0x0E] = 0xFF;  // 16M sections
  expect_error(b, "section table", "");
  b = good;
  b[8] = 0x7F;  // tail offset far past the end
  expect_error(b, "tail", "past the end");
  b = good;
  b.resize(b.size() - 10);  // the last record cut short
  expect_error(b, "tail meshes", "count past the data");
  b = good;
  const std::size_t tail = be32_at(good, 8) + 0x0C;
  b[tail] = 0x40;  // a billion indices
  expect_error(b, "tail indices", "");
}

TEST(Cmdl, TemplateThatAgreesIsKeptWhole) {
  // Another tool's .cmdl of the same model, with fields we would write differently: kept as it is.
  CFile tpl = standard_evm_cmdl(false);
  tpl.sections.push_back(CSection{"XTRA", 7, 3, std::vector<std::uint8_t>(5 * 4, 0xAB)});
  tpl.meshes[0].field_18 = 3;
  tpl.trailing = {9, 9};
  const auto tb = cmdl_bytes(tpl);
  const CmdlFile t = must_read(tb);
  Diagnostics notes;
  const auto out = derived(evm(evm_bytes(standard_evm(true, false, false))), &t, &notes);
  EXPECT_TRUE(same_bytes(as_bytes(out), as_bytes(tb)));
  EXPECT_EQ(find(notes, "cmdl", "kept as it is").size(), 1U) << dump_findings(notes);
}

TEST(Cmdl, TemplateGivesWhatTheModelDoesNotDetermine) {
  // The template: section codes and order, an unknown per-vertex section, record fields, a finer
  // normal and UV than the model's (as if made from the source art).
  CFile tpl = standard_kms_cmdl(true);
  std::swap(tpl.sections[1], tpl.sections[2]);
  tpl.sections[0].format = 12;
  tpl.sections.insert(tpl.sections.begin() + 3, CSection{"XTRA", 7, 2, std::vector<std::uint8_t>(7 * 4, 0x11)});
  tpl.meshes[0].field_80 = 0x81;
  tpl.sections[2].data[0] = 1;  // vertex 0 normal x: 0 -> 1/1023, within two packing steps
  tpl.trailing = {'T'};
  const auto tb = cmdl_bytes(tpl);  // the model keeps views into these bytes
  const CmdlFile t = must_read(tb);
  // The model was edited: unit 0 vertex 3 moved (10, 10, 0) -> (10, 12, 0).
  auto f = standard_kms(true, true);
  f.units[0].packets[0].verts[3] = {10, 12, 0, 2048};
  const auto mb = kms_bytes(f);  // the model keeps views into these bytes
  const KmsFile m = kms(mb);
  Diagnostics notes;
  const auto out = derived(m, &t, &notes);
  const CmdlFile c = must_read(out);
  Diagnostics d;
  d.append(validate_cmdl(c));  // warns about the template's odd fields, kept on purpose
  EXPECT_EQ(d.count(Severity::error), 0U) << dump_findings(d);
  Diagnostics pair;
  check_cmdl_pair(m, c, pair);
  EXPECT_EQ(pair.count(Severity::error) + pair.count(Severity::warning), 0U) << dump_findings(pair);
  ASSERT_EQ(c.sections.size(), 6U);
  EXPECT_EQ(c.sections[1].tag_text(), "TEX0");
  EXPECT_EQ(c.sections[0].format, 12U);
  EXPECT_EQ(c.sections[3].tag_text(), "XTRA");
  EXPECT_TRUE(same_bytes(c.sections[3].data, as_bytes(tpl.sections[3].data)));
  EXPECT_EQ(c.tail.meshes[0].field_80[0], 0x81);
  EXPECT_EQ(c.sections[2].data[0], 1);  // the template's normal still stands for the model's
  float y = 0;
  std::memcpy(&y, c.sections[0].data.data() + 3 * 16 + 4, 4);
  EXPECT_EQ(y, 12.0f);  // the model's edit
  EXPECT_EQ(c.tail.meshes[0].bbox_max, (Vec3{10, 12, 0}));  // the template's box no longer holds it
  EXPECT_EQ(write_cmdl(c).back(), 'T');
  EXPECT_EQ(find(notes, "cmdl template", "gave the entry fields").size(), 1U) << dump_findings(notes);
}

// Found by fuzz_cmdl (tests/fuzz_seeds/fuzz_cmdl/evm_pair_template_empty_unknown_section): an empty
// section of an unknown tag in the template was compared value by value as if it were a UV set
// (a layer index past the model's three: out of bounds, caught by UBSan). An unknown section is the
// template's own bytes, kept whole while the vertex count is unchanged, and never compared: with
// it the derived .cmdl is the one without it plus that section, and the same values are kept.
TEST(Cmdl, TemplateUnknownSectionIsKeptNotCompared) {
  // The model was edited (unit 0 vertex 3 moved): derived with the template, not the template kept.
  auto f = standard_kms(true, true);
  f.units[0].packets[0].verts[3] = {10, 12, 0, 2048};
  const auto mb = kms_bytes(f);  // the model keeps views into these bytes
  const KmsFile m = kms(mb);
  const CFile plain = standard_kms_cmdl(true);
  for (const std::string& tag : {std::string("XTRA"), std::string(4, '\0')}) {  // the fuzzer's: a NUL tag
    CFile tpl = plain;
    tpl.sections.insert(tpl.sections.begin() + 2, CSection{tag, 0, 2, {}});
    const auto plain_bytes = cmdl_bytes(plain), tpl_bytes = cmdl_bytes(tpl);  // the models keep views into these
    const CmdlFile without = must_read(plain_bytes), with = must_read(tpl_bytes);
    Diagnostics notes_without, notes_with;
    const auto a = derived(m, &without, &notes_without);
    const auto b = derived(m, &with, &notes_with);
    const CmdlFile ca = must_read(a), cb = must_read(b);
    ASSERT_EQ(cb.sections.size(), ca.sections.size() + 1) << dump_findings(notes_with);
    EXPECT_EQ(cb.sections[2].tag_text(), tag);
    EXPECT_EQ(cb.sections[2].size, 0U);
    for (std::size_t i = 0; i < ca.sections.size(); ++i) {
      const auto& sb = cb.sections[i < 2 ? i : i + 1];
      EXPECT_EQ(sb.tag_text(), ca.sections[i].tag_text());
      EXPECT_TRUE(same_bytes(sb.data, ca.sections[i].data)) << ca.sections[i].tag_text();
    }
    const auto gave_a = find(notes_without, "cmdl template", "gave the entry fields");
    const auto gave_b = find(notes_with, "cmdl template", "gave the entry fields");
    ASSERT_EQ(gave_a.size(), 1U) << dump_findings(notes_without);
    ASSERT_EQ(gave_b.size(), 1U) << dump_findings(notes_with);
    EXPECT_EQ(gave_b[0].message, gave_a[0].message);  // the same count of vertex values kept
    // 7 vertices x POS0, NRM0, TEX0, TEX1, but the moved vertex's position.
    EXPECT_NE(gave_a[0].message.find(" 27 vertex values"), std::string::npos) << gave_a[0].message;
    Diagnostics d;
    d.append(validate_cmdl(cb));
    check_cmdl_pair(m, cb, d);
    EXPECT_EQ(d.count(Severity::error), 0U) << dump_findings(d);
  }
}

// A known column of the template the model has no values for (here TEX1: the edited model stores
// no second UV set) is left out of the derived .cmdl with a warning naming it.
TEST(Cmdl, TemplateColumnTheModelLacksIsLeftOutWithAWarning) {
  auto f = standard_kms(true, false);  // UV0 only
  f.units[0].packets[0].verts[3] = {10, 12, 0, 2048};  // and edited: the template is not kept whole
  const auto mb = kms_bytes(f);  // the model keeps views into these bytes
  const KmsFile m = kms(mb);
  const auto tb = cmdl_bytes(standard_kms_cmdl(true));  // TEX0 and TEX1
  const CmdlFile t = must_read(tb);
  Diagnostics notes;
  const auto out = derived(m, &t, &notes);
  const CmdlFile c = must_read(out);
  EXPECT_EQ(c.find(CmdlColumn::uv1), nullptr);
  EXPECT_NE(c.find(CmdlColumn::uv0), nullptr);
  const auto left = find(notes, "cmdl template", "left out: the model has no values for it");
  ASSERT_EQ(left.size(), 1U) << dump_findings(notes);
  EXPECT_EQ(left[0].severity, Severity::warning);
  EXPECT_EQ(left[0].found, "TEX1");
  Diagnostics d;
  d.append(validate_cmdl(c));
  check_cmdl_pair(m, c, d);
  EXPECT_EQ(d.count(Severity::error) + d.count(Severity::warning), 0U) << dump_findings(d);
}

TEST(Cmdl, HalfFloatsAndPackedNormals) {
  for (float f : {0.0f, 1.0f, -2.5f, 0.25f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f})
    EXPECT_EQ(half_to_float(float_to_half(f)), f) << f;
  EXPECT_EQ(float_to_half(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half(1.0f + 3.0f / 4096), 0x3C01);  // 0.75 of a step: up
  EXPECT_EQ(float_to_half(1.0f + 1.0f / 2048), 0x3C00);  // half a step: ties to even
  EXPECT_EQ(float_to_half(1.0f + 3.0f / 2048), 0x3C02);
  EXPECT_EQ(float_to_half(1e6f), 0x7C00);
  EXPECT_EQ(pack_normal(0, 0, -1), 513U << 22);
  EXPECT_EQ(pack_normal(-1, 0, 0), 0x401U);
  const auto n = unpack_normal(pack_normal(0.6, -0.8, 0));
  EXPECT_NEAR(n[0], 0.6, 1e-3);
  EXPECT_NEAR(n[1], -0.8, 1e-3);
  EXPECT_EQ(n[2], 0.0f);
}

TEST(Cmdl, InfoAndDump) {
  const auto b = cmdl_bytes(standard_evm_cmdl(false));  // the model keeps views into these bytes
  const CmdlFile m = must_read(b);
  const std::string info = describe_cmdl(m);
  EXPECT_NE(info.find("vertices: 5, triangles: 2, records: 1, sections: 6"), std::string::npos) << info;
  EXPECT_NE(info.find("BONW  format  6         5 x  8 bytes"), std::string::npos) << info;
  JsonWriter w;
  dump_cmdl(w, m, false);
  const std::string s = w.str();
  EXPECT_NE(s.find(R"("tag":"BONW","format":6,"field_06":2,"offset":)"), std::string::npos) << s;
  EXPECT_NE(s.find(R"("values":[[1,0,0,0],[0.5,0.5,0,0],[1,0,0,0],[0.75,0.25,0,0],[1,0,0,0]])"), std::string::npos) << s;
  EXPECT_NE(s.find(R"("triangles":[[0,1,2],[2,3,4]])"), std::string::npos) << s;
  EXPECT_EQ(sniff_cmdl(as_bytes(cmdl_bytes(standard_evm_cmdl(false))), ".cmdl"), 95);
  EXPECT_EQ(sniff_cmdl(as_bytes(kms_bytes(standard_kms(true, false))), ".cmdl"), 0);
}

TEST(Cmdl, TagsThatAreNotTextAreShownInHex) {
  // A NUL cut validate's line short (the fuzz_cmdl finding's template has such a tag), a line feed
  // would split it: such a tag is named by its bytes in hex, in findings and in info.
  CFile f = standard_evm_cmdl(false);
  f.sections.insert(f.sections.begin() + 2, CSection{std::string("\0\nA\0", 4), 0, 2, {}});
  const auto b = cmdl_bytes(f);  // the model keeps views into these bytes
  const CmdlFile m = must_read(b);
  Diagnostics d;
  d.append(validate_cmdl(m));
  EXPECT_EQ(find(d, "section 2 00 0A 41 00", "unknown section").size(), 1U) << dump_findings(d);
  for (const auto& x : d.findings()) EXPECT_EQ(x.path.find_first_of(std::string("\0\n", 2)), std::string::npos) << x.path;
  const std::string info = describe_cmdl(m);
  EXPECT_NE(info.find("\n  00 0A 41 00  format  0         0 bytes at"), std::string::npos) << info;
  EXPECT_EQ(info.find('\0'), std::string::npos);
}

}  // namespace
}  // namespace boneyard::test
