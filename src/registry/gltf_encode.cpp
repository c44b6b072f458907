#include "boneyard/gltf.h"
#include "formats.h"

namespace boneyard::registry {

bool is_gltf_extension(std::string_view ext) { return ext == ".glb" || ext == ".gltf"; }

Status encode_gltf(const Result<scene::Scene>& sc, Diagnostics& adapter_warnings, std::string_view ext,
                   const ConvertOptions& o, ConvertOutputs& out) {
  if (o.warnings != nullptr)
    for (auto& f : adapter_warnings.findings()) o.warnings->add(std::move(f));
  if (!sc) return sc.error();
  if (ext == ".glb") return gltf::Encoding(sc.value(), gltf::Container::glb).write(out.main());
  std::filesystem::path bin = o.output.empty() ? std::filesystem::path("scene.bin") : o.output;
  bin.replace_extension(".bin");
  const gltf::Encoding encoding(sc.value(), gltf::Container::gltf, bin.filename().string());
  if (encoding.bin_size() > 0) {
    auto sink = out.side_file(bin);
    if (!sink) return sink.error();
    if (auto s = encoding.write_bin(*sink.value()); !s) return s;
  }
  return encoding.write(out.main());
}

}  // namespace boneyard::registry
