// libFuzzer target for the OGF reader (skeleton and meshes) and the glTF export: any input must
// parse or fail cleanly; what parses must validate, describe itself (info, dump) and rewrite
// byte-exact; a model that exports must give a scene the glTF writer accepts: skeleton, embedded
// motions (refs are not followed here) and meshes, both failing on the first broken child and
// leaving broken children out. The dumps and the glTF writer, linear in keys and vertices, run on
// the inputs up to 8 KB and a sample of the larger ones (fuzz_sample.h). OGF v3 inputs (a 4-byte
// header) go through the v3 model the same way: read, validate, rewrite byte-exact, info, dump,
// and the scene with and without --keep-going, written as glTF.
#include <cstdlib>
#include <cstring>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/xray_scene.h"
#include "boneyard/xray/ogf/ogf_report.h"
#include "boneyard/xray/ogf_v3/ogf_v3_report.h"
#include "boneyard/xray/ogf_v3/ogf_v3_scene.h"
#include "fuzz_sample.h"

namespace {

void write_or_abort(const boneyard::scene::Scene& s) {
  const auto glb = boneyard::gltf::write(s, boneyard::gltf::Container::glb);
  if (glb.main.size() < 20 || glb.main.size() % 4 != 0) std::abort();
}

int fuzz_v3(std::shared_ptr<const boneyard::FileData> file, const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  auto ogf = xray::read_ogf_v3(file);
  if (!ogf) return 0;
  (void)xray::validate_ogf_v3(ogf.value());
  const auto out = xray::write_ogf_v3(ogf.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  const bool sampled = fuzz::small_or_sampled(data, size);
  {
    JsonWriter w;
    if (sampled) {
      xray::dump_ogf_v3(w, ogf.value(), false);
      xray::dump_ogf_v3(w, ogf.value(), true);
    }
    (void)xray::describe_ogf_v3(ogf.value());
  }
  (void)xray::ogf_v3_conversion_blockers(ogf.value(), true);
  // Without --keep-going, then with it only when a visual failed (else both scenes are the same).
  for (bool keep_going : {false, true}) {
    Diagnostics warnings;
    xray::XrayExportOptions o{"fuzz.ogf", {}, {}, keep_going};
    auto sc = xray::ogf_v3_to_scene(ogf.value(), o, warnings);
    if (sc && sampled) write_or_abort(sc.value());
    if (sc) break;
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  if (xray::looks_like_ogf_v3(Bytes(data, size))) return fuzz_v3(std::move(file), data, size);
  auto ogf = xray::read_ogf(file);
  if (!ogf) return 0;
  (void)xray::validate_ogf(ogf.value());  // decodes every vertex of every readable child
  const auto out = xray::write_ogf(ogf.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  const bool sampled = fuzz::small_or_sampled(data, size);
  {  // info and dump (every key of the motions; raw: every vertex too) never fail
    JsonWriter w;
    if (sampled) {
      xray::dump_ogf(w, ogf.value(), false);
      xray::dump_ogf(w, ogf.value(), true);
    }
    (void)xray::describe_ogf(ogf.value());
  }
  scene::Scene base;
  if (ogf->bones.empty()) {
    base.skeleton.name = "fuzz";  // a static model: meshes without a skeleton
  } else {
    auto sc = xray::skeleton_scene(ogf.value(), "fuzz");
    if (!sc) return 0;
    base = std::move(sc).value();
    if (ogf->motions) {
      Diagnostics warnings;
      if (!xray::add_motions(base, &ogf.value(), *ogf->motions, "embedded", warnings)) return 0;
      xray::resolve_duplicate_motions(base, warnings);
    }
  }
  // The glTF writer is the expensive step: on the inputs up to 8 KB (all of its code) and a sample
  // of the larger ones, and once when no child is broken (both scenes are then the same).
  Diagnostics warnings;
  scene::Scene strict = base;
  xray::XrayExportOptions o{"fuzz.ogf", {}, {}, false};
  const bool all_children = xray::add_meshes(strict, ogf.value(), o, warnings).ok();
  if (all_children && sampled) write_or_abort(strict);
  o.keep_going = true;  // never fails: broken children are left out
  if (!xray::add_meshes(base, ogf.value(), o, warnings)) std::abort();
  if (!all_children && sampled) write_or_abort(base);
  return 0;
}
