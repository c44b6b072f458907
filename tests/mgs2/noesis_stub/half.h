// A stand-in for the OpenEXR `half` the Noesis plugins include (include/half/half.h): set the 16
// bits, read the float. IEEE 754 binary16, written here with ldexp.
#pragma once

#include <cmath>
#include <cstdint>

class half {
 public:
  void setBits(std::uint16_t bits) { bits_ = bits; }
  operator float() const {
    const int sign = (bits_ >> 15) ? -1 : 1;
    const int exponent = (bits_ >> 10) & 0x1F;
    const int mantissa = bits_ & 0x3FF;
    if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
    if (exponent == 31) return mantissa == 0 ? sign * INFINITY : NAN;
    return sign * std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
  }

 private:
  std::uint16_t bits_ = 0;
};
