#include <algorithm>
#include <cctype>
#include <set>

#include "boneyard/core/text.h"
#include "boneyard/gltf/gltf_write.h"
#include "formats.h"

namespace boneyard::registry {

namespace fs = std::filesystem;

bool is_gltf_extension(std::string_view ext) { return ext == ".glb" || ext == ".gltf"; }

namespace {


// A .gltf's images become files beside it: <name>.png, then <name>_2.png, ... when names repeat
// (ignoring case, for case-insensitive file systems).
Status write_images_beside(scene::Scene& sc, const fs::path& dir, ConvertOutputs& out) {
  std::set<std::string> taken;
  std::vector<bool> used(sc.images.size(), false);
  for (const auto& m : sc.materials)
    if (m.image < sc.images.size()) used[m.image] = true;
  for (std::size_t i = 0; i < sc.images.size(); ++i) {
    scene::Image& im = sc.images[i];
    if (!used[i] || !im.uri.empty() || im.data.empty()) continue;
    const std::string base = im.name.empty() ? std::string("image") : im.name;
    std::string name = base + ".png";
    for (int k = 2; taken.count(lower_ascii(name)); ++k) name = base + "_" + std::to_string(k) + ".png";
    taken.insert(lower_ascii(name));
    auto sink = out.side_file(dir / name);
    if (!sink) return sink.error();
    if (auto s = sink.value()->write(im.data); !s) return s;
    im.uri = name;
    std::vector<std::uint8_t>().swap(im.data);
  }
  return {};
}

}  // namespace

Status encode_gltf(Result<scene::Scene>& sc, Diagnostics& adapter_warnings, std::string_view ext, const ConvertOptions& o,
                   ConvertOutputs& out) {
  if (o.warnings != nullptr)
    for (auto& f : adapter_warnings.findings()) o.warnings->add(std::move(f));
  if (!sc) return sc.error();
  if (ext == ".glb") return gltf::Encoding(sc.value(), gltf::Container::glb).write(out.main());
  fs::path bin = o.output.empty() ? fs::path("scene.bin") : o.output;
  bin.replace_extension(".bin");
  if (auto s = write_images_beside(sc.value(), o.output.parent_path(), out); !s) return s;
  const gltf::Encoding encoding(sc.value(), gltf::Container::gltf, bin.filename().string());
  if (encoding.bin_size() > 0) {
    auto sink = out.side_file(bin);
    if (!sink) return sink.error();
    if (auto s = encoding.write_bin(*sink.value()); !s) return s;
  }
  return encoding.write(out.main());
}

}  // namespace boneyard::registry
