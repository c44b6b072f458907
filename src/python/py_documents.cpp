// boneyard.open / boneyard.convert and the Document class: the registry as the CLI uses it. A
// conversion is the registry's convert request (registry/convert_request.h), with convert()'s
// keywords read from the option table (py_convert_options.cpp): the CLI's steps, checks and messages.
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <string>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/strcode.h"
#include "boneyard/registry/convert_request.h"
#include "boneyard/registry/document.h"
#include "py_convert_options.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

namespace fs = std::filesystem;

// An open file, and what it was opened with (the texture names must outlive the document).
struct PyDocument {
  std::unique_ptr<Document> doc;
  std::shared_ptr<TextureNames> names;
  std::string file;        // the path, or the name given for bytes ("" when none)
  OptionSet opened_with;   // the options that opened it (input_layout, names): they count as given to convert()
};

// Opens `source` (a path or bytes) with the open rows of `settings`: input_layout, names and
// allow_outside_uris, checked as the option table says.
std::shared_ptr<PyDocument> open_with(const py::object& source, std::string name, const ConvertSettings& settings,
                                      const OptionSet& given) {
  auto out = std::make_shared<PyDocument>();
  for (const auto& row : convert_option_rows())
    if (row.opens && given.test(convert_option_index(row))) out->opened_with.set(convert_option_index(row));
  if (!settings.names.empty()) {
    out->names = std::make_shared<TextureNames>();
    if (auto loaded = load_texture_names(*out->names, settings.names); !loaded)
      raise_finding(loaded.error(), path_to_utf8(settings.names));
  }
  auto file = file_from(source, name);
  out->file = name;
  auto opened = open_document(std::move(file), name, open_options_for(settings, out->names.get()));
  if (!opened) raise_finding(opened.error(), name);
  out->doc = std::move(opened).value();
  return out;
}

// `boneyard convert` through the registry's request: the same steps, checks and messages; returns
// the conversion's warnings.
std::vector<Finding> convert_document(const PyDocument& d, ConvertOptions request) {
  request.input = path_from_utf8(d.file);
  request.given |= d.opened_with;
  ConvertOutcome outcome;
  Status converted;
  {
    py::gil_scoped_release unlocked;  // a conversion takes milliseconds to seconds: let Python threads run
    converted = convert_request(*d.doc, request, outcome);
  }
  if (!converted) raise_finding(converted.error(), d.file, outcome.blocked ? outcome.blockers : std::vector<Finding>{});
  return std::move(outcome.warnings);
}

py::object dump_as_dict(const Document& doc, bool raw, const TextureNames* names) {
  JsonWriter json;
  DumpOptions options;
  options.raw = raw;
  options.names = names;
  doc.dump(json, options);
  return py::module_::import("json").attr("loads")(py::str(json.str()));
}

const char* kOpenDoc =
    "open(source, *, name=None, input_layout=None, names=None, allow_outside_uris=False) -> Document\n\n"
    "Opens any supported file (.omf, .ogf, .gltf/.glb, .kms, .evm, .cmdl, .mar, .dds, .ctxr, .tri, manifest.txt,\n"
    "bp_assets.txt), recognised by its content. `source` is a\n"
    "path, or the file's bytes (bytes and read-only memoryviews are read in place, not copied); `name` is a\n"
    "file name for bytes (its extension breaks ties, a .gltf resolves its buffers from it). Raises\n"
    "InvalidFile when the file cannot be parsed, UsageError when it cannot be read.";

}  // namespace

void bind_documents(py::module_& m) {
  py::class_<PyDocument, std::shared_ptr<PyDocument>>(m, "Document", "An open file of any supported format.")
      .def_property_readonly("format", [](const PyDocument& d) { return std::string(d.doc->format()); })
      .def_property_readonly("file", [](const PyDocument& d) { return fs_name(d.file); })
      .def_property_readonly("targets", [](const PyDocument& d) { return d.doc->convert_targets(); },
                             "The output extensions convert() can write (\".glb\", \".omf\", ...).")
      .def("info", [](const PyDocument& d) { return d.doc->info(); }, "The summary `boneyard info` prints.")
      .def("validate", [](const PyDocument& d) { return d.doc->validate().findings(); },
           "Every finding (errors, warnings, info), as `boneyard validate` reports them.")
      .def("check_pair",
           [](const PyDocument& d, const PyDocument& companion) {
             auto pair = validate_pair(*d.doc, *companion.doc);
             if (!pair) raise_finding(pair.error(), d.file);
             return pair.value().findings();
           },
           py::arg("companion"),
           "Where this MGS2 model and its .cmdl (an open Document) disagree, as `boneyard validate MODEL --cmdl "
           "CMDL` adds them (offsets in the .cmdl). UsageError when the two are not a model and its .cmdl.")
      .def("dump", [](const PyDocument& d, bool raw) { return dump_as_dict(*d.doc, raw, d.names.get()); },
           py::arg("raw") = false, "The documented JSON dump (docs/json-schema.md) as Python objects.")
      .def("convert",
           [](const PyDocument& d, const py::object& output, const py::kwargs& kwargs) {
             ConvertOptions request;
             request.output = path_from_utf8(path_from(output));
             read_convert_keywords(kwargs, false, request.settings, request.given);
             return convert_document(d, std::move(request));
           },
           py::arg("output"),
           ("convert(output, **options) -> list of warning Findings. The format follows the extension, as in "
            "`boneyard convert`; options: " + convert_keywords(false) + ".").c_str())
      .def("__repr__", [](const PyDocument& d) {
        return lenient_text("<boneyard.Document " + std::string(d.doc->format()) + (d.file.empty() ? "" : " '" + d.file + "'") + ">");
      });

  m.def(
      "open",
      [](const py::object& source, const py::object& name, const py::object& input_layout, const py::object& names,
         bool allow_outside_uris) {
        ConvertSettings settings;
        OptionSet given;
        py::kwargs open_options;
        open_options["input_layout"] = input_layout;
        open_options["names"] = names;
        read_convert_keywords(open_options, true, settings, given);
        settings.allow_outside_uris = allow_outside_uris;
        return open_with(source, name.is_none() ? "" : path_from(name), settings, given);
      },
      py::arg("source"), py::kw_only(), py::arg("name") = py::none(), py::arg("input_layout") = py::none(),
      py::arg("names") = py::none(), py::arg("allow_outside_uris") = false, kOpenDoc);

  m.def(
      "convert",
      [](const py::object& input, const py::object& output, const py::kwargs& kwargs) {
        ConvertOptions request;
        request.output = path_from_utf8(path_from(output));
        read_convert_keywords(kwargs, true, request.settings, request.given);
        // A path: refused before it is read when the request cannot be done, as by the CLI.
        if (PyObject_CheckBuffer(input.ptr()) == 0) {
          request.input = path_from_utf8(path_from(input));
          if (auto files = check_request_files(request); !files) raise_finding(files.error(), path_to_utf8(request.input));
        }
        auto doc = open_with(input, "", request.settings, request.given);
        return convert_document(*doc, std::move(request));
      },
      py::arg("input"), py::arg("output"),
      ("convert(input, output, **options) -> list of warning Findings: `boneyard convert input -o output`.\n"
       "Options: " + convert_keywords(true) + " (motions: a list of globs; input_layout, names and\n"
       "allow_outside_uris open the input). Raises InvalidFile (a broken input, or one with validation errors\n"
       "unless force=True) or UsageError (an option that does not apply, a target the input cannot become, a\n"
       "file that cannot be read or written); nothing is written then.").c_str());

  m.def("convert_options", &convert_option_table,
        "The option table both convert() and `boneyard convert` are made from: one dict per option (name, flag, "
        "keyword, kind, the conversions that read it as 'from>to' words, choices, whether it opens the input, help).");
}

}  // namespace boneyard::python
