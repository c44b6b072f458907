// Text encodings used by the game files.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace boneyard {

// X-Ray names are Windows-1251. Undefined byte 0x98 maps to U+FFFD.
std::string cp1251_to_utf8(std::string_view s);
// Inverse; nullopt if a character has no cp1251 encoding.
std::optional<std::string> utf8_to_cp1251(std::string_view s);

// Printable form of raw bytes for messages: cp1251 decoded, control bytes as \xNN.
std::string printable(std::string_view s);

}  // namespace boneyard
