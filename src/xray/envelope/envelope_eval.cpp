// The engine's envelope evaluation (evalEnvelope, after LightWave's interp.c; docs/xray-sdk.md
// "Envelopes"), in float and in the engine's order of operations, so that boneyard's values are
// the engine's. Its quirks are kept on purpose:
//  * repeat, oscillate and offset wrap the time with lo + v - r * floor(v / r), which equals the
//    usual wrap only when the first key is at a multiple of the keys' range;
//  * oscillate mirrors with (last - first) - t instead of (last + first) - t;
//  * the TCB tangent of an end key without a neighbour is b * d (in) or a * d (out), not the mean;
//  * Bezier 2D uses the earlier key's param[1] / 3 as its value handle when that key is not
//    Bezier 2D itself.
// Where the engine has undefined behaviour, boneyard does something defined (envelope.h).
#include <cmath>
#include <cstdint>
#include <limits>

#include "boneyard/xray/envelope/envelope.h"

namespace boneyard::xray {

namespace {

using EvalKey = EnvelopeKey;

constexpr std::uint8_t kEvalTcb = 0, kEvalHermite = 1, kEvalBezier = 2, kEvalLinear = 3, kEvalStepped = 4, kEvalBezier2d = 5;
constexpr std::uint32_t kEvalReset = 0, kEvalConstant = 1, kEvalRepeat = 2, kEvalOscillate = 3, kEvalOffset = 4, kEvalLinearBehaviour = 5;

// float -> int as the engine's cast does for values in range; saturated outside it (where the
// cast is undefined) to +-INT_MAX, so that the count can be negated.
int saturating_int(double v) {
  if (!(v > -2147483647.0)) return -std::numeric_limits<int>::max();
  if (!(v < 2147483647.0)) return std::numeric_limits<int>::max();
  return static_cast<int>(v);
}

// The engine's range(): `v` wrapped into [lo, hi]; `cycles` (when asked) how many ranges it moved.
float wrap_time(float v, float lo, float hi, int* cycles) {
  const float r = hi - lo;
  if (r == 0.0f) {
    if (cycles) *cycles = 0;
    return lo;
  }
  const float v2 = lo + v - r * std::floor(v / r);
  if (cycles) *cycles = -saturating_int(static_cast<double>((v2 - v) / r) + (v2 > v ? 0.5 : -0.5));
  return v2;
}

void hermite_coefficients(float t, float& h1, float& h2, float& h3, float& h4) {
  const float t2 = t * t;
  const float t3 = t * t2;
  h2 = 3.0f * t2 - t3 - t3;
  h1 = 1.0f - h2;
  h4 = t3 - t2;
  h3 = h4 - t2 + t;
}

float bezier_value(float x0, float x1, float x2, float x3, float t) {
  const float t2 = t * t;
  const float t3 = t2 * t;
  const float c = 3.0f * (x1 - x0);
  const float b = 3.0f * (x2 - x1) - c;
  const float a = x3 - x0 - c - b;
  return a * t3 + b * t2 + c * t + x0;
}

// The parameter t at which the time curve reaches `time`: halving [0, 1] until within 1e-4 s.
float bezier_2d_time_parameter(float x0, float x1, float x2, float x3, float time) {
  float t0 = 0.0f, t1 = 1.0f;
  float t = 0.5f;
  for (int step = 0; step < 64; ++step) {
    t = t0 + (t1 - t0) * 0.5f;
    const float v = bezier_value(x0, x1, x2, x3, t);
    if (!(std::fabs(time - v) > 0.0001f)) return t;
    if (v > time) t1 = t;
    else t0 = t;
  }
  return t;
}

float bezier_2d_value(const EvalKey& k0, const EvalKey& k1, float time) {
  const float x = k0.engine_shape() == kEvalBezier2d ? k0.time + k0.param[2] : k0.time + (k1.time - k0.time) / 3.0f;
  const float t = bezier_2d_time_parameter(k0.time, x, k1.time + k1.param[0], k1.time, time);
  const float y = k0.engine_shape() == kEvalBezier2d ? k0.value + k0.param[3] : k0.value + k0.param[1] / 3.0f;
  return bezier_value(k0.value, y, k1.param[1] + k1.value, k1.value, t);
}

// The tangent leaving k0 towards k1 (`before`: the key before k0, when there is one).
float outgoing_tangent(const EvalKey* before, const EvalKey& k0, const EvalKey& k1) {
  switch (k0.engine_shape()) {
    case kEvalTcb: {
      const float a = (1.0f - k0.tension) * (1.0f + k0.continuity) * (1.0f + k0.bias);
      const float b = (1.0f - k0.tension) * (1.0f - k0.continuity) * (1.0f - k0.bias);
      const float d = k1.value - k0.value;
      if (before == nullptr) return b * d;
      const float t = (k1.time - k0.time) / (k1.time - before->time);
      return t * (a * (k0.value - before->value) + b * d);
    }
    case kEvalLinear: {
      const float d = k1.value - k0.value;
      if (before == nullptr) return d;
      const float t = (k1.time - k0.time) / (k1.time - before->time);
      return t * (k0.value - before->value + d);
    }
    case kEvalBezier:
    case kEvalHermite: {
      float out = k0.param[1];
      if (before != nullptr) out *= (k1.time - k0.time) / (k1.time - before->time);
      return out;
    }
    case kEvalBezier2d: {
      float out = k0.param[3] * (k1.time - k0.time);
      if (std::fabs(k0.param[2]) > 1e-5f) out /= k0.param[2];
      else out *= 1e5f;
      return out;
    }
    default: return 0.0f;
  }
}

// The tangent arriving at k1 from k0 (`after`: the key after k1, when there is one).
float incoming_tangent(const EvalKey& k0, const EvalKey& k1, const EvalKey* after) {
  switch (k1.engine_shape()) {
    case kEvalLinear: {
      const float d = k1.value - k0.value;
      if (after == nullptr) return d;
      const float t = (k1.time - k0.time) / (after->time - k0.time);
      return t * (after->value - k1.value + d);
    }
    case kEvalTcb: {
      const float a = (1.0f - k1.tension) * (1.0f - k1.continuity) * (1.0f + k1.bias);
      const float b = (1.0f - k1.tension) * (1.0f + k1.continuity) * (1.0f - k1.bias);
      const float d = k1.value - k0.value;
      if (after == nullptr) return a * d;
      const float t = (k1.time - k0.time) / (after->time - k0.time);
      return t * (b * (after->value - k1.value) + a * d);
    }
    case kEvalBezier:
    case kEvalHermite: {
      float in = k1.param[0];
      if (after != nullptr) in *= (k1.time - k0.time) / (after->time - k0.time);
      return in;
    }
    case kEvalBezier2d: {
      float in = k1.param[1] * (k1.time - k0.time);
      if (std::fabs(k1.param[0]) > 1e-5f) in /= k1.param[0];
      else in *= 1e5f;
      return in;
    }
    default: return 0.0f;
  }
}

}  // namespace

float evaluate_envelope(std::span<const EnvelopeKey> keys, std::uint32_t pre, std::uint32_t post, float time) {
  if (keys.empty()) return 0.0f;
  if (keys.size() == 1) return keys[0].value;
  const std::size_t n = keys.size();
  const EvalKey& first = keys[0];
  const EvalKey& last = keys[n - 1];
  float offset = 0.0f;
  int cycles = 0;
  if (time < first.time) {
    switch (pre) {
      case kEvalReset: return 0.0f;
      case kEvalConstant: return first.value;
      case kEvalRepeat: time = wrap_time(time, first.time, last.time, nullptr); break;
      case kEvalOscillate:
        time = wrap_time(time, first.time, last.time, &cycles);
        if (cycles % 2) time = last.time - first.time - time;
        break;
      case kEvalOffset:
        time = wrap_time(time, first.time, last.time, &cycles);
        offset = static_cast<float>(cycles) * (last.value - first.value);
        break;
      case kEvalLinearBehaviour: {
        const float out = outgoing_tangent(nullptr, first, keys[1]) / (keys[1].time - first.time);
        return out * (time - first.time) + first.value;
      }
      default: break;  // the engine falls through to the first span
    }
  } else if (time > last.time) {
    switch (post) {
      case kEvalReset: return 0.0f;
      case kEvalConstant: return last.value;
      case kEvalRepeat: time = wrap_time(time, first.time, last.time, nullptr); break;
      case kEvalOscillate:
        time = wrap_time(time, first.time, last.time, &cycles);
        if (cycles % 2) time = last.time - first.time - time;
        break;
      case kEvalOffset:
        time = wrap_time(time, first.time, last.time, &cycles);
        offset = static_cast<float>(cycles) * (last.value - first.value);
        break;
      case kEvalLinearBehaviour: {
        const float in = incoming_tangent(keys[n - 2], last, nullptr) / (last.time - keys[n - 2].time);
        return in * (time - last.time) + last.value;
      }
      default: break;  // the engine reads past its keys; boneyard extends the last span
    }
  }
  // The span holding `time`: the engine walks while the time is past the next key, and never
  // leaves the keys when they are in order; boneyard also stops at the last span when they are not.
  std::size_t k = 0;
  while (k + 2 < n && time > keys[k + 1].time) ++k;
  const EvalKey& k0 = keys[k];
  const EvalKey& k1 = keys[k + 1];
  const EvalKey* before = k > 0 ? &keys[k - 1] : nullptr;
  const EvalKey* after = k + 2 < n ? &keys[k + 2] : nullptr;
  if (time == k0.time) return k0.value + offset;
  if (time == k1.time) return k1.value + offset;
  const float t = (time - k0.time) / (k1.time - k0.time);
  switch (k1.engine_shape()) {
    case kEvalTcb:
    case kEvalBezier:
    case kEvalHermite: {
      const float out = outgoing_tangent(before, k0, k1);
      const float in = incoming_tangent(k0, k1, after);
      float h1, h2, h3, h4;
      hermite_coefficients(t, h1, h2, h3, h4);
      return h1 * k0.value + h2 * k1.value + h3 * out + h4 * in + offset;
    }
    case kEvalBezier2d: return bezier_2d_value(k0, k1, time) + offset;
    case kEvalLinear: return k0.value + t * (k1.value - k0.value) + offset;
    case kEvalStepped: return k0.value + offset;
    default: return offset;
  }
}

}  // namespace boneyard::xray
