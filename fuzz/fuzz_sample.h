// Helpers that keep a fuzz target fast without losing code: an expensive step (an encoder, a
// writer run again on what a reader accepted) runs on a sample of the inputs, chosen by a hash of
// the input so that one input always decides the same way (libFuzzer's coverage of it stays
// reproducible, and a crash found on a sampled input reproduces from that input alone).
#pragma once

#include <cstddef>
#include <cstdint>

namespace boneyard::fuzz {

// FNV-1a of the input.
inline std::uint64_t input_hash(const std::uint8_t* data, std::size_t size) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001B3ULL;
  return h;
}

// True for 1 input in `n` (every input with n = 1).
inline bool sampled(const std::uint8_t* data, std::size_t size, unsigned n) {
  return n <= 1 || input_hash(data, size) % n == 0;
}

// For a step whose cost grows with the input and whose code does not (a raw JSON dump of every
// value): every input up to 8 KB (every crafted seed is smaller), which reaches all of its code,
// and 1 larger input in 8.
inline bool small_or_sampled(const std::uint8_t* data, std::size_t size) {
  return size <= 8192 || sampled(data, size, 8);
}

}  // namespace boneyard::fuzz
