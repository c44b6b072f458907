// File names as text, and what a file system says about a name, the same way on Linux and Windows.
//
// Every std::string in boneyard is UTF-8: command-line arguments, names inside game files (after
// cp1251 decoding), messages, glTF. A std::filesystem::path is the operating system's own form
// (bytes on Linux, UTF-16 on Windows), and the implicit conversions between the two read and write
// the local ANSI code page on Windows, which loses Cyrillic folder and file names. Every place that
// turns a string into a path or back goes through path_from_utf8 / path_to_utf8 instead.
// The code behind these is the platform layer (src/core/platform_posix.cpp, platform_windows.cpp).
#pragma once

#include <compare>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace boneyard {

// The path that the UTF-8 text `utf8` names (Linux: the bytes as they are; Windows: converted to
// UTF-16, invalid sequences as U+FFFD).
std::filesystem::path path_from_utf8(std::string_view utf8);
// `path` as UTF-8 text, in the system's own separators (Windows: backslashes, as given), for
// messages and for names written into files. Never throws.
std::string path_to_utf8(const std::filesystem::path& path);
// The same with '/' separators (a path stored in a file that may travel between systems).
std::string generic_path_to_utf8(const std::filesystem::path& path);

// Which file a path names (symlinks followed): device and inode on Linux, volume serial number
// and file index on Windows (where msvcrt's stat gives every file inode 0). Empty when the path
// cannot be examined (missing, no permission).
struct FileIdentity {
  std::uint64_t volume = 0;
  std::uint64_t index = 0;
  friend auto operator<=>(const FileIdentity&, const FileIdentity&) = default;
};
std::optional<FileIdentity> file_identity(const std::filesystem::path& path);

// The text two names of one folder are compared by to tell whether they name one file: the UTF-8
// name itself where names are case-sensitive (Linux), its upper case where they are not (Windows:
// `Wave.glb` and `wave.glb` are one file). For output-collision checks.
std::string file_name_key(const std::filesystem::path& name);

// `path` with its last component spelt as the folder stores it, when the file system found it
// under another case (Windows; on Linux a name is found only with its own case: `path` itself).
// `path` must exist; when its entry cannot be read, `path` is returned.
std::filesystem::path name_as_stored(const std::filesystem::path& path);

// The target of `path` when it is itself a symbolic link (Windows: a symbolic link or junction),
// as stored in the link (may be relative); nothing when it is not a link or cannot be read.
// Links are not followed: only `path`'s own entry is examined.
std::optional<std::filesystem::path> link_target(const std::filesystem::path& path);

}  // namespace boneyard
