// .ogf edits (ogf_edit.h): each builds the new file from the old one's chunks, replacing only the
// payloads it changes, then reads it back through checked_ogf_bytes before the model is replaced.
#include "boneyard/xray/ogf/ogf_edit.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <functional>

#include "boneyard/core/chunks.h"
#include "boneyard/core/text.h"
#include "ogf_build.h"

namespace boneyard::xray {

namespace {

Finding edit_error(std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, {}, std::move(message), std::move(expected), std::move(found)};
}

std::string show(const std::string& raw) { return "\"" + printable(raw) + "\""; }

// A UTF-8 name as the cp1251 bytes the file stores, refused when the format cannot hold it.
Result<std::string> storable(const std::string& utf8, const std::string& what, std::size_t max_bytes,
                             bool allow_empty = false) {
  auto cp = utf8_to_cp1251(utf8);
  if (!cp) return edit_error(what + " cannot be written in cp1251", "Latin or Cyrillic text", utf8);
  if (cp->find('\0') != std::string::npos) return edit_error(what + " contains a NUL byte (strings end at NUL)", "no NUL", escape_controls(utf8));
  if (cp->empty() && !allow_empty) return edit_error(what + " is empty", "a name", "\"\"");
  if (cp->size() > max_bytes)
    return edit_error(what + " too long for the engine", "at most " + std::to_string(max_bytes) + " bytes",
                      std::to_string(cp->size()) + " bytes");
  return *cp;
}

using Payload = std::vector<std::uint8_t>;

// The top-level chunks in order, each kept, replaced or removed by `change`; `extra` chunks are
// appended at the end; trailing bytes kept.
Payload rebuild(const OgfFile& f, const std::function<std::optional<std::optional<Payload>>(const Chunk&)>& change,
                const std::vector<std::pair<std::uint32_t, Payload>>& extra = {}) {
  Payload out;
  out.reserve(f.size + 64);
  for (const auto& c : f.chunks.chunks) {
    const auto r = change(c);
    if (!r) ogf_build::put_chunk(out, c.raw_id, c.payload);  // kept
    else if (*r) ogf_build::put_chunk(out, c.raw_id, **r);    // replaced; nullopt inside: removed
  }
  for (const auto& [id, p] : extra) ogf_build::put_chunk(out, id, p);
  out.insert(out.end(), f.chunks.trailing.begin(), f.chunks.trailing.end());
  return out;
}

// A container's sub-chunks with the ones `change` answers for replaced; trailing bytes kept.
Payload rebuild_list(Bytes payload, std::uint64_t base, const std::function<std::optional<Payload>(const Chunk&)>& change) {
  const ChunkList list = split_chunks(payload, base);
  Payload out;
  for (const auto& c : list.chunks) {
    const auto r = change(c);
    ogf_build::put_chunk(out, c.raw_id, r ? Bytes(*r) : c.payload);
  }
  out.insert(out.end(), list.trailing.begin(), list.trailing.end());
  return out;
}

// The 0x9 payload with the children `change` answers for replaced (by child index).
Payload rebuild_children(const OgfFile& f, const std::function<std::optional<Payload>(const OgfChild&, const Chunk&)>& change) {
  const Chunk* k = f.chunks.find(kOgfChildren);
  return rebuild_list(k->payload, k->payload_offset(), [&](const Chunk& c) -> std::optional<Payload> {
    if (c.raw_id >= f.children.size() || !f.children[c.raw_id].readable) return std::nullopt;
    return change(f.children[c.raw_id], c);
  });
}

Result<EditReport> commit(OgfFile& f, Payload bytes, EditReport report) {
  const Diagnostics own = validate_ogf(f);
  auto checked = checked_ogf_bytes(std::move(bytes), &own);
  if (!checked) return checked.error();
  auto reread = read_ogf(FileData::from_vector(std::move(checked).value()));
  if (!reread) return reread.error();
  f = std::move(reread).value();
  return report;
}

Game game_of(const OgfFile& f) {
  for (const auto& c : f.children)
    if (c.readable && c.vertices && c.vertices->links() > 0 &&
        (!ogf_build::is_magic_format(c.vertices->format) || c.vertices->links() > 2))
      return Game::cop;
  for (const auto& c : f.children)
    if (c.readable && c.vertices && c.vertices->links() > 0) return Game::soc;
  return Game::cop;
}

Payload refs13(const std::vector<std::string>& refs) { return ogf_build::motion_refs_payload(refs, kOgfMotionRefs); }
Payload refs18(const std::vector<std::string>& refs) { return ogf_build::motion_refs_payload(refs, kOgfMotionRefs2); }

// Refs the engine can load: SoC keeps them in one string_path (260 bytes) and at most 3 slots
// (MAX_ANIM_SLOT 4); CS/CoP allow 2 x MAX_PATH and 48 (notes section 5). A count or length the
// file's own refs (`source`) already exceed is a warning, not an error (docs/ogf-write.md "Limits").
std::optional<Finding> check_refs(const std::vector<std::string>& refs, std::uint32_t chunk, Game game,
                                  const std::vector<std::string>& source, std::vector<std::string>& warnings) {
  const bool soc = game == Game::soc;
  const std::string engine = soc ? "SoC" : "CS/CoP";
  const std::size_t max_refs = soc ? 3 : 48;
  switch (ogf_build::beyond_stock(max_refs, refs.size(), source.size())) {
    case ogf_build::Beyond::further:
      return edit_error("too many motion refs for " + engine, ogf_build::stock_limit_text(max_refs, source.size()),
                        std::to_string(refs.size()));
    case ogf_build::Beyond::as_source:
      warnings.push_back(ogf_build::beyond_stock_warning("motion refs", refs.size(), engine, max_refs));
      break;
    case ogf_build::Beyond::within:
      break;
  }
  if (chunk == kOgfMotionRefs) {
    std::size_t total = 0, source_total = 0;
    for (const auto& r : refs) {
      if (r.find(',') != std::string::npos)
        return edit_error("motion ref contains a comma (0x13 separates refs with commas)", "no comma", printable(r));
      total += r.size() + 1;
    }
    for (const auto& r : source) source_total += r.size() + 1;
    const std::size_t limit = soc ? 259 : 519;
    switch (ogf_build::beyond_stock(limit, total, source_total)) {
      case ogf_build::Beyond::further:
        return edit_error("motion refs too long for one 0x13 string",
                          ogf_build::stock_limit_text(limit, source_total) + " bytes", std::to_string(total) + " bytes");
      case ogf_build::Beyond::as_source:
        warnings.push_back(ogf_build::beyond_stock_warning("bytes of motion refs in 0x13", total, engine, limit));
        break;
      case ogf_build::Beyond::within:
        break;
    }
    if (game == Game::keep && (refs.size() > 3 || total > 259))
      warnings.push_back("more than 3 refs or 259 bytes in 0x13: too many for SoC (fine for CS/CoP)");
  }
  return std::nullopt;
}

Payload with_type(Bytes header, std::uint8_t type) {
  Payload p(header.begin(), header.end());
  if (p.size() > 1) p[1] = type;
  return p;
}

}  // namespace

std::vector<OgfChildInfo> list_children(const OgfFile& f) {
  std::vector<OgfChildInfo> out;
  for (const auto& c : f.children) {
    OgfChildInfo i;
    i.index = c.index;
    i.readable = c.readable.ok();
    i.type = c.header.type;
    i.texture = cp1251_to_utf8(c.texture);
    i.shader = cp1251_to_utf8(c.shader);
    if (c.vertices) {
      i.vertex_format = c.vertices->format;
      i.links = c.vertices->links();
      i.vertices = c.vertices->count;
    }
    i.triangles = static_cast<std::uint32_t>(c.full_detail().second / 3);
    i.progressive = !c.windows.empty();
    out.push_back(std::move(i));
  }
  return out;
}

Result<std::vector<std::size_t>> select_children(const OgfFile& f, const std::vector<std::string>& selectors) {
  std::vector<bool> hit(f.children.size(), false);
  for (const auto& s : selectors) {
    const bool number = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (number) {
      const std::size_t i = s.size() > 9 ? f.children.size() : std::size_t{std::stoul(s)};
      if (i >= f.children.size())
        return edit_error("no child with that index", "< " + std::to_string(f.children.size()), s);
      hit[i] = true;
      continue;
    }
    const auto pattern = utf8_to_cp1251(s);
    if (!pattern) return edit_error("texture pattern cannot be written in cp1251", "Latin or Cyrillic text", s);
    bool any = false;
    for (std::size_t i = 0; i < f.children.size(); ++i)
      if (glob_match(*pattern, f.children[i].texture)) hit[i] = any = true;
    if (!any) return edit_error("no child's texture matches", "a child index or a texture glob", s);
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < hit.size(); ++i)
    if (hit[i]) out.push_back(i);
  return out;
}

Result<EditReport> set_child_material(OgfFile& f, const std::vector<std::string>& selectors,
                                      const std::optional<std::string>& texture, const std::optional<std::string>& shader) {
  if (!texture && !shader) return edit_error("nothing to set", "a texture or a shader", "neither");
  auto sel = select_children(f, selectors);
  if (!sel) return sel.error();
  std::optional<std::string> tex, sh;
  if (texture) {
    auto t = storable(*texture, "texture name", ogf_build::kMaxNameBytes);
    if (!t) return t.error();
    tex = t.value();
  }
  if (shader) {
    auto s = storable(*shader, "shader name", ogf_build::kMaxNameBytes);
    if (!s) return s.error();
    sh = s.value();
  }
  EditReport report;
  std::vector<bool> chosen(f.children.size(), false);
  for (auto i : sel.value()) {
    const OgfChild& c = f.children[i];
    if (!c.readable) return edit_error("child " + c.path() + " cannot be read; fix it first", "a readable child", "an error");
    chosen[i] = true;
    if (tex && *tex != c.texture) report.changes.push_back(c.path() + " texture " + show(c.texture) + " -> " + show(*tex));
    if (sh && *sh != c.shader) report.changes.push_back(c.path() + " shader " + show(c.shader) + " -> " + show(*sh));
  }
  if (report.changes.empty()) return report;
  const Payload kids = rebuild_children(f, [&](const OgfChild& c, const Chunk& raw) -> std::optional<Payload> {
    if (!chosen[c.index]) return std::nullopt;
    return rebuild_list(raw.payload, raw.payload_offset(), [&](const Chunk& k) -> std::optional<Payload> {
      if (k.id() != kOgfTexture) return std::nullopt;
      Payload p;
      ByteWriter w(p);
      w.stringz(tex.value_or(c.texture));
      w.stringz(sh.value_or(c.shader));
      w.bytes(c.texture_tail);  // whatever followed the strings stays
      return p;
    });
  });
  auto out = rebuild(f, [&](const Chunk& c) -> std::optional<std::optional<Payload>> {
    if (c.id() == kOgfChildren) return std::optional<Payload>(kids);
    return std::nullopt;
  });
  return commit(f, std::move(out), std::move(report));
}

Result<EditReport> set_motion_refs(OgfFile& f, const std::vector<std::string>& utf8_refs, Game game) {
  std::vector<std::string> refs;
  for (std::size_t i = 0; i < utf8_refs.size(); ++i) {
    auto r = storable(utf8_refs[i], "motion ref " + std::to_string(i), 259);
    if (!r) return r.error();
    refs.push_back(r.value());
  }
  const Game g = game == Game::keep && f.motion_refs_chunk != 0 ? Game::keep : (game == Game::keep ? game_of(f) : game);
  const std::uint32_t chunk = f.motion_refs_chunk != 0 ? f.motion_refs_chunk
                              : g == Game::soc        ? kOgfMotionRefs
                                                      : kOgfMotionRefs2;
  EditReport report;
  // What the file already holds may stay beyond the stock limit; a change of engine (`game`) may not.
  static const std::vector<std::string> kNone;
  const bool same_limits = game == Game::keep || (game == Game::soc) == (game_of(f) == Game::soc);
  const auto& source = same_limits ? f.motion_refs : kNone;
  if (auto e = check_refs(refs, chunk, g, source, report.warnings)) return *e;
  if (refs == f.motion_refs) return report;
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& r : v) s += (s.empty() ? "" : ", ") + printable(r);
    return s.empty() ? std::string("none") : s;
  };
  report.changes.push_back("motion refs (" + hex(chunk) + ") " + list(f.motion_refs) + " -> " + list(refs));
  const bool animated = !refs.empty() || f.motions.has_value();
  std::uint8_t type = f.header.type;
  if (animated && type == ogf_build::kTypeSkeletonRigid) type = ogf_build::kTypeSkeletonAnim;
  if (!animated && type == ogf_build::kTypeSkeletonAnim) type = ogf_build::kTypeSkeletonRigid;
  if (type != f.header.type) report.changes.push_back("model type " + std::to_string(f.header.type) + " -> " + std::to_string(type));
  const bool has_chunk = f.chunks.find(kOgfMotionRefs) != nullptr || f.chunks.find(kOgfMotionRefs2) != nullptr;
  std::vector<std::pair<std::uint32_t, Payload>> extra;
  if (!has_chunk && !refs.empty()) extra.push_back({chunk, chunk == kOgfMotionRefs ? refs13(refs) : refs18(refs)});
  auto out = rebuild(
      f,
      [&](const Chunk& c) -> std::optional<std::optional<Payload>> {
        if (c.id() == kOgfHeader) return std::optional<Payload>(with_type(c.payload, type));
        if (c.id() != kOgfMotionRefs && c.id() != kOgfMotionRefs2) return std::nullopt;
        // Both chunks stay consistent: each keeps its own form (the engine reads 0x13 first).
        if (refs.empty()) return std::optional<std::optional<Payload>>(std::optional<Payload>());
        return std::optional<Payload>(c.id() == kOgfMotionRefs ? refs13(refs) : refs18(refs));
      },
      extra);
  return commit(f, std::move(out), std::move(report));
}

Result<EditReport> set_user_data(OgfFile& f, const std::string& utf8) {
  auto text = storable(utf8, "user data", SIZE_MAX, true);
  if (!text) return text.error();
  EditReport report;
  if ((text->empty() && !f.user_data) || (f.user_data && *f.user_data == text.value())) return report;
  report.changes.push_back(text->empty() ? "user data removed"
                                         : std::string(f.user_data ? "user data replaced" : "user data added") + " (" +
                                               std::to_string(text->size()) + " bytes)");
  Payload p(text->begin(), text->end());
  p.push_back(0);  // w_stringZ
  Payload out;
  if (f.chunks.find(kOgfUserData) != nullptr) {
    out = rebuild(f, [&](const Chunk& c) -> std::optional<std::optional<Payload>> {
      if (c.id() != kOgfUserData) return std::nullopt;
      if (text->empty()) return std::optional<std::optional<Payload>>(std::optional<Payload>());
      return std::optional<Payload>(p);
    });
  } else {
    // The SDK writes 0x11 right after the IK data (0x10); without IK data, at the end.
    const Chunk* ik = f.chunks.find(kOgfIkData);
    for (const auto& c : f.chunks.chunks) {
      ogf_build::put_chunk(out, c.raw_id, c.payload);
      if (&c == ik) ogf_build::put_chunk(out, kOgfUserData, p);
    }
    if (ik == nullptr) ogf_build::put_chunk(out, kOgfUserData, p);
    out.insert(out.end(), f.chunks.trailing.begin(), f.chunks.trailing.end());
  }
  return commit(f, std::move(out), std::move(report));
}

namespace {

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

// One vertex with at most two influences, the heaviest (a bone listed twice merged first); the
// weight of the others moves onto them. Returns the weight moved.
double to_two_links(OgfVertex& v) {
  std::array<std::pair<float, std::uint16_t>, 4> inf{};
  int n = 0;
  for (int k = 0; k < v.links; ++k) {
    const float w = v.weights[std::size_t(k)] > 0 ? v.weights[std::size_t(k)] : 0.0f;
    bool merged = false;
    for (int m = 0; m < n; ++m)
      if (inf[std::size_t(m)].second == v.bones[std::size_t(k)]) inf[std::size_t(m)].first += w, merged = true;
    if (!merged) inf[std::size_t(n++)] = {w, v.bones[std::size_t(k)]};
  }
  std::stable_sort(inf.begin(), inf.begin() + n, [](const auto& a, const auto& b) { return a.first > b.first; });
  double total = 0, kept = 0;
  for (int k = 0; k < n; ++k) total += inf[std::size_t(k)].first, kept += k < 2 ? inf[std::size_t(k)].first : 0;
  const int links = std::min(n, 2);
  v.links = std::max(links, 1);
  for (int k = 0; k < 4; ++k) {
    v.bones[std::size_t(k)] = k < links ? inf[std::size_t(k)].second : inf[0].second;
    v.weights[std::size_t(k)] = k < links && kept > 0 ? float(inf[std::size_t(k)].first / kept) : (k == 0 ? 1.0f : 0.0f);
  }
  return total - kept;
}

// A skinned 0x3 payload for `game`: the same vertex bytes under the other family's id, or (SoC,
// 3-4 links) every vertex re-laid with its two heaviest influences.
std::optional<Payload> retargeted_vertices(const OgfChild& c, Game game, EditReport& report) {
  const OgfVertices& vs = *c.vertices;
  const int links = vs.links();
  if (links == 0) return std::nullopt;
  const bool soc = game == Game::soc;
  const bool magic = ogf_build::is_magic_format(vs.format);
  if (soc ? (magic && links <= 2) : !magic) return std::nullopt;
  const int out_links = soc ? std::min(links, 2) : links;
  const std::uint32_t format = ogf_build::skinned_format(out_links, soc);
  Payload p;
  ByteWriter w(p);
  w.u32(format);
  w.u32(vs.count);
  if (out_links == links) {
    w.bytes(vs.data);  // magic and numeric ids of one link count share the layout
  } else {
    double moved = 0, most = 0;
    std::size_t touched = 0;
    for (std::size_t i = 0; i < vs.count; ++i) {
      OgfVertex v = decode_vertex(vs, i);
      const double m = to_two_links(v);
      if (m > 1e-6) ++touched, moved += m, most = std::max(most, m);
      ogf_build::write_vertex(w, v, 2);
    }
    if (touched != 0)
      report.warnings.push_back(c.path() + ": " + std::to_string(touched) + " vertices had more than 2 influences (SoC's limit); weight " +
                                fmt(moved) + " moved to their two heaviest bones, at most " + fmt(most) + " on one vertex");
  }
  report.changes.push_back(c.path() + " vertex format " + hex(vs.format) + " (" + std::to_string(links) + " links) -> " +
                           hex(format) + " (" + std::to_string(out_links) + " links)");
  return p;
}

}  // namespace

Result<EditReport> retarget_ogf(OgfFile& f, Game game) {
  if (game == Game::keep) return edit_error("retarget needs a game", "soc, cs or cop", "none");
  EditReport report;
  std::vector<std::optional<Payload>> vertices(f.children.size());
  for (const auto& c : f.children)
    if (c.readable) vertices[c.index] = retargeted_vertices(c, game, report);
  const bool soc = game == Game::soc;
  // SoC reads only 0x13; CS/CoP read 0x13 first, then 0x18, so they need no change.
  const bool refs_to_13 = soc && f.motion_refs_chunk == kOgfMotionRefs2;
  if (refs_to_13) {
    // Retargeting is the user's change of engine: SoC's limits hold whatever the CS/CoP file had.
    if (auto e = check_refs(f.motion_refs, kOgfMotionRefs, Game::soc, {}, report.warnings)) return *e;
    report.changes.push_back("motion refs moved from 0x18 to 0x13 (SoC reads only 0x13)");
  }
  // Embedded motions: as `omf retarget` does (SoC: params version 3, 8-bit translation keys).
  std::optional<Payload> motions, params;
  if (soc && f.motions && f.motions->has_motions_chunk) {
    auto omf_bytes = extract_omf(f);
    if (!omf_bytes) return omf_bytes.error();
    auto omf = read_omf(FileData::from_vector(std::move(omf_bytes).value()));
    if (!omf) return omf.error();
    auto r = retarget_omf(omf.value(), 3, Game::soc);
    if (!r) return r.error();
    if (!r->changes.empty()) {
      for (const auto& ch : r->changes) report.changes.push_back("embedded motions: " + ch);
      for (const auto& wn : r->warnings) report.warnings.push_back("embedded motions: " + wn);
      const auto written = write_omf(omf.value());
      const ChunkList list = split_chunks(written, 0);
      if (const Chunk* m = list.find(kChunkMotions)) motions = Payload(m->payload.begin(), m->payload.end());
      if (const Chunk* q = list.find(kChunkParams)) params = Payload(q->payload.begin(), q->payload.end());
    }
  }
  if (report.changes.empty()) return report;
  const Payload kids = f.chunks.find(kOgfChildren) == nullptr ? Payload{} : rebuild_children(f, [&](const OgfChild& c, const Chunk& raw) -> std::optional<Payload> {
    if (!vertices[c.index]) return std::nullopt;
    return rebuild_list(raw.payload, raw.payload_offset(), [&](const Chunk& k) -> std::optional<Payload> {
      if (k.id() != kOgfVertices) return std::nullopt;
      return vertices[c.index];
    });
  });
  auto out = rebuild(f, [&](const Chunk& c) -> std::optional<std::optional<Payload>> {
    if (c.id() == kOgfChildren) return std::optional<Payload>(kids);
    if (c.id() == kChunkMotions && motions) return std::optional<Payload>(*motions);
    if (c.id() == kChunkParams && params) return std::optional<Payload>(*params);
    if (refs_to_13 && c.id() == kOgfMotionRefs2)
      return std::optional<std::optional<Payload>>(std::optional<Payload>());  // replaced by 0x13 below
    return std::nullopt;
  }, refs_to_13 ? std::vector<std::pair<std::uint32_t, Payload>>{{kOgfMotionRefs, refs13(f.motion_refs)}}
                : std::vector<std::pair<std::uint32_t, Payload>>{});
  return commit(f, std::move(out), std::move(report));
}

}  // namespace boneyard::xray
