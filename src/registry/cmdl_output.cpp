// A Master Collection model is written with its .cmdl (docs/mgs2-cmdl.md): the .kms/.evm bytes a
// conversion made are read back as the game will read them, and when they are in the MC layout
// the .cmdl derived from them goes beside as a side file of the same conversion (written, or not,
// together with the model).
#include <system_error>

#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/mgs2/cmdl/cmdl.h"
#include "formats.h"

namespace boneyard::registry {

namespace fs = std::filesystem;

namespace {

// The template model's own .cmdl (read), or nothing with a note saying why there is none.
std::optional<mgs2::CmdlFile> template_cmdl(const fs::path& tpl_model, std::shared_ptr<const FileData>& keep, Diagnostics& notes) {
  if (tpl_model.empty()) return std::nullopt;
  const fs::path path = cmdl_beside(tpl_model);
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    notes.add(Severity::info, 0, "cmdl", "no .cmdl beside " + path_to_utf8(tpl_model) + ": the .cmdl is derived from the model alone",
              path_to_utf8(path), "none");
    return std::nullopt;
  }
  auto file = FileData::open(path);
  if (!file) {
    notes.add(Severity::warning, 0, "cmdl", "the template's .cmdl cannot be read (" + file.error().message + "): derived without it",
              path_to_utf8(path));
    return std::nullopt;
  }
  auto m = mgs2::read_cmdl(file.value());
  if (!m) {
    notes.add(Severity::warning, m.error().offset, "cmdl", "the template's .cmdl is not readable (" + m.error().path + ": " +
              m.error().message + "): derived without it", path_to_utf8(path));
    return std::nullopt;
  }
  keep = std::move(file).value();
  return std::move(m).value();
}

template <class Model>
Result<std::vector<std::uint8_t>> derive_checked(const Model& model, const mgs2::CmdlFile* tpl, Diagnostics& notes) {
  auto cmdl = mgs2::derive_cmdl(model, tpl, &notes);
  if (!cmdl) return cmdl.error();
  // Never write a .cmdl boneyard itself would reject: it must read, validate and match its model.
  const Bytes b(cmdl.value());
  auto back = mgs2::read_cmdl(FileData::from_view(b, nullptr));
  if (!back) return back.error();
  Diagnostics found;
  found.append(mgs2::validate_cmdl(back.value()));
  mgs2::check_cmdl_pair(model, back.value(), found);
  for (const auto& f : found.findings())
    if (f.severity == Severity::error) {
      Finding e = f;
      e.message = "the derived .cmdl fails its own check: " + e.message;
      return e;
    }
  return cmdl;
}

Status usage(const ConvertOptions& o, const std::string& why) {
  const std::string option = !o.settings.cmdl.empty() ? "--cmdl" : "--no-cmdl";
  return usage_error_finding(option + " does not apply: " + why);
}

}  // namespace

fs::path cmdl_beside(const fs::path& model) {
  // As the game's Windows file system finds it: "_win" and the name in any case, spelt as the
  // folder stores them, so that Linux reads and writes the file Windows would (docs/mgs2-cmdl.md).
  const fs::path folder = model.parent_path();
  const std::string name = path_to_utf8(model.stem()) + ".cmdl";
  const fs::path search = folder.empty() ? fs::path(".") : folder;
  if (const auto found = find_ignoring_case(search, "_win/" + name))
    return folder / found->parent_path().filename() / found->filename();
  std::error_code ec;
  if (!fs::is_directory(search / "_win", ec))
    for (fs::directory_iterator it(search, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_directory(ec) && lower_ascii(path_to_utf8(it->path().filename())) == "_win")
        return folder / it->path().filename() / path_from_utf8(name);
  return folder / "_win" / path_from_utf8(name);
}

Status write_mgs2_model(const Result<std::vector<std::uint8_t>>& bytes, std::string_view ext, const ConvertOptions& o,
                        const fs::path& template_model, ConvertOutputs& out) {
  if (!bytes) return bytes.error();
  const Bytes b(bytes.value());
  const bool kms = ext == ".kms";
  const bool asked = !o.settings.cmdl.empty() || o.settings.no_cmdl;
  const bool mc = kms ? mgs2::detect_kms_layout(b) == mgs2::Layout::mc : mgs2::detect_evm_layout(b) == mgs2::Layout::mc;
  if (!mc) {
    if (asked) return usage(o, path_to_utf8(o.output) + " is written in the PS2 layout; a .cmdl goes only with a Master Collection model (--layout mc)");
    return out.main().write(b);
  }
  if (o.settings.no_cmdl) return out.main().write(b);
  const fs::path path = o.settings.cmdl.empty() ? cmdl_beside(o.output) : o.settings.cmdl;
  if (same_target(path, o.output)) return usage(o, "it names the output model itself");
  if (o.plan != nullptr && !template_model.empty()) o.plan->add_read(cmdl_beside(template_model), "the template's .cmdl");
  if (!o.input.empty() && same_file(path, o.input)) return usage(o, "it names the input file; choose another .cmdl");
  Diagnostics scratch;
  Diagnostics& notes = o.warnings != nullptr ? *o.warnings : scratch;
  std::shared_ptr<const FileData> tpl_file;
  const auto tpl = template_cmdl(template_model, tpl_file, notes);
  Result<std::vector<std::uint8_t>> cmdl = Finding{};
  if (kms) {
    auto m = mgs2::read_kms(FileData::from_view(b, nullptr));
    if (!m) return m.error();
    cmdl = derive_checked(m.value(), tpl ? &*tpl : nullptr, notes);
  } else {
    auto m = mgs2::read_evm(FileData::from_view(b, nullptr));
    if (!m) return m.error();
    cmdl = derive_checked(m.value(), tpl ? &*tpl : nullptr, notes);
  }
  if (!cmdl) {
    Finding e = cmdl.error();
    e.path = e.path.empty() ? path_to_utf8(path) : path_to_utf8(path) + " " + e.path;
    return e;
  }
  auto sink = out.side_file(path);
  if (!sink) return sink.error();
  if (auto s = sink.value()->write(cmdl.value()); !s) return s;
  return out.main().write(b);
}

}  // namespace boneyard::registry
