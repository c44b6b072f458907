// glTF 2.0 input into the neutral scene (scene.h): .gltf (with external buffers or data URIs)
// and .glb. Every node becomes a joint (node i = joint i, parents from `children`), TRS or
// matrix decomposed; extras are kept. Animations are resampled at a fixed rate so that the
// scene's LINEAR-only channels carry what STEP and CUBICSPLINE samplers mean exactly at the
// sample times.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "boneyard/core/bytes.h"
#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/scene/scene.h"

namespace boneyard::gltf {

// True for GLB magic, or text whose first non-blank byte is '{' and that mentions "asset".
bool looks_like_gltf(Bytes bytes);

struct ReadOptions {
  // Each animation is sampled at this rate over its time range [first key, last key]:
  // frames = round(duration * fps) + 1, sample i at first + i / fps. Must be > 0.
  double fps = 30;
  // The X-Ray motion importer needs animations; a model importer (MGS2) does not.
  bool require_animations = true;
  // Meshes instantiated by nodes (with their materials and the first skin) go to Scene::meshes.
  bool meshes = true;
};

// Where the external buffers of a .gltf come from: given a buffer's URI as written (not a data:
// URI) and where it is named ("buffer 2"), the bytes (kept open while the scene is read), or why
// not. The registry reads them from files beside the .gltf, confined to its folder
// (registry/gltf_files.h): this library opens no file. Empty: such a buffer is an error.
using ExternalBuffers =
    std::function<Result<std::shared_ptr<const FileData>>(const std::string& uri, const std::string& where)>;

// The sampled scene: animation a has one timeline (the sample times) and one channel per glTF
// channel (translation, rotation or scale; `weights` channels are skipped with a warning).
// Meshes (when options.meshes): one scene::Mesh per node that instantiates a mesh, named after
// the mesh; skinned when the node has a skin, with JOINTS_0 mapped through the skin's joints to
// node (= joint) indices; otherwise Mesh::joint is the node. Triangle lists are read as they are,
// strips and fans are turned into lists, points and lines are skipped with a warning. Materials
// keep their name, doubleSided, extras and the base colour image's URI (or name).
// Skeleton::skin receives the first skin's joints (node indices).
// Errors name the animation, channel and node: no animations (when required), NaN/infinite values, times that
// do not increase, accessors outside their buffers, wrong accessor types or counts, unknown
// nodes. `buffers` gives the external buffers of a .gltf; its errors (a file that cannot be read
// has `io` set) are the read's.
// Animations are checked and budgeted before any sample is taken (docs/safety.md "Memory"): at
// most 2^20 frames each and 2^22 in all, and samples (values and times, 4 bytes each) of at most
// 256 MiB per animation and 2 GiB for all of them.
Result<scene::Scene> read(Bytes bytes, const ExternalBuffers& buffers, const ReadOptions& options,
                          Diagnostics& warnings);

// The same read (the same checks, errors and warnings) with the animations described but not
// sampled: each carries its name, extras, duration, frame count and channels without values, and
// scene.sampler takes the samples of one animation on demand (scene::sampled_animation), keeping
// `file` and the external buffers open. A converter that goes through the animations one at a
// time holds one animation's samples instead of all of them.
Result<scene::Scene> read_deferred(std::shared_ptr<const FileData> file, const ExternalBuffers& buffers,
                                   const ReadOptions& options, Diagnostics& warnings);

// A URI's %XX escapes decoded (RFC 3986); anything else is kept as written.
std::string percent_decode(std::string_view uri);

// One glTF sampler, evaluated as the specification defines it (exposed for tests).
enum class Interpolation : std::uint8_t { linear, step, cubic_spline };
// `times` strictly increasing; `values` holds `width` floats per key (3 per key each for
// in-tangent, value, out-tangent with cubic_spline). Rotations (width 4) are slerped (LINEAR) and
// normalised. A time within 1e-6 s of a key gives that key's value exactly.
void evaluate(const float* times, std::size_t count, const float* values, std::size_t width, Interpolation interp,
              bool rotation, double t, float* out);

}  // namespace boneyard::gltf
