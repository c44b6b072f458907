// libFuzzer target for the .anm reader: any input reads or fails cleanly; whatever reads
// validates, describes, dumps and rewrites to the very same bytes, its six channels evaluate
// before, inside and after their keys, and a rename gives bytes that read back.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "boneyard/core/json_writer.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/anm/anm_edit.h"
#include "boneyard/xray/anm/anm_report.h"
#include "fuzz_sample.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::xray;
  auto anm = read_anm(FileData::from_vector(std::vector<std::uint8_t>(data, data + size)));
  if (!anm) return 0;
  const Diagnostics findings = validate_anm(anm.value());
  (void)describe_anm(anm.value());
  JsonWriter json;
  dump_anm(json, anm.value(), fuzz::small_or_sampled(data, size));
  const auto out = write_anm(anm.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  std::vector<EnvelopeKey> keys;
  for (std::size_t c = 0; c < kMotionChannels; ++c) {
    const Envelope& e = anm->motion.channel(static_cast<MotionChannel>(c));
    decode_envelope_keys(e, keys);
    const float first = keys.empty() ? 0.0f : keys.front().time;
    const float last = keys.empty() ? 1.0f : keys.back().time;
    for (float t : {first - 1.5f, first, (first + last) / 2, last, last + 2.5f, -1e30f, 1e30f, NAN})
      (void)evaluate_envelope(keys, e.pre, e.post, t);
  }
  AnmFile renamed = anm.value();
  if (rename_anm_motion(renamed, cp1251_to_utf8(anm->motion.name), "fuzz_renamed")) {
    auto bytes = checked_anm_bytes(write_anm(renamed), &findings);
    if (bytes) {
      auto again = read_anm(FileData::from_vector(bytes.value()));
      if (!again || again->motion.name != "fuzz_renamed") std::abort();
    }
  }
  return 0;
}
