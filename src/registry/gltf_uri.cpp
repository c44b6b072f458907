// External buffer URIs of a .gltf. A .gltf downloaded from a stranger must not make boneyard read
// files elsewhere on the machine: by default only relative paths that stay inside the .gltf's
// folder are opened, after percent-decoding, `..` and symlinks. A refusal is decided from the URI
// and the links inside the folder alone, before the target is touched, so its message is the same
// whether the target exists or not and says nothing about it.
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <deque>
#include <system_error>

#include "boneyard/core/file_io.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/registry/gltf_files.h"

namespace boneyard {

namespace {

namespace fs = std::filesystem;

Finding error(std::string where, std::string message, std::string expected, std::string found) {
  return Finding{Severity::error, 0, std::move(where), std::move(message), std::move(expected), std::move(found)};
}

constexpr int kMaxLinks = 40;  // as the kernel's limit for one path (ELOOP)
constexpr std::size_t kMaxUriShown = 80;

// The URI as written, for messages: control bytes escaped (one line), long ones cut.
std::string shown(std::string_view uri) {
  std::string out = "\"";
  for (std::size_t i = 0; i < uri.size() && i < kMaxUriShown; ++i) {
    const auto c = static_cast<unsigned char>(uri[i]);
    if (c < 0x20 || c == 0x7F || c == '"' || c == '\\') {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02X", c);
      out += b;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + (uri.size() > kMaxUriShown ? "...\"" : "\"");
}

// "http:", "file:", "C:": RFC 3986 scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":".
bool has_scheme(std::string_view uri) {
  const auto colon = uri.find(':');
  if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(uri[0]))) return false;
  for (std::size_t i = 1; i < colon; ++i) {
    const auto c = static_cast<unsigned char>(uri[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

std::deque<std::string> components(std::string_view path) {
  std::deque<std::string> out;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

fs::path join(const fs::path& root, const std::vector<std::string>& inside) {
  fs::path p = root;
  for (const auto& c : inside) p /= c;
  return p;
}

std::optional<std::string> link_target(const fs::path& p) {
  struct stat st {};
  if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return std::nullopt;
  std::string target(4096, '\0');
  const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
  if (n < 0) return std::nullopt;
  target.resize(static_cast<std::size_t>(n));
  return target;
}

// `relative` below `root` (canonical), following symlinks as the kernel would, component by
// component; nullopt as soon as it would leave `root` (a `..` above it, an absolute link that
// points elsewhere, a link loop). Components that do not exist are taken as they are written.
std::optional<fs::path> confine(const fs::path& root, std::string_view relative) {
  std::deque<std::string> pending = components(relative);
  std::vector<std::string> inside;
  int links = 0;
  while (!pending.empty()) {
    std::string c = std::move(pending.front());
    pending.pop_front();
    if (c.empty() || c == ".") continue;
    if (c == "..") {
      if (inside.empty()) return std::nullopt;
      inside.pop_back();
      continue;
    }
    inside.push_back(std::move(c));
    auto target = link_target(join(root, inside));
    if (!target) continue;
    if (++links > kMaxLinks) return std::nullopt;
    inside.pop_back();
    std::string rest = *target;
    if (!rest.empty() && rest.front() == '/') {
      // An absolute link is followed only when it points below the root.
      const fs::path rel = fs::path(rest).lexically_normal().lexically_relative(root);
      if (rel.empty() || *rel.begin() == "..") return std::nullopt;
      inside.clear();
      rest = rel.string();
    }
    auto more = components(rest);
    pending.insert(pending.begin(), more.begin(), more.end());
  }
  return join(root, inside);
}

fs::path canonical_folder(const fs::path& base_dir) {
  const fs::path dir = base_dir.empty() ? fs::path(".") : base_dir;
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  return ec ? dir : c;
}

Finding refused(const std::string& where, const std::string& uri, const std::string& why) {
  return error(where, "external buffer refused: " + why + "; --allow-outside-uris reads it",
               "a data: URI or a relative path inside the glTF's folder", shown(uri));
}

// The file a non-data URI names, or why it is not read.
Result<fs::path> buffer_path(const std::string& uri, const fs::path& base_dir, bool allow_outside,
                             const std::string& where) {
  if (has_scheme(uri))
    return error(where, "external buffer URI scheme not supported: only data: URIs and file paths are read",
                 "a data: URI or a relative path", shown(uri));
  const std::string path = gltf::percent_decode(uri);
  if (path.find('\0') != std::string::npos)
    return error(where, "external buffer URI holds a NUL byte", "a relative path", shown(uri));
  if (allow_outside) return base_dir / path;  // an absolute path replaces base_dir
  if (!path.empty() && path.front() == '/') return refused(where, uri, "an absolute path");
  auto inside = confine(canonical_folder(base_dir), path);
  if (!inside) return refused(where, uri, "the path leaves the glTF's folder");
  return *inside;
}

}  // namespace

gltf::ExternalBuffers gltf_buffer_files(const fs::path& base_dir, bool allow_outside) {
  return [base_dir, allow_outside](const std::string& uri, const std::string& where) -> Result<std::shared_ptr<const FileData>> {
    auto path = buffer_path(uri, base_dir, allow_outside, where);
    if (!path) return path.error();
    auto opened = FileData::open(path.value());
    if (!opened) return io_error_finding(where, "cannot read external buffer " + shown(uri) + ": " + opened.error().message);
    return opened;
  };
}

}  // namespace boneyard
