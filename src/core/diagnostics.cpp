#include "boneyard/core/diagnostics.h"
#include "core/byte_reader.h"

#include <algorithm>
#include <iterator>
#include <cstdio>

namespace boneyard {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "?";
}

std::string format_finding(const Finding& f, std::string_view file) {
  char where[64];
  std::snprintf(where, sizeof where, " at byte %llu (0x%llX)", static_cast<unsigned long long>(f.offset),
                static_cast<unsigned long long>(f.offset));
  std::string s;
  s.reserve(file.size() + f.path.size() + f.message.size() + 96);
  s.append(file).append(": ").append(severity_name(f.severity)).append(where);
  if (!f.path.empty()) s.append(" in ").append(f.path);
  s.append(": ").append(f.message);
  if (!f.expected.empty() || !f.found.empty()) {
    s.append(" (expected ").append(f.expected.empty() ? "-" : f.expected);
    s.append(", found ").append(f.found.empty() ? "-" : f.found).append(")");
  }
  return s;
}

std::string describe_failure(const Finding& f, std::string_view file) {
  if (f.io && f.path.empty() && f.offset == 0) return f.message;
  if (f.usage) return std::string(file) + ": " + f.message;
  return format_finding(f, file);
}

std::string describe_edit_failure(const Finding& f, std::string_view file) {
  if (f.path.empty() && f.offset == 0) {
    std::string s = std::string(file) + ": error: " + f.message;
    if (!f.expected.empty() || !f.found.empty())
      s += " (expected " + (f.expected.empty() ? std::string("-") : f.expected) + ", found " +
           (f.found.empty() ? std::string("-") : f.found) + ")";
    return s;
  }
  return format_finding(f, file);
}

void Diagnostics::add(Severity s, std::uint64_t offset, std::string path, std::string message,
                      std::string expected, std::string found) {
  findings_.push_back(Finding{s, offset, std::move(path), std::move(message), std::move(expected),
                              std::move(found)});
}

std::size_t Diagnostics::count(Severity s) const {
  return static_cast<std::size_t>(
      std::count_if(findings_.begin(), findings_.end(), [s](const Finding& f) { return f.severity == s; }));
}

std::vector<Finding> Diagnostics::errors() const {
  std::vector<Finding> out;
  std::copy_if(findings_.begin(), findings_.end(), std::back_inserter(out),
               [](const Finding& f) { return f.severity == Severity::error; });
  return out;
}

void Diagnostics::sort_by_offset() {
  std::stable_sort(findings_.begin(), findings_.end(),
                   [](const Finding& a, const Finding& b) { return a.offset < b.offset; });
}

ParseError::ParseError(Finding f) : std::runtime_error(f.message), finding_(std::move(f)) {}

void ParseError::prepend_path(std::string_view context) {
  if (context.empty()) return;
  if (finding_.path.empty()) {
    finding_.path = std::string(context);
  } else {
    std::string p(context);
    p.push_back(' ');
    p += finding_.path;
    finding_.path = std::move(p);
  }
}

void fail(std::uint64_t offset, std::string path, std::string message, std::string expected,
          std::string found) {
  throw ParseError(Finding{Severity::error, offset, std::move(path), std::move(message), std::move(expected),
                           std::move(found)});
}

}  // namespace boneyard
