// Limits on data that legitimately expands when converted: frame counts of motions (a static
// track stores one key whatever its frame count), the 30 fps sampling of glTF animations and
// decoded texture pixels.
// Everything else a file declares (counts, sizes) is checked against the bytes that remain, so
// memory stays bounded by the input; these limits bound what the bytes cannot. The user-facing
// description is in docs/safety.md ("Memory").
#pragma once

#include <cstdint>
#include <string>

namespace boneyard {

// One motion or animation: 2^20 frames, 9.7 hours at 30 fps. Longer ones are an error naming it.
inline constexpr std::uint64_t kMaxMotionFrames = std::uint64_t{1} << 20;
// All motions of one conversion together: 2^22 frames (38.8 hours at 30 fps). A tiny file can
// declare thousands of motions each just under kMaxMotionFrames; this bounds their sum.
inline constexpr std::uint64_t kMaxTotalFrames = std::uint64_t{1} << 22;
// glTF sampling at 30 fps: the bytes the samples (channel values and sample times, 4 bytes each)
// may take, checked from the key times and channel counts before anything is sampled. Not a ratio
// to the file's size: boneyard's own export keeps only the ends of runs of equal keys, so a real
// file samples to far more per byte than a keyed one (the 2,760-motion hands model: 122 MB of
// samples from a 44 MB .glb). One animation: 256 MiB (64 bones x 7 values for 2.6 hours).
inline constexpr std::uint64_t kMaxSampledBytesPerAnimation = std::uint64_t{256} << 20;
// All animations of one read: 2 GiB. An eager read holds all of them; a deferred one
// (gltf::read_deferred, what the registry uses) holds one at a time, and this bounds the work and
// the motion file they become.
inline constexpr std::uint64_t kMaxSampledBytesPerRead = std::uint64_t{2} << 30;

// glTF accessors: decoded values (floats, 32-bit indices) may take 2x the input plus this slack,
// 16 MB (a typical vertex of 52 stored bytes decodes to 64); an accessor named by thousands of
// channels or primitives would otherwise multiply the input.
inline constexpr std::uint64_t kDecodedAccessorSlack = std::uint64_t{16} << 20;

// MGS2 export: vertices decoded beyond one per 2 bytes of the file (packets sharing arrays).
inline constexpr std::uint64_t kSharedVertexSlack = std::uint64_t{1} << 20;

// MGS2 .mar: motions of one archive (a character's set holds hundreds); each costs far more memory
// than its 8-byte table entry, and motions may share one MTCM.
inline constexpr std::uint64_t kMaxMarMotions = std::uint64_t{1} << 16;
// MGS2 .mar: keys decoded beyond one per 8 bytes of the file (a key record takes 13 bytes; motions
// and joints whose offsets name the same stream would otherwise decode it again and again).
inline constexpr std::uint64_t kSharedKeySlack = std::uint64_t{1} << 20;

// Textures: pixels of one decoded image (a .dds or .ctxr level, a .png, a cube cross), checked
// against its header before anything is allocated: 2^26 = 8192 x 8192, 256 MiB as 8-bit RGBA.
// Headroom over the games: their largest textures (X-Ray level terrain, MGS2 Master Collection
// upscales) are at most 4096 x 4096 as far as we know, and mod HD packs reach 8192 x 8192. Any
// shape within 16384 each way (texture.h kMaxDimension) and this many pixels is read.
inline constexpr std::uint64_t kMaxTexturePixels = std::uint64_t{1} << 26;
inline constexpr std::uint64_t kMaxTextureBytes = kMaxTexturePixels * 4;

// "1048576 frames (9.7 hours at 30 fps)", for messages.
inline std::string frames_text(std::uint64_t frames) {
  const double hours = double(frames) / 30.0 / 3600.0;
  const long tenths = static_cast<long>(hours * 10.0 + 0.5);
  return std::to_string(frames) + " frames (" + std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) +
         " hours at 30 fps)";
}

}  // namespace boneyard
