// boneyard.texture and boneyard.mc_register: `boneyard texture` and `boneyard mc-register` through
// the registry's same requests (registry/texture_request.h, registry/mc_register.h), so that the
// steps, checks, files and messages are the CLI's (docs/python.md).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "boneyard/core/paths.h"
#include "boneyard/registry/mc_register.h"
#include "boneyard/registry/texture_request.h"
#include "python_support.h"

namespace boneyard::python {

namespace {

namespace fs = std::filesystem;

// One path, or a list of them.
std::vector<fs::path> path_list_from(const py::object& value) {
  std::vector<fs::path> out;
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) || py::hasattr(value, "__fspath__")) {
    out.push_back(path_from_utf8(path_from(value)));
    return out;
  }
  for (const auto& item : value) out.push_back(path_from_utf8(path_from(py::reinterpret_borrow<py::object>(item))));
  return out;
}

std::vector<std::string> words_from(const py::object& value) {
  if (value.is_none()) return {};
  if (py::isinstance<py::str>(value)) return {value.cast<std::string>()};
  return value.cast<std::vector<std::string>>();
}

// A word among `choices` (None: ""), refused as convert()'s choices are.
std::string choice_word(const char* keyword, const py::object& value, std::initializer_list<const char*> choices) {
  if (value.is_none()) return {};
  const std::string word = value.cast<std::string>();
  std::string said;
  std::size_t i = 0;
  for (const char* c : choices) {
    if (word == c) return word;
    said += std::string(i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + "'" + c + "'";
    ++i;
  }
  raise_usage(std::string(keyword) + " must be " + said + ", not '" + word + "'");
}

py::list findings_list(const Diagnostics& d, bool warnings_only) {
  py::list out;
  for (const auto& f : d.findings())
    if (!warnings_only || f.severity == Severity::warning) out.append(py::cast(f));
  return out;
}

const char* texture_conversion_name(TextureConversion c) {
  switch (c) {
    case TextureConversion::pngs_to_tri: return "pngs_to_tri";
    case TextureConversion::tri_to_pngs: return "tri_to_pngs";
    case TextureConversion::one_file: return "one_file";
    case TextureConversion::several: return "several";
  }
  return "";
}

py::dict texture_request_py(const py::object& inputs, const py::object& output, unsigned mip, bool cross, const py::object& format,
                 bool no_mips, unsigned jobs, const py::object& template_path, const py::object& names, const py::object& alpha,
                 const py::object& layout) {
  TextureRequest r;
  r.inputs = path_list_from(inputs);
  r.output = path_from_utf8(path_from(output));
  r.mip = mip;
  r.cross = cross;
  r.format = choice_word("format", format, {"dxt1", "dxt5", "rgba"});
  r.no_mips = no_mips;
  r.jobs = jobs;
  r.template_path = path_from_utf8(path_from(template_path));
  r.names_file = path_from_utf8(path_from(names));
  r.alpha = choice_word("alpha", alpha, {"raw", "scaled"});
  r.layout = choice_word("layout", layout, {"ps2", "mc"});
  TextureOutcome out;
  Status s;
  {
    py::gil_scoped_release unlocked;
    s = texture_request(r, out);
  }
  if (!s) raise_message(s.error(), out.failure, r.inputs.empty() ? std::string() : path_to_utf8(r.inputs[0]));
  py::list items, written;
  std::size_t failed = 0;
  for (const auto& item : out.items) {
    py::dict d;
    d["input"] = fs_name(path_to_utf8(item.input));
    d["output"] = fs_name(path_to_utf8(item.output));
    d["ok"] = item.status.ok();
    d["error"] = item.status ? py::object(py::none()) : py::cast(item.status.error());
    d["message"] = item.status ? py::object(py::none()) : py::object(lenient_text(describe_failure(item.status.error(), path_to_utf8(item.input))));
    d["warnings"] = findings_list(item.notes, true);
    items.append(d);
    if (item.status) written.append(fs_name(path_to_utf8(item.output)));
    else ++failed;
  }
  for (const auto& p : out.written) written.append(fs_name(path_to_utf8(p)));
  py::dict result;
  result["conversion"] = texture_conversion_name(out.conversion);
  result["written"] = written;
  result["failed"] = failed;
  result["items"] = items;
  result["notes"] = findings_list(out.notes, false);
  return result;
}

py::dict mc_register_py(const py::object& model, const py::object& mod, const py::object& stages, const py::object& output,
                     const py::object& langs, const std::string& region, const py::object& tri, bool no_tri,
                     const py::object& textures, const py::object& names, const py::object& game, const py::object& cmdl,
                     bool dry_run) {
  McRegisterOptions o;
  o.model = path_from_utf8(path_from(model));
  o.mod = mod.cast<std::string>();
  o.stages = words_from(stages);
  o.output = path_from_utf8(path_from(output));
  if (!langs.is_none()) o.langs = words_from(langs);
  o.region = region;
  if (!tri.is_none()) o.tri = tri.cast<std::string>();
  o.no_tri = no_tri;
  o.textures = path_from_utf8(path_from(textures));
  o.names = path_from_utf8(path_from(names));
  o.game = path_from_utf8(path_from(game));
  o.cmdl = path_from_utf8(path_from(cmdl));
  o.dry_run = dry_run;
  Result<McRegisterResult> r = Finding{};
  {
    py::gil_scoped_release unlocked;
    r = boneyard::mc_register(o);
  }
  if (!r) raise_finding(r.error(), path_to_utf8(o.model));
  py::list files;
  for (const auto& f : r.value().files) {
    py::dict d;
    d["path"] = fs_name(path_to_utf8(f.path));
    d["kind"] = std::string(mgs2::mc_index_kind_name(f.kind));
    py::list lines;
    for (const auto& e : f.entries) lines.append(e.text());
    d["lines"] = lines;
    d["text"] = py::bytes(mgs2::mc_index_text(f.entries));
    files.append(d);
  }
  py::dict result;
  result["files"] = files;
  result["notes"] = findings_list(r.value().notes, false);
  result["written"] = !dry_run && !r.value().files.empty();
  return result;
}

}  // namespace

void bind_textures(py::module_& m) {
  m.def("texture", &texture_request_py, py::arg("inputs"), py::arg("output"), py::kw_only(), py::arg("mip") = 0u, py::arg("cross") = false,
        py::arg("format") = py::none(), py::arg("no_mips") = false, py::arg("jobs") = 0u, py::arg("template") = py::none(),
        py::arg("names") = py::none(), py::arg("alpha") = py::none(), py::arg("layout") = py::none(),
        "texture(inputs, output, *, mip=0, cross=False, format=None, no_mips=False, jobs=0, template=None, names=None,\n"
        "        alpha=None, layout=None) -> dict\n\n"
        "`boneyard texture INPUTS -o OUTPUT`: textures (.dds, .ctxr, MGS2 .tri) to PNG and PNG back to .dds, .ctxr or\n"
        "into a .tri; `inputs` is a path or a list of paths (files or folders). A .tri alone goes to the folder\n"
        "`output` (a PNG per texture, named by id or by `names`, alpha raw or 'scaled'); PNGs go back into a .tri\n"
        "with template=ORIGINAL.tri. Returns {'conversion', 'written', 'failed', 'items': [{'input', 'output',\n"
        "'ok', 'error', 'message', 'warnings'}], 'notes'}: a texture of a folder or of a .tri that fails, fails\n"
        "alone (the CLI's exit 1), the others are written. Raises UsageError or InvalidFile (nothing written) as\n"
        "the CLI exits with 2 or 1, with its message.");
  m.def("mc_register", &mc_register_py, py::arg("model"), py::kw_only(), py::arg("mod"), py::arg("stages") = py::none(),
        py::arg("output") = py::none(), py::arg("langs") = py::none(), py::arg("region") = "us", py::arg("tri") = py::none(),
        py::arg("no_tri") = false, py::arg("textures") = py::none(), py::arg("names") = py::none(), py::arg("game") = py::none(),
        py::arg("cmdl") = py::none(), py::arg("dry_run") = false,
        "mc_register(model, *, mod, stages=None, output=None, langs=None, region='us', tri=None, no_tri=False,\n"
        "            textures=None, names=None, game=None, cmdl=None, dry_run=False) -> dict\n\n"
        "`boneyard mc-register MODEL`: the Master Collection index lines an edited .kms/.evm needs, as the mod's own\n"
        "manifest_<mod>.txt and bp_assets_<mod>.txt under output/<lang>/stage/<stage>/ (stages and langs: a str or a\n"
        "list; langs default eu and jp). Returns {'files': [{'path', 'kind', 'lines', 'text'}], 'notes', 'written'}\n"
        "(with dry_run=True the files it would write, nothing written). Raises UsageError or InvalidFile as the CLI\n"
        "exits with 2 or 1, with its message.");
}

}  // namespace boneyard::python
