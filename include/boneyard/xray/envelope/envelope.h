// The X-Ray SDK's envelopes (CEnvelope, LightWave's): one animated float as keys with a value, a
// time in seconds, a shape and the TCB/Bezier parameters, plus what happens before the first and
// after the last key. Skeletal motions (.skl, .skls, an .object's motions) hold six per bone,
// object motions (.anm) six in all. The model keeps the stored key records as a view and decodes
// them on demand; the evaluator is the engine's (docs/xray-sdk.md "Envelopes").
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"

namespace boneyard::xray {

// Key shapes (SHAPE_*), by stored value.
enum class EnvelopeShape : std::uint8_t { tcb = 0, hermite = 1, bezier = 2, linear = 3, stepped = 4, bezier_2d = 5 };
// Pre- and post-behaviours (BEH_*), by stored value.
enum class EnvelopeBehaviour : std::uint8_t { reset = 0, constant = 1, repeat = 2, oscillate = 3, offset = 4, linear = 5 };
inline constexpr std::uint32_t kEnvelopeShapes = 6;
inline constexpr std::uint32_t kEnvelopeBehaviours = 6;
// "tcb", "hermite", "bezier", "linear", "stepped", "bezier_2d"; "" when out of range.
std::string_view envelope_shape_name(std::uint32_t shape);
// "reset", "constant", "repeat", "oscillate", "offset", "linear"; "" when out of range.
std::string_view envelope_behaviour_name(std::uint32_t behaviour);

// Motions animate six envelopes, the channels of a bone or of an object: position x, y, z, and
// rotation h (heading, about y), p (pitch, about x), b (bank, about z) in radians.
enum class MotionChannel : std::uint8_t { x, y, z, h, p, b };
inline constexpr std::size_t kMotionChannels = 6;
// "x", "y", "z", "h", "p", "b".
std::string_view motion_channel_name(MotionChannel c);

// How an envelope is stored. Both are kept as read: a rewrite never changes the layout.
enum class EnvelopeLayout : std::uint8_t {
  // CEnvelope::Load_1 (motions v4/v5, .anm v3): u32 pre, u32 post, u32 key count; per key f32
  // value, f32 time, u32 shape (the engine uses its low byte), f32 tension, continuity, bias,
  // param[4]: 40 bytes.
  v1,
  // Load_2 / Save (motions v6/v7, .anm v4/v5): u8 pre, u8 post, u16 key count; per key f32 value,
  // f32 time, u8 shape, then, unless the shape is 4 (stepped), tension, continuity, bias,
  // param[4] as u16 q16 in [-32, 32]: 9 or 23 bytes.
  v2,
};
inline constexpr std::size_t kEnvelopeV1KeyBytes = 40;
inline constexpr std::size_t kEnvelopeV2SteppedKeyBytes = 9;
inline constexpr std::size_t kEnvelopeV2KeyBytes = 23;

// The SDK's q16 for key parameters: u16(floor((v + 32) / 64 * 65535 + 0.5)) in float arithmetic
// (w_float_q16); values outside [-32, 32] are clamped first (the SDK would assert).
std::uint16_t quantise_key_param(float v);
// The engine's decoding: float(q) * 64 / 65535 - 32, in float (r_float_q16).
float key_param(std::uint16_t q);

// One key as the engine holds it once loaded.
struct EnvelopeKey {
  float value = 0;
  float time = 0;              // seconds
  std::uint32_t shape = 0;     // as stored: u8 (v2) or u32 (v1)
  float tension = 0, continuity = 0, bias = 0;
  std::array<float, 4> param{};  // Hermite/Bezier: in and out tangents; Bezier 2D: both handles
  // v2: the stored q16 values of tension, continuity, bias and param[4] (0 for stepped keys,
  // which store none); v1 stores floats and leaves these 0.
  std::array<std::uint16_t, 7> quantised{};
  std::uint8_t engine_shape() const { return static_cast<std::uint8_t>(shape & 0xFF); }
};

struct Envelope {
  // Members set one by one rather than by default member initializers: GCC copies an aggregate's
  // initializer image with a string instruction, which per envelope of a large .skls cost 10% of
  // reading it.
  Envelope() : layout(EnvelopeLayout::v2), plain(false), pre(1), post(1), key_count(0), offset(0) {}
  EnvelopeLayout layout;
  // Set by the reader, which walks every key anyway, when it saw nothing the checker would report
  // (v2, behaviours 0-5 other than oscillate, finite values, finite and strictly ascending times,
  // shapes 0-4): validation then costs nothing more. Whoever replaces `keys` or the behaviours
  // sets it false (the checker then looks at every key).
  bool plain;
  std::uint32_t pre, post;  // behaviours as stored (u8 in v2, u32 in v1); 1 (constant) when made
  std::uint32_t key_count;
  Bytes keys;               // the stored key records: a view into the file or into an edit's storage
  std::uint64_t offset;     // absolute offset of the envelope (its pre-behaviour); 0 for made ones
  std::size_t header_bytes() const { return layout == EnvelopeLayout::v1 ? 12 : 4; }
  std::uint64_t keys_offset() const { return offset + header_bytes(); }
  std::size_t stored_bytes() const { return header_bytes() + keys.size(); }
};

// Decodes every key into `out` (cleared first; its capacity is reused).
void decode_envelope_keys(const Envelope& e, std::vector<EnvelopeKey>& out);
std::vector<EnvelopeKey> decode_envelope_keys(const Envelope& e);
// Absolute offset of each key record, in order (for findings and dumps).
std::vector<std::uint64_t> envelope_key_offsets(const Envelope& e);

// The stored key records of `keys` in `layout`: v2 quantises the parameters as the SDK does,
// except that a key whose `quantised` values decode to its parameters keeps them (so keys read
// from a file are written back unchanged); v2 stepped keys store no parameters. v1 writes the
// floats and the u32 shape.
std::vector<std::uint8_t> encode_envelope_keys(EnvelopeLayout layout, std::span<const EnvelopeKey> keys);
// The whole stored envelope (behaviours, count, keys), as the SDK writes it.
void write_envelope(ByteWriter& w, const Envelope& e);

// ---- evaluation

// The envelope's value at `time` (seconds), as the engine's evalEnvelope computes it, in float
// and in the engine's order of operations: no key gives 0, one key its value; before the first
// and after the last key the behaviour applies (reset 0, constant, repeat, oscillate and offset
// repeating the keys' range, linear extending the end tangent); between keys the shape of the
// later key: TCB, Hermite and Bezier as Hermite curves of the keys' tangents, Bezier 2D as a
// curve in (time, value) whose time is found by halving, linear, stepped. Where the engine would
// misbehave, boneyard stops: an unknown post-behaviour extends the last span (the engine reads
// past its keys), and the Bezier 2D time search ends after 64 halvings (the engine recurses
// until it finds the time, and overflows its stack when the handles never reach it).
// docs/xray-sdk.md "Envelopes" lists the engine's quirks this keeps.
float evaluate_envelope(std::span<const EnvelopeKey> keys, std::uint32_t pre, std::uint32_t post, float time);

// ---- validation

// Checks envelopes and reports each kind of problem once per scope (a motion), at its first
// place, with how many more there are: behaviours and shapes out of range, a v1 shape with bits
// above its low byte, non-finite times, values and parameters, keys out of time order (errors:
// the engine's search and evaluation assume ascending times); two keys at one time, Bezier 2D
// time handles outside their span, oscillation not starting at 0 s (warnings).
class EnvelopeChecker {
 public:
  // The record path of channel `channel` of item `item` (a bone, or 0 for an object motion):
  // called only for the first place of each problem.
  using PathOf = std::function<std::string(std::size_t item, std::size_t channel)>;
  explicit EnvelopeChecker(PathOf path_of) : path_of_(std::move(path_of)) {}

  void check(const Envelope& e, std::size_t item, std::size_t channel);
  // Adds the findings of everything checked since the last report, then starts counting anew.
  void report(Diagnostics& out, std::string_view scope = "in this motion");

 private:
  struct Tally {
    std::size_t count = 0;
    std::uint64_t offset = 0;
    std::string path, found;
  };
  enum Kind : std::uint8_t {
    kBehaviour, kShape, kShapeHighBits, kTime, kValue, kParam, kOrder, kSameTime, kBezierHandles, kOscillate, kKinds
  };
  template <class FoundFn>
  void hit(Kind kind, std::uint64_t offset, std::size_t item, std::size_t channel, const char* what, FoundFn&& found);

  PathOf path_of_;
  std::array<Tally, kKinds> tallies_{};
};

}  // namespace boneyard::xray
