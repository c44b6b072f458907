// MGS2 models as glTF for Document::convert, and glTF scenes back to .kms/.evm (with the
// --template model loaded here and the result validated before it is handed out).
#include "boneyard/gltf.h"
#include "boneyard/mgs2_scene.h"
#include "boneyard/mgs2_validate.h"
#include "mgs2_documents.h"

namespace boneyard::mgs2 {

namespace {

Result<std::vector<std::uint8_t>> gltf_bytes(const scene::Scene& sc, std::string_view ext, const ConvertOptions& o) {
  if (ext == ".glb") return gltf::write(sc, gltf::Container::glb).main;
  if (o.side_files == nullptr)
    return Finding{Severity::error, 0, {}, "a .gltf needs its .bin written beside it", "a caller that writes side files", "none"};
  std::filesystem::path bin = o.output.empty() ? std::filesystem::path("model.bin") : o.output;
  bin.replace_extension(".bin");
  auto out = gltf::write(sc, gltf::Container::gltf, bin.filename().string());
  if (!out.bin.empty()) o.side_files->emplace_back(bin, std::move(out.bin));
  return std::move(out.main);
}

ExportOptions export_options(const ConvertOptions& o, const TextureNames* names) {
  ExportOptions e;
  if (o.scale != 0) e.scale = o.scale;
  e.names = names;
  e.textures_dir = o.textures;
  e.output_dir = o.output.parent_path();
  return e;
}

template <class Model>
Result<std::vector<std::uint8_t>> export_model(const Model& m, const TextureNames* names, std::string_view ext,
                                               const ConvertOptions& o,
                                               Result<scene::Scene> (*to_scene)(const Model&, const ExportOptions&, Diagnostics&)) {
  Diagnostics warnings;
  auto sc = to_scene(m, export_options(o, names), warnings);
  if (o.warnings != nullptr)
    for (auto& f : warnings.findings()) o.warnings->add(std::move(f));
  if (!sc) return sc.error();
  return gltf_bytes(sc.value(), ext, o);
}

}  // namespace

Result<std::vector<std::uint8_t>> kms_to_gltf(const KmsModel& m, const TextureNames* names, std::string_view ext,
                                              const ConvertOptions& o) {
  return export_model(m, names, ext, o, &kms_to_scene);
}

Result<std::vector<std::uint8_t>> evm_to_gltf(const EvmModel& m, const TextureNames* names, std::string_view ext,
                                              const ConvertOptions& o) {
  return export_model(m, names, ext, o, &evm_to_scene);
}

Result<std::vector<std::uint8_t>> scene_to_model(const scene::Scene& s, std::string_view ext, const ConvertOptions& o) {
  const bool kms = ext == ".kms";
  ImportOptions io;
  if (o.scale != 0) io.scale = o.scale;
  io.layout = parse_layout(o.layout);
  io.model_name = o.output.stem().string();
  if (io.model_name.empty()) io.model_name = "model";
  // The template's bytes stay open while the builder reads views of them.
  std::shared_ptr<const FileData> tpl_file;
  std::optional<KmsModel> kms_tpl;
  std::optional<EvmModel> evm_tpl;
  if (!o.template_omf.empty()) {
    auto opened = FileData::open(o.template_omf);
    if (auto* err = std::get_if<FileError>(&opened))
      return io_error_finding("--template", "cannot read " + o.template_omf.string() + ": " + err->message);
    tpl_file = std::get<std::shared_ptr<const FileData>>(std::move(opened));
    Finding bad;
    if (kms) {
      auto r = read_kms(tpl_file->bytes());
      if (r) kms_tpl = std::move(r).value(), io.kms_template = &*kms_tpl;
      else bad = r.error();
    } else {
      auto r = read_evm(tpl_file->bytes());
      if (r) evm_tpl = std::move(r).value(), io.evm_template = &*evm_tpl;
      else bad = r.error();
    }
    if (!kms_tpl && !evm_tpl) {
      bad.path = "--template " + o.template_omf.string() + (bad.path.empty() ? "" : ": " + bad.path);
      return bad;
    }
  }
  Diagnostics scratch;
  Diagnostics& warnings = o.warnings ? *o.warnings : scratch;
  auto bytes = kms ? scene_to_kms(s, io, warnings) : scene_to_evm(s, io, warnings);
  if (!bytes) return bytes;
  // Never hand out a model the game would misread: the validator's errors stop the write.
  Diagnostics check;
  const Bytes b(bytes.value().data(), bytes.value().size());
  if (kms) {
    auto m = read_kms(b);
    if (!m) return m.error();
    validate_kms(m.value(), check);
  } else {
    auto m = read_evm(b);
    if (!m) return m.error();
    validate_evm(m.value(), check);
  }
  for (const auto& f : check.findings())
    if (f.severity == Severity::error) {
      Finding e = f;
      e.path = "written " + std::string(ext) + " " + e.path;
      return e;
    }
  return bytes;
}

}  // namespace boneyard::mgs2
