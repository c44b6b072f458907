#include "boneyard/gltf.h"
#include "formats.h"

namespace boneyard::registry {

bool is_gltf_extension(std::string_view ext) { return ext == ".glb" || ext == ".gltf"; }

Result<std::vector<std::uint8_t>> encode_gltf(const Result<scene::Scene>& sc, Diagnostics& adapter_warnings,
                                              std::string_view ext, const ConvertOptions& o) {
  if (o.warnings != nullptr)
    for (auto& f : adapter_warnings.findings()) o.warnings->add(std::move(f));
  if (!sc) return sc.error();
  if (ext == ".glb") return gltf::write(sc.value(), gltf::Container::glb).main;
  if (o.side_files == nullptr)
    return Finding{Severity::error, 0, {}, "a .gltf needs its .bin written beside it", "a caller that writes side files",
                   "none"};
  std::filesystem::path bin = o.output.empty() ? std::filesystem::path("scene.bin") : o.output;
  bin.replace_extension(".bin");
  auto out = gltf::write(sc.value(), gltf::Container::gltf, bin.filename().string());
  if (!out.bin.empty()) o.side_files->emplace_back(bin, std::move(out.bin));
  return std::move(out.main);
}

}  // namespace boneyard::registry
