// The platform layer on Windows: the wide-character API (every path as UTF-16, converted from and
// to UTF-8 here), HANDLEs, MoveFileExW. See platform.h and boneyard/core/paths.h.
//
// Files are read whole rather than mapped: Windows cannot replace or remove a file while a program
// has it mapped, and boneyard replaces files it has read (in-place edits, a template named as the
// output). Device names (CON, NUL, COM1, \\.\...) are refused by name before anything is opened.
#include <windows.h>
#include <winioctl.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <cwctype>
#include <vector>

#include "boneyard/core/memory_policy.h"
#include "boneyard/core/paths.h"
#include "core/platform.h"

namespace boneyard {

namespace fs = std::filesystem;

namespace {

std::wstring widen(std::string_view s) {
  if (s.empty()) return {};
  const int length = static_cast<int>(std::min<std::size_t>(s.size(), INT_MAX));
  const int n = ::MultiByteToWideChar(CP_UTF8, 0, s.data(), length, nullptr, 0);
  std::wstring w(static_cast<std::size_t>(n), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, s.data(), length, w.data(), n);
  return w;
}

std::string narrow(std::wstring_view w) {
  if (w.empty()) return {};
  const int length = static_cast<int>(std::min<std::size_t>(w.size(), INT_MAX));
  const int n = ::WideCharToMultiByte(CP_UTF8, 0, w.data(), length, nullptr, 0, nullptr, nullptr);
  std::string s(static_cast<std::size_t>(n), '\0');
  ::WideCharToMultiByte(CP_UTF8, 0, w.data(), length, s.data(), n, nullptr, nullptr);
  return s;
}

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

// Opens `path` to read its attributes only (no data access, folders too, links followed).
HANDLE open_attributes(const fs::path& path, DWORD flags = 0) {
  return ::CreateFileW(path.c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
                       FILE_FLAG_BACKUP_SEMANTICS | flags, nullptr);
}

// The layout of FSCTL_GET_REPARSE_POINT's answer for symbolic links and junctions (mount points):
// the user-mode headers do not declare it.
struct ReparseHeader {
  DWORD tag;
  WORD data_length;
  WORD reserved;
  WORD substitute_offset, substitute_length, print_offset, print_length;
};

}  // namespace

fs::path path_from_utf8(std::string_view utf8) { return fs::path(widen(utf8)); }

std::string path_to_utf8(const fs::path& path) { return narrow(path.native()); }

std::string generic_path_to_utf8(const fs::path& path) {
  std::wstring w = path.native();
  std::replace(w.begin(), w.end(), L'\\', L'/');
  return narrow(w);
}

std::optional<FileIdentity> file_identity(const fs::path& path) {
  const HANDLE h = open_attributes(path);
  if (h == INVALID_HANDLE_VALUE) return std::nullopt;
  BY_HANDLE_FILE_INFORMATION fi{};
  const BOOL ok = ::GetFileInformationByHandle(h, &fi);
  ::CloseHandle(h);
  if (!ok) return std::nullopt;
  return FileIdentity{fi.dwVolumeSerialNumber, (std::uint64_t{fi.nFileIndexHigh} << 32) | fi.nFileIndexLow};
}

std::string file_name_key(const fs::path& name) {
  // NTFS compares names by their upper case (its $UpCase table, Unicode's simple mapping), the
  // same for every user: the invariant locale, not the user's (no Turkish dotless i).
  const std::wstring& w = name.native();
  if (w.empty()) return {};
  const int length = static_cast<int>(std::min<std::size_t>(w.size(), INT_MAX));
  std::wstring upper(w.size(), L'\0');
  if (::LCMapStringEx(LOCALE_NAME_INVARIANT, LCMAP_UPPERCASE, w.data(), length, upper.data(), length, nullptr, nullptr,
                      0) == 0)
    return narrow(w);
  return narrow(upper);
}

fs::path name_as_stored(const fs::path& path) {
  WIN32_FIND_DATAW found{};
  if (path.native().find_first_of(L"*?") != std::wstring::npos) return path;
  const HANDLE h = ::FindFirstFileW(path.c_str(), &found);
  if (h == INVALID_HANDLE_VALUE) return path;
  ::FindClose(h);
  return path.parent_path() / fs::path(found.cFileName);
}

std::optional<fs::path> link_target(const fs::path& path) {
  const DWORD attributes = ::GetFileAttributesW(path.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES || (attributes & FILE_ATTRIBUTE_REPARSE_POINT) == 0) return std::nullopt;
  const HANDLE h = open_attributes(path, FILE_FLAG_OPEN_REPARSE_POINT);
  if (h == INVALID_HANDLE_VALUE) return std::nullopt;
  std::vector<unsigned char> buffer(MAXIMUM_REPARSE_DATA_BUFFER_SIZE);
  DWORD got = 0;
  const BOOL ok = ::DeviceIoControl(h, FSCTL_GET_REPARSE_POINT, nullptr, 0, buffer.data(),
                                    static_cast<DWORD>(buffer.size()), &got, nullptr);
  ::CloseHandle(h);
  if (!ok || got < sizeof(ReparseHeader)) return std::nullopt;
  ReparseHeader header;
  std::memcpy(&header, buffer.data(), sizeof header);
  // Symbolic links carry a flags word before their names; junctions do not. Other reparse points
  // (cloud placeholders, deduplicated files) are files, not links.
  std::size_t names = sizeof header;
  if (header.tag == IO_REPARSE_TAG_SYMLINK)
    names += sizeof(ULONG);
  else if (header.tag != IO_REPARSE_TAG_MOUNT_POINT)
    return std::nullopt;
  const auto text = [&](WORD offset, WORD length) -> std::wstring {
    if (names + offset + length > got) return {};
    std::wstring w(length / sizeof(wchar_t), L'\0');
    std::memcpy(w.data(), buffer.data() + names + offset, w.size() * sizeof(wchar_t));
    return w;
  };
  std::wstring target = text(header.print_offset, header.print_length);
  if (target.empty()) {
    target = text(header.substitute_offset, header.substitute_length);
    if (target.rfind(L"\\??\\", 0) == 0) target.erase(0, 4);  // the NT namespace prefix of C:\...
  }
  if (target.empty()) return std::nullopt;
  return fs::path(target);
}

}  // namespace boneyard

namespace boneyard {

// The C runtime's heap (msvcrt over the process heap) has no thresholds or huge-page advice to
// set, and Windows' low-fragmentation heap already keeps freed blocks for reuse.
void use_large_reused_heap() {}

}  // namespace boneyard

namespace boneyard::platform {

namespace {

// The system's reason, in the words Linux uses where there is one, so that messages read alike.
std::string error_text(DWORD e) {
  switch (e) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
    case ERROR_BAD_NETPATH:
    case ERROR_BAD_NET_NAME:
    case ERROR_INVALID_DRIVE: return "No such file or directory";
    case ERROR_ACCESS_DENIED: return "Permission denied";
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_USER_MAPPED_FILE: return "the file is in use by another program";
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS: return "File exists";
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: return "No space left on device";
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY: return "Cannot allocate memory";
    case ERROR_WRITE_PROTECT: return "Read-only file system";
    case ERROR_DIRECTORY: return "Not a directory";
    case ERROR_FILENAME_EXCED_RANGE: return "File name too long";
    case ERROR_NOT_SAME_DEVICE: return "Invalid cross-device link";
    default: break;
  }
  wchar_t* message = nullptr;
  const DWORD n = ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS,
                                   nullptr, e, 0, reinterpret_cast<wchar_t*>(&message), 0, nullptr);
  std::string text;
  if (n != 0 && message != nullptr) {
    std::wstring w(message, n);
    while (!w.empty() && (w.back() == L'\r' || w.back() == L'\n' || w.back() == L'.' || w.back() == L' ')) w.pop_back();
    text = narrow(w);
  }
  if (message != nullptr) ::LocalFree(message);
  return (text.empty() ? std::string("system error") : text) + " (Windows error " + std::to_string(e) + ")";
}

std::string last_error() { return error_text(::GetLastError()); }

HANDLE handle_of(NativeFile file) { return reinterpret_cast<HANDLE>(file); }
NativeFile native_of(HANDLE h) {
  return h == INVALID_HANDLE_VALUE ? kNoFile : reinterpret_cast<NativeFile>(h);
}

bool ascii_iequal(std::wstring_view a, std::wstring_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::towupper(a[i]) != std::towupper(b[i])) return false;
  return true;
}

// What Windows opens as a device whatever folder the name is in: CON, PRN, AUX, NUL, COM1-9,
// LPT1-9 (also with an extension, trailing spaces or dots: "nul.txt", "con ."), CONIN$, CONOUT$;
// and the device namespace \\.\ (\\.\pipe\ is where the FIFOs are) and \\?\GLOBALROOT\.
std::optional<FileKind> device_kind(const fs::path& path) {
  const std::wstring& p = path.native();
  if (p.size() >= 4 && (p[0] == L'\\' || p[0] == L'/') && (p[1] == L'\\' || p[1] == L'/') && p[2] == L'.' &&
      (p[3] == L'\\' || p[3] == L'/')) {
    return ascii_iequal(std::wstring_view(p).substr(4, 5), L"pipe\\") || ascii_iequal(std::wstring_view(p).substr(4, 5), L"pipe/")
               ? FileKind::fifo
               : FileKind::char_device;
  }
  if (p.size() >= 14 && ascii_iequal(std::wstring_view(p).substr(0, 14), L"\\\\?\\GLOBALROOT")) return FileKind::char_device;
  std::wstring name = path.filename().native();
  name = name.substr(0, name.find(L'.'));
  name = name.substr(0, name.find(L':'));
  while (!name.empty() && (name.back() == L' ' || name.back() == L'.')) name.pop_back();
  static constexpr std::array<std::wstring_view, 6> kNames = {L"CON", L"PRN", L"AUX", L"NUL", L"CONIN$", L"CONOUT$"};
  for (const auto n : kNames)
    if (ascii_iequal(name, n)) return FileKind::char_device;
  if (name.size() == 4 && (ascii_iequal(name.substr(0, 3), L"COM") || ascii_iequal(name.substr(0, 3), L"LPT"))) {
    const wchar_t d = name[3];
    if ((d >= L'0' && d <= L'9') || d == L'\u00B9' || d == L'\u00B2' || d == L'\u00B3') return FileKind::char_device;
  }
  return std::nullopt;
}

std::optional<FileInfo> info_of(HANDLE h, std::string& error) {
  FileInfo info;
  switch (::GetFileType(h)) {
    case FILE_TYPE_DISK: break;
    case FILE_TYPE_CHAR: info.kind = FileKind::char_device; return info;
    case FILE_TYPE_PIPE: info.kind = FileKind::fifo; return info;
    default: info.kind = FileKind::other; return info;
  }
  BY_HANDLE_FILE_INFORMATION fi{};
  if (!::GetFileInformationByHandle(h, &fi)) {
    error = last_error();
    return std::nullopt;
  }
  info.kind = (fi.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0 ? FileKind::directory : FileKind::regular;
  info.size = (std::uint64_t{fi.nFileSizeHigh} << 32) | fi.nFileSizeLow;
  info.mode = static_cast<unsigned>(fi.dwFileAttributes);
  return info;
}

// The attributes an edited file and its backup keep from the original.
constexpr DWORD kKeptAttributes =
    FILE_ATTRIBUTE_HIDDEN | FILE_ATTRIBUTE_SYSTEM | FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_NOT_CONTENT_INDEXED;

}  // namespace

std::optional<FileInfo> stat_path(const fs::path& path, std::string& error) {
  if (const auto device = device_kind(path)) {
    FileInfo info;
    info.kind = *device;
    return info;
  }
  const HANDLE h = open_attributes(path);
  if (h == INVALID_HANDLE_VALUE) {
    error = last_error();
    return std::nullopt;
  }
  auto info = info_of(h, error);
  ::CloseHandle(h);
  return info;
}

NativeFile open_for_reading(const fs::path& path, std::string& error) {
  if (device_kind(path)) {
    error = "is a device";
    return kNoFile;
  }
  const HANDLE h = ::CreateFileW(path.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
                                 FILE_ATTRIBUTE_NORMAL | FILE_FLAG_SEQUENTIAL_SCAN, nullptr);
  if (h == INVALID_HANDLE_VALUE) error = last_error();
  return native_of(h);
}

std::optional<FileInfo> stat_open(NativeFile file, std::string& error) { return info_of(handle_of(file), error); }

const void* map_read_only(NativeFile, std::size_t) { return nullptr; }  // read whole: see the top of this file

void unmap(const void*, std::size_t) {}

std::ptrdiff_t read_some(NativeFile file, void* buffer, std::size_t count, std::string& error) {
  DWORD got = 0;
  const DWORD n = static_cast<DWORD>(std::min<std::size_t>(count, 1u << 30));
  if (::ReadFile(handle_of(file), buffer, n, &got, nullptr)) return static_cast<std::ptrdiff_t>(got);
  const DWORD e = ::GetLastError();
  if (e == ERROR_HANDLE_EOF || e == ERROR_BROKEN_PIPE) return 0;
  error = error_text(e);
  return -1;
}

NativeFile create_new(const fs::path& path, unsigned, std::string& error) {
  const HANDLE h = ::CreateFileW(path.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr, CREATE_NEW,
                                 FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) error = last_error();
  return native_of(h);
}

std::ptrdiff_t write_some(NativeFile file, const void* data, std::size_t count, std::string& error) {
  DWORD put = 0;
  const DWORD n = static_cast<DWORD>(std::min<std::size_t>(count, 1u << 30));
  if (::WriteFile(handle_of(file), data, n, &put, nullptr)) return static_cast<std::ptrdiff_t>(put);
  error = last_error();
  return -1;
}

bool copy_mode(NativeFile file, const FileInfo& like, bool, std::string& what, std::string& error) {
  FILE_BASIC_INFO basic{};  // times 0: unchanged
  const DWORD kept = static_cast<DWORD>(like.mode) & kKeptAttributes;
  basic.FileAttributes = kept != 0 ? kept : FILE_ATTRIBUTE_NORMAL;
  if (::SetFileInformationByHandle(handle_of(file), FileBasicInfo, &basic, sizeof basic)) return true;
  what = "cannot set the attributes of";
  error = last_error();
  return false;
}

bool close(NativeFile file, std::string& error) {
  if (::CloseHandle(handle_of(file))) return true;
  error = last_error();
  return false;
}

bool replace(const fs::path& from, const fs::path& to, std::string& error) {
  if (::MoveFileExW(from.c_str(), to.c_str(), MOVEFILE_REPLACE_EXISTING)) return true;
  error = last_error();
  return false;
}

Claim claim_name(const fs::path& temporary, const fs::path& name, std::string& error) {
  if (::MoveFileExW(temporary.c_str(), name.c_str(), 0)) return Claim::claimed;
  const DWORD e = ::GetLastError();
  if (e == ERROR_ALREADY_EXISTS || e == ERROR_FILE_EXISTS) return Claim::taken;
  error = error_text(e);
  return Claim::failed;
}

void remove_file(const fs::path& path) noexcept { ::DeleteFileW(path.c_str()); }

bool may_replace(const fs::path& path, const FileInfo& info, std::string& why) {
  if ((info.mode & FILE_ATTRIBUTE_READONLY) != 0) {
    why = "no write permission";  // the read-only attribute: the words Linux uses for 0444
    return false;
  }
  // Opening for writing changes nothing (no truncation) and says whether the ACL allows it.
  const HANDLE h = ::CreateFileW(path.c_str(), FILE_WRITE_DATA, kShareAll, nullptr, OPEN_EXISTING, 0, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    why = last_error();
    return false;
  }
  ::CloseHandle(h);
  return true;
}

bool may_create_in(const fs::path&, std::string&) { return true; }

}  // namespace boneyard::platform
