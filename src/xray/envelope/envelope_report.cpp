// Envelopes in dumps and summaries.
#include "boneyard/xray/envelope/envelope_report.h"

namespace boneyard::xray {

namespace {

void envelope_named_or_number(JsonWriter& out, std::string_view name, std::uint32_t value) {
  if (name.empty()) out.value(static_cast<std::uint64_t>(value));
  else out.value(name);
}

}  // namespace

void dump_envelope(JsonWriter& out, const Envelope& e, bool raw) {
  out.begin_object();
  out.key("pre");
  envelope_named_or_number(out, envelope_behaviour_name(e.pre), e.pre);
  out.key("post");
  envelope_named_or_number(out, envelope_behaviour_name(e.post), e.post);
  if (raw) out.field("offset", static_cast<std::uint64_t>(e.offset));
  out.key("keys").begin_array();
  std::vector<EnvelopeKey> keys;
  decode_envelope_keys(e, keys);
  const std::vector<std::uint64_t> offsets = raw ? envelope_key_offsets(e) : std::vector<std::uint64_t>{};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const EnvelopeKey& k = keys[i];
    out.begin_object();
    out.field("time", k.time).field("value", k.value);
    out.key("shape");
    envelope_named_or_number(out, k.shape > 0xFF ? std::string_view{} : envelope_shape_name(k.shape), k.shape);
    const bool has_params = e.layout == EnvelopeLayout::v1 || k.engine_shape() != static_cast<std::uint8_t>(EnvelopeShape::stepped);
    if (has_params) {
      out.key("tcb").begin_array().value(k.tension).value(k.continuity).value(k.bias).end_array();
      out.key("params").begin_array();
      for (float p : k.param) out.value(p);
      out.end_array();
    }
    if (raw) {
      if (i < offsets.size()) out.field("offset", offsets[i]);
      if (e.layout == EnvelopeLayout::v2 && has_params) {
        out.key("q16").begin_array();
        for (std::uint16_t q : k.quantised) out.value(static_cast<unsigned>(q));
        out.end_array();
      }
    }
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

void ShapeCounts::add(const Envelope& e) {
  const std::uint8_t* p = e.keys.data();
  const std::uint8_t* end = p + e.keys.size();
  const bool v1 = e.layout == EnvelopeLayout::v1;
  for (std::uint32_t i = 0; i < e.key_count && p < end; ++i) {
    const std::uint32_t shape = v1 ? load_le<std::uint32_t>(p + 8) & 0xFF : p[8];
    ++keys[shape < kEnvelopeShapes ? shape : kEnvelopeShapes];
    p += v1 ? kEnvelopeV1KeyBytes
            : (shape == static_cast<std::uint8_t>(EnvelopeShape::stepped) ? kEnvelopeV2SteppedKeyBytes : kEnvelopeV2KeyBytes);
  }
}

std::size_t ShapeCounts::total() const {
  std::size_t n = 0;
  for (std::size_t k : keys) n += k;
  return n;
}

std::string ShapeCounts::text() const {
  const std::size_t n = total();
  if (n == 0) return "no keys";
  std::string s = std::to_string(n) + (n == 1 ? " key:" : " keys:");
  bool first = true;
  for (std::size_t i = 0; i <= kEnvelopeShapes; ++i) {
    if (keys[i] == 0) continue;
    s += first ? " " : ", ";
    first = false;
    s += std::to_string(keys[i]) + " " + (i < kEnvelopeShapes ? std::string(envelope_shape_name(static_cast<std::uint32_t>(i))) : "unknown shape");
  }
  return s;
}

}  // namespace boneyard::xray
