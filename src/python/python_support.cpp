#include "python_support.h"

#include <pybind11/stl.h>

#include <cstring>
#include <utility>

#include "boneyard/core/paths.h"

namespace boneyard::python {

namespace {

ErrorTypes& types() {
  static ErrorTypes t;
  return t;
}

py::object new_exception(py::module_& m, const char* name, py::handle base, const char* doc) {
  const std::string qualified = std::string("boneyard.") + name;
  py::object type = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base.ptr(), nullptr));
  if (!type) throw py::error_already_set();
  m.attr(name) = type;
  return type;
}

// Releases a Python buffer (and the object behind it) once the last view into it is gone. The
// GIL is taken because the last owner may be released from C++ code that let it go.
struct HeldBuffer {
  Py_buffer view{};
  ~HeldBuffer() {
    py::gil_scoped_acquire gil;
    PyBuffer_Release(&view);
  }
};

}  // namespace

const ErrorTypes& error_types() { return types(); }

void register_errors(py::module_& m) {
  auto& t = types();
  t.error = new_exception(m, "Error", PyExc_Exception,
                          "A boneyard error; `finding` holds the Finding, `findings` all of them.");
  t.invalid_file = new_exception(m, "InvalidFile", t.error,
                                 "The file is not valid (the CLI exits with 1): truncated, malformed, or it "
                                 "has validation errors that stop a conversion.");
  t.usage_error = new_exception(m, "UsageError", t.error,
                                "The request cannot be done (the CLI exits with 2): an option that does not "
                                "apply, an unsupported target, a file that cannot be read or written.");
  t.edit_warning = new_exception(m, "EditWarning", PyExc_UserWarning,
                                 "Something an edit could not keep (issued with the warnings module).");
}

namespace {

[[noreturn]] void raise_with(const std::string& message, const Finding& f, const std::string& file,
                             std::vector<Finding> findings) {
  if (findings.empty()) findings.push_back(f);
  const auto& t = types();
  const py::object& type = f.io || f.usage ? t.usage_error : t.invalid_file;
  py::object exc = type(lenient_text(message));
  exc.attr("finding") = py::cast(f);
  exc.attr("findings") = py::cast(std::move(findings));
  // A file name that is not UTF-8 is shown as Python shows it (os.fsdecode's surrogate escapes).
  exc.attr("file") = fs_name(file);
  PyErr_SetObject(type.ptr(), exc.ptr());
  throw py::error_already_set();
}

// Files given as bytes have no name: the message says so.
std::string shown(const std::string& file) { return file.empty() ? "<bytes>" : file; }

}  // namespace

void raise_finding(const Finding& f, const std::string& file, std::vector<Finding> findings) {
  raise_with(describe_failure(f, shown(file)), f, file, std::move(findings));
}

void raise_edit_failure(const Finding& f, const std::string& file) {
  raise_with(describe_edit_failure(f, shown(file)), f, file, {});
}

void raise_message(const Finding& f, const std::string& message, const std::string& file) {
  raise_with(message.empty() ? describe_failure(f, shown(file)) : message, f, file, {});
}

void raise_usage(const std::string& message) { raise_finding(usage_error_finding(message), "boneyard"); }

std::string path_from(const py::object& value) {
  if (value.is_none()) return {};
  // os.fsencode takes str, bytes and os.PathLike and gives the bytes the operating system uses:
  // a name that is not UTF-8 (a Linux file name, kept by Python as surrogate escapes) survives.
  const py::module_ os = py::module_::import("os");
  const py::bytes encoded = os.attr("fsencode")(value);
  std::string path = encoded;
  if (path.find('\0') != std::string::npos) {
    PyErr_SetString(PyExc_ValueError, "embedded NUL byte in a path");
    throw py::error_already_set();
  }
  return path;
}

py::object fs_name(const std::string& path) { return py::module_::import("os").attr("fsdecode")(py::bytes(path)); }

py::str lenient_text(const std::string& text) {
  return py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "backslashreplace"));
}

std::shared_ptr<const FileData> file_from(const py::object& source, std::string& name) {
  if (PyObject_CheckBuffer(source.ptr()) != 0) {
    auto held = std::make_shared<HeldBuffer>();
    if (PyObject_GetBuffer(source.ptr(), &held->view, PyBUF_SIMPLE) != 0) throw py::error_already_set();
    const Bytes bytes{static_cast<const std::uint8_t*>(held->view.buf), static_cast<std::size_t>(held->view.len)};
    if (held->view.readonly != 0) return FileData::from_view(bytes, std::move(held));
    return FileData::from_vector(std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
  }
  name = path_from(source);
  auto opened = FileData::open(path_from_utf8(name));
  if (!opened) raise_finding(opened.error(), name);
  return std::move(opened).value();
}

std::vector<std::string> patterns_from(const py::object& patterns) {
  if (py::isinstance<py::str>(patterns)) return {patterns.cast<std::string>()};
  return patterns.cast<std::vector<std::string>>();
}

}  // namespace boneyard::python
