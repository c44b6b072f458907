"""blender-xray (PavelBlend/blender-xray, an independent X-Ray reader) and boneyard read the same OGF
v3 models, and Blender holds the same thing after each: blender-xray's v3 importer on the .ogf, and
Blender's own glTF importer on boneyard's .glb of it. Compared in Blender's space: the bone names and
parents, and every triangle corner's world position and UV (as sets: blender-xray merges vertices
by position and weights). The models: blender-xray's real v3 file from the samples, and boneyard's
hand-laid v3 fixtures it reads as the converter does (see `models` below).

Both sides place v3 skinned vertices through their bone's bind matrix (they are stored in the
bone's space), so equal positions check that boneyard's bind pose, the bone-space transform, the
axis change and the winding all agree with an implementation no one here wrote.

ARGS: the fixture writer (write_ogf_v3_fixtures) and the folder holding blender-xray/ (CMake
BONEYARD_PEERS_DIR); skipped when blender-xray is absent. Facts: ../shared/docs/blender-notes.md.
"""
import os
import subprocess
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402

import addon_utils  # noqa: E402
import bpy  # noqa: E402

args = bc.Args()
writer, peers = args.extra[0], args.extra[1]
addon_parent = os.path.join(peers, "blender-xray")
if not os.path.isdir(os.path.join(addon_parent, "io_scene_xray")):
    bc.skip("blender-xray checkout not found at %s (io_scene_xray/)" % addon_parent)
fixtures = args.out("fixtures")
run = subprocess.run([writer, fixtures], capture_output=True, text=True)
if run.returncode != 0:
    bc.fail("fixture writer failed (%d): %s%s" % (run.returncode, run.stdout, run.stderr))
# The fixtures blender-xray reads as the converter does: static (0x112) visuals, a hierarchy, a
# progressive visual (both apply the vertex splits), animated models with S_IKDATA and
# S_IKDATA_2, 1- and 2-link, with 0x14/0x1A motions. (It reads 0x12 motion kinds as 4 bytes and
# its 0xE reader does not run; S_IKDATA_0 it reads without the model-space fix.)
models = [os.path.join(fixtures, n) for n in ("v3_normal_fvf.ogf", "v3_hierarchy.ogf", "v3_progressive.ogf",
                                               "v3_anim_8bit.ogf", "v3_anim_8bit_2link_ik2.ogf")]
sample = args.sample("sdk/blender-xray/test_fmt_ogf_v3.ogf")
if sample:
    models.append(sample)
else:
    print("note: the v3 sample is absent (../shared/samples): the fixtures only")

sys.modules.setdefault("requests", types.ModuleType("requests"))  # its updater imports it
sys.path.insert(0, addon_parent)

POS, UV = 1e-4, 1e-4


def corners_and_bones():
    """Bones (name, parent) of every armature; triangle corners (world x, y, z, u, v) of every mesh."""
    bones = set()
    for arm in bc.armatures():
        bones |= {(b.name, b.parent.name if b.parent else "") for b in arm.data.bones}
    corners = []
    for obj in bpy.data.objects:
        if obj.type != "MESH":
            continue
        mesh = obj.data
        uv = mesh.uv_layers.active
        for poly in mesh.polygons:
            for li in poly.loop_indices:
                co = obj.matrix_world @ mesh.vertices[mesh.loops[li].vertex_index].co
                u, v = uv.data[li].uv
                corners.append((co.x, co.y, co.z, u, v))
    return bones, corners


def by_blender_xray(path):
    bc.reset()
    if addon_utils.enable("io_scene_xray", default_set=True, handle_error=None) is None:
        bc.fail("blender-xray could not be enabled from %s" % addon_parent)
    folder, name = os.path.split(path)
    result = bpy.ops.xray_import.ogf(directory=folder, files=[{"name": name}], import_motions=False)
    if result != {"FINISHED"}:
        bc.fail("%s: blender-xray import: %s" % (name, result))
    return corners_and_bones()


def by_boneyard(path):
    glb = args.out(os.path.basename(path) + ".glb")
    bc.boneyard(args, "convert", path, "-o", glb)
    bc.reset()
    bc.import_gltf(glb, bone_heuristic="BLENDER")
    bones, corners = corners_and_bones()
    # The glTF importer keeps the root node the export adds (named after the file) as an empty,
    # not a bone; skin joints become the bones.
    return bones, corners


def same_corner(a, b):
    return max(abs(a[i] - b[i]) for i in range(3)) <= POS and abs(a[3] - b[3]) <= UV and abs(a[4] - b[4]) <= UV


for path in models:
    label = os.path.basename(path)
    xray_bones, xray_corners = by_blender_xray(path)
    our_bones, our_corners = by_boneyard(path)
    if xray_bones != our_bones:
        bc.fail("%s: bones differ:\n blender-xray %s\n boneyard     %s" % (label, sorted(xray_bones), sorted(our_bones)))
    if not xray_corners or not our_corners:
        bc.fail("%s: no triangles (blender-xray %d corners, boneyard %d)" % (label, len(xray_corners), len(our_corners)))
    for name, one, other in (("blender-xray", xray_corners, our_corners), ("boneyard", our_corners, xray_corners)):
        for c in one:
            if not any(same_corner(c, o) for o in other):
                bc.fail("%s: %s has a corner at %s UV %s the other does not" % (label, name, c[:3], c[3:]))
    print("%s: %d bones, %d/%d corners agree (positions within %g, UVs within %g)" %
          (label, len(our_bones), len(xray_corners), len(our_corners), POS, UV))
print("blender-xray and boneyard read every OGF v3 model alike")
