// boneyard.Omf: the `boneyard omf` edits on an .omf held in memory. Each edit applies to a copy
// and replaces the file only when it succeeded, so a refused edit changes nothing; reading,
// checking and saving are the CLI's (registry/omf_edits.h): save() writes only what validates,
// errors the input already had excepted.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/omf_edits.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "py_motion_edit.h"
#include "python_support.h"

namespace boneyard::python {

namespace {
std::optional<float> param(const py::object& v) {
  if (v.is_none()) return std::nullopt;
  return v.cast<float>();
}
}  // namespace

// py_motion_edit.h
Result<xray::ParamEdit> param_edit_from(const py::dict& kw) {
  xray::ParamEdit e;
  for (const auto& [key, value] : kw) {
    const std::string k = key.cast<std::string>();
    const py::object v = py::reinterpret_borrow<py::object>(value);
    std::optional<float>* target = k == "speed" ? &e.speed : k == "power" ? &e.power
                                 : k == "accrue" ? &e.accrue : k == "falloff" ? &e.falloff : nullptr;
    if (target) {
      *target = param(v);
      if (*target && !xray::valid_motion_param(**target))
        return usage_error_finding(k + " must be a finite number >= 0 (found " + py::str(v).cast<std::string>() + ")");
    } else if (k == "flags") {
      auto flags = xray::parse_motion_flags(v.cast<std::string>());
      if (!flags) return flags.error();
      e.flags = flags.value();
    } else if (k == "part") {
      e.part = v.cast<std::string>();
    } else if (k == "bone") {
      e.bone = v.cast<std::string>();
    } else if (k == "clear_marks") {
      e.clear_marks = v.cast<bool>();
    } else if (k == "add_marks") {
      for (const auto& m : v) {
        auto t = m.cast<py::tuple>();
        if (t.size() != 3) return usage_error_finding("add_marks takes (name, start, end) tuples, seconds");
        e.add_marks.push_back({t[0].cast<std::string>(), t[1].cast<float>(), t[2].cast<float>()});
      }
    } else {
      throw py::type_error("set() got an unexpected keyword argument '" + k +
                           "' (speed, power, accrue, falloff, flags, part, bone, add_marks, clear_marks)");
    }
  }
  return e;
}

namespace {

using xray::EditReport;
using xray::OmfFile;

// The file and what it came from: the registry's edit flow (registry/omf_edits.h), as the CLI's.
using PyOmf = PyMotionFile<OmfEdit>;

std::shared_ptr<PyOmf> read(const py::object& source) {
  std::string name;
  auto data = file_from(source, name);
  auto parsed = read_omf_edit(std::move(data), path_from_utf8(name));
  if (!parsed) raise_finding(parsed.error(), name);
  return std::make_shared<PyOmf>(PyOmf{std::move(parsed).value()});
}

std::vector<std::string> finish(EditReport report) { return finish_edit(std::move(report)); }

template <class Edit>
std::vector<std::string> apply(PyOmf& omf, Edit edit) {
  return apply_edit(omf, edit);
}

py::bytes checked_bytes(const PyOmf& omf) { return checked_edit_bytes(omf); }

py::object save(const PyOmf& omf, const py::object& target) { return save_edit_to(omf, target, ".omf"); }

py::dict motion_dict(const OmfFile& f, std::size_t i) {
  const auto& p = f.motions.params.motions[i];
  py::dict d;
  d["name"] = cp1251_to_utf8(p.name);
  d["frames"] = i < f.motions.motions.size() ? py::int_(f.motions.motions[i].frames) : py::int_(0);
  d["fx"] = p.is_fx();
  d["flags"] = xray::motion_flag_words(p.flags);
  d["speed"] = p.speed;
  d["power"] = p.power;
  d["accrue"] = p.accrue;
  d["falloff"] = p.falloff;
  py::list marks;
  for (const auto& m : p.marks) {
    py::list intervals;
    for (const auto& iv : m.intervals) intervals.append(py::make_tuple(iv.start, iv.end));
    marks.append(py::dict(py::arg("name") = cp1251_to_utf8(m.name), py::arg("intervals") = intervals));
  }
  d["marks"] = marks;
  return d;
}

Result<EditReport> set_edit(OmfFile& f, const std::vector<std::string>& patterns, const py::dict& kw) {
  auto e = param_edit_from(kw);
  if (!e) return e.error();
  return xray::set_params(f, patterns, e.value());
}

xray::Game game_from(const std::string& g) {
  if (g == "soc") return xray::Game::soc;
  if (g == "cs") return xray::Game::cs;
  if (g == "cop") return xray::Game::cop;
  if (g.empty()) return xray::Game::keep;
  raise_usage("game must be 'soc', 'cs' or 'cop', not '" + g + "'");
}

}  // namespace

void bind_omf(py::module_& m) {
  py::class_<PyOmf, std::shared_ptr<PyOmf>>(m, "Omf",
                                            "An .omf motion file to edit; motions you do not touch keep their bytes.")
      .def(py::init(&read), py::arg("source"), "Reads an .omf from a path or from its bytes (InvalidFile if broken).")
      .def_property_readonly("motions",
                             [](const PyOmf& o) {
                               py::list out;
                               for (std::size_t i = 0; i < o.file().motions.params.motions.size(); ++i)
                                 out.append(motion_dict(o.file(), i));
                               return out;
                             },
                             "Each motion's name, frames, flags, params and marks (a snapshot, as dicts).")
      .def_property_readonly("names",
                             [](const PyOmf& o) {
                               std::vector<std::string> out;
                               for (const auto& p : o.file().motions.params.motions) out.push_back(cp1251_to_utf8(p.name));
                               return out;
                             })
      .def("validate", [](const PyOmf& o) { return xray::validate_omf(o.file()).findings(); })
      .def("rename",
           [](PyOmf& o, const std::string& from, const std::string& to) {
             return apply(o, [&](OmfFile& f) { return xray::rename_motion(f, from, to); });
           },
           py::arg("old"), py::arg("new"), "Renames one motion; returns the changes made.")
      .def("delete",
           [](PyOmf& o, const py::object& patterns) {
             const auto p = patterns_from(patterns);
             return apply(o, [&](OmfFile& f) { return xray::delete_motions(f, p); });
           },
           py::arg("patterns"), "Removes motions by name or glob (* ?); a pattern that matches nothing is an error.")
      .def("set",
           [](PyOmf& o, const py::object& patterns, const py::kwargs& kw) {
             const auto p = patterns_from(patterns);
             return apply(o, [&](OmfFile& f) { return set_edit(f, p, kw); });
           },
           py::arg("patterns"),
           "set(patterns, speed=, power=, accrue=, falloff=, flags='fx,stop_at_end', part=, bone=, "
           "add_marks=[(name, start, end)], clear_marks=False): like `boneyard omf set`.")
      .def("repair", [](PyOmf& o) { return apply(o, [](OmfFile& f) -> Result<EditReport> { return xray::repair_omf(f); }); })
      .def("retarget",
           [](PyOmf& o, const std::string& game, std::optional<int> params_version) {
             if (params_version && *params_version != 3 && *params_version != 4) raise_usage("params_version must be 3 or 4");
             const xray::Game g = game_from(game);
             return apply(o, [&](OmfFile& f) { return xray::retarget_omf(f, params_version, g); });
           },
           py::arg("game") = "", py::arg("params_version") = py::none())
      .def("extract",
           [](const PyOmf& o, const py::object& patterns) {
             EditReport report;
             auto out = xray::extract_motions(o.file(), patterns_from(patterns), report);
             if (!out) raise_edit_failure(out.error(), o.path());
             finish(std::move(report));
             return std::make_shared<PyOmf>(PyOmf{derived_omf_edit(o.edit, std::move(out).value())});
           },
           py::arg("patterns"), "A new Omf with the chosen motions.")
      .def("to_bytes", &checked_bytes, "The file's bytes (validated, as save() would write them).")
      .def("save", &save, py::arg("path") = py::none(),
           "save(path): writes atomically. save(): replaces the file it was read from (mode kept, through a "
           "symlink), keeping the original as the first free FILE.bak, FILE.bak.1, ...; returns the backup's path.");

  m.def(
      "merge",
      [](const std::vector<std::shared_ptr<PyOmf>>& inputs, bool rename_clashes) {
        if (inputs.size() < 2) raise_usage("merge takes two or more Omf objects");
        std::vector<OmfEdit> edits;
        for (const auto& in : inputs) edits.push_back(in->edit);
        EditReport report;
        auto merged = merge_omf_edits(std::move(edits), rename_clashes, report);
        if (!merged) raise_edit_failure(merged.error(), inputs.front()->path());
        finish(std::move(report));
        return std::make_shared<PyOmf>(PyOmf{std::move(merged).value()});
      },
      py::arg("inputs"), py::arg("rename_clashes") = false,
      "Joins Omf objects whose bone parts match; a repeated motion name is an error unless rename_clashes.");
}

}  // namespace boneyard::python
