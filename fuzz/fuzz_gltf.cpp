// libFuzzer target for the glTF reader (container, JSON, accessors, nodes, meshes, skins,
// animations, read deferred as the registry reads it, each animation then sampled on its own)
// and, on what it accepts, the MGS2 builders. Properties beyond "no crash": every sampled
// animation holds the frames its description promised, and a .kms or .evm the builders hand out
// reads back with the MGS2 readers.
#include <cstdint>
#include <cstdlib>

#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/gltf/gltf_read.h"
#include "boneyard/mgs2/kms/kms.h"
#include "boneyard/mgs2/mgs2_scene.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  Diagnostics warnings;
  gltf::ReadOptions o;
  o.require_animations = false;
  o.fps = 30;
  // No base dir: external URIs fail cleanly. The input outlives the read (libFuzzer's buffer).
  auto s = gltf::read_deferred(FileData::from_view(Bytes(data, size), nullptr), {}, o, warnings);
  if (!s) return 0;
  for (std::size_t a = 0; a < s.value().animations.size(); ++a) {
    scene::Animation storage;
    auto sampled = scene::sampled_animation(s.value(), a, storage);
    if (!sampled) std::abort();  // the read checked everything sampling decodes
    const scene::Animation& anim = *sampled.value();
    const std::size_t frames = s.value().animations[a].frames;
    if (anim.timelines.size() != 1 || anim.timelines[0].times.size() != frames) std::abort();
    for (const auto& c : anim.channels)
      if (c.values.size() != frames * (c.path == scene::Channel::Path::rotation ? 4 : 3)) std::abort();
  }
  // Bound the builders' work: the reader accepts any size the buffers can back.
  std::size_t vertices = 0;
  for (const auto& m : s.value().meshes)
    for (const auto& p : m.primitives) vertices += p.vertex_count() + p.indices.size();
  if (vertices > 20000 || s.value().skeleton.joints.size() > 1000) return 0;
  mgs2::Mgs2ImportOptions io;
  if (auto k = mgs2::scene_to_kms(s.value(), io, warnings); k)
    if (!mgs2::read_kms(FileData::from_view(k.value(), nullptr))) std::abort();
  if (auto e = mgs2::scene_to_evm(s.value(), io, warnings); e)
    if (!mgs2::read_evm(FileData::from_view(e.value(), nullptr))) std::abort();
  return 0;
}
