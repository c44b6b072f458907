// libFuzzer target for the TRI reader. Properties beyond "no crash": whatever reads rewrites to
// the very same bytes; validate/info/dump never fail; decoding stays within the file's pixel
// budget; every texture that decodes, put back unedited, gives the very same file (the unedited
// round trip of `boneyard texture`), and an edit that goes through decodes to its image (those two
// on 1 input in 4, fuzz_sample.h).
#include <cstdlib>
#include <cstring>

#include "boneyard/texture/tri/tri.h"
#include "boneyard/texture/tri/tri_report.h"
#include "fuzz_sample.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::texture;
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  Diagnostics notes;
  auto t = read_tri(file, std::nullopt, &notes);
  if (!t) return 0;
  const Diagnostics findings = validate_tri(t.value());
  (void)describe_tri(t.value());
  JsonWriter json;
  dump_tri(json, t.value(), true);
  const auto out = write_tri(t.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  // Re-encoding reads back, validates and decodes every texture twice over: 1 input in 4.
  if (!fuzz::sampled(data, size, 4)) {
    for (std::size_t i = 0; i < t->entries.size() && i < 8; ++i) (void)tri_decoded_bytes(t.value(), i);
    return 0;
  }
  std::vector<TriEdit> edits;
  std::uint64_t pixels = 0;
  for (std::size_t i = 0; i < t->entries.size() && edits.size() < 8; ++i) {
    pixels += tri_decoded_bytes(t.value(), i) / 4;
    if (pixels > tri_pixel_budget(t.value())) break;
    auto im = decode_tri(t.value(), i, i % 2 ? TriAlpha::scaled : TriAlpha::raw);
    if (!im) continue;
    // Scaled alpha above 0x80 does not come back: those go back raw.
    if (i % 2) im = decode_tri(t.value(), i, TriAlpha::raw);
    edits.push_back({i, std::move(im).value(), TriAlpha::raw, "entry " + std::to_string(i)});
  }
  bool read_errors = false;
  for (const auto& f : notes.findings()) read_errors = read_errors || f.severity == Severity::error;
  std::uint64_t all_pixels = 0;
  for (const auto& e : t->entries) {
    auto r = tri_rect(e);
    if (r) all_pixels += std::uint64_t{r->width} * r->height;
  }
  auto same = build_tri(t.value(), edits);
  if (!read_errors && all_pixels <= tri_pixel_budget(t.value()) && (!same || same.value() != out)) std::abort();
  // An edit: the first texture's first two pixels swapped.
  if (!edits.empty() && edits[0].image.rgba.size() >= 8) {
    TriEdit edit = edits[0];
    std::swap_ranges(edit.image.rgba.begin(), edit.image.rgba.begin() + 4, edit.image.rgba.begin() + 4);
    auto edited = build_tri(t.value(), {edit});
    if (edited) {
      auto back = read_tri(FileData::from_vector(edited.value()), t->layout);
      if (!back) std::abort();
      auto im = decode_tri(back.value(), edit.entry);
      if (!im || im->rgba != edit.image.rgba) std::abort();
    }
  }
  return 0;
}
