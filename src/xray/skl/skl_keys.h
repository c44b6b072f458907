// Writing sampled motions as the SDK's stepped keys (private to src/xray/skl): the .omf and glTF
// conversions into .skls build their envelopes with it.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "boneyard/xray/envelope/envelope.h"

namespace boneyard::xray {

inline constexpr std::uint32_t kConstantBehaviour = static_cast<std::uint32_t>(EnvelopeBehaviour::constant);

// One channel's stepped keys of one bone: a key at the first sample and wherever the value changes
// (a stepped key holds its value until the next: the same value again adds nothing). Its buffer
// keeps its capacity from bone to bone.
class SteppedChannel {
 public:
  void clear() { bytes_.clear(), count_ = 0; }
  void add(float time, float value) {
    if (count_ > 0 && std::memcmp(&value, &last_, sizeof value) == 0) return;
    const std::size_t at = bytes_.size();
    bytes_.resize(at + kEnvelopeV2SteppedKeyBytes);
    std::memcpy(bytes_.data() + at, &value, 4);
    std::memcpy(bytes_.data() + at + 4, &time, 4);
    bytes_[at + 8] = static_cast<std::uint8_t>(EnvelopeShape::stepped);
    last_ = value;
    ++count_;
  }
  std::uint32_t count() const { return count_; }
  // The keys as a v2 envelope held constant at both ends (a view of this channel's buffer, valid
  // until the next clear or add: make_skl_bone copies it).
  Envelope envelope() const {
    Envelope e;
    e.layout = EnvelopeLayout::v2;
    e.pre = e.post = kConstantBehaviour;
    e.key_count = count_;
    e.keys = Bytes(bytes_.data(), bytes_.size());
    return e;
  }

 private:
  std::vector<std::uint8_t> bytes_;
  std::uint32_t count_ = 0;
  float last_ = 0;
};

}  // namespace boneyard::xray
