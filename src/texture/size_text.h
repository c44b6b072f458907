#pragma once
// "WxH", as texture messages and reports print an image's size.
#include <cstdint>
#include <string>

namespace boneyard::texture {

inline std::string size_text(std::uint32_t width, std::uint32_t height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

}  // namespace boneyard::texture
