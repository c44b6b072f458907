// TRI reading and the lossless rewrite (docs/textures.md "TRI").
#include <algorithm>
#include <cstring>

#include "boneyard/texture/tri/tri.h"
#include "texture/tri/tri_internal.h"

namespace boneyard::texture {

namespace {

std::uint64_t bits(std::uint64_t v, unsigned at, unsigned count) { return (v >> at) & ((std::uint64_t{1} << count) - 1); }

TriHeader parse_header(Bytes b) {
  TriHeader h;
  h.pad = load_le<std::uint32_t>(&b[0x00]);
  h.width = load_le<std::int32_t>(&b[0x04]);
  h.height = load_le<std::int32_t>(&b[0x08]);
  h.clut_height = load_le<std::int32_t>(&b[0x0C]);
  h.count = load_le<std::int32_t>(&b[0x10]);
  h.pad1 = load_le<std::uint32_t>(&b[0x14]);
  h.image_offset = load_le<std::int32_t>(&b[0x18]);
  h.clut_offset = load_le<std::int32_t>(&b[0x1C]);
  return h;
}

template <class T>
void put(std::vector<std::uint8_t>& out, std::size_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof v);
}

bool tag_at(Bytes b, std::size_t at) {
  return b.size() >= at + kTriEntryTag.size() && std::equal(kTriEntryTag.begin(), kTriEntryTag.end(), b.begin() + at);
}

// The layout from the bytes: the first entry's tag, else the image block right after a table of
// one size or the other, else the Master Collection's (SeaLouse's assumption), said in `notes`.
TriLayout detect_layout(Bytes b, const TriHeader& h, bool& tagged, Diagnostics& notes) {
  tagged = true;
  if (h.count > 0 && tag_at(b, kTriHeaderSize + tri_entry_fields(TriLayout::ps2).tag)) return TriLayout::ps2;
  if (h.count > 0 && tag_at(b, kTriHeaderSize + tri_entry_fields(TriLayout::mc).tag)) return TriLayout::mc;
  tagged = false;
  const auto table_end = [&](TriLayout l) { return kTriHeaderSize + std::uint64_t(std::max(h.count, 0)) * tri_entry_size(l); };
  if (h.image_offset >= 0 && std::uint64_t(h.image_offset) == table_end(TriLayout::ps2)) return TriLayout::ps2;
  if (h.image_offset >= 0 && std::uint64_t(h.image_offset) == table_end(TriLayout::mc)) return TriLayout::mc;
  if (h.count > 0)
    notes.add(Severity::warning, kTriHeaderSize, "entry 0",
              "layout not recognised (no entry tag, and the image block does not follow a table of 0xA0- or 0xC0-byte "
              "entries): read as Master Collection entries (--layout ps2 to read them as PS2's)",
              "the bytes 01 80 00 00 00 00 00 70 EE EE at 0x40 (PS2) or 0x60 (Master Collection)", "other bytes");
  return TriLayout::mc;
}

std::string block_name(bool clut) { return clut ? "CLUT block" : "image block"; }

}  // namespace

std::size_t tri_entry_size(TriLayout layout) { return layout == TriLayout::ps2 ? kTriPs2EntrySize : kTriMcEntrySize; }

TriEntryFields tri_entry_fields(TriLayout layout) {
  const std::size_t mc = layout == TriLayout::mc ? 0x20 : 0;
  TriEntryFields f;
  f.tag = 0x20 + mc;
  f.tex0_first = 0x40 + mc;
  f.tex0 = 0x50 + mc;
  f.tex_type = 0x60 + mc;
  f.uv = 0x80 + mc;
  return f;
}

bool TriEntry::tagged() const {
  const std::size_t at = bytes.size() == kTriMcEntrySize ? tri_entry_fields(TriLayout::mc).tag : tri_entry_fields(TriLayout::ps2).tag;
  return tag_at(bytes, at);
}

GsTex0 decode_tex0(std::uint64_t v) {
  GsTex0 t;
  t.tbp0 = static_cast<std::uint32_t>(bits(v, 0, 14));
  t.tbw = static_cast<std::uint32_t>(bits(v, 14, 6));
  t.psm = static_cast<std::uint32_t>(bits(v, 20, 6));
  t.tw = static_cast<std::uint32_t>(bits(v, 26, 4));
  t.th = static_cast<std::uint32_t>(bits(v, 30, 4));
  t.tcc = static_cast<std::uint32_t>(bits(v, 34, 1));
  t.tfx = static_cast<std::uint32_t>(bits(v, 35, 2));
  t.cbp = static_cast<std::uint32_t>(bits(v, 37, 14));
  t.cpsm = static_cast<std::uint32_t>(bits(v, 51, 4));
  t.csm = static_cast<std::uint32_t>(bits(v, 55, 1));
  t.csa = static_cast<std::uint32_t>(bits(v, 56, 5));
  t.cld = static_cast<std::uint32_t>(bits(v, 61, 3));
  return t;
}

std::uint64_t encode_tex0(const GsTex0& t) {
  std::uint64_t v = 0;
  const auto set = [&](std::uint64_t x, unsigned at, unsigned count) { v |= (x & ((std::uint64_t{1} << count) - 1)) << at; };
  set(t.tbp0, 0, 14), set(t.tbw, 14, 6), set(t.psm, 20, 6), set(t.tw, 26, 4), set(t.th, 30, 4), set(t.tcc, 34, 1);
  set(t.tfx, 35, 2), set(t.cbp, 37, 14), set(t.cpsm, 51, 4), set(t.csm, 55, 1), set(t.csa, 56, 5), set(t.cld, 61, 3);
  return v;
}

std::string psm_name(std::uint32_t psm) {
  switch (psm) {
    case 0x00: return "PSMCT32";
    case 0x01: return "PSMCT24";
    case 0x02: return "PSMCT16";
    case 0x0A: return "PSMCT16S";
    case 0x13: return "PSMT8";
    case 0x14: return "PSMT4";
    case 0x1B: return "PSMT8H";
    case 0x24: return "PSMT4HL";
    case 0x2C: return "PSMT4HH";
    case 0x30: return "PSMZ32";
    case 0x31: return "PSMZ24";
    case 0x32: return "PSMZ16";
    case 0x3A: return "PSMZ16S";
  }
  return hex(psm);
}

Result<TriFile> read_tri(std::shared_ptr<const FileData> file, std::optional<TriLayout> forced, Diagnostics* notes_out) {
  Diagnostics scratch;
  Diagnostics& notes = notes_out ? *notes_out : scratch;
  TriFile t;
  t.file = std::move(file);
  const Bytes b = t.file->bytes();
  if (b.size() < kTriHeaderSize)
    return Finding{Severity::error, 0, "header", "truncated", std::to_string(kTriHeaderSize) + " bytes", std::to_string(b.size()) + " bytes"};
  t.header = parse_header(b);
  const TriHeader& h = t.header;
  if (h.count < 0) return Finding{Severity::error, 0x10, "texture count", "negative texture count", "0 or more", std::to_string(h.count)};
  if (h.height < 0) return Finding{Severity::error, 0x08, "height", "negative image block height", "0 or more", std::to_string(h.height)};
  if (h.clut_height < 0)
    return Finding{Severity::error, 0x0C, "CLUT height", "negative CLUT block height", "0 or more", std::to_string(h.clut_height)};
  if (forced) {
    t.layout = *forced;
    t.layout_forced = true;
    bool tagged = false;
    Diagnostics ignored;
    const TriLayout seen = detect_layout(b, h, tagged, ignored);
    t.layout_tagged = tagged && seen == *forced;
    if (tagged && seen != *forced)
      notes.add(Severity::warning, kTriHeaderSize, "entry 0",
                std::string("--layout ") + (*forced == TriLayout::ps2 ? "ps2" : "mc") + " contradicts the entries' tag", 
                seen == TriLayout::ps2 ? "PS2 (tag at 0x40)" : "Master Collection (tag at 0x60)",
                *forced == TriLayout::ps2 ? "ps2" : "mc");
  } else {
    t.layout = detect_layout(b, h, t.layout_tagged, notes);
  }
  const std::uint64_t size = tri_entry_size(t.layout);
  const std::uint64_t table_end = kTriHeaderSize + std::uint64_t(h.count) * size;
  if (table_end > b.size())
    return Finding{Severity::error, 0x10, "texture count", "the entry table runs past the end of the file",
                   std::to_string(h.count) + " entries of " + hex(size) + " bytes (" + std::to_string(table_end) + " bytes with the header)",
                   std::to_string(b.size()) + " bytes"};
  const TriEntryFields f = tri_entry_fields(t.layout);
  t.entries.reserve(static_cast<std::size_t>(h.count));
  for (std::int32_t i = 0; i < h.count; ++i) {
    TriEntry e;
    e.index = static_cast<unsigned>(i);
    e.offset = kTriHeaderSize + std::uint64_t(i) * size;
    e.bytes = b.subspan(e.offset, size);
    const std::uint8_t* p = e.bytes.data();
    e.u_offset = load_le<float>(p + 0x00);
    e.v_offset = load_le<float>(p + 0x04);
    e.u_scale = load_le<float>(p + 0x08);
    e.v_scale = load_le<float>(p + 0x0C);
    e.id = load_le<std::uint32_t>(p + 0x10);
    e.tex0_first = load_le<std::uint64_t>(p + f.tex0_first);
    e.tex0 = load_le<std::uint64_t>(p + f.tex0);
    e.tex_type = load_le<std::uint32_t>(p + f.tex_type);
    t.entries.push_back(e);
  }
  // The blocks.
  struct Block {
    bool clut;
    std::int32_t offset, rows;
    std::uint64_t field;
  };
  for (const Block& k : {Block{false, h.image_offset, h.height, 0x18}, Block{true, h.clut_offset, h.clut_height, 0x1C}}) {
    const std::uint64_t bytes = std::uint64_t(k.rows) * kTriRowBytes;
    if (k.offset < 0)
      return Finding{Severity::error, k.field, block_name(k.clut) + " offset", "negative offset", "0 or more", std::to_string(k.offset)};
    if (std::uint64_t(k.offset) > b.size() || bytes > b.size() - std::uint64_t(k.offset))
      return Finding{Severity::error, k.field, block_name(k.clut), "block past the end of the file (truncated file)",
                     std::to_string(k.rows) + " rows of 256 bytes at " + std::to_string(k.offset) + " (" +
                         std::to_string(bytes) + " bytes)",
                     std::to_string(b.size() - std::min<std::uint64_t>(b.size(), std::uint64_t(k.offset))) + " bytes"};
    (k.clut ? t.clut : t.image) = b.subspan(std::size_t(k.offset), std::size_t(bytes));
    if (bytes > 0 && std::uint64_t(k.offset) < table_end)
      notes.add(Severity::error, k.field, block_name(k.clut), "the block overlaps the entry table",
                "an offset of " + std::to_string(table_end) + " or more", std::to_string(k.offset));
  }
  const std::uint64_t image_at = std::uint64_t(h.image_offset), clut_at = std::uint64_t(h.clut_offset);
  if (!t.image.empty() && !t.clut.empty() && image_at < clut_at + t.clut.size() && clut_at < image_at + t.image.size())
    notes.add(Severity::error, 0x1C, "CLUT block", "the CLUT block overlaps the image block",
              "blocks apart", "image " + std::to_string(image_at) + ".." + std::to_string(image_at + t.image.size()) + ", CLUT " +
                  std::to_string(clut_at) + ".." + std::to_string(clut_at + t.clut.size()));
  // Bytes that belong to no part: kept on rewrite, said.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> parts = {{0, table_end}};
  if (!t.image.empty()) parts.emplace_back(image_at, image_at + t.image.size());
  if (!t.clut.empty()) parts.emplace_back(clut_at, clut_at + t.clut.size());
  std::sort(parts.begin(), parts.end());
  std::uint64_t covered = 0;
  for (const auto& [from, to] : parts) {
    if (from > covered)
      notes.add(Severity::info, covered, "between the parts", "bytes that belong to no part (kept)", "0 bytes",
                std::to_string(from - covered) + " bytes");
    covered = std::max(covered, to);
  }
  if (covered < b.size())
    notes.add(Severity::warning, covered, "after the blocks", "bytes after the last block (kept on rewrite)", "0 bytes",
              std::to_string(b.size() - covered) + " bytes");
  if (t.layout_tagged)
    for (const auto& e : t.entries)
      if (!e.tagged())
        notes.add(Severity::warning, e.offset + f.tag, "entry " + std::to_string(e.index),
                  "the entry lacks the tag the first one has (read with the same layout)",
                  "01 80 00 00 00 00 00 70 EE EE", "other bytes");
  return t;
}

std::vector<std::uint8_t> write_tri(const TriFile& t) { return write_tri(t, t.image, t.clut); }

std::vector<std::uint8_t> write_tri(const TriFile& t, Bytes image, Bytes clut) {
  const Bytes b = t.file->bytes();
  std::vector<std::uint8_t> out(b.begin(), b.end());
  const TriHeader& h = t.header;
  put(out, 0x00, h.pad), put(out, 0x04, h.width), put(out, 0x08, h.height), put(out, 0x0C, h.clut_height);
  put(out, 0x10, h.count), put(out, 0x14, h.pad1), put(out, 0x18, h.image_offset), put(out, 0x1C, h.clut_offset);
  const TriEntryFields f = tri_entry_fields(t.layout);
  for (const auto& e : t.entries) {
    const std::size_t at = static_cast<std::size_t>(e.offset);
    std::copy(e.bytes.begin(), e.bytes.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
    put(out, at + 0x00, e.u_offset), put(out, at + 0x04, e.v_offset), put(out, at + 0x08, e.u_scale), put(out, at + 0x0C, e.v_scale);
    put(out, at + 0x10, e.id), put(out, at + f.tex0_first, e.tex0_first), put(out, at + f.tex0, e.tex0);
    put(out, at + f.tex_type, e.tex_type);
  }
  if (image.size() == t.image.size())
    std::copy(image.begin(), image.end(), out.begin() + static_cast<std::ptrdiff_t>(std::max(h.image_offset, 0)));
  if (clut.size() == t.clut.size())
    std::copy(clut.begin(), clut.end(), out.begin() + static_cast<std::ptrdiff_t>(std::max(h.clut_offset, 0)));
  return out;
}

}  // namespace boneyard::texture
