// glTF scenes back to .kms/.evm as `convert` asks: the --template model is loaded here and the
// result is validated before it is handed out.
#include "boneyard/mgs2/mgs2_scene.h"
#include "boneyard/core/file_io.h"
#include "boneyard/core/paths.h"
#include "boneyard/mgs2/kms.h"
#include "boneyard/mgs2/evm.h"

namespace boneyard::mgs2 {

Result<std::vector<std::uint8_t>> scene_to_model(const scene::Scene& s, std::string_view ext, const ConvertOptions& o,
                                                 std::string model_name, Diagnostics& warnings) {
  const bool kms = ext == ".kms";
  Mgs2ImportOptions io;
  if (o.scale != 0) io.scale = o.scale;
  io.layout = parse_layout(o.layout);
  if (!o.n_mats.empty()) {
    io.n_mats = parse_n_mats_reading(o.n_mats);
    if (!io.n_mats) return Finding{Severity::error, 0, "--n-mats", "unknown n_mats reading", "spec or sealouse", o.n_mats};
    if (kms) return Finding{Severity::error, 0, "--n-mats", "n_mats exists only in .evm packets", ".evm", std::string(ext)};
  }
  io.model_name = model_name.empty() ? std::string("model") : std::move(model_name);
  // The template's bytes stay open while the builder reads views of them.
  std::shared_ptr<const FileData> tpl_file;
  std::optional<KmsFile> kms_tpl;
  std::optional<EvmFile> evm_tpl;
  if (!o.template_model.empty()) {
    auto opened = FileData::open(o.template_model);
    if (!opened)
      return io_error_finding("--template", "cannot read " + path_to_utf8(o.template_model) + ": " + opened.error().message);
    tpl_file = std::move(opened).value();
    Finding bad;
    if (kms) {
      auto r = read_kms(tpl_file);
      if (r) kms_tpl = std::move(r).value(), io.kms_template = &*kms_tpl;
      else bad = r.error();
    } else {
      auto r = read_evm(tpl_file);
      if (r) evm_tpl = std::move(r).value(), io.evm_template = &*evm_tpl;
      else bad = r.error();
    }
    if (!kms_tpl && !evm_tpl) {
      bad.path = "--template " + path_to_utf8(o.template_model) + (bad.path.empty() ? "" : ": " + bad.path);
      return bad;
    }
  }
  auto bytes = kms ? scene_to_kms(s, io, warnings) : scene_to_evm(s, io, warnings);
  if (!bytes) return bytes;
  // Never hand out a model the game would misread: the validator's errors stop the write.
  Diagnostics check;
  const Bytes b(bytes.value().data(), bytes.value().size());
  if (kms) {
    auto m = read_kms(FileData::from_view(b, nullptr));
    if (!m) return m.error();
    check.append(validate_kms(m.value()));
  } else {
    auto m = read_evm(FileData::from_view(b, nullptr));
    if (!m) return m.error();
    check.append(validate_evm(m.value()));
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
