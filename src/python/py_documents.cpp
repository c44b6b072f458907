// boneyard.open / boneyard.convert and the Document class: the registry as the CLI uses it, with
// the same checks in the same order (target, options that apply, validation errors, then write).
#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <memory>
#include <string>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/document.h"
#include "boneyard/core/json_writer.h"
#include "boneyard/mgs2/strcode.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

namespace fs = std::filesystem;

// An open file, and what it was opened with (the texture names must outlive the document).
struct PyDocument {
  std::unique_ptr<Document> doc;
  std::shared_ptr<TextureNames> names;
  std::string file;  // the path, or the name given for bytes ("" when none)
};

struct OpenRequest {
  std::string layout;
  std::string names_file;
  bool allow_outside_uris = false;
};

std::shared_ptr<PyDocument> open_request(const py::object& source, std::string name, const OpenRequest& r) {
  if (!r.layout.empty() && r.layout != "ps2" && r.layout != "mc")
    raise_usage("input_layout must be 'ps2' or 'mc', not '" + r.layout + "'");
  auto out = std::make_shared<PyDocument>();
  OpenOptions options;
  options.layout = r.layout;
  options.allow_outside_uris = r.allow_outside_uris;
  if (!r.names_file.empty()) {
    out->names = std::make_shared<TextureNames>();
    if (auto loaded = out->names->load_file(r.names_file); !loaded) raise_finding(loaded.error(), r.names_file);
    options.names = out->names.get();
  }
  auto file = file_from(source, name);
  out->file = name;
  auto opened = open_document(std::move(file), name, options);
  if (!opened) raise_finding(opened.error(), name);
  out->doc = std::move(opened).value();
  return out;
}


// The keyword options of convert(), as ConvertOptions and the ConvertOption bits given.
struct ConvertRequest {
  ConvertOptions options;
  unsigned given = 0;
  bool force = false;
};

ConvertRequest convert_request(const py::kwargs& kwargs, bool open_options_given) {
  ConvertRequest r;
  if (open_options_given) r.given |= kOptInputLayout;
  for (const auto& [key, value] : kwargs) {
    const std::string k = key.cast<std::string>();
    if (value.is_none()) continue;
    if (k == "skeleton") {
      r.options.xray.skeleton = r.options.mgs2.skeleton = path_from_utf8(path_from(py::reinterpret_borrow<py::object>(value)));
      r.given |= kOptSkeleton;
    } else if (k == "meshes") {
      r.options.xray.meshes_root = path_from_utf8(path_from(py::reinterpret_borrow<py::object>(value)));
      r.given |= kOptMeshes;
    } else if (k == "textures") {
      r.options.xray.textures = r.options.mgs2.textures = path_from_utf8(path_from(py::reinterpret_borrow<py::object>(value)));
      r.given |= kOptTextures;
    } else if (k == "template") {
      r.options.xray.template_omf = r.options.mgs2.template_model =
          path_from_utf8(path_from(py::reinterpret_borrow<py::object>(value)));
      r.given |= kOptTemplate;
    } else if (k == "keep_going") {
      r.options.xray.keep_going = value.cast<bool>();
      if (r.options.xray.keep_going) r.given |= kOptKeepGoing;
    } else if (k == "hq") {
      r.options.xray.hq = value.cast<bool>();
      if (r.options.xray.hq) r.given |= kOptHq;
    } else if (k == "scale") {
      const double s = value.cast<double>();
      if (!(s > 0) || s > 1e30) raise_usage("scale must be a positive finite number of metres per model unit");
      r.options.mgs2.scale = s;
      r.given |= kOptScale;
    } else if (k == "layout") {
      r.options.mgs2.layout = value.cast<std::string>();
      if (r.options.mgs2.layout != "ps2" && r.options.mgs2.layout != "mc")
        raise_usage("layout must be 'ps2' or 'mc', not '" + r.options.mgs2.layout + "'");
      r.given |= kOptLayout;
    } else if (k == "n_mats") {
      r.options.mgs2.n_mats = value.cast<std::string>();
      if (r.options.mgs2.n_mats != "spec" && r.options.mgs2.n_mats != "sealouse")
        raise_usage("n_mats must be 'spec' or 'sealouse', not '" + r.options.mgs2.n_mats + "'");
      r.given |= kOptNMats;
    } else if (k == "cmdl") {
      r.options.mgs2.cmdl = path_from_utf8(path_from(py::reinterpret_borrow<py::object>(value)));
      r.given |= kOptCmdl;
    } else if (k == "no_cmdl") {
      r.options.mgs2.no_cmdl = value.cast<bool>();
      if (r.options.mgs2.no_cmdl) r.given |= kOptNoCmdl;
    } else if (k == "float_rotations") {
      r.options.xray.float_rotations = value.cast<bool>();
      if (r.options.xray.float_rotations) r.given |= kOptFloatRotations;
    } else if (k == "motions") {
      r.options.xray.motions = value.cast<std::vector<std::string>>();
      if (!r.options.xray.motions.empty()) r.given |= kOptMotions;
    } else if (k == "force") {
      r.force = value.cast<bool>();
    } else {
      throw py::type_error("convert() got an unexpected keyword argument '" + k +
                           "' (options: skeleton, meshes, textures, template, keep_going, hq, scale, layout, n_mats, cmdl, no_cmdl, float_rotations, motions, force; "
                           "input_layout, names and allow_outside_uris belong to open())");
    }
  }
  if ((r.given & kOptCmdl) != 0 && (r.given & kOptNoCmdl) != 0) raise_usage("cmdl and no_cmdl exclude each other");
  return r;
}

// The checks and the write of `boneyard convert IN -o OUT`; returns the conversion's warnings.
std::vector<Finding> convert_document(const PyDocument& d, const std::string& output, ConvertRequest r) {
  const Document& doc = *d.doc;
  const std::string ext = lower_extension(output);
  const auto targets = doc.convert_targets();
  if (std::find(targets.begin(), targets.end(), ext) == targets.end()) {
    std::string list;
    for (const auto& t : targets) list += (list.empty() ? "" : ", ") + t;
    raise_usage("cannot convert " + std::string(doc.format()) + " to '" + ext + "' (possible: " + list + ")");
  }
  if (!d.file.empty() && same_file(path_from_utf8(d.file), path_from_utf8(output))) raise_usage("refusing to overwrite the input file " + output);
  Diagnostics warnings;
  r.options.input = path_from_utf8(d.file);
  r.options.output = path_from_utf8(output);
  r.options.warnings = &warnings;
  if (d.names) r.given |= kOptNames;
  if (auto fits = doc.check_convert_options(ext, r.given, r.options); !fits) raise_finding(fits.error(), d.file);
  if (auto errors = doc.conversion_blockers(ext, r.options); !errors.empty() && !r.force)
    raise_finding(errors.front(), d.file, errors);
  Status converted;
  {
    py::gil_scoped_release unlocked;  // a conversion takes milliseconds to seconds: let Python threads run
    converted = convert_to_files(doc, ext, r.options);
  }
  if (!converted) raise_finding(converted.error(), d.file);
  std::vector<Finding> out;
  for (auto& f : warnings.findings())
    if (f.severity != Severity::info) out.push_back(f);
  return out;
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
    "Opens any supported file (.omf, .ogf, .gltf/.glb, .kms, .evm, .cmdl), recognised by its content. `source` is a\n"
    "path, or the file's bytes (bytes and read-only memoryviews are read in place, not copied); `name` is a\n"
    "file name for bytes (its extension breaks ties, a .gltf resolves its buffers from it). Raises\n"
    "InvalidFile when the file cannot be parsed, UsageError when it cannot be read.";

}  // namespace

void bind_documents(py::module_& m) {
  py::class_<PyDocument, std::shared_ptr<PyDocument>>(m, "Document", "An open file of any supported format.")
      .def_property_readonly("format", [](const PyDocument& d) { return std::string(d.doc->format()); })
      .def_property_readonly("file", [](const PyDocument& d) { return d.file; })
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
             return convert_document(d, path_from(output), convert_request(kwargs, false));
           },
           py::arg("output"),
           "convert(output, **options) -> list of warning Findings. The format follows the extension, as in "
           "`boneyard convert`; options: skeleton, meshes, textures, template, keep_going, hq, scale, layout, "
           "n_mats, cmdl, no_cmdl, float_rotations, motions, force.")
      .def("__repr__", [](const PyDocument& d) {
        return "<boneyard.Document " + std::string(d.doc->format()) + (d.file.empty() ? "" : " '" + d.file + "'") + ">";
      });

  m.def(
      "open",
      [](const py::object& source, const py::object& name, const py::object& input_layout, const py::object& names,
         bool allow_outside_uris) {
        OpenRequest r{input_layout.is_none() ? "" : input_layout.cast<std::string>(), path_from(names),
                      allow_outside_uris};
        return open_request(source, name.is_none() ? "" : path_from(name), r);
      },
      py::arg("source"), py::kw_only(), py::arg("name") = py::none(), py::arg("input_layout") = py::none(),
      py::arg("names") = py::none(), py::arg("allow_outside_uris") = false, kOpenDoc);

  m.def(
      "convert",
      [](const py::object& input, const py::object& output, const py::kwargs& kwargs) {
        OpenRequest open;
        py::kwargs rest;
        for (const auto& [key, value] : kwargs) {
          const std::string k = key.cast<std::string>();
          if (k == "input_layout") open.layout = value.is_none() ? "" : value.cast<std::string>();
          else if (k == "names") open.names_file = path_from(py::reinterpret_borrow<py::object>(value));
          else if (k == "allow_outside_uris") open.allow_outside_uris = value.cast<bool>();
          else rest[key] = value;
        }
        auto doc = open_request(input, "", open);
        return convert_document(*doc, path_from(output), convert_request(rest, !open.layout.empty()));
      },
      py::arg("input"), py::arg("output"),
      "convert(input, output, **options) -> list of warning Findings: `boneyard convert input -o output`.\n"
      "Options: skeleton, meshes, textures, template, keep_going, hq, scale, layout, n_mats, cmdl, no_cmdl,\n"
      "float_rotations, motions (a list of globs), force, and the open()\n"
      "options input_layout, names, allow_outside_uris. Raises InvalidFile (a broken input, or one with\n"
      "validation errors unless force=True) or UsageError (an option that does not apply, a target the\n"
      "input cannot become, a file that cannot be read or written); nothing is written then.");
}

}  // namespace boneyard::python
