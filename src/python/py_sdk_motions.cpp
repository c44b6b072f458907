// boneyard.Skls (a .skl or .skls) and boneyard.Anm: the `boneyard skls` / `boneyard anm` edits
// on a file held in memory, through the registry's edit flow (registry/motion_edits.h) as the
// CLI's, with what boneyard.Omf shares (py_motion_edit.h).
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "boneyard/core/text.h"
#include "boneyard/registry/motion_edits.h"
#include "py_motion_edit.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

using xray::EditReport;
using PySkls = PyMotionFile<SklEdit>;
using PyAnm = PyMotionFile<AnmEdit>;

template <class Py, class Read>
std::shared_ptr<Py> read_with(const py::object& source, Read read) {
  std::string name;
  auto data = file_from(source, name);
  auto parsed = read(std::move(data), path_from_utf8(name));
  if (!parsed) raise_finding(parsed.error(), name);
  return std::make_shared<Py>(Py{std::move(parsed).value()});
}

xray::SklContainer container_from(const std::string& kind) {
  if (kind == "skl") return xray::SklContainer::skl;
  if (kind == "skls") return xray::SklContainer::skls;
  raise_usage("container must be 'skl' or 'skls', not '" + kind + "'");
}

py::dict motion_dict(const xray::SklMotion& m) {
  py::dict d;
  d["name"] = cp1251_to_utf8(m.name);
  d["version"] = m.version;
  d["frame_start"] = m.frame_start;
  d["frame_end"] = m.frame_end;
  d["fps"] = m.fps;
  d["fx"] = m.is_fx();
  d["flags"] = xray::motion_flag_words(m.flags);
  d["bone_or_part"] = m.bone_or_part;
  d["speed"] = m.speed;
  d["accrue"] = m.accrue;
  d["falloff"] = m.falloff;
  d["power"] = m.power;
  py::list bones;
  for (const auto& b : m.bones) bones.append(cp1251_to_utf8(b.name));
  d["bones"] = bones;
  py::list marks;
  for (const auto& mark : m.marks) {
    py::list intervals;
    for (const auto& iv : mark.intervals) intervals.append(py::make_tuple(iv.start, iv.end));
    marks.append(py::dict(py::arg("name") = cp1251_to_utf8(mark.name), py::arg("intervals") = intervals));
  }
  d["marks"] = marks;
  return d;
}

}  // namespace

void bind_sdk_motions(py::module_& m) {
  py::class_<PySkls, std::shared_ptr<PySkls>>(
      m, "Skls", "A .skl or .skls skeletal motion file (the X-Ray SDK's) to edit; motions you do not touch keep their bytes.")
      .def(py::init([](const py::object& source) { return read_with<PySkls>(source, read_skl_edit); }), py::arg("source"),
           "Reads a .skl or .skls from a path or from its bytes (InvalidFile if broken).")
      .def_property_readonly("container",
                             [](const PySkls& o) { return o.file().container == xray::SklContainer::skl ? "skl" : "skls"; })
      .def_property_readonly("motions",
                             [](const PySkls& o) {
                               py::list out;
                               for (const auto& mo : o.file().motions) out.append(motion_dict(mo));
                               return out;
                             },
                             "Each motion's name, version, frames, fps, flags, params, bone names and marks (a snapshot).")
      .def_property_readonly("names",
                             [](const PySkls& o) {
                               std::vector<std::string> out;
                               for (const auto& mo : o.file().motions) out.push_back(cp1251_to_utf8(mo.name));
                               return out;
                             })
      .def("validate", [](const PySkls& o) { return xray::validate_skl(o.file()).findings(); })
      .def("rename",
           [](PySkls& o, const std::string& from, const std::string& to) {
             return apply_edit(o, [&](xray::SklFile& f) { return xray::rename_skl_motion(f, from, to); });
           },
           py::arg("old"), py::arg("new"), "Renames one motion; returns the changes made.")
      .def("delete",
           [](PySkls& o, const py::object& patterns) {
             const auto p = patterns_from(patterns);
             return apply_edit(o, [&](xray::SklFile& f) { return xray::delete_skl_motions(f, p); });
           },
           py::arg("patterns"), "Removes motions by name or glob (* ?) from a .skls.")
      .def("set",
           [](PySkls& o, const py::object& patterns, const py::kwargs& kw) {
             const auto p = patterns_from(patterns);
             return apply_edit(o, [&](xray::SklFile& f) -> Result<EditReport> {
               auto e = param_edit_from(kw);
               if (!e) return e.error();
               return xray::set_skl_params(f, p, e.value());
             });
           },
           py::arg("patterns"),
           "set(patterns, speed=, power=, accrue=, falloff=, flags='fx,stop_at_end', part='all'|'N', bone=, "
           "add_marks=[(name, start, end)], clear_marks=False): like `boneyard skls set`.")
      .def("extract",
           [](const PySkls& o, const py::object& patterns, const std::string& container) {
             EditReport report;
             auto out = xray::extract_skl_motions(o.file(), patterns_from(patterns), container_from(container), report);
             if (!out) raise_edit_failure(out.error(), o.path());
             finish_edit(std::move(report));
             return std::make_shared<PySkls>(PySkls{derived_edit(o.edit, std::move(out).value())});
           },
           py::arg("patterns"), py::arg("container") = "skls", "A new Skls with the chosen motions ('skl': exactly one).")
      .def("to_bytes", [](const PySkls& o) { return checked_edit_bytes(o); },
           "The file's bytes (validated, as save() would write them).")
      .def("save",
           [](const PySkls& o, const py::object& target) {
             return save_edit_to(o, target, o.file().container == xray::SklContainer::skl ? ".skl" : ".skls");
           },
           py::arg("path") = py::none(),
           "save(path): writes atomically. save(): replaces the file it was read from, keeping the original as "
           "FILE.bak (returns the backup's path).");

  m.def(
      "merge_skls",
      [](const std::vector<std::shared_ptr<PySkls>>& inputs, bool rename_clashes, const std::string& container) {
        if (inputs.size() < 2) raise_usage("merge_skls takes two or more Skls objects");
        std::vector<SklEdit> edits;
        for (const auto& in : inputs) edits.push_back(in->edit);
        EditReport report;
        auto merged = merge_skl_edits(std::move(edits), rename_clashes, container_from(container), report);
        if (!merged) raise_edit_failure(merged.error(), inputs.front()->path());
        finish_edit(std::move(report));
        return std::make_shared<PySkls>(PySkls{std::move(merged).value()});
      },
      py::arg("inputs"), py::arg("rename_clashes") = false, py::arg("container") = "skls",
      "Joins Skls objects; a repeated motion name is an error unless rename_clashes.");

  py::class_<PyAnm, std::shared_ptr<PyAnm>>(m, "Anm", "An .anm object or camera motion (the X-Ray SDK's) to edit.")
      .def(py::init([](const py::object& source) { return read_with<PyAnm>(source, read_anm_edit); }), py::arg("source"),
           "Reads an .anm from a path or from its bytes (InvalidFile if broken).")
      .def_property_readonly("name", [](const PyAnm& o) { return cp1251_to_utf8(o.file().motion.name); })
      .def_property_readonly("version", [](const PyAnm& o) { return o.file().motion.version; })
      .def_property_readonly("frames", [](const PyAnm& o) {
        return py::make_tuple(o.file().motion.frame_start, o.file().motion.frame_end);
      })
      .def_property_readonly("fps", [](const PyAnm& o) { return o.file().motion.fps; })
      .def("validate", [](const PyAnm& o) { return xray::validate_anm(o.file()).findings(); })
      .def("rename",
           [](PyAnm& o, const std::string& from, const std::string& to) {
             return apply_edit(o, [&](xray::AnmFile& f) { return xray::rename_anm_motion(f, from, to); });
           },
           py::arg("old"), py::arg("new"), "Renames the motion; returns the changes made.")
      .def("to_bytes", [](const PyAnm& o) { return checked_edit_bytes(o); })
      .def("save", [](const PyAnm& o, const py::object& target) { return save_edit_to(o, target, ".anm"); },
           py::arg("path") = py::none());
}

}  // namespace boneyard::python
