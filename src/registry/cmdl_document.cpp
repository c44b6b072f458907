// The Master Collection's .cmdl as a Document: info, dump, validation, a lossless rewrite, and
// glTF of what the game draws (with the model it belongs to); and the pair check of a model with
// its .cmdl (validate --cmdl).
#include <system_error>

#include "boneyard/core/paths.h"
#include "boneyard/mgs2/cmdl/cmdl.h"
#include "boneyard/mgs2/cmdl/cmdl_report.h"
#include "boneyard/mgs2/mar/mar.h"
#include "boneyard/mgs2/mgs2_scene.h"
#include "formats.h"

namespace boneyard {
namespace registry {

namespace fs = std::filesystem;

namespace {

// Where the model of a .cmdl is: _win/<name>.cmdl belongs to <name>.kms/.evm one folder up (the
// game's layout), or beside it.
std::vector<fs::path> model_candidates(const fs::path& cmdl) {
  const fs::path dir = cmdl.parent_path();
  const std::string stem = path_to_utf8(cmdl.stem());
  std::vector<fs::path> out;
  for (const fs::path& d : {dir.empty() ? fs::path("..") : dir / "..", dir})
    for (const char* ext : {".kms", ".evm"}) out.push_back((d / path_from_utf8(stem + ext)).lexically_normal());
  return out;
}

class CmdlDocument final : public Document {
 public:
  CmdlDocument(std::shared_ptr<const FileData> file, mgs2::CmdlFile model, Diagnostics notes, const TextureNames* names)
      : file_(std::move(file)), m_(std::move(model)), notes_(std::move(notes)), names_(names) {}

  const mgs2::CmdlFile& model() const { return m_; }
  std::string_view format() const override { return "cmdl"; }
  std::string info() const override { return mgs2::describe_cmdl(m_); }
  void dump(JsonWriter& out, const DumpOptions& o) const override { mgs2::dump_cmdl(out, m_, o.raw); }
  Diagnostics validate() const override {
    Diagnostics d = notes_;
    d.append(mgs2::validate_cmdl(m_));
    return d;
  }
  std::vector<std::string> convert_targets() const override { return {".cmdl", ".glb", ".gltf"}; }
  Status convert(std::string_view ext, const ConvertOptions& o, ConvertOutputs& out) const override {
    if (ext == ".cmdl") return write_converted(mgs2::write_cmdl(m_), out);
    if (!is_gltf_extension(ext))
      return Finding{Severity::error, 0, {}, "unsupported conversion", ".cmdl, .glb or .gltf", std::string(ext)};
    auto model_path = find_model(o);
    if (!model_path) return model_path.error();
    auto file = FileData::open(model_path.value());
    if (!file) return io_error_finding({}, path_to_utf8(model_path.value()) + ": " + file.error().message);
    const Bytes bytes = file.value()->bytes();
    const std::string_view kind = detect_format(bytes, path_to_utf8(model_path.value()));
    mgs2::Mgs2ExportOptions e;
    if (o.settings.scale != 0) e.scale = o.settings.scale;
    e.names = names_;
    Diagnostics warnings;
    const auto in_model = [&](Finding f) {
      f.message = path_to_utf8(model_path.value()) + ": " + f.message;
      return f;
    };
    // The model's materials name its textures; the registry attaches them as for the model itself.
    const auto textured = [&](Result<scene::Scene> sc, std::uint32_t tri_id) {
      if (sc)
        attach_textures(sc.value(), o.settings.textures, warnings, o.texture_cache,
                        mgs2_tri_files(model_path.value(), tri_id, o.settings.textures));
      return encode_gltf(sc, warnings, ext, o, out);
    };
    if (kind == "kms") {
      auto m = mgs2::read_kms(FileData::from_view(bytes, nullptr));
      if (!m) return in_model(m.error());
      return textured(mgs2::cmdl_to_scene(m_, m.value(), e, warnings), m->header.texture);
    }
    if (kind == "evm") {
      auto m = mgs2::read_evm(FileData::from_view(bytes, nullptr));
      if (!m) return in_model(m.error());
      return textured(mgs2::cmdl_to_scene(m_, m.value(), e, warnings), m->header.texture);
    }
    return usage_error_finding(path_to_utf8(model_path.value()) + " is not a .kms or .evm (" +
                               (kind.empty() ? std::string("unrecognised") : std::string(kind)) + "): a .cmdl is drawn on its model");
  }

 private:
  Result<fs::path> find_model(const ConvertOptions& o) const {
    if (!o.settings.skeleton.empty()) return o.settings.skeleton;
    std::string tried;
    for (const auto& p : model_candidates(o.input)) {
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) return p;
      tried += (tried.empty() ? "" : ", ") + path_to_utf8(p);
    }
    return io_error_finding({}, "no model for " + path_to_utf8(o.input) + ": a .cmdl is drawn on its .kms or .evm (looked for " + tried +
                                    "; give --skeleton MODEL)");
  }

  std::shared_ptr<const FileData> file_;  // the views in m_ point into it
  mgs2::CmdlFile m_;
  Diagnostics notes_;
  const TextureNames* names_;
};

}  // namespace

Opened open_cmdl(std::shared_ptr<const FileData> file, const OpenOptions& options) {
  Diagnostics notes;
  auto m = mgs2::read_cmdl(file, &notes);
  if (!m) return m.error();
  return std::unique_ptr<Document>(new CmdlDocument(std::move(file), std::move(m).value(), std::move(notes), options.names));
}

const mgs2::CmdlFile* cmdl_model_of(const Document& d) {
  const auto* c = dynamic_cast<const CmdlDocument*>(&d);
  return c != nullptr ? &c->model() : nullptr;
}

}  // namespace registry

Result<Diagnostics> validate_pair(const Document& model, const Document& companion) {
  const Document* a = &model;
  const Document* b = &companion;
  if (registry::mar_model_of(*a) != nullptr) std::swap(a, b);
  if (const mgs2::MarFile* mar = registry::mar_model_of(*b)) {
    const mgs2::KmsFile* kms = registry::kms_model_of(*a);
    const mgs2::EvmFile* evm = registry::evm_model_of(*a);
    if (kms == nullptr && evm == nullptr)
      return usage_error_finding("a .mar is checked against the .kms or .evm that plays it (given: " + std::string(model.format()) +
                                 " and " + std::string(companion.format()) + ")");
    Diagnostics d;
    mgs2::check_mar_skeleton(*mar, kms != nullptr ? kms->units.size() : evm->bones.size(), d);
    return d;
  }
  if (registry::cmdl_model_of(*a) != nullptr) std::swap(a, b);
  const mgs2::CmdlFile* cmdl = registry::cmdl_model_of(*b);
  const mgs2::KmsFile* kms = registry::kms_model_of(*a);
  const mgs2::EvmFile* evm = registry::evm_model_of(*a);
  if (cmdl == nullptr || (kms == nullptr && evm == nullptr))
    return usage_error_finding("a pair to check is a .kms or .evm and its .cmdl (given: " + std::string(model.format()) + " and " +
                               std::string(companion.format()) + ")");
  Diagnostics d;
  const mgs2::Layout layout = kms != nullptr ? kms->layout : evm->layout;
  if (layout != mgs2::Layout::mc)
    d.add(Severity::warning, 0, "model layout", "the model is in the PS2 layout: only the Master Collection reads a .cmdl, with an MC model",
          "mc", std::string(mgs2::layout_name(layout)));
  if (kms != nullptr) {
    mgs2::check_cmdl_pair(*kms, *cmdl, d);
  } else {
    mgs2::check_cmdl_pair(*evm, *cmdl, d);
  }
  return d;
}

}  // namespace boneyard
