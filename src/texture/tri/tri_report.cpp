// What `info` and `dump` show of a TRI.
#include <algorithm>
#include <cstdio>

#include "boneyard/texture/tri/tri_report.h"
#include "texture/size_text.h"
#include "texture/tri/tri_internal.h"

namespace boneyard::texture {

namespace {

std::string id_hex(std::uint32_t id) {
  char b[16];
  std::snprintf(b, sizeof b, "%06x", id);
  return b;
}

std::string hex64(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%016llX", static_cast<unsigned long long>(v));
  return b;
}

std::string_view layout_name(TriLayout l) { return l == TriLayout::ps2 ? "ps2" : "mc"; }

std::string_view layout_from(const TriFile& t) {
  if (t.layout_forced) return "option";
  if (t.layout_tagged) return "tag";
  const std::uint64_t table_end = kTriHeaderSize + std::uint64_t(t.header.count) * tri_entry_size(t.layout);
  return t.header.image_offset >= 0 && std::uint64_t(t.header.image_offset) == table_end ? "offsets" : "assumed";
}

}  // namespace

std::string describe_tri(const TriFile& t, const TriNameLookup& names) {
  const TriHeader& h = t.header;
  std::string s = "format: TRI (MGS2 textures), ";
  s += t.layout == TriLayout::ps2 ? "PS2 layout (0xA0-byte entries" : "Master Collection layout (0xC0-byte entries";
  s += ", told by " + std::string(layout_from(t) == "tag" ? "the entries' tag" : layout_from(t) == "offsets" ? "the block offsets"
                                   : layout_from(t) == "option" ? "--layout" : "nothing: assumed") + ")\n";
  s += "textures: " + std::to_string(t.entries.size()) + "\n";
  s += "image block: " + std::to_string(h.height) + " rows (" + std::to_string(t.image.size()) + " bytes) at " + hex(std::uint32_t(h.image_offset)) + "\n";
  s += "CLUT block: " + std::to_string(h.clut_height) + " rows (" + std::to_string(t.clut.size()) + " bytes) at " + hex(std::uint32_t(h.clut_offset)) + "\n";
  s += "header: width " + std::to_string(h.width) + ", pads " + hex(h.pad) + " " + hex(h.pad1) + "\n";
  for (const auto& e : t.entries) {
    const GsTex0 x = e.fields();
    s += "entry " + std::to_string(e.index) + ": texture 0x" + id_hex(e.id);
    if (names)
      if (const std::string* n = names(e.id)) s += " (" + *n + ")";
    s += ": " + psm_name(x.psm);
    if (auto r = tri_rect(e))
      s += " " + size_text(r->width, r->height) + " at (" + std::to_string(r->x) + ", " + std::to_string(r->y) + ") of " +
           size_text(1u << std::min(x.tw, 15u), 1u << std::min(x.th, 15u));
    else
      s += " (sub-rectangle unusable)";
    s += ", TBP0 " + std::to_string(x.tbp0) + " TBW " + std::to_string(x.tbw) + ", CBP " + std::to_string(x.cbp) + " CSA " +
         std::to_string(x.csa) + " (CSAX " + std::to_string(x.csax()) + ", CSAY " + std::to_string(x.csay()) + ")";
    if (x.cpsm != 0 || x.csm != 0) s += " CPSM " + psm_name(x.cpsm) + " CSM " + std::to_string(x.csm);
    s += ", type " + std::to_string(e.tex_type) + "\n";
  }
  return s;
}

void dump_tri(JsonWriter& w, const TriFile& t, bool raw, const TriNameLookup& names) {
  const TriHeader& h = t.header;
  w.begin_object();
  w.field("format", "tri");
  w.field("layout", layout_name(t.layout));
  w.field("layout_from", layout_from(t));
  w.field("width", std::int64_t{h.width});
  w.field("height", std::int64_t{h.height});
  w.field("clut_height", std::int64_t{h.clut_height});
  w.field("image_offset", std::int64_t{h.image_offset});
  w.field("clut_offset", std::int64_t{h.clut_offset});
  w.key("textures").begin_array();
  for (const auto& e : t.entries) {
    const GsTex0 x = e.fields();
    w.begin_object();
    w.field("index", e.index);
    w.field("offset", e.offset);
    w.field("id", e.id);
    w.field("id_hex", id_hex(e.id));
    if (names)
      if (const std::string* n = names(e.id)) w.field("name", *n);
    w.field("psm", psm_name(x.psm));
    w.field("texture_width", 1u << std::min(x.tw, 15u));
    w.field("texture_height", 1u << std::min(x.th, 15u));
    if (auto r = tri_rect(e)) {
      w.field("x", r->x), w.field("y", r->y), w.field("width", r->width), w.field("height", r->height);
    } else {
      w.field("rect_error", r.error().message);
    }
    w.key("uv").begin_array().value(e.u_offset).value(e.v_offset).value(e.u_scale).value(e.v_scale).end_array();
    w.field("tbp0", x.tbp0), w.field("tbw", x.tbw), w.field("cbp", x.cbp), w.field("csa", x.csa);
    w.field("csax", x.csax()), w.field("csay", x.csay()), w.field("cpsm", x.cpsm), w.field("csm", x.csm);
    w.field("cld", x.cld), w.field("tcc", x.tcc), w.field("tfx", x.tfx), w.field("tw", x.tw), w.field("th", x.th);
    w.field("tex_type", e.tex_type);
    w.field("tagged", e.tagged());
    if (raw) {
      w.field("tex0", hex64(e.tex0));
      w.field("tex0_first", hex64(e.tex0_first));
      w.key("words").begin_array();  // every u32 of the entry as stored, the unknown ones included
      for (std::size_t i = 0; i + 4 <= e.bytes.size(); i += 4) w.value(load_le<std::uint32_t>(e.bytes.data() + i));
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();
  if (raw) {
    w.key("header").begin_object();
    w.field("pad", h.pad);
    w.field("pad1", h.pad1);
    w.field("count", std::int64_t{h.count});
    w.end_object();
  }
  w.end_object();
}

int sniff_tri(Bytes b, std::string_view extension) {
  const bool named = extension == ".tri";
  if (b.size() < kTriHeaderSize) return named ? 10 : 0;
  const auto i32 = [&](std::size_t at) { return load_le<std::int32_t>(b.data() + at); };
  const std::int32_t height = i32(0x08), clut_height = i32(0x0C), count = i32(0x10), image = i32(0x18), clut = i32(0x1C);
  const auto tag_at = [&](std::size_t at) {
    return b.size() >= at + kTriEntryTag.size() && std::equal(kTriEntryTag.begin(), kTriEntryTag.end(), b.begin() + at);
  };
  const bool tagged = count > 0 && (tag_at(0x40) || tag_at(0x60));
  bool fits = height >= 0 && clut_height >= 0 && count >= 0 && image >= 0 && clut >= 0;
  if (fits) {
    const std::uint64_t table = kTriHeaderSize + std::uint64_t(count) * kTriPs2EntrySize;
    fits = table <= b.size() && std::uint64_t(image) + std::uint64_t(height) * kTriRowBytes <= b.size() &&
           std::uint64_t(clut) + std::uint64_t(clut_height) * kTriRowBytes <= b.size();
  }
  if (named) return fits ? 90 : 10;
  return fits && tagged ? 70 : 0;
}

}  // namespace boneyard::texture
