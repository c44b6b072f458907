// What Python's motion-file classes (boneyard.Omf, Skls, Anm) share: an edit of the registry's flow
// (registry/motion_edits.h), edits applied to a copy that replaces the file only when they
// succeed (a refused edit changes nothing), and checked bytes and saving as the CLI's.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "boneyard/core/paths.h"
#include "boneyard/registry/motion_edits.h"
#include "python_support.h"

namespace boneyard::python {

template <class Edit>
struct PyMotionFile {
  Edit edit;
  auto& file() { return edit.file; }
  const auto& file() const { return edit.file; }
  std::string path() const { return path_to_utf8(edit.path); }  // "" when it came from bytes or from an edit
};

// set()'s keyword arguments (speed, power, accrue, falloff, flags, part, bone, add_marks,
// clear_marks) as an edit, or the usage error of a bad value (py_omf.cpp).
Result<xray::ParamEdit> param_edit_from(const py::dict& kw);

// The report's changes, with its warnings issued as boneyard.EditWarning.
inline std::vector<std::string> finish_edit(xray::EditReport report) {
  for (const auto& w : report.warnings)
    if (PyErr_WarnEx(error_types().edit_warning.ptr(), w.c_str(), 1) != 0) throw py::error_already_set();
  return std::move(report.changes);
}

template <class Edit, class Fn>
std::vector<std::string> apply_edit(PyMotionFile<Edit>& o, Fn edit) {
  auto copy = o.file();
  Result<xray::EditReport> r = edit(copy);
  if (!r) raise_edit_failure(r.error(), o.path());
  o.file() = std::move(copy);
  return finish_edit(std::move(r).value());
}

template <class Edit>
py::bytes checked_edit_bytes(const PyMotionFile<Edit>& o) {
  auto checked = edit_bytes(o.edit);
  if (!checked) raise_finding(checked.error(), o.path());
  const auto& b = checked.value();
  return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
}

// save(path) writes atomically; save() replaces the file it was read from, keeping a backup
// (returns the backup's path).
template <class Edit>
py::object save_edit_to(const PyMotionFile<Edit>& o, const py::object& target, const char* what) {
  if (target.is_none() && o.path().empty())
    raise_usage(std::string("this ") + what + " was not read from a file: say where it goes, save(path)");
  const std::string path = target.is_none() ? std::string() : path_from(target);
  auto saved = save_edit(o.edit, path_from_utf8(path));
  if (!saved) {
    const Finding& f = saved.error();
    if (f.usage) raise_usage(f.message + "; save() without a path replaces it and keeps a .bak");
    raise_finding(f, f.io && !path.empty() ? path : o.path());
  }
  if (target.is_none()) return fs_name(saved.value().backup.string());
  return py::none();
}

}  // namespace boneyard::python
