// libFuzzer target for the skeletal motion readers (.skl, .skls, and the motion list an .object's
// chunk 0x0916 holds): any input reads or fails cleanly; whatever reads validates, describes,
// dumps (raw on inputs up to 8 KB and a sample of larger ones: fuzz_sample.h) and rewrites to the
// very same bytes; its envelopes evaluate before, inside and after their keys; and an edit
// (rename, a param, a mark) gives bytes that read back, or a clean refusal.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "boneyard/core/json_writer.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/skl/skl.h"
#include "boneyard/xray/skl/skl_edit.h"
#include "boneyard/xray/skl/skl_report.h"
#include "fuzz_sample.h"

namespace {

using namespace boneyard;
using namespace boneyard::xray;

void evaluate_some(const SklFile& f) {
  std::vector<EnvelopeKey> keys;
  std::size_t budget = 64;  // envelopes per input: enough to reach every shape and behaviour
  for (const auto& m : f.motions)
    for (const auto& b : m.bones)
      for (const auto& e : b.channels()) {
        if (budget-- == 0) return;
        decode_envelope_keys(e, keys);
        if (keys.size() != e.key_count) std::abort();
        const float first = keys.empty() ? 0.0f : keys.front().time;
        const float last = keys.empty() ? 1.0f : keys.back().time;
        for (float t : {first - 1.5f, first, (first + last) / 2, last, last + 2.5f, -1e30f, 1e30f, NAN})
          (void)evaluate_envelope(keys, e.pre, e.post, t);
      }
}

void check(const SklFile& f, const std::uint8_t* data, std::size_t size) {
  const Diagnostics findings = validate_skl(f);
  (void)describe_skl(f);
  JsonWriter json;
  dump_skl(json, f, fuzz::small_or_sampled(data, size));
  const auto out = write_skl(f);
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  evaluate_some(f);
  if (f.motions.empty()) return;
  SklFile edited = f;
  ParamEdit e;
  e.speed = 1.25f;
  e.add_marks.push_back({"fuzz", 0.0f, 0.0f});
  if (!rename_skl_motion(edited, cp1251_to_utf8(f.motions[0].name), "fuzz_renamed") ||
      !set_skl_params(edited, {"fuzz_renamed"}, e))
    return;
  auto bytes = checked_skl_bytes(write_skl(edited), edited.container, &findings);
  if (bytes) {
    auto again = edited.container == SklContainer::skl ? read_skl(FileData::from_vector(bytes.value()))
                                                      : read_skls(FileData::from_vector(bytes.value()));
    if (!again || again->motions[0].name != "fuzz_renamed") std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  if (auto skls = read_skls(file)) check(skls.value(), data, size);
  if (auto skl = read_skl(file)) check(skl.value(), data, size);
  if (auto list = read_motion_list(Bytes(data, size), 0, "0x0916")) {
    std::vector<std::uint8_t> out;
    ByteWriter w(out);
    write_motion_list(w, list->motions, list->tail);
    if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  }
  return 0;
}
