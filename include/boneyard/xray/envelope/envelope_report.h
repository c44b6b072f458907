// Envelopes in `boneyard dump` JSON and `info` text (schema: docs/json-schema.md ".skl, .skls,
// .anm").
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "boneyard/core/json_writer.h"
#include "boneyard/xray/envelope/envelope.h"

namespace boneyard::xray {

// {"pre": S|N, "post": S|N, "keys": [...]}: behaviours and shapes by name, or their stored number
// when out of range; with `raw` each key also has its offset and stored parameters.
void dump_envelope(JsonWriter& out, const Envelope& e, bool raw);

// Keys counted by shape (index 6: shapes out of range), for summaries.
struct ShapeCounts {
  std::array<std::size_t, kEnvelopeShapes + 1> keys{};
  void add(const Envelope& e);
  std::size_t total() const;
  std::string text() const;  // "1,200 keys: 1,180 stepped, 20 tcb" or "no keys"
};

}  // namespace boneyard::xray
