// Validation of Master Collection index files (docs/mgs2-mc-index.md "Validation"). Findings are
// grouped: one per kind of problem with its count and first line, so a huge broken file costs a
// handful of findings, and repeated lines are found through a sorted list of hashes (16 bytes a
// line, never a copy of the text).
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "boneyard/mgs2/mc_index/mc_index.h"
#include "mc_index_internal.h"

namespace boneyard::mgs2 {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return out;
    at = next + 1;
  }
}

bool is_id(std::string_view s) {
  return s.size() == 8 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}
bool is_sub(std::string_view s) { return s == "cache" || s == "resident"; }

// One kind of problem: how many lines have it, and the first.
struct IndexTally {
  std::size_t count = 0;
  std::uint64_t offset = 0;
  std::size_t line = 0;
  std::string example;
  void add(const McIndexLine& l, std::string_view what = {}) {
    if (count++ == 0) {
      offset = l.offset;
      line = l.number;
      example = std::string(what.empty() ? l.text.substr(0, 120) : what);
    }
  }
  void report(Diagnostics& d, Severity s, const std::string& message, const std::string& expected = {}) const {
    if (count == 0) return;
    d.add(s, offset, "line " + std::to_string(line), std::to_string(count) + (count == 1 ? " line " : " lines ") + message, expected,
          example);
  }
};

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

// The stage a line's cache path names ("us/stage/w24c/cache/..." or "stage/w24c/cache/..."), or "".
std::string_view stage_of(const std::vector<std::string_view>& cache) {
  for (std::size_t i = 0; i + 1 < cache.size(); ++i)
    if (cache[i] == "stage" || cache[i] == "face") return cache[i + 1];
  return {};
}

// Whether the three paths have the shape the game's files give a line of `kind` (a texture or
// .cmdl line in bp_assets, an asset in manifest); `why` says what differs.
bool well_shaped(McIndexKind kind, const McIndexEntry& e, std::string& why) {
  const auto pool = split(e.pool, '/'), cache = split(e.cache, '/'), target = split(e.target, '/');
  const std::string_view ext = index_text::path_extension(pool.back());
  if (kind == McIndexKind::bp_assets && index_text::starts_with(e.pool, "textures/")) {
    if (pool.size() != 3 || pool[1] != "flatlist" || ext != "ctxr") return why = "textures/flatlist/<file>.ctxr", false;
    if (cache.size() != 4 || cache[0] != "stage" || !is_sub(cache[2]) || cache[3] != pool[2])
      return why = "stage/<stage>/<cache|resident>/<the same file>", false;
    if (target.size() != 6 || target[1] != "stage" || target[2] != cache[1] || target[3] != cache[2] || !is_id(target[4]) ||
        !index_text::ends_with(target[5], ".ctxr") || !is_id(target[5].substr(0, target[5].size() - 5)))
      return why = "<lang>/stage/<stage>/<cache|resident>/<tri id>/<texture id>.ctxr", false;
    return true;
  }
  // manifest: assets/<ext>/<region>/<name>.<ext>; bp_assets: a model's .cmdl in its model's folder.
  const bool folder_ok = kind == McIndexKind::manifest ? pool.size() == 4 && pool[1] == ext
                                                       : pool.size() == 4 && (pool[1] == "kms" || pool[1] == "evm") && ext == "cmdl";
  if (!folder_ok || pool[0] != "assets" || ext.empty())
    return why = kind == McIndexKind::manifest ? "assets/<ext>/<region>/<name>.<ext>" : "assets/<kms|evm>/<region>/<name>.cmdl", false;
  if (cache.size() != 5 || cache[1] != "stage" || !is_sub(cache[3]) || !index_text::ends_with(cache[4], "." + std::string(ext)) ||
      !is_id(cache[4].substr(0, cache[4].size() - ext.size() - 1)))
    return why = "<region>/stage/<stage>/<cache|resident>/<id>.<ext>", false;
  if (kind == McIndexKind::manifest) {
    if (target.size() != 2 || target[0] != cache[3] || target[1] != cache[4]) return why = "<cache|resident>/<id>.<ext> as in the second path", false;
    return true;
  }
  if (target.size() != 5 || target[1] != "stage" || target[2] != cache[2] || target[3] != cache[3] || target[4] != cache[4])
    return why = "<lang>/stage/<stage>/<cache|resident>/<id>.cmdl as in the second path", false;
  return true;
}

}  // namespace

Diagnostics validate_mc_index(const McIndexFile& f) {
  Diagnostics d;
  IndexTally malformed, blank, backslash, shape, other_kind, sub, no_ending, not_game_ending;
  std::map<std::string, std::size_t> endings;
  std::set<std::string> stages;
  std::vector<std::uint64_t> lines, keys;  // hashes of each entry's text and key
  std::string why_shape;
  for_each_mc_index_line(f.text, [&](const McIndexLine& l) {
    if (l.ending.empty()) {
      no_ending.add(l);
    } else {
      if (l.ending != kMcIndexEnding) not_game_ending.add(l);
      if (endings.size() < 8 || endings.count(std::string(l.ending)) != 0) ++endings[std::string(l.ending)];
    }
    if (l.text.empty()) {
      blank.add(l, "(blank)");
      return;
    }
    if (l.text.find('\\') != std::string_view::npos) backslash.add(l);
    const auto e = parse_mc_index_line(l.text);
    if (!e) {
      malformed.add(l);
      return;
    }
    lines.push_back(fnv1a(l.text));
    keys.push_back(fnv1a(e->key()));
    const bool texture_line = index_text::starts_with(e->pool, "textures/"), cmdl_line = index_text::ends_with(e->pool, ".cmdl");
    if ((f.kind == McIndexKind::manifest) == (texture_line || cmdl_line)) {
      other_kind.add(l);
      return;
    }
    std::string why;
    if (!well_shaped(f.kind, *e, why)) {
      if (shape.count == 0) why_shape = why;
      shape.add(l);
      return;
    }
    const auto cache = split(e->cache, '/');
    const std::string_view stage = stage_of(cache);
    if (stages.size() < 16) stages.emplace(stage);
    for (std::size_t i = 0; i < cache.size(); ++i)
      if (is_sub(cache[i]) && cache[i] != mc_stage_folder(stage)) {
        sub.add(l);
        break;
      }
  });
  malformed.report(d, Severity::error, "hold something other than three comma-separated paths", "pool path,cache path,target path");
  other_kind.report(d, Severity::warning,
                    f.kind == McIndexKind::manifest ? "name a .ctxr or .cmdl, which bp_assets lists, not manifest"
                                                    : "name an asset other than a .ctxr or .cmdl, which manifest lists, not bp_assets");
  shape.report(d, Severity::warning, "do not have the shape of the game's lines", why_shape);
  sub.report(d, Severity::warning, "use the other cache folder than their stage's (resident for r_* stages, else cache)");
  backslash.report(d, Severity::warning, "hold a backslash; the game's paths use '/'");
  blank.report(d, Severity::info, "are blank (the game's files have none)");
  not_game_ending.report(d, Severity::info, "end with something other than the game's \\r\\r\\n (kept as they are)");
  no_ending.report(d, Severity::info, "end without a line break (kept)");
  if (endings.size() > 1)
    d.add(Severity::warning, 0, "line endings", "lines end in " + std::to_string(endings.size()) + " different ways (kept as they are)",
          "one ending", std::to_string(endings.size()) + " kinds");
  if (stages.size() > 1) {
    std::string list;
    for (const auto& s : stages) list += (list.empty() ? "" : ", ") + s;
    d.add(Severity::info, 0, "stages", "the lines name more than one stage", "one", list);
  }
  // Repeats: the sorted hashes count them; a second pass names the first line that has a repeat.
  const auto repeated = [&](std::vector<std::uint64_t>& v, bool by_key, const char* what) {
    std::sort(v.begin(), v.end());
    std::size_t count = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
      if (v[i] == v[i - 1]) ++count;
    if (count == 0) return;
    bool found = false;
    for_each_mc_index_line(f.text, [&](const McIndexLine& l) {
      if (found) return;
      const auto e = parse_mc_index_line(l.text);
      if (!e) return;
      const std::uint64_t h = fnv1a(by_key ? std::string_view(e->key()) : l.text);
      const auto range = std::equal_range(v.begin(), v.end(), h);
      if (range.second - range.first < 2) return;
      found = true;
      d.add(Severity::info, l.offset, "line " + std::to_string(l.number),
            std::to_string(count) + " " + what + "; the first repeated is this one (kept)");
    });
  };
  repeated(lines, false, "lines repeat an earlier line");
  repeated(keys, true, "lines repeat the cache and target paths of an earlier line (the game pools identical files so)");
  return d;
}

}  // namespace boneyard::mgs2
