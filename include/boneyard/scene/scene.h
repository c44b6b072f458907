// A neutral scene between game formats and interchange formats (glTF). It knows no game: adapters
// (src/xray/scene/xray_scene.cpp, later MGS2) fill it, writers (src/gltf) read it.
//
// Conventions (those of glTF, so writers copy values without converting):
// right-handed, +Y up, metres, column vectors; quaternions x, y, z, w, unit length; a joint's
// world transform is parent_world * local(T, R, S).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/math.h"

namespace boneyard::scene {

// What a format needs to convert an item back that glTF has no place for (its `extras`): a JSON
// value written and read again by that format's adapter. Held behind a pointer so that the public
// API carries no JSON library and an item without extras costs one null pointer; the adapters
// and the glTF layer reach the value through src/scene/extras_json.h.
class Extras {
 public:
  Extras() noexcept;
  ~Extras();
  Extras(const Extras& other);
  Extras& operator=(const Extras& other);
  Extras(Extras&& other) noexcept;
  Extras& operator=(Extras&& other) noexcept;
  // Nothing attached: no value, null or an empty object (glTF writers leave `extras` out).
  bool empty() const noexcept;
  // The value as compact JSON text ("" when empty).
  std::string text() const;
  // The same text, appended to `out`.
  void append_text(std::string& out) const;

 private:
  friend struct ExtrasAccess;
  struct Value;
  std::unique_ptr<Value> value_;
};

struct Joint {
  std::string name;  // UTF-8
  int parent = -1;   // index into Skeleton::joints, -1 for a root; parents need not come first,
                     // but the tree has no cycles (adapters reject those)
  // Rest (bind) pose, parent-relative.
  Vec3 translation;
  Quat rotation;
  Vec3 scale{1, 1, 1};
  Extras extras;
};

struct Skeleton {
  std::string name;  // name of the node that holds the joint roots (and later the meshes)
  std::vector<Joint> joints;
  Extras extras;
  // Set by the glTF reader: the first skin's joints (indices into joints), in skin order, since a
  // read scene's joints are all the file's nodes. Writers ignore it (they bind every joint).
  std::vector<std::uint32_t> skin;
};

// Key times shared by several channels (in X-Ray, every keyed channel of a motion has the same
// frames; every static one has a single key at 0).
struct Timeline {
  std::vector<float> times;  // seconds, strictly increasing
};

struct Channel {
  enum class Path : std::uint8_t { translation, rotation, scale };
  std::uint32_t joint = 0;
  Path path = Path::rotation;
  std::uint32_t timeline = 0;  // index into Animation::timelines
  // Flat values: 3 floats per key (translation, scale) or 4 (rotation x, y, z, w).
  std::vector<float> values;
  // Rotations only, optional: the keys as signed 16-bit components scaled by 32767 (glTF's
  // normalised SHORT rotation output, decoded as max(c / 32767, -1)). When set, writers store these
  // and `values` holds their decoded floats; no component is -32768.
  std::vector<std::int16_t> shorts;
};

struct Animation {
  std::string name;  // UTF-8
  std::vector<Timeline> timelines;
  std::vector<Channel> channels;  // interpolation is LINEAR (slerp for rotations)
  Extras extras;
  // Set by the glTF reader: seconds from the first key of any channel to the last. An animation
  // whose every channel holds one value is read as a single sample, so only this keeps its length.
  double duration = 0;
  // Set by the glTF reader: the samples of each channel (1 for such a held animation), known
  // before they are taken (an animation of a deferred read has none yet: see AnimationSampler).
  std::size_t frames = 0;
};

// Takes the samples of a read's animations on demand, one at a time, so that a reader of many
// long animations holds one animation's samples rather than all of them (the glTF reader's
// deferred read, docs/safety.md "Memory"). The animations of such a scene carry their name,
// extras, duration, frame count and channels (joint and path) without values or timelines.
class AnimationSampler {
 public:
  virtual ~AnimationSampler() = default;
  // Fills the timeline and channel values of `animation`, a copy of the scene's animation
  // `index`, as an eager read would have made them.
  virtual Status sample(std::size_t index, Animation& animation) const = 0;
};

// What a game names as a material's texture. Adapters fill it; the registry finds the file under
// the textures folder, decodes it and attaches the image (the games know no image format).
struct TextureRef {
  std::string path;        // X-Ray: "act\\act_zombie_6" as stored (cp1251, backslashes); "" = none
  std::uint32_t id = 0;    // MGS2: StrCode24 of "<name>.bmp"; 0 = none
  std::string origin;      // where the file names it, for messages ("0x9/0 0x2 texture")
  std::uint64_t offset = 0;
  bool empty() const { return path.empty() && id == 0; }
};

// How the game's shader treats the texture's alpha (docs/textures.md "Alpha modes").
enum class AlphaUse : std::uint8_t {
  none,     // never transparent (X-Ray opaque shaders keep gloss in the alpha)
  test,     // alpha-tested against Material::alpha_cutoff
  blend,    // alpha-blended
  texture,  // as the alpha holds: all 255 opaque, only 0/255 tested at 0.5, anything else blended
};
enum class AlphaMode : std::uint8_t { opaque, mask, blend };

inline constexpr std::uint32_t kNoImage = 0xFFFFFFFF;

// An image a material samples. Writers embed `data` (PNG) in the binary buffer, or refer to `uri`
// (relative to the glTF) when it is set.
struct Image {
  std::string name;                // e.g. the texture file's name without extension
  std::string uri;                 // "" = embedded
  std::vector<std::uint8_t> data;  // PNG bytes
  std::uint32_t width = 0, height = 0;
};

// A material is what a game's texture (+ shader) pair becomes: metallic 0, roughness 1, a base
// colour texture when `image` is set.
struct Material {
  std::string name;  // UTF-8, e.g. the texture name or its id in hex
  TextureRef texture;
  AlphaUse alpha_use = AlphaUse::texture;
  float alpha_cutoff = 0.5f;                // for AlphaUse::test
  std::uint32_t image = kNoImage;           // base colour: index into Scene::images
  AlphaMode alpha_mode = AlphaMode::opaque; // what writers write (set with the image)
  std::string image_name;  // read from glTF: the base colour image's URI, or its name when embedded
  bool double_sided = true;
  Extras extras;  // e.g. shader name, native texture ids
};

inline constexpr std::uint32_t kNoMaterial = 0xFFFFFFFF;

// A triangle list. Attributes are per vertex, flat: positions/normals 3 floats, each UV set 2
// floats (glTF texture space: origin top-left), joints/weights 4 per vertex. Front faces are
// counter-clockwise in the scene's right-handed space (adapters that flip handedness also flip
// the winding). Skinned meshes carry joints (indices into Skeleton::joints) and weights that sum
// to 1 with zero weights on joint 0 (see clean_weights); rigid meshes leave both empty.
struct Primitive {
  std::uint32_t material = kNoMaterial;  // index into Scene::materials
  std::vector<float> positions;
  std::vector<float> normals;             // empty, or 3 per vertex (unit length)
  std::vector<std::vector<float>> uvs;    // TEXCOORD_0.. ; each 2 per vertex
  std::vector<std::uint16_t> joints;      // empty, or 4 per vertex
  std::vector<float> weights;             // empty, or 4 per vertex
  // Read from glTF: per vertex, the weight of influences beyond the 4 heaviest (JOINTS_1 and up),
  // which were dropped; empty when the file has only JOINTS_0. Importers report it as moved.
  std::vector<float> dropped_weights;
  std::vector<std::uint32_t> indices;     // 3 per triangle
  Extras extras;
  std::size_t vertex_count() const { return positions.size() / 3; }
};

// A skinned mesh (skinned = true) is bound to the scene's one skin (every joint of the skeleton,
// inverse bind matrices from the rest pose); its positions are in the skeleton's model space (the
// space of the joint roots). A rigid mesh hangs under joint `joint` (or under the skeleton's root
// node when -1) and its positions are in that node's space.
struct Mesh {
  std::string name;  // UTF-8
  bool skinned = false;
  int joint = -1;
  std::vector<Primitive> primitives;
  Extras extras;
};

// A perspective camera carried by a joint (a glTF node's `camera`): it looks along the joint's -Z
// with +Y up, as glTF cameras do.
struct Camera {
  std::string name;  // UTF-8
  std::uint32_t joint = 0;  // index into Skeleton::joints
  float yfov = 1.0f;        // vertical field of view, radians
  float znear = 0.1f;
  float zfar = 0;    // 0: infinite
  float aspect = 0;  // width / height; 0: not given (the viewport's)
};

struct Scene {
  Skeleton skeleton;
  std::vector<Camera> cameras;
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Image> images;
  std::vector<Animation> animations;
  std::string generator;  // asset.generator
  Extras extras;  // scene-level extras (format-specific data needed to convert back)
  // Set when the animations were read without their samples (AnimationSampler); null otherwise.
  std::shared_ptr<const AnimationSampler> sampler;
};

// Animation `index` of `scene` with its samples: the scene's own when it holds them, else the
// one its sampler takes into `storage`.
Result<const Animation*> sampled_animation(const Scene& scene, std::size_t index, Animation& storage);

// Helpers shared by adapters and tests.
Quat normalized(Quat q);
float dot(const Quat& a, const Quat& b);
// Makes each quaternion in a flat x,y,z,w array lie in the hemisphere of its predecessor, so that
// LINEAR (slerp) interpolation takes the same shortest path as the engine.
void make_sign_continuous(std::vector<float>& xyzw);

// 4x4 column-major matrix (glTF accessor order).
using Mat4 = std::array<double, 16>;
Mat4 trs_matrix(const Vec3& t, const Quat& r, const Vec3& s);
Mat4 multiply(const Mat4& a, const Mat4& b);  // a * b
Mat4 inverse_affine(const Mat4& m);
// World (bind) matrices of every joint; parents are resolved recursively, not by order.
std::vector<Mat4> world_matrices(const Skeleton& skeleton);

// Makes a primitive's skin weights what glTF requires, per vertex: negative or NaN weights become
// 0, slots that name the same joint are merged, the sum is normalised to 1 (a vertex with no
// weight at all goes fully to `fallback_joint`), slots are sorted by decreasing weight and empty
// ones point at joint 0. Returns how many vertices needed more than a renormalisation (merged
// duplicates, clamped negatives or no weight), for the adapter's warning.
std::size_t clean_weights(Primitive& primitive, std::uint16_t fallback_joint = 0);

// Normals for a primitive that has none: area-weighted face normals summed at each vertex
// (vertices of degenerate triangles only get +Y).
void compute_normals(Primitive& primitive);

}  // namespace boneyard::scene
