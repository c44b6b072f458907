// libFuzzer target for the OGF skeleton reader and the glTF export: any input must parse or fail
// cleanly; what parses must validate and rewrite byte-exact; a skeleton that exports must give a
// scene the glTF writer accepts (embedded motions included; refs are not followed here).
#include <cstdlib>
#include <cstring>

#include "boneyard/gltf.h"
#include "boneyard/ogf.h"
#include "boneyard/xray_scene.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  auto ogf = xray::read_ogf(file);
  if (!ogf) return 0;
  (void)xray::validate_ogf(ogf.value());
  const auto out = xray::write_ogf(ogf.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  auto sc = xray::skeleton_scene(ogf.value(), "fuzz");
  if (!sc) return 0;
  if (ogf->motions) {
    Diagnostics warnings;
    if (xray::add_motions(sc.value(), &ogf.value(), *ogf->motions, "embedded", warnings)) return 0;
    xray::resolve_duplicate_motions(sc.value(), warnings);
  }
  const auto glb = gltf::write(sc.value(), gltf::Container::glb);
  if (glb.main.size() < 20 || glb.main.size() % 4 != 0) std::abort();
  return 0;
}
