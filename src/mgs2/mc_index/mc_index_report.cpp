// `info` and `dump` of a Master Collection index file: its lines as their three paths, what they
// register (by extension), the stages they name and how they end.
#include <cstdio>
#include <map>

#include "boneyard/mgs2/mc_index/mc_index_report.h"
#include "mc_index_internal.h"

namespace boneyard::mgs2 {

namespace {

std::string ending_name(std::string_view ending) {
  if (ending.empty()) return "none";
  std::string s;
  for (char c : ending) s += c == '\r' ? "\\r" : "\\n";
  return s;
}

// JSON strings must be UTF-8: text that is not (the game's paths are ASCII) is shown byte by byte
// as Latin-1.
bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    i += n;
  }
  return true;
}
std::string utf8_text(std::string_view s) {
  if (valid_utf8(s)) return std::string(s);
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      out += ch;
    } else {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

}  // namespace

std::string describe_mc_index(const McIndexFile& f) {
  std::size_t lines = 0, entries = 0, other = 0;
  std::map<std::string, std::size_t> kinds, endings;
  for_each_mc_index_line(f.text, [&](const McIndexLine& l) {
    ++lines;
    if (endings.size() < 8 || endings.count(ending_name(l.ending)) != 0) ++endings[ending_name(l.ending)];
    const auto e = parse_mc_index_line(l.text);
    if (!e) {
      ++other;
      return;
    }
    ++entries;
    const std::string_view ext = index_text::path_extension(e->pool);
    if (kinds.size() < 32 || kinds.count(std::string(ext)) != 0) ++kinds[ext.empty() ? "(none)" : std::string(ext)];
  });
  std::string s = "format: mc_index (MGS2 Master Collection " + std::string(mc_index_kind_name(f.kind)) + " index)\n";
  char b[160];
  std::snprintf(b, sizeof b, "%zu lines: %zu entries, %zu other; %zu bytes\n", lines, entries, other, f.text.size());
  s += b;
  s += "registers:";
  for (const auto& [k, n] : kinds) s += " " + std::to_string(n) + " ." + k;
  s += "\nline endings:";
  for (const auto& [k, n] : endings) s += " " + std::to_string(n) + " x " + k;
  s += "\n";
  return s;
}

void dump_mc_index(JsonWriter& w, const McIndexFile& f, bool raw) {
  w.begin_object();
  w.field("format", "mc_index").field("kind", mc_index_kind_name(f.kind));
  w.key("lines").begin_array();
  for_each_mc_index_line(f.text, [&](const McIndexLine& l) {
    w.begin_object();
    w.field("line", static_cast<std::uint64_t>(l.number));
    if (raw) w.field("offset", l.offset);
    if (const auto e = parse_mc_index_line(l.text)) {
      w.field("pool", utf8_text(e->pool)).field("cache", utf8_text(e->cache)).field("target", utf8_text(e->target));
    } else {
      w.field("text", utf8_text(l.text));
    }
    w.field("ending", l.ending);
    w.end_object();
    w.newline();
  });
  w.end_array();
  w.end_object();
}

}  // namespace boneyard::mgs2
