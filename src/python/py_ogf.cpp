// boneyard.Ogf: the `boneyard ogf` edits on an .ogf held in memory. Each edit applies to a copy
// and replaces the model only when it succeeded, so a refused edit changes nothing; reading,
// checking and saving are the CLI's (registry/ogf_edits.h): save() writes only what reads back
// and validates, errors the input already had excepted.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/ogf_edits.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf/ogf_edit.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

using xray::EditReport;
using xray::OgfFile;

struct PyOgf {
  OgfEdit edit;
  std::string path() const { return path_to_utf8(edit.path); }
};

std::shared_ptr<PyOgf> read(const py::object& source) {
  std::string name;
  auto data = file_from(source, name);
  auto parsed = read_ogf_edit(std::move(data), name);
  if (!parsed) raise_finding(parsed.error(), name);
  return std::make_shared<PyOgf>(PyOgf{std::move(parsed).value()});
}

std::vector<std::string> finish(EditReport report) {
  for (const auto& w : report.warnings)
    if (PyErr_WarnEx(error_types().edit_warning.ptr(), w.c_str(), 1) != 0) throw py::error_already_set();
  return std::move(report.changes);
}

std::vector<std::string> apply(PyOgf& ogf, const OgfEditFn& edit) {
  OgfFile copy = ogf.edit.file;
  Result<EditReport> r = edit(copy);
  if (!r) raise_edit_failure(r.error(), ogf.path());
  ogf.edit.file = std::move(copy);
  return finish(std::move(r).value());
}

xray::Game game_from(const std::string& g) {
  auto parsed = xray::parse_game(g);
  if (!parsed) raise_usage("game must be 'soc', 'cs' or 'cop', not '" + g + "'");
  return *parsed;
}

py::bytes checked_bytes(const PyOgf& ogf) {
  auto checked = ogf_edit_bytes(ogf.edit);
  if (!checked) raise_finding(checked.error(), ogf.path());
  const auto& b = checked.value();
  return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
}

py::object save(const PyOgf& ogf, const py::object& target) {
  if (target.is_none() && ogf.path().empty())
    raise_usage("this .ogf was not read from a file: say where it goes, save(path)");
  const std::string path = target.is_none() ? std::string() : path_from(target);
  auto saved = save_ogf_edit(ogf.edit, path_from_utf8(path));
  if (!saved) {
    const Finding& f = saved.error();
    if (f.usage) raise_usage(f.message + "; save() without a path replaces it and keeps a .bak");
    raise_finding(f, f.io && !path.empty() ? path : ogf.path());
  }
  if (target.is_none()) return fs_name(path_to_utf8(saved.value().backup));
  return py::none();
}

py::dict child_dict(const xray::OgfChildInfo& c) {
  py::dict d;
  d["index"] = c.index;
  d["readable"] = c.readable;
  d["type"] = c.type;
  d["texture"] = c.texture;
  d["shader"] = c.shader;
  d["links"] = c.links;
  d["vertices"] = c.vertices;
  d["triangles"] = c.triangles;
  d["progressive"] = c.progressive;
  return d;
}

std::optional<std::string> text_or_none(const py::object& v) {
  if (v.is_none()) return std::nullopt;
  return v.cast<std::string>();
}

const char* outcome_word(FolderEditItem::Outcome o) {
  switch (o) {
    case FolderEditItem::Outcome::changed: return "changed";
    case FolderEditItem::Outcome::unchanged: return "unchanged";
    case FolderEditItem::Outcome::not_matched: return "not_matched";
    case FolderEditItem::Outcome::failed: return "failed";
  }
  return "failed";
}

}  // namespace

void bind_ogf(py::module_& m) {
  py::class_<PyOgf, std::shared_ptr<PyOgf>>(m, "Ogf",
                                            "An .ogf model to edit; what an edit does not touch keeps its bytes.")
      .def(py::init(&read), py::arg("source"), "Reads an .ogf from a path or from its bytes (InvalidFile if broken).")
      .def_property_readonly("children",
                             [](const PyOgf& o) {
                               py::list out;
                               for (const auto& c : xray::list_children(o.edit.file)) out.append(child_dict(c));
                               return out;
                             },
                             "Each child's index, type, links, vertices, triangles, texture and shader (dicts).")
      .def_property_readonly("motion_refs",
                             [](const PyOgf& o) {
                               std::vector<std::string> out;
                               for (const auto& r : o.edit.file.motion_refs) out.push_back(cp1251_to_utf8(r));
                               return out;
                             })
      .def_property_readonly("user_data",
                             [](const PyOgf& o) -> py::object {
                               if (!o.edit.file.user_data) return py::none();
                               return py::str(cp1251_to_utf8(*o.edit.file.user_data));
                             })
      .def("validate", [](const PyOgf& o) { return xray::validate_ogf(o.edit.file).findings(); })
      .def("set_material",
           [](PyOgf& o, const py::object& children, const py::object& texture, const py::object& shader) {
             const auto sel = patterns_from(children);
             const auto tex = text_or_none(texture), sh = text_or_none(shader);
             if (!tex && !sh) raise_usage("set_material: say what to set: texture= and/or shader=");
             return apply(o, [&](OgfFile& f) { return xray::set_child_material(f, sel, tex, sh); });
           },
           py::arg("children"), py::arg("texture") = py::none(), py::arg("shader") = py::none(),
           "Texture and/or shader of the children chosen by index (\"3\") or texture glob; like `boneyard ogf set`.")
      .def("set_motion_refs",
           [](PyOgf& o, const std::vector<std::string>& refs, const std::string& game) {
             const xray::Game g = game_from(game);
             return apply(o, [&](OgfFile& f) { return xray::set_motion_refs(f, refs, g); });
           },
           py::arg("refs"), py::arg("game") = "", "Replaces the motion refs ([] removes them).")
      .def("set_user_data",
           [](PyOgf& o, const std::string& text) {
             return apply(o, [&](OgfFile& f) { return xray::set_user_data(f, text); });
           },
           py::arg("text"), "Replaces the user data (\"\" removes it).")
      .def("retarget",
           [](PyOgf& o, const std::string& game) {
             if (game.empty()) raise_usage("retarget: game must be 'soc', 'cs' or 'cop'");
             const xray::Game g = game_from(game);
             return apply(o, [&](OgfFile& f) { return xray::retarget_ogf(f, g); });
           },
           py::arg("game"), "Rewrites for another game; SoC's moved weights come as EditWarning.")
      .def("to_bytes", &checked_bytes, "The model's bytes (read back and validated, as save() would write them).")
      .def("save", &save, py::arg("path") = py::none(),
           "save(path): writes atomically. save(): replaces the file it was read from, keeping the original as "
           "the first free FILE.bak, FILE.bak.1, ...; returns the backup's path.");

  m.def(
      "set_material_in_folder",
      [](const py::object& folder, const py::object& children, const py::object& texture, const py::object& shader,
         bool dry_run) {
        const auto sel = patterns_from(children);
        const auto tex = text_or_none(texture), sh = text_or_none(shader);
        if (!tex && !sh) raise_usage("set_material_in_folder: say what to set: texture= and/or shader=");
        const std::string dir = path_from(folder);
        auto items = edit_ogf_folder(
            path_from_utf8(dir), sel, [&](OgfFile& f) { return xray::set_child_material(f, sel, tex, sh); }, dry_run);
        if (!items) raise_finding(items.error(), dir);
        py::list out;
        for (auto& item : items.value()) {
          py::dict d;
          d["file"] = fs_name(path_to_utf8(item.file));
          d["outcome"] = outcome_word(item.outcome);
          d["changes"] = item.report.changes;
          d["warnings"] = item.report.warnings;
          d["error"] = item.status ? py::object(py::none())
                                   : py::object(lenient_text(format_finding(item.status.error(), path_to_utf8(item.file))));
          d["backup"] = item.backup.empty() ? py::object(py::none()) : fs_name(path_to_utf8(item.backup));
          out.append(d);
        }
        return out;
      },
      py::arg("folder"), py::arg("children"), py::arg("texture") = py::none(), py::arg("shader") = py::none(),
      py::arg("dry_run") = false,
      "`boneyard ogf set --recursive`: every .ogf under `folder` whose children match, edited in place with a "
      "backup (or only reported with dry_run); one dict per model: file, outcome (changed, unchanged, "
      "not_matched, failed), changes, warnings, error, backup.");
}

}  // namespace boneyard::python
