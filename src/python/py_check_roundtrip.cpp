// boneyard.check_roundtrip(folder, jobs=0, meshes=None, with_template=True, without_template=True):
// `boneyard check-roundtrip` for Python (registry/check_roundtrip.h).
#include <pybind11/stl.h>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "boneyard/registry/check_roundtrip.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

py::dict item_dict(const RoundTripItem& item) {
  py::dict d;
  d["model"] = fs_name(path_to_utf8(item.model));
  d["with_template"] = outcome_name(item.with_template);
  d["without_template"] = outcome_name(item.without_template);
  d["with_template_detail"] = lenient_text(item.with_detail);
  d["without_template_detail"] = lenient_text(item.without_detail);
  d["motions"] = item.motions;
  d["glb_bytes"] = item.glb_bytes;
  d["warnings"] = item.warnings;
  return d;
}

}  // namespace

void bind_check_roundtrip(py::module_& m) {
  m.def(
      "check_roundtrip",
      [](const py::object& folder, unsigned jobs, const py::object& meshes, bool with_template, bool without_template) {
        RoundTripOptions o;
        o.input_dir = path_from_utf8(path_from(folder));
        std::error_code ec;
        if (!std::filesystem::is_directory(o.input_dir, ec))
          raise_usage(path_to_utf8(o.input_dir) + ": not a folder (check_roundtrip checks the models under a folder)");
        if (!meshes.is_none()) o.meshes = path_from_utf8(path_from(meshes));
        o.threads = jobs;
        o.with_template = with_template;
        o.without_template = without_template;
        RoundTripResult r;
        {
          py::gil_scoped_release unlocked;  // the models are checked on worker threads
          r = check_roundtrip(o);
        }
        py::list items;
        for (const auto& item : r.items) items.append(item_dict(item));
        py::dict out;
        out["items"] = items;
        out["with_template"] = py::dict(py::arg("identical") = r.identical[0], py::arg("different") = r.different[0],
                                        py::arg("failed") = r.failed[0]);
        out["without_template"] = py::dict(py::arg("converted") = r.identical[1], py::arg("different") = r.different[1],
                                           py::arg("failed") = r.failed[1]);
        out["refused"] = r.refused;
        out["all_back"] = r.all_back();
        return out;
      },
      py::arg("folder"), py::kw_only(), py::arg("jobs") = 0u, py::arg("meshes") = py::none(),
      py::arg("with_template") = true, py::arg("without_template") = true,
      "check_roundtrip(folder, *, jobs=0, meshes=None, with_template=True, without_template=True) -> dict: "
      "`boneyard check-roundtrip`. Every .ogf under the folder is exported to glTF with its motions and brought back "
      "with itself as template (\"identical\" when byte for byte) and without (\"identical\" when the new model keeps "
      "the skeleton, bind pose, motion refs or embedded motions, user data and triangles per material); "
      "\"different\", \"failed\" or \"refused\" (the input has validation errors) otherwise. Returns {'items': [one "
      "dict per model: model, with_template, without_template, their *_detail, motions, glb_bytes, warnings], "
      "'with_template': counts, 'without_template': counts, 'refused', 'all_back'}. Nothing is written.");
}

}  // namespace boneyard::python
