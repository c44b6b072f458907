// Edited images back into the TRI entries they came from (docs/textures.md "TRI": PNG to .tri).
#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>

#include "boneyard/texture/tri/tri.h"
#include "texture/size_text.h"
#include "texture/tri/tri_internal.h"

namespace boneyard::texture {

namespace {

Finding refusal(const std::string& label, std::string message, std::string expected = {}, std::string found = {}) {
  return Finding{Severity::error, 0, {}, label + ": " + std::move(message), std::move(expected), std::move(found)};
}

std::uint32_t stored_colour(const std::uint8_t* p, TriAlpha alpha) {
  const std::uint8_t a = alpha == TriAlpha::scaled ? unscale_ps2_alpha(p[3]) : p[3];
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{a} << 24;
}

// Blocks being edited, seen as the file's blocks are.
struct Working {
  const TriFile& tri;
  std::vector<std::uint8_t> image, clut;
  TriFile view() const {
    TriFile t = tri;
    t.image = image;
    t.clut = clut;
    return t;
  }
};

void put_word(std::vector<std::uint8_t>& block, std::size_t word, std::uint32_t v) {
  std::memcpy(block.data() + word * 4, &v, 4);
}

// The index every pixel of entry `e` holds in `tri`'s blocks.
Result<std::vector<std::uint8_t>> indices_of(const TriFile& tri, const TriEntry& e, const TriTexture& t) {
  std::vector<std::uint8_t> out(std::size_t{t.rect.width} * t.rect.height);
  const std::uint32_t mask = t.colours - 1;
  auto ok = for_each_texel(tri, e, t, [&](std::size_t i, std::size_t word, std::uint32_t shift) {
    out[i] = static_cast<std::uint8_t>((block_word_at(tri.image, word) >> shift) & mask);
  });
  if (!ok) return ok.error();
  return out;
}

// Whether entry `e` reads the same indices, and the same colours for them, in `a` and `b` (the same
// file but its blocks). CLUT entries its pixels do not use may change.
bool same_texture(const TriFile& a, const TriFile& b, const TriEntry& e, const TriTexture& t) {
  auto words = tri_clut_words(a, e, t);
  if (!words) return true;  // not decodable in either: nothing to keep
  const std::uint32_t mask = t.colours - 1;
  std::vector<bool> used(t.colours, false);
  bool same = true;
  (void)for_each_texel(a, e, t, [&](std::size_t, std::size_t word, std::uint32_t shift) {
    used[(block_word_at(a.image, word) >> shift) & mask] = true;
    same = same && ((block_word_at(a.image, word) ^ block_word_at(b.image, word)) >> shift & mask) == 0;
  });
  for (std::size_t k = 0; k < words->size(); ++k)
    if (used[k] && block_word_at(a.clut, (*words)[k]) != block_word_at(b.clut, (*words)[k])) return false;
  return same;
}

// One edit into the working blocks.
Status encode_one(Working& w, const TriEdit& edit, Diagnostics* notes) {
  const TriFile& tri = w.tri;
  const TriEntry& e = tri.entries[edit.entry];
  auto t = tri_texture(e, tri.layout);
  if (!t) return refusal(edit.label, "its entry cannot be decoded, so it cannot be re-encoded: " + t.error().message,
                         t.error().expected, t.error().found);
  if (edit.image.width != t->rect.width || edit.image.height != t->rect.height)
    return refusal(edit.label, "the image is not the size of its texture in the .tri (crop or scale it to that size)",
                   size_text(t->rect.width, t->rect.height), size_text(edit.image.width, edit.image.height));
  const TriFile now = w.view();
  auto words = tri_clut_words(now, e, t.value());
  if (!words) return refusal(edit.label, words.error().message, words.error().expected, words.error().found);
  auto current = indices_of(now, e, t.value());
  if (!current) return refusal(edit.label, current.error().message, current.error().expected, current.error().found);
  std::vector<std::uint32_t> clut(t->colours);
  for (std::size_t k = 0; k < clut.size(); ++k) clut[k] = block_word_at(now.clut, (*words)[k]);
  const std::size_t n = current->size();
  std::vector<std::uint32_t> colours(n);
  bool unchanged = true;
  for (std::size_t i = 0; i < n; ++i) {
    colours[i] = stored_colour(edit.image.rgba.data() + i * 4, edit.alpha);
    unchanged = unchanged && colours[i] == clut[(*current)[i]];
  }
  if (unchanged) {
    if (notes) notes->add(Severity::info, e.offset, {}, edit.label + ": unchanged");
    return {};
  }
  std::unordered_map<std::uint32_t, std::uint32_t> index_of;  // colour -> CLUT index
  for (std::uint32_t c : colours) index_of.emplace(c, 0xFFFFFFFFu);
  if (index_of.size() > t->colours)
    return refusal(edit.label,
                   "the image has more colours than its " + psm_name(t->tex.psm) + " texture's CLUT holds (reduce it to " +
                       std::to_string(t->colours) + " colours, alpha included)",
                   "at most " + std::to_string(t->colours) + " colours", std::to_string(index_of.size()) + " colours");
  // Colours that stay where the pixel had them keep their index (an edit of part of the image
  // leaves the rest of its bytes); other known colours take an index that holds them already.
  std::vector<bool> reserved(t->colours, false);
  std::vector<bool> keep(n, false);
  for (std::size_t i = 0; i < n; ++i)
    if (clut[(*current)[i]] == colours[i]) {
      keep[i] = true;
      reserved[(*current)[i]] = true;
      auto& at = index_of[colours[i]];
      if (at == 0xFFFFFFFFu) at = (*current)[i];
    }
  for (auto& [c, at] : index_of)
    if (at == 0xFFFFFFFFu)
      for (std::uint32_t k = 0; k < t->colours; ++k)
        if (clut[k] == c) {
          at = k, reserved[k] = true;
          break;
        }
  // CLUT words that another texture reads for one of its pixels stay as they are.
  std::vector<bool> locked_word(now.clut.size() / 4, false);
  const std::vector<std::size_t> own(words->begin(), words->end());
  for (const auto& o : tri.entries) {
    if (o.index == e.index) continue;
    auto ot = tri_texture(o, tri.layout);
    if (!ot) continue;
    auto owords = tri_clut_words(now, o, ot.value());
    if (!owords) continue;
    if (std::none_of(owords->begin(), owords->end(), [&](std::size_t x) { return std::find(own.begin(), own.end(), x) != own.end(); }))
      continue;
    auto used = indices_of(now, o, ot.value());
    if (!used) continue;
    for (std::uint8_t k : *used) locked_word[(*owords)[k]] = true;
  }
  std::vector<std::uint32_t> fresh;  // colours to place, in the order the image meets them
  for (std::uint32_t c : colours)
    if (index_of[c] == 0xFFFFFFFFu && std::find(fresh.begin(), fresh.end(), c) == fresh.end()) fresh.push_back(c);
  std::uint32_t next = 0, free_count = 0;
  for (std::uint32_t k = 0; k < t->colours; ++k) free_count += !reserved[k] && !locked_word[(*words)[k]];
  if (fresh.size() > free_count)
    return refusal(edit.label,
                   "not enough free CLUT entries for its new colours (the others are used by the image's kept colours or by "
                   "textures that share its CLUT)",
                   std::to_string(fresh.size()) + " free entries", std::to_string(free_count) + " free");
  std::vector<std::uint8_t>& clut_block = w.clut;
  for (std::uint32_t c : fresh) {
    while (reserved[next] || locked_word[(*words)[next]]) ++next;
    index_of[c] = next;
    reserved[next] = true;
    put_word(clut_block, (*words)[next], c);
  }
  // The indices into the image block.
  const TriFile after_clut = w.view();
  std::vector<std::uint8_t>& image = w.image;
  const std::uint32_t mask = t->colours - 1;
  auto ok = for_each_texel(after_clut, e, t.value(), [&](std::size_t i, std::size_t word, std::uint32_t shift) {
    const std::uint32_t index = keep[i] ? (*current)[i] : index_of[colours[i]];
    std::uint32_t v = block_word_at(image, word);
    v = (v & ~(mask << shift)) | (index << shift);
    put_word(image, word, v);
  });
  if (!ok) return refusal(edit.label, ok.error().message, ok.error().expected, ok.error().found);
  if (notes)
    notes->add(Severity::info, e.offset, {},
               edit.label + ": re-encoded (" + std::to_string(index_of.size()) + " colours, " + std::to_string(fresh.size()) +
                   " new in the CLUT)");
  return {};
}

bool same_finding(const Finding& a, const Finding& b) {
  return a.severity == b.severity && a.offset == b.offset && a.message == b.message && a.path == b.path;
}

}  // namespace

Result<std::vector<std::uint8_t>> build_tri(const TriFile& tri, const std::vector<TriEdit>& edits, Diagnostics* notes) {
  {
    Diagnostics read_notes;
    (void)read_tri(tri.file, tri.layout_forced ? std::optional<TriLayout>(tri.layout) : std::nullopt, &read_notes);
    for (const auto& f : read_notes.findings())
      if (f.severity == Severity::error)
        return Finding{f.severity, f.offset, f.path, "the template cannot take edits: " + f.message, f.expected, f.found};
  }
  std::uint64_t pixels = 0;
  for (const auto& e : tri.entries) pixels += tri_rect_pixels(e);
  if (pixels > tri_pixel_budget(tri))
    return Finding{Severity::error, 0x10, "texture count",
                   "the template's textures are larger than its image block holds 16 times over: edits cannot be checked",
                   "at most " + std::to_string(tri_pixel_budget(tri)) + " pixels", std::to_string(pixels) + " pixels"};
  std::map<std::size_t, const TriEdit*> by_entry;
  for (const auto& edit : edits) {
    if (edit.entry >= tri.entries.size())
      return refusal(edit.label, "no such entry in the template", "below " + std::to_string(tri.entries.size()),
                     std::to_string(edit.entry));
    if (auto [it, added] = by_entry.emplace(edit.entry, &edit); !added)
      return refusal(edit.label, "another image is for the same texture: " + it->second->label);
  }
  Working w{tri, {tri.image.begin(), tri.image.end()}, {tri.clut.begin(), tri.clut.end()}};
  for (const auto& edit : edits)
    if (auto ok = encode_one(w, edit, notes); !ok) return ok.error();
  std::vector<std::uint8_t> out = write_tri(tri, w.image, w.clut);
  // Read back and checked as any file boneyard reads, then every texture compared.
  auto file = FileData::from_vector(out);
  Diagnostics reread_notes;
  auto back = read_tri(file, tri.layout, &reread_notes);
  if (!back) return Finding{back.error().severity, back.error().offset, back.error().path,
                            "the written .tri would not read: " + back.error().message, back.error().expected, back.error().found};
  const Diagnostics before = validate_tri(tri), after = validate_tri(back.value());
  for (const auto& f : after.findings())
    if (f.severity == Severity::error &&
        std::none_of(before.findings().begin(), before.findings().end(), [&](const Finding& g) { return same_finding(f, g); }))
      return Finding{f.severity, f.offset, f.path, "the written .tri would not validate: " + f.message, f.expected, f.found};
  for (const auto& e : tri.entries) {
    auto t = tri_texture(e, tri.layout);
    if (!t) continue;
    const auto edited = by_entry.find(e.index);
    if (edited == by_entry.end()) {
      if (!same_texture(tri, back.value(), e, t.value()))
        return Finding{Severity::error, e.offset, tri_entry_name(e),
                       "the edits would change this texture, which shares video memory (image or CLUT) with an edited one; "
                       "edit the two so that they agree, or one at a time",
                       "unchanged", "changed"};
      continue;
    }
    const TriEdit& edit = *edited->second;
    auto decoded = decode_tri(back.value(), e.index, TriAlpha::raw);
    if (!decoded) return refusal(edit.label, "the re-encoded texture does not decode: " + decoded.error().message);
    for (std::size_t i = 0; i < decoded->rgba.size(); i += 4)
      if (stored_colour(decoded->rgba.data() + i, TriAlpha::raw) != stored_colour(edit.image.rgba.data() + i, edit.alpha)) {
        const std::size_t px = i / 4;
        return refusal(edit.label,
                       "another edited texture shares its video memory and overwrote part of it; edit them one at a time",
                       "its pixel (" + std::to_string(px % edit.image.width) + ", " + std::to_string(px / edit.image.width) + ")",
                       "another colour");
      }
  }
  return out;
}

}  // namespace boneyard::texture
