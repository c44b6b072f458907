// EnvelopeChecker (envelope.h): one pass over the stored key records, no allocation unless a
// problem is met; paths and values are rendered only for the first place of each kind.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "boneyard/xray/envelope/envelope.h"

namespace boneyard::xray {

namespace {

std::string number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

constexpr std::uint8_t kStepped = static_cast<std::uint8_t>(EnvelopeShape::stepped);
constexpr std::uint8_t kBezier2d = static_cast<std::uint8_t>(EnvelopeShape::bezier_2d);
constexpr std::uint32_t kOscillate = static_cast<std::uint32_t>(EnvelopeBehaviour::oscillate);

struct Stored {  // what the checks need of a key record
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

void EnvelopeChecker::check(const Envelope& e, std::size_t item, std::size_t channel) {
  if (e.pre >= kEnvelopeBehaviours)
    hit(kBehaviour, e.offset, item, channel, "pre-behaviour", [&] { return std::to_string(e.pre); });
  if (e.post >= kEnvelopeBehaviours)
    hit(kBehaviour, e.offset + (e.layout == EnvelopeLayout::v1 ? 4 : 1), item, channel, "post-behaviour",
        [&] { return std::to_string(e.post); });
  const bool v1 = e.layout == EnvelopeLayout::v1;
  const std::uint8_t* p = e.keys.data();
  const std::uint8_t* end = p + e.keys.size();
  Stored previous{};
  for (std::uint32_t i = 0; i < e.key_count && p < end; ++i) {
    Stored k;
    k.value = load_le<float>(p);
    k.time = load_le<float>(p + 4);
    std::size_t size;
    if (v1) {
      k.shape = load_le<std::uint32_t>(p + 8);
      k.params = p + 12;
      size = kEnvelopeV1KeyBytes;
    } else {
      k.shape = p[8];
      k.params = k.shape == kStepped ? nullptr : p + 9;
      size = k.shape == kStepped ? kEnvelopeV2SteppedKeyBytes : kEnvelopeV2KeyBytes;
    }
    const std::uint64_t at = e.keys_offset() + static_cast<std::uint64_t>(p - e.keys.data());
    auto key_path = [&] { return std::string("key ") + std::to_string(i); };
    const std::uint8_t shape = static_cast<std::uint8_t>(k.shape & 0xFF);
    if (shape >= kEnvelopeShapes)
      hit(kShape, at + 8, item, channel, "", [&] { return key_path() + " shape " + std::to_string(shape); });
    else if (k.shape > 0xFF)
      hit(kShapeHighBits, at + 8, item, channel, "", [&] { return key_path() + " shape " + hex(k.shape); });
    if (!std::isfinite(k.time))
      hit(kTime, at + 4, item, channel, "", [&] { return key_path() + " time " + number(k.time); });
    if (!std::isfinite(k.value))
      hit(kValue, at, item, channel, "", [&] { return key_path() + " value " + number(k.value); });
    if (v1) {
      for (int j = 0; j < 7; ++j) {
        const float f = load_le<float>(k.params + 4 * j);
        if (!std::isfinite(f)) {
          hit(kParam, at + 12 + 4 * static_cast<unsigned>(j), item, channel, "",
              [&] { return key_path() + " parameter " + std::to_string(j) + " " + number(f); });
          break;
        }
      }
    }
    if (i > 0) {
      if (k.time < previous.time)
        hit(kOrder, at + 4, item, channel, "", [&] {
          return key_path() + " at " + number(k.time) + " s after a key at " + number(previous.time) + " s";
        });
      else if (k.time == previous.time)
        hit(kSameTime, at + 4, item, channel, "",
            [&] { return "keys " + std::to_string(i - 1) + " and " + std::to_string(i) + " at " + number(k.time) + " s"; });
      if (shape == kBezier2d && k.params != nullptr && k.time > previous.time) {
        // The time handles of the span previous -> k: the halving search needs them inside it.
        auto param = [&](const Stored& s, int j) {
          return v1 ? load_le<float>(s.params + 4 * j) : key_param(load_le<std::uint16_t>(s.params + 2 * j));
        };
        const bool previous_is_2d = (previous.shape & 0xFF) == kBezier2d && previous.params != nullptr;
        const float out_time = previous_is_2d ? previous.time + param(previous, 5) : previous.time;
        const float in_time = k.time + param(k, 3);
        if (out_time < previous.time || out_time > k.time || in_time < previous.time || in_time > k.time)
          hit(kBezierHandles, at, item, channel, "", [&] {
            return key_path() + " handle times " + number(out_time) + " s and " + number(in_time) + " s, span [" +
                   number(previous.time) + ", " + number(k.time) + "] s";
          });
      }
    }
    previous = k;
    p += size;
  }
  if ((e.pre == kOscillate || e.post == kOscillate) && e.key_count > 1) {
    const float first = load_le<float>(e.keys.data() + 4);
    if (first != 0.0f)
      hit(kOscillate, e.offset, item, channel, "behaviour", [&] { return "first key at " + number(first) + " s"; });
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
