// EnvelopeChecker (envelope.h): one pass over the stored key records, no allocation unless a
// problem is met; paths and values are rendered only for the first place of each kind.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "boneyard/xray/envelope/envelope.h"

namespace boneyard::xray {

namespace {

std::string check_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

constexpr std::uint8_t kCheckStepped = static_cast<std::uint8_t>(EnvelopeShape::stepped);
constexpr std::uint8_t kCheckBezier2d = static_cast<std::uint8_t>(EnvelopeShape::bezier_2d);
constexpr std::uint32_t kCheckOscillate = static_cast<std::uint32_t>(EnvelopeBehaviour::oscillate);

struct StoredKey {  // what the checks need of a key record
  float value, time;
  std::uint32_t shape;
  const std::uint8_t* params;  // 7 x f32 (v1) or 7 x u16 (v2), nullptr for a v2 stepped key
};

}  // namespace

template <class FoundFn>
void EnvelopeChecker::hit(Kind kind, std::uint64_t offset, std::size_t item, std::size_t channel, const char* what,
                          FoundFn&& found) {
  Tally& t = tallies_[kind];
  if (t.count++ == 0) {
    t.offset = offset;
    t.path = path_of_(item, channel);
    if (what[0] != '\0') t.path += std::string(" ") + what;
    t.found = found();
  }
}

namespace {

// Whether the bits of a float are a finite number (exponent not all ones).
bool finite_float_bits(std::uint32_t bits) { return (bits & 0x7F800000u) != 0x7F800000u; }

// The common case, checked at the speed of reading: a v2 envelope whose behaviours are in range
// and not oscillate, whose keys have finite times and values, strictly ascending times and shapes
// 0-4. Anything else (including Bezier 2D keys, whose handles need a look) goes to the full check.
bool envelope_plainly_fine(const Envelope& e) {
  if (e.layout != EnvelopeLayout::v2 || e.pre >= kEnvelopeBehaviours || e.post >= kEnvelopeBehaviours ||
      e.pre == kCheckOscillate || e.post == kCheckOscillate)
    return false;
  const std::uint8_t* p = e.keys.data();
  const std::uint8_t* end = p + e.keys.size();
  float previous = -std::numeric_limits<float>::infinity();
  for (std::uint32_t i = 0; i < e.key_count; ++i) {
    if (end - p < static_cast<std::ptrdiff_t>(kEnvelopeV2SteppedKeyBytes)) return false;
    const std::uint32_t value = load_le<std::uint32_t>(p), time_bits = load_le<std::uint32_t>(p + 4);
    const std::uint8_t shape = p[8];
    float time;
    std::memcpy(&time, &time_bits, sizeof time);
    if (!finite_float_bits(value) || !finite_float_bits(time_bits) || !(time > previous) || shape >= kCheckBezier2d) return false;
    previous = time;
    p += shape == kCheckStepped ? kEnvelopeV2SteppedKeyBytes : kEnvelopeV2KeyBytes;
  }
  return true;
}

}  // namespace

void EnvelopeChecker::check(const Envelope& e, std::size_t item, std::size_t channel) {
  if (e.plain || envelope_plainly_fine(e)) return;
  if (e.pre >= kEnvelopeBehaviours)
    hit(kBehaviour, e.offset, item, channel, "pre-behaviour", [&] { return std::to_string(e.pre); });
  if (e.post >= kEnvelopeBehaviours)
    hit(kBehaviour, e.offset + (e.layout == EnvelopeLayout::v1 ? 4 : 1), item, channel, "post-behaviour",
        [&] { return std::to_string(e.post); });
  const bool v1 = e.layout == EnvelopeLayout::v1;
  const std::uint8_t* p = e.keys.data();
  const std::uint8_t* end = p + e.keys.size();
  StoredKey previous{};
  for (std::uint32_t i = 0; i < e.key_count && p < end; ++i) {
    StoredKey k;
    k.value = load_le<float>(p);
    k.time = load_le<float>(p + 4);
    std::size_t size;
    if (v1) {
      k.shape = load_le<std::uint32_t>(p + 8);
      k.params = p + 12;
      size = kEnvelopeV1KeyBytes;
    } else {
      k.shape = p[8];
      k.params = k.shape == kCheckStepped ? nullptr : p + 9;
      size = k.shape == kCheckStepped ? kEnvelopeV2SteppedKeyBytes : kEnvelopeV2KeyBytes;
    }
    const std::uint64_t at = e.keys_offset() + static_cast<std::uint64_t>(p - e.keys.data());
    auto key_path = [&] { return std::string("key ") + std::to_string(i); };
    const std::uint8_t shape = static_cast<std::uint8_t>(k.shape & 0xFF);
    if (shape >= kEnvelopeShapes)
      hit(kShape, at + 8, item, channel, "", [&] { return key_path() + " shape " + std::to_string(shape); });
    else if (k.shape > 0xFF)
      hit(kShapeHighBits, at + 8, item, channel, "", [&] { return key_path() + " shape " + hex(k.shape); });
    if (!std::isfinite(k.time))
      hit(kTime, at + 4, item, channel, "", [&] { return key_path() + " time " + check_number(k.time); });
    if (!std::isfinite(k.value))
      hit(kValue, at, item, channel, "", [&] { return key_path() + " value " + check_number(k.value); });
    if (v1) {
      for (int j = 0; j < 7; ++j) {
        const float f = load_le<float>(k.params + 4 * j);
        if (!std::isfinite(f)) {
          hit(kParam, at + 12 + 4 * static_cast<unsigned>(j), item, channel, "",
              [&] { return key_path() + " parameter " + std::to_string(j) + " " + check_number(f); });
          break;
        }
      }
    }
    if (i > 0) {
      if (k.time < previous.time)
        hit(kOrder, at + 4, item, channel, "", [&] {
          return key_path() + " at " + check_number(k.time) + " s after a key at " + check_number(previous.time) + " s";
        });
      else if (k.time == previous.time)
        hit(kSameTime, at + 4, item, channel, "",
            [&] { return "keys " + std::to_string(i - 1) + " and " + std::to_string(i) + " at " + check_number(k.time) + " s"; });
      if (shape == kCheckBezier2d && k.params != nullptr && k.time > previous.time) {
        // The time handles of the span previous -> k: the halving search needs them inside it.
        auto param = [&](const StoredKey& s, int j) {
          return v1 ? load_le<float>(s.params + 4 * j) : key_param(load_le<std::uint16_t>(s.params + 2 * j));
        };
        const bool previous_is_2d = (previous.shape & 0xFF) == kCheckBezier2d && previous.params != nullptr;
        const float out_time = previous_is_2d ? previous.time + param(previous, 5) : previous.time;
        const float in_time = k.time + param(k, 3);
        if (out_time < previous.time || out_time > k.time || in_time < previous.time || in_time > k.time)
          hit(kBezierHandles, at, item, channel, "", [&] {
            return key_path() + " handle times " + check_number(out_time) + " s and " + check_number(in_time) + " s, span [" +
                   check_number(previous.time) + ", " + check_number(k.time) + "] s";
          });
      }
    }
    previous = k;
    p += size;
  }
  if ((e.pre == kCheckOscillate || e.post == kCheckOscillate) && e.key_count > 1) {
    const float first = load_le<float>(e.keys.data() + 4);
    if (first != 0.0f)
      hit(kOscillate, e.offset, item, channel, "behaviour", [&] { return "first key at " + check_number(first) + " s"; });
  }
}

void EnvelopeChecker::report(Diagnostics& out, std::string_view scope) {
  struct Rule {
    Severity severity;
    const char* message;
    const char* expected;
  };
  static constexpr Rule kRules[kKinds] = {
      {Severity::error, "behaviour out of range: the engine's evaluation falls through (after the last key it reads past the keys)",
       "0-5 (reset, constant, repeat, oscillate, offset, linear)"},
      {Severity::error, "key shape out of range: the engine evaluates the span as 0", "0-5 (tcb, hermite, bezier, linear, stepped, bezier_2d)"},
      {Severity::warning, "key shape has bits above its low byte, which the engine ignores", "0-5"},
      {Severity::error, "key time is not a finite number", "seconds"},
      {Severity::error, "key value is not a finite number", "a finite number"},
      {Severity::error, "key parameter is not a finite number", "finite tension, continuity, bias and parameters"},
      {Severity::error, "keys out of time order: the engine's search assumes ascending times", "ascending times"},
      {Severity::warning, "two keys at the same time", "ascending times"},
      {Severity::warning,
       "Bezier 2D time handles outside their span: the engine's search for the time may never end (it recurses until its "
       "stack overflows)",
       "handles within the span"},
      {Severity::warning,
       "oscillate behaviour with a first key not at 0 s: the engine mirrors the time about the wrong point",
       "first key at 0 s"},
  };
  for (int kind = 0; kind < kKinds; ++kind) {
    Tally& t = tallies_[static_cast<std::size_t>(kind)];
    if (t.count == 0) continue;
    std::string message = kRules[kind].message;
    if (t.count > 1) message += " (and " + std::to_string(t.count - 1) + " more " + std::string(scope) + ")";
    out.add(kRules[kind].severity, t.offset, t.path, message, kRules[kind].expected, t.found);
    t = Tally{};
  }
}

}  // namespace boneyard::xray
