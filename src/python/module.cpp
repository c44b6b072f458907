// The `boneyard` Python module: the library as the CLI uses it (docs/python.md).
#include <pybind11/stl.h>

#include "boneyard/core/diagnostics.h"
#include "python_support.h"

namespace boneyard::python {
void bind_documents(py::module_& m);
void bind_omf(py::module_& m);
void bind_sdk_motions(py::module_& m);
void bind_ogf(py::module_& m);
void bind_batch(py::module_& m);
void bind_textures(py::module_& m);
void bind_check_roundtrip(py::module_& m);
void bind_object(py::module_& m);
}  // namespace boneyard::python

namespace {

namespace py = pybind11;
using boneyard::Finding;

void bind_finding(py::module_& m) {
  py::class_<Finding>(m, "Finding", "One problem found in a file, as `boneyard validate` prints it.")
      .def_property_readonly("severity", [](const Finding& f) { return std::string(boneyard::severity_name(f.severity)); },
                             "\"error\", \"warning\" or \"info\"")
      .def_readonly("offset", &Finding::offset, "Byte offset in the file")
      .def_readonly("path", &Finding::path, "Chunk/record path, e.g. \"0xE/3 bone 1 rotation keys\"")
      .def_readonly("message", &Finding::message)
      .def_readonly("expected", &Finding::expected, "What the format wants (\"\" when not applicable)")
      .def_readonly("found", &Finding::found, "What the file holds (\"\" when not applicable)")
      .def_readonly("io", &Finding::io, "A file could not be read or written")
      .def_readonly("usage", &Finding::usage, "The request, not a file, is at fault")
      .def("__str__", [](const Finding& f) { return boneyard::format_finding(f, ""); })
      .def("__repr__", [](const Finding& f) {
        return "<boneyard.Finding " + std::string(boneyard::severity_name(f.severity)) + " at " +
               std::to_string(f.offset) + ": " + f.message + ">";
      });
}

}  // namespace

PYBIND11_MODULE(boneyard, m) {
  m.attr("__version__") = BONEYARD_VERSION;
  m.doc() = "S.T.A.L.K.E.R. (.omf, .ogf, the SDK's .object, .bones, .skl, .skls, .anm) and Metal Gear Solid 2 (.kms, .evm) files: read, validate, dump, "
            "edit and convert to and from glTF 2.0.";
  bind_finding(m);
  boneyard::python::register_errors(m);
  boneyard::python::bind_documents(m);
  boneyard::python::bind_omf(m);
  boneyard::python::bind_sdk_motions(m);
  boneyard::python::bind_ogf(m);
  boneyard::python::bind_batch(m);
  boneyard::python::bind_textures(m);
  boneyard::python::bind_check_roundtrip(m);
  boneyard::python::bind_object(m);
}
