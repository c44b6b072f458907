// boneyard.Object: the `boneyard object` edits on an .object held in memory, as boneyard.Ogf does
// for .ogf: each edit applies to a copy and replaces the object only when it succeeded; reading,
// checking and saving are the CLI's (registry/object_edits.h).
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/object_edits.h"
#include "boneyard/xray/bones/bones.h"
#include "boneyard/xray/object/object_edit.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

using xray::EditReport;
using xray::ObjectFile;

struct PyObject {
  ObjectEdit edit;
  std::string path() const { return path_to_utf8(edit.path); }
};

std::shared_ptr<PyObject> read(const py::object& source) {
  std::string name;
  auto data = file_from(source, name);
  auto parsed = read_object_edit(std::move(data), name);
  if (!parsed) raise_finding(parsed.error(), name);
  return std::make_shared<PyObject>(PyObject{std::move(parsed).value()});
}

std::vector<std::string> apply(PyObject& o, const ObjectEditFn& edit) {
  ObjectFile copy = o.edit.file;
  Result<EditReport> r = edit(copy);
  if (!r) raise_edit_failure(r.error(), o.path());
  o.edit.file = std::move(copy);
  for (const auto& w : r->warnings)
    if (PyErr_WarnEx(error_types().edit_warning.ptr(), w.c_str(), 1) != 0) throw py::error_already_set();
  return std::move(r->changes);
}

std::optional<std::string> text_or_none(const py::object& v) {
  if (v.is_none()) return std::nullopt;
  return v.cast<std::string>();
}

py::dict surface_dict(const xray::ObjectSurfaceInfo& s) {
  py::dict d;
  d["index"] = s.index;
  d["name"] = s.name;
  d["texture"] = s.texture;
  d["shader"] = s.shader;
  d["compiler_shader"] = s.compiler_shader;
  d["game_mtl"] = s.game_mtl;
  d["two_sided"] = s.two_sided;
  d["faces"] = s.faces;
  return d;
}

}  // namespace

void bind_object(py::module_& m) {
  py::class_<PyObject, std::shared_ptr<PyObject>>(m, "Object",
                                                  "An SDK .object to edit; what an edit does not touch keeps its bytes.")
      .def(py::init(&read), py::arg("source"), "Reads an .object from a path or from its bytes (InvalidFile if broken).")
      .def_property_readonly("surfaces",
                             [](const PyObject& o) {
                               py::list out;
                               for (const auto& s : xray::list_surfaces(o.edit.file)) out.append(surface_dict(s));
                               return out;
                             },
                             "Each surface's index, name, texture, shader, compiler_shader, game_mtl, two_sided, faces.")
      .def_property_readonly("motion_refs",
                             [](const PyObject& o) {
                               std::vector<std::string> out;
                               for (const auto& r : o.edit.file.motion_refs) out.push_back(cp1251_to_utf8(r));
                               return out;
                             })
      .def_property_readonly("user_data",
                             [](const PyObject& o) -> py::object {
                               if (!o.edit.file.user_data) return py::none();
                               return py::str(cp1251_to_utf8(*o.edit.file.user_data));
                             })
      .def("validate", [](const PyObject& o) { return xray::validate_object(o.edit.file).findings(); })
      .def("set_surface",
           [](PyObject& o, const py::object& surfaces, const py::object& texture, const py::object& shader,
              const py::object& compiler_shader, const py::object& game_mtl, const py::object& two_sided) {
             const auto sel = patterns_from(surfaces);
             xray::SurfaceChange c;
             c.texture = text_or_none(texture);
             c.shader = text_or_none(shader);
             c.compiler_shader = text_or_none(compiler_shader);
             c.game_mtl = text_or_none(game_mtl);
             if (!two_sided.is_none()) c.two_sided = two_sided.cast<bool>();
             if (c.empty()) raise_usage("set_surface: say what to set: texture=, shader=, compiler_shader=, game_mtl= or two_sided=");
             return apply(o, [&](ObjectFile& f) { return xray::set_surfaces(f, sel, c); });
           },
           py::arg("surfaces"), py::arg("texture") = py::none(), py::arg("shader") = py::none(),
           py::arg("compiler_shader") = py::none(), py::arg("game_mtl") = py::none(), py::arg("two_sided") = py::none(),
           "Fields of the surfaces chosen by index (\"3\") or a glob over names or textures; like `boneyard object set`.")
      .def("set_motion_refs",
           [](PyObject& o, const std::vector<std::string>& refs, const std::string& game) {
             auto g = xray::parse_game(game);
             if (!g) raise_usage("game must be 'soc', 'cs' or 'cop', not '" + game + "'");
             return apply(o, [&](ObjectFile& f) { return xray::set_object_motion_refs(f, refs, *g); });
           },
           py::arg("refs"), py::arg("game") = "", "Replaces the motion refs ([] removes them).")
      .def("set_user_data",
           [](PyObject& o, const std::string& text) {
             return apply(o, [&](ObjectFile& f) { return xray::set_object_user_data(f, text); });
           },
           py::arg("text"), "Replaces the user data (the class script).")
      .def("load_bones",
           [](PyObject& o, const py::object& source) {
             std::string name;
             auto data = file_from(source, name);
             auto bones = xray::read_bones(std::move(data));
             if (!bones) raise_finding(bones.error(), name);
             return apply(o, [&](ObjectFile& f) { return xray::load_object_bones(f, bones.value()); });
           },
           py::arg("bones"), "Loads bone data from a .bones file (path or bytes), as the Actor Editor's Bones > Load.")
      .def("to_bytes",
           [](const PyObject& o) {
             auto checked = object_edit_bytes(o.edit);
             if (!checked) raise_finding(checked.error(), o.path());
             const auto& b = checked.value();
             return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
           },
           "The object's bytes (read back and validated, as save() would write them).")
      .def("save",
           [](const PyObject& o, const py::object& target) -> py::object {
             if (target.is_none() && o.path().empty())
               raise_usage("this .object was not read from a file: say where it goes, save(path)");
             const std::string path = target.is_none() ? std::string() : path_from(target);
             auto saved = save_object_edit(o.edit, path_from_utf8(path));
             if (!saved) {
               const Finding& f = saved.error();
               if (f.usage) raise_usage(f.message + "; save() without a path replaces it and keeps a .bak");
               raise_finding(f, f.io && !path.empty() ? path : o.path());
             }
             if (target.is_none()) return fs_name(path_to_utf8(saved.value().backup));
             return py::none();
           },
           py::arg("path") = py::none(),
           "save(path): writes atomically. save(): replaces the file it was read from, keeping the original as "
           "the first free FILE.bak, FILE.bak.1, ...; returns the backup's path.");
}

}  // namespace boneyard::python
