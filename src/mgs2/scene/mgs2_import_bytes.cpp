// glTF scenes back to .kms/.evm as `convert` asks: the result is validated before it is handed out
// (the --template model comes from the registry, which reads files).
#include "boneyard/core/file_io.h"
#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mgs2_scene.h"

namespace boneyard::mgs2 {

Result<std::vector<std::uint8_t>> scene_to_model(const scene::Scene& s, std::string_view ext, Mgs2ImportOptions io,
                                                 std::string model_name, Diagnostics& warnings) {
  const bool kms = ext == ".kms";
  if (kms && io.n_mats)
    return Finding{Severity::error, 0, "--n-mats", "n_mats exists only in .evm packets", ".evm", std::string(ext)};
  io.model_name = model_name.empty() ? std::string("model") : std::move(model_name);
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
