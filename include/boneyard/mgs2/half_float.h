// IEEE 754 half floats (binary16), as the Master Collection's .cmdl stores UVs and weights and as
// .mar stores translations.
#pragma once

#include <cstdint>

namespace boneyard::mgs2 {

float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);  // round to nearest even; overflow to infinity

}  // namespace boneyard::mgs2
