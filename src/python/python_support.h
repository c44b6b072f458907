// What the Python bindings share: findings as Python objects, boneyard errors as Python
// exceptions, and file contents from a path or from a Python buffer without copying it.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"

namespace boneyard::python {

namespace py = pybind11;

// boneyard.Error (base), boneyard.InvalidFile (the content of a file: exit 1 in the CLI) and
// boneyard.UsageError (the request or the file system: exit 2). Created by register_errors.
struct ErrorTypes {
  py::object error, invalid_file, usage_error, edit_warning;
};
const ErrorTypes& error_types();
void register_errors(py::module_& m);

// Raises the exception that fits `f` (InvalidFile or UsageError) with `f` as its `finding`
// attribute and `findings` (all of them, `f` first when empty) as `findings`; the message is the
// CLI's one line, naming `file` (describe_failure; describe_edit_failure for an edit).
[[noreturn]] void raise_finding(const Finding& f, const std::string& file, std::vector<Finding> findings = {});
[[noreturn]] void raise_edit_failure(const Finding& f, const std::string& file);
[[noreturn]] void raise_usage(const std::string& message);
// Raises the exception that fits `f` with `message` (a request's own one line, as the CLI prints it).
[[noreturn]] void raise_message(const Finding& f, const std::string& message, const std::string& file);

// The file's bytes: a path (str or os.PathLike) is mapped; a read-only buffer (bytes, a read-only
// memoryview) is used in place and kept alive; a writable one (bytearray) is copied, since Python
// code could change it while boneyard reads it. `name` gets the path (or stays as given).
std::shared_ptr<const FileData> file_from(const py::object& source, std::string& name);

// A pattern argument: one str or a list of them.
std::vector<std::string> patterns_from(const py::object& patterns);

// A str, bytes or os.PathLike path as the bytes the operating system takes ("" for None); an
// embedded NUL raises ValueError.
std::string path_from(const py::object& value);
// A path from path_from back as Python shows it (os.fsdecode: a name that is not UTF-8 keeps its
// bytes as surrogate escapes), and text that may hold such a name (undecodable bytes escaped).
py::object fs_name(const std::string& path);
py::str lenient_text(const std::string& text);

}  // namespace boneyard::python
