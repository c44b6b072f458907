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

// `*` matches any run of bytes, `?` one byte; ASCII letters compare ignoring case (as the
// engine's lowered name lookups do).
bool glob_match(std::string_view pattern, std::string_view text);

// Printable form of raw bytes for messages: cp1251 decoded, control bytes as \xNN.
std::string printable(std::string_view s);
// UTF-8 text (a glTF name) for a one-line message: control bytes (NUL, CR, LF, ...) as \xNN, the
// rest as it is.
std::string escape_controls(std::string_view utf8);

// ASCII lower case (the engine's xr_strlwr for names; file extensions).
std::string lower_ascii(std::string_view s);
// The extension of `file_name` in ASCII lower case, with its dot ("" when none).
std::string lower_extension(std::string_view file_name);

}  // namespace boneyard
