// Master Collection index files: lines with their own endings, their three paths, the kind of a
// file, and the entries an asset needs (docs/mgs2-mc-index.md).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "boneyard/mgs2/mc_index/mc_index.h"
#include "mc_index_internal.h"

namespace boneyard::mgs2 {

namespace {

std::string_view as_text(Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }


std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The file name without its folders.
std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string_view mc_index_kind_name(McIndexKind kind) { return kind == McIndexKind::manifest ? "manifest" : "bp_assets"; }

std::optional<McIndexEntry> parse_mc_index_line(std::string_view text) {
  const std::size_t a = text.find(',');
  if (a == std::string_view::npos) return std::nullopt;
  const std::size_t b = text.find(',', a + 1);
  if (b == std::string_view::npos || text.find(',', b + 1) != std::string_view::npos) return std::nullopt;
  McIndexEntry e{std::string(text.substr(0, a)), std::string(text.substr(a + 1, b - a - 1)), std::string(text.substr(b + 1))};
  if (e.pool.empty() || e.cache.empty() || e.target.empty()) return std::nullopt;
  return e;
}

void for_each_mc_index_line(Bytes bytes, const std::function<void(const McIndexLine&)>& visit) {
  const std::string_view text = as_text(bytes);
  std::size_t at = 0, number = 0;
  while (at < text.size()) {
    const std::size_t lf = text.find('\n', at);
    const std::size_t end = lf == std::string_view::npos ? text.size() : lf;
    std::size_t body = end;
    while (body > at && text[body - 1] == '\r') --body;  // the CRs before the LF belong to the ending
    const std::size_t next = lf == std::string_view::npos ? text.size() : lf + 1;
    visit(McIndexLine{++number, at, text.substr(at, body - at), text.substr(body, next - body)});
    at = next;
  }
}

McIndexKind mc_index_kind(Bytes bytes, std::string_view file_name) {
  const std::string name = lower(base_name(file_name));
  if (index_text::starts_with(name, "bp_assets")) return McIndexKind::bp_assets;
  if (index_text::starts_with(name, "manifest")) return McIndexKind::manifest;
  bool bp = false;
  for_each_mc_index_line(bytes, [&](const McIndexLine& l) {
    if (bp) return;
    const std::string_view t = l.text;
    if (index_text::starts_with(t, "textures/") || t.find(".cmdl,") != std::string_view::npos) bp = true;
  });
  return bp ? McIndexKind::bp_assets : McIndexKind::manifest;
}

int sniff_mc_index(Bytes bytes, std::string_view extension, std::string_view file_name) {
  if (bytes.empty() || std::memchr(bytes.data(), 0, std::min<std::size_t>(bytes.size(), 4096)) != nullptr) return 0;
  const std::string_view text = as_text(bytes.subspan(0, std::min<std::size_t>(bytes.size(), 4096)));
  std::string_view first = text.substr(0, text.find('\n'));
  while (!first.empty() && first.back() == '\r') first.remove_suffix(1);
  if (!(index_text::starts_with(first, "assets/") || index_text::starts_with(first, "textures/"))) return 0;
  if (!parse_mc_index_line(first) && first.size() == text.size()) return 0;  // a first line cut off at 4 KiB still counts
  const std::string name = lower(base_name(file_name));
  const bool named = index_text::starts_with(name, "manifest") || index_text::starts_with(name, "bp_assets");
  if (extension == ".txt") return named ? 85 : 70;
  return 30;
}

Result<McIndexFile> read_mc_index(std::shared_ptr<const FileData> file, std::string_view file_name) {
  const Bytes bytes = file->bytes();
  if (const void* nul = bytes.empty() ? nullptr : std::memchr(bytes.data(), 0, bytes.size()); nul != nullptr) {
    const auto at = static_cast<std::uint64_t>(static_cast<const std::uint8_t*>(nul) - bytes.data());
    return Finding{Severity::error, at, "text", "not a text index: a NUL byte", "comma-separated paths, one per line", "0x00"};
  }
  McIndexFile f;
  f.kind = mc_index_kind(bytes, file_name);
  f.text = bytes;
  f.source = std::move(file);
  return f;
}

std::vector<std::uint8_t> write_mc_index(const McIndexFile& file) { return {file.text.begin(), file.text.end()}; }

std::string mc_index_text(const std::vector<McIndexEntry>& entries, std::string_view ending) {
  std::string out;
  for (const auto& e : entries) {
    out += e.text();
    out += ending;
  }
  return out;
}

std::string mc_stage_folder(std::string_view stage) { return index_text::starts_with(stage, "r_") ? "resident" : "cache"; }

std::string mc_index_id(std::uint32_t id) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", id);
  return b;
}

McIndexEntry manifest_entry(std::string_view kind, std::string_view region, std::string_view name, std::uint32_t id,
                            std::string_view stage) {
  const std::string k(kind), sub = mc_stage_folder(stage), file = mc_index_id(id) + "." + k;
  return {"assets/" + k + "/" + std::string(region) + "/" + std::string(name) + "." + k,
          std::string(region) + "/stage/" + std::string(stage) + "/" + sub + "/" + file, sub + "/" + file};
}

McIndexEntry ctxr_entry(std::string_view file, std::uint32_t group, std::uint32_t texture, std::string_view stage,
                        std::string_view lang) {
  const std::string sub = mc_stage_folder(stage), f(file), s(stage);
  return {"textures/flatlist/" + f, "stage/" + s + "/" + sub + "/" + f,
          std::string(lang) + "/stage/" + s + "/" + sub + "/" + mc_index_id(group) + "/" + mc_index_id(texture) + ".ctxr"};
}

McIndexEntry cmdl_entry(std::string_view kind, std::string_view region, std::string_view name, std::uint32_t id,
                        std::string_view stage, std::string_view lang) {
  const std::string sub = mc_stage_folder(stage), s(stage), file = mc_index_id(id) + ".cmdl";
  return {"assets/" + std::string(kind) + "/" + std::string(region) + "/" + std::string(name) + ".cmdl",
          std::string(region) + "/stage/" + s + "/" + sub + "/" + file, std::string(lang) + "/stage/" + s + "/" + sub + "/" + file};
}

}  // namespace boneyard::mgs2
