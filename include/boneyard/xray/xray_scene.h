// X-Ray skeletons and motions as a neutral scene (glTF conventions). The mapping, its derivation
// and the extras schema are in docs/xray-gltf.md.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/xray/motion_skeleton.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/scene/scene.h"

namespace boneyard::xray {

// X-Ray (left-handed, +Y up, +Z forward; the applied rotation is the conjugate of the stored
// quaternion) to glTF (right-handed, +Y up): mirror Z. See docs/xray-gltf.md for the derivation.
inline Vec3 to_gltf(const Vec3& v) { return {v.x, v.y, -v.z}; }
// `stored` is the file's quaternion (normalised or not); the result is normalised.
Quat to_gltf(const Quat& stored);
// The quaternion whose standard matrix equals setXYZi(rotation) = setHPB(-y, -x, -z) as stored
// in an Fmatrix (the same space as the stored key quaternions).
Quat bind_quaternion(const Vec3& xyz_rotation);

// Skeleton of an OGF: joints in 0xD order, rest pose = IK bind pose in glTF space (a bone without
// IK data at its parent's origin: see no_bind_pose_warning). Fails when the tree cannot be
// exported (no bones, unknown parents, cycles).
Result<scene::Scene> skeleton_scene(const OgfFile& ogf, std::string_view name);
// The warning an export of a skeleton without IK data (0x10) carries: its rest pose is made up.
void warn_no_bind_pose(const OgfFile& ogf, Diagnostics& warnings);
// A flat armature (every joint a root, identity rest pose) from the part bones of a motion set,
// for an .omf converted without a skeleton.
scene::Scene flat_scene(const MotionSet& set, std::string_view name);

// Appends one animation per motion of `set` (in 0xF order) to `scene`. OMF bones map to joints
// by name as the engine does (OGF names lower-cased, OMF names as stored); `ogf` is null for a
// flat armature (then joint i is part bone with motion-bone index i). `source` (UTF-8) names the
// motion set in extras ("monsters\\zombi_animation" or "embedded"). Errors: a bone name missing from the
// skeleton, a bone-count mismatch, a broken motion. Warnings (absurd translations, skipped
// duplicate names) go to `warnings`.
// Rotations are written as the stored 16-bit components (scene::Channel::shorts) unless
// `float_rotations`, or a track's keys are not near unit length or hold -32768 (those tracks are
// normalised floats, counted in one warning); `motions` (UTF-8 globs, case-insensitive) keeps only
// the motions whose name matches one (empty: all).
struct MotionExportOptions {
  bool float_rotations = false;
  std::vector<std::string> motions;
};
Status add_motions(scene::Scene& scene, const OgfFile* ogf, const MotionSet& set, std::string_view source,
                   Diagnostics& warnings, const MotionExportOptions& options = {});
// The first of add_motions' checks: whether the motion set fits the skeleton at all (bone count,
// bone names found in `ogf`, motion-bone indices a permutation). A model whose ref names a motion
// file that does not fit is exported without that file's motions (ogf_to_scene warns).
Status motions_fit(const scene::Scene& scene, const OgfFile* ogf, const MotionSet& set);

// Removes animations shadowed by the engine's lookup: within one motion set the first of
// several same-named motions wins (map::insert), across sets the later set wins. FX and cycles
// are separate name spaces. Call once after adding every set.
void resolve_duplicate_motions(scene::Scene& scene, Diagnostics& warnings);

// ---- Motion lookup: the engine's rules over names (docs/xray-gltf.md "Finding the motions").
// The registry applies them to the folders and reads the files (registry/xray_files.h).

// The nearest ancestor folder of `model_path` named "meshes" (any case), or nullopt. Only the
// path as given is looked at (give an absolute one).
std::optional<std::filesystem::path> meshes_folder_of(const std::filesystem::path& model_path);
// The meshes root $game_meshes$ stands for: meshes_folder_of, else the model's own folder.
std::filesystem::path default_meshes_root(const std::filesystem::path& ogf_path);
// The path components a motion ref names below the meshes root: '\' and '/' separate them, empty
// ones are dropped, and the last gets ".omf" unless it ends so (any case); the last may hold `*`
// and `?` wildcards. Empty for an empty ref.
std::vector<std::string> motion_ref_components(std::string_view ref);
// Whether a folder entry named `entry` is what a ref's component `name` names: Windows paths are
// case-insensitive, so equal ignoring ASCII case.
bool same_name_ignoring_case(std::string_view entry, std::string_view name);

// One file a motion ref named, as the registry found and read it.
struct RefMotionFile {
  std::string path;        // as found: errors name it
  std::string from_model;  // relative to the model's folder ('/' separators), else absolute: the extras' "file"
  Result<OmfFile> omf;     // the file read, or why it could not be (the error names the file)
};
// One of a model's motion refs (0x13/0x18) as the registry found it.
struct RefMotions {
  std::vector<RefMotionFile> files;  // what it names (a wildcard: every match, sorted); none: not found
  std::string looked;                // the path looked for, named in the warning when nothing was found
};

struct XrayExportOptions {
  std::filesystem::path input;        // the .ogf or .omf being converted: names the result (never opened)
  const OgfFile* skeleton = nullptr;  // for an .omf: the model whose skeleton plays it (null: a flat armature)
  std::string skeleton_path;          // that model's file, as errors and the extras name it
  // Meshes of an .ogf (add_meshes):
  bool keep_going = false;         // a broken child is left out with a warning instead of failing
  MotionExportOptions motions{};   // --float-rotations, --motions
  // An .ogf's motion refs, one per ref in order, as the registry found and read them; a ref
  // without an entry is not found.
  std::vector<RefMotions> ref_motions{};
};

// How the engine's model shaders use the base texture's alpha, read from the shader's name (the
// shader's own parameters live in shaders.xr, which models do not carry): "..._aref" shaders
// alpha-test at def_aref = 200/255 (OpenXRay blender_deffer_model.cpp, r2 common.h); the scripted
// model shaders that blend (models_lightplanes.s, models_xglass2.s, models_xlens.s) and names
// that say glass, lens, window, transparent or blend are blended; every other model shader is
// opaque, its alpha holding gloss. docs/textures.md "Alpha modes".
scene::AlphaUse shader_alpha_use(std::string_view shader);

// The model's 0x9 children as meshes of `scene`, whose skeleton must be the model's (in 0xD
// order, from skeleton_scene). Skinned children become primitives of one skinned mesh (child
// order); a child of a rigid model (type 10) whose every vertex hangs on one bone becomes plain
// meshes on those bones' nodes; static (FVF) children a plain mesh on the root node. One material
// per (texture, shader), naming the texture (scene::TextureRef) and how its shader uses alpha; the
// registry attaches the images. A child with errors (validate_ogf_child) fails the export, or with
// keep_going is left out with a warning. Conventions: docs/xray-gltf.md "Meshes".
Status add_meshes(scene::Scene& scene, const OgfFile& ogf, const XrayExportOptions& options, Diagnostics& warnings);

// An OGF with every motion the engine would give it: its refs (options.ref_motions, in order; a
// later ref wins) or, without refs, its embedded 0xE/0xF. Missing refs are warnings; an
// unreadable, broken or mismatching OMF is an error.
Result<scene::Scene> ogf_to_scene(const OgfFile& ogf, const XrayExportOptions& options, Diagnostics& warnings);
// One motion set on the skeleton of options.skeleton, or on a flat armature (with a warning).
Result<scene::Scene> omf_to_scene(const MotionSet& set, const XrayExportOptions& options, Diagnostics& warnings);

// ---- Import: Neutral scene (read from glTF, sampled at 30 fps) -> X-Ray .omf: the inverse of xray_scene.h's
// export. Rules, decisions and what round-trips byte-exact: docs/xray-gltf-import.md.

struct XrayImportOptions {
  const OgfFile* skeleton = nullptr;      // --skeleton: bones (0xD order) and IK bind pose
  // --skeleton as an .object (or any model the registry read into one): bones in its order, their
  // bind pose and parts; used when `skeleton` is null.
  const MotionSkeleton* model = nullptr;
  const OmfFile* template_omf = nullptr;  // --template: parts, params, container, reusable records
  bool hq = false;                        // --hq: 16-bit translation keys for every keyed channel
  // Only the animations boneyard's export made of this motion set (extras xray.motion_set), whose
  // bone table is used; all animations when unset. (A model made anew embeds its own set.)
  std::optional<std::size_t> motion_set;
};

// How the records of the result were obtained (for reports and tests).
struct ImportStats {
  std::size_t motions = 0;
  std::size_t records = 0;
  std::size_t template_records = 0;  // reused verbatim from the template (both channels)
  std::size_t extras_layouts = 0;    // translation keyed under the size/init the extras carried
  std::size_t template_layouts = 0;  // translation under the template record's encoding (not verbatim)
  std::size_t template_encodings_changed = 0;  // records whose encoding differs from the template's
  std::size_t crc_matches = 0;       // records whose recomputed CRCs equal those in the extras
  std::size_t crc_checked = 0;       // records with extras CRCs to compare
  bool template_container = false;   // the template's file layout was kept
};

// `scene` must come from gltf::read (one timeline per animation: the 30 fps samples). Bones are
// matched by node name. Errors (a Finding naming animation/channel/node): no skeleton source,
// skeleton mismatch, an animation none of whose channels targets a skeleton bone, names not
// representable in cp1251. Warnings: scale channels, channels on other nodes, defaults used.
Result<OmfFile> scene_to_omf(const scene::Scene& scene, const XrayImportOptions& options, Diagnostics& warnings,
                             ImportStats* stats = nullptr);

// Why `scene` cannot become an .omf whatever the options: it has no animations.
Status check_has_motions(const scene::Scene& scene);
// A scene read from glTF to .omf bytes, as `convert` asks (the registry reads the --skeleton and
// --template models). Errors: check_has_motions, and anything scene_to_omf or the validator of
// the written bytes rejects.
Result<std::vector<std::uint8_t>> scene_to_omf_bytes(const scene::Scene& scene, const XrayImportOptions& options,
                                                     Diagnostics& warnings);

}  // namespace boneyard::xray
