// libFuzzer target for the .object reader and what reads an object: any input must parse or fail
// cleanly; what parses must validate, describe itself (info, dump), rewrite byte-exact, export to a
// scene (broken meshes left out) that the glTF writer takes, come back through the template import
// byte for byte, and become a template-less object that reads back; SoC normals in one pass equal
// the walk over each point's list. The heavy steps run on the inputs up to 8 KB and a sample of
// the larger ones (fuzz_sample.h).
#include <cstdlib>
#include <cstring>

#include "boneyard/gltf/gltf_write.h"
#include "boneyard/xray/object/object.h"
#include "boneyard/xray/object/object_report.h"
#include "boneyard/xray/object/object_scene.h"
#include "fuzz_sample.h"
#include "xray/object/object_smoothing.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  auto file = FileData::from_vector(std::vector<std::uint8_t>(data, data + size));
  auto object = xray::read_object(file);
  if (!object) return 0;
  const Diagnostics found = xray::validate_object(object.value());
  const auto out = xray::write_object(object.value());
  if (out.size() != size || std::memcmp(out.data(), data, size) != 0) std::abort();
  if (!fuzz::small_or_sampled(data, size)) return 0;
  {
    JsonWriter w;
    xray::dump_object(w, object.value(), false);
    xray::dump_object(w, object.value(), true);
    (void)xray::describe_object(object.value());
  }
  Diagnostics warnings;
  xray::ObjectExportOptions o;
  o.keep_going = true;
  for (const auto style : {xray::SmoothingStyle::soc, xray::SmoothingStyle::cscop}) {
    o.style = style;
    auto s = xray::object_to_scene(object.value(), "fuzz", o, warnings);
    if (!s) return 0;  // a bone tree a scene cannot hold
    const auto glb = gltf::write(s.value(), gltf::Container::glb);
    if (glb.main.size() < 20 || glb.main.size() % 4 != 0) std::abort();
  }
  if (found.has_errors()) return 0;
  // SoC ids take one pass over the corners: the same bits as the walk over each point's list.
  for (const auto& m : object.value().meshes) {
    const auto g = xray::object_smoothing::geometry_of(m);
    const auto one_pass = xray::object_smoothing::corner_normals(g, xray::SmoothingStyle::soc);
    const auto walk = xray::object_smoothing::corner_normals_by_point_lists(g, xray::SmoothingStyle::soc);
    if (one_pass.size() != walk.size() || std::memcmp(one_pass.data(), walk.data(), one_pass.size() * sizeof(Vec3)) != 0)
      std::abort();
  }
  // A valid object through its own scene: with itself as template the same bytes; without a
  // template a new object that reads back (scene_to_object_bytes validates what it writes).
  o.style.reset();
  o.keep_going = false;
  auto s = xray::object_to_scene(object.value(), "fuzz", o, warnings);
  if (!s) std::abort();
  for (std::uint32_t j = 0; j < s->skeleton.joints.size(); ++j) s->skeleton.skin.push_back(j);
  xray::ObjectImportOptions io;
  io.template_object = &object.value();
  auto same = xray::scene_to_object_bytes(s.value(), io, warnings);
  if (same && (same->size() != size || std::memcmp(same->data(), data, size) != 0)) std::abort();
  (void)xray::scene_to_object_bytes(s.value(), {}, warnings);
  return 0;
}
