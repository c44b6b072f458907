// What `info` and `dump` show of a CTXR.
#include <string>

#include "boneyard/texture/ctxr/ctxr.h"
#include "boneyard/texture/ctxr/ctxr_report.h"

namespace boneyard::texture {

namespace {

std::string bytes_hex(const std::uint8_t* p, std::size_t n) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
  }
  return s;
}

}  // namespace

std::string describe_ctxr(const CtxrFile& c) {
  const CtxrHeader& h = c.header;
  std::string s = "format: CTXR (MGS2 Master Collection), BGRA8\n";
  s += "size: " + std::to_string(h.width) + "x" + std::to_string(h.height) + "\n";
  s += "mip levels: " + std::to_string(h.mip_count) + " declared, " + std::to_string(c.levels.size()) + " stored\n";
  s += "header: version " + std::to_string(h.version) + ", depth " + std::to_string(h.depth) + ", fields 0x0E/0x10/0x12 " +
       hex(h.field_0e) + " " + hex(h.field_10) + " " + hex(h.field_12) + "\n";
  s += "header bytes 0x14..0x25: " + bytes_hex(h.params.data(), h.params.size()) + "\n";
  std::uint64_t data = 0;
  for (const auto& l : c.levels) data += l.data.size();
  s += "data: " + std::to_string(data) + " bytes in " + std::to_string(c.levels.size()) + " level(s)";
  if (!c.tail.empty()) s += ", " + std::to_string(c.tail.size()) + " bytes after them";
  s += "\n";
  return s;
}

void dump_ctxr(JsonWriter& w, const CtxrFile& c, bool raw) {
  const CtxrHeader& h = c.header;
  w.begin_object();
  w.field("format", "ctxr");
  w.field("width", unsigned{h.width});
  w.field("height", unsigned{h.height});
  w.field("encoding", "BGRA8");
  w.field("mips_declared", unsigned{h.mip_count});
  w.field("mips_stored", static_cast<unsigned>(c.levels.size()));
  w.key("levels").begin_array();
  for (const auto& l : c.levels) {
    w.begin_object();
    w.field("level", l.level);
    w.field("width", l.width);
    w.field("height", l.height);
    w.field("offset", l.offset);
    w.field("bytes", l.stored_size);
    w.field("padding", static_cast<std::uint64_t>(l.pad.size()));
    w.end_object();
  }
  w.end_array();
  w.field("trailing_bytes", static_cast<std::uint64_t>(c.tail.size()));
  if (raw) {
    w.key("header").begin_object();
    w.field("version", h.version);
    w.field("depth", unsigned{h.depth});
    w.field("field_0e", unsigned{h.field_0e});
    w.field("field_10", unsigned{h.field_10});
    w.field("field_12", unsigned{h.field_12});
    w.key("params").begin_array();
    for (auto v : h.params) w.value(unsigned{v});
    w.end_array();
    w.field("pad", unsigned{h.pad});
    w.field("padding_hex", bytes_hex(h.padding.data(), h.padding.size()));
    w.end_object();
  }
  w.end_object();
}

}  // namespace boneyard::texture
