// Findings, parse errors and Result: how every reader and validator reports problems.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace boneyard {

enum class Severity : std::uint8_t { info, warning, error };

std::string_view severity_name(Severity s);

// One problem or fact about a file. `path` locates it inside the file's structure
// (e.g. "0xE/12 bone 7 rotation keys"); `offset` is the absolute byte offset in the file.
struct Finding {
  Severity severity = Severity::error;
  std::uint64_t offset = 0;
  std::string path;
  std::string message;
  std::string expected;  // empty when not applicable
  std::string found;     // empty when not applicable
  // The problem is a file that could not be read (missing, a directory, a FIFO...), not the
  // content of one: the CLI exits with 2 (I/O) instead of 1.
  bool io = false;
  // The problem is the request, not a file: an option that does not apply, a template of the
  // wrong format. Exit code 2 (usage) as well.
  bool usage = false;
};

// An error about a file that could not be read (missing, a directory, a FIFO...): `io` set.
inline Finding io_error_finding(std::string path, std::string message) {
  return Finding{Severity::error, 0, std::move(path), std::move(message), {}, {}, true};
}

// An error about what was asked (an option, a combination of options): `usage` set.
inline Finding usage_error_finding(std::string message) {
  Finding f{Severity::error, 0, {}, std::move(message), {}, {}, false};
  f.usage = true;
  return f;
}

// "file: error at byte 1234 (0x4D2) in 0xE/3 bone 1 rotation keys: truncated (expected 80 bytes, found 12)"
std::string format_finding(const Finding& f, std::string_view file);

// The one line that reports a failed request about `file`: format_finding, except that a file
// that could not be read or written names itself (no place in `file` to show) and a usage error
// is "file: message".
std::string describe_failure(const Finding& f, std::string_view file);
// The same for an edit: an edit that cannot be done (no path, offset 0: nothing in the file is at
// fault) is "file: error: message (expected ..., found ...)", anything else format_finding.
std::string describe_edit_failure(const Finding& f, std::string_view file);

class Diagnostics {
 public:
  void add(Finding f) { findings_.push_back(std::move(f)); }
  void add(Severity s, std::uint64_t offset, std::string path, std::string message,
           std::string expected = {}, std::string found = {});
  // Adds every finding of `other` after this one's (a validator's findings after a reader's notes).
  void append(const Diagnostics& other) { findings_.insert(findings_.end(), other.findings_.begin(), other.findings_.end()); }
  const std::vector<Finding>& findings() const { return findings_; }
  std::vector<Finding>& findings() { return findings_; }
  std::size_t count(Severity s) const;
  bool has_errors() const { return count(Severity::error) != 0; }
  // The errors alone, in order (what stops a conversion).
  std::vector<Finding> errors() const;
  void sort_by_offset();

 private:
  std::vector<Finding> findings_;
};

// A value or the Finding that explains why there is none (fastgltf-style errors as values).
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Finding error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const Finding& error() const { return std::get<Finding>(v_); }

 private:
  std::variant<T, Finding> v_;
};

// Success, or the Finding that explains the failure: what functions that produce no value
// return (writes, checks). `Status()` is success.
template <>
class Result<void> {
 public:
  Result() = default;
  Result(Finding error) : error_(std::move(error)), failed_(true) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Finding& error() const { return error_; }

 private:
  Finding error_;
  bool failed_ = false;
};
using Status = Result<void>;

}  // namespace boneyard
