"""blender-xray (PavelBlend/blender-xray, an independent X-Ray reader) imports boneyard-written
.ogf models (issue 29): a template import with one vertex moved, zombi_1 written without a
template for SoC and for CoP, protein (rigid) and a static model. Each must import, and what
blender-xray makes of it must hold what the glTF scene said (write_ogf_blender_fixtures writes
that next to the models, from the scene, not from the written file): the bones and their parents,
every triangle corner's position and UV (as sets: blender-xray merges vertices by position and
weights), the weights by bone name, and the (texture, shader) pairs.

blender-xray runs from a checkout outside the repository: ARGS are the fixture writer and the
folder holding blender-xray/ (CMake BONEYARD_PEERS_DIR); skipped when it or the samples are absent.
Facts on running it headless: ../shared/docs/blender-notes.md.
"""
import json
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
out = args.out("models")
run = subprocess.run([writer, args.samples_dir, out], capture_output=True, text=True)
if run.returncode == 3:
    bc.skip("real samples not found under %s" % args.samples_dir)
if run.returncode != 0:
    bc.fail("fixture writer failed (%d): %s%s" % (run.returncode, run.stdout, run.stderr))
with open(os.path.join(out, "expect.json"), encoding="utf-8") as f:
    expect = json.load(f)

# Its self-updater imports `requests` at module level; Debian's Blender Python has none.
sys.modules.setdefault("requests", types.ModuleType("requests"))
sys.path.insert(0, addon_parent)


def reset_with_addon():
    """A factory scene (which disables add-ons) with blender-xray enabled again."""
    bc.reset()
    module = addon_utils.enable("io_scene_xray", default_set=True, handle_error=None)
    if module is None or "xray_import.ogf" not in {op.idname_py() for op in [bpy.ops.xray_import.ogf]
                                                  if hasattr(op, "idname_py")}:
        if module is None:
            bc.fail("blender-xray could not be enabled from %s" % addon_parent)

POS, UV, WEIGHT = 1e-4, 1e-4, 2e-3


def imported(name):
    """What blender-xray makes of OUT/name.ogf: bones, corners (X-Ray space), materials."""
    reset_with_addon()
    result = bpy.ops.xray_import.ogf(directory=out, files=[{"name": name + ".ogf"}], import_motions=False)
    if result != {"FINISHED"}:
        bc.fail("%s: blender-xray import: %s" % (name, result))
    bones = []
    for arm in bc.armatures():
        bones += [[b.name, b.parent.name if b.parent else ""] for b in arm.data.bones]
    corners, materials = [], set()
    for obj in bpy.data.objects:
        if obj.type != "MESH":
            continue
        mesh = obj.data
        uv = mesh.uv_layers.get("Texture") or mesh.uv_layers.active
        groups = {g.index: g.name for g in obj.vertex_groups}
        for m in mesh.materials:
            materials.add((m.name.split(".0")[0] if m.name[-4:-3] == "." else m.name, m.xray.eshader))
        for poly in mesh.polygons:
            for li in poly.loop_indices:
                v = mesh.vertices[mesh.loops[li].vertex_index]
                co = obj.matrix_world @ v.co
                # blender-xray: X-Ray (x, y, z) -> Blender (x, z, y), v -> 1 - v.
                u, vv = uv.data[li].uv
                weights = {groups[g.group]: g.weight for g in v.groups if g.weight > 0}
                corners.append((co.x, co.z, co.y, u, 1 - vv, weights))
    return bones, corners, materials


def key(x, y, z):
    return (round(x * 1000), round(y * 1000), round(z * 1000))


def same_weights(a, b):
    ta, tb = sum(a.values()) or 1, sum(b.values()) or 1  # Blender keeps weights per group
    return all(abs(a.get(n, 0) / ta - b.get(n, 0) / tb) <= WEIGHT for n in set(a) | set(b))


def check(name, want):
    bones, corners, materials = imported(name)
    if sorted(bones) != sorted(map(list, want["bones"])):
        bc.fail("%s: bones differ:\n blender-xray %s\n expected %s" % (name, sorted(bones), sorted(want["bones"])))
    want_materials = {tuple(m) for m in want["materials"]}
    if materials != want_materials:
        bc.fail("%s: (texture, shader) %s, expected %s" % (name, sorted(materials), sorted(want_materials)))
    grid = {}
    for c in corners:
        grid.setdefault(key(*c[:3]), []).append(c)
    for i, w in enumerate(want["corners"]):
        x, y, z, u, v, weights = w
        k = key(x, y, z)
        found = None
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for c in grid.get((k[0] + dx, k[1] + dy, k[2] + dz), []):
                        if (max(abs(c[0] - x), abs(c[1] - y), abs(c[2] - z)) <= POS and
                                abs(c[3] - u) <= UV and abs(c[4] - v) <= UV):
                            found = c
        if found is None:
            bc.fail("%s corner %d: no vertex of blender-xray's at %s with UV %s" % (name, i, (x, y, z), (u, v)))
        if weights and not same_weights(found[5], weights):
            bc.fail("%s corner %d at %s: weights %s, expected %s" % (name, i, (x, y, z), found[5], weights))
    # Every vertex blender-xray made is one the scene has (nothing extra).
    want_keys = {key(*w[:3]) for w in want["corners"]}
    for c in corners:
        k = key(*c[:3])
        if not any((k[0] + dx, k[1] + dy, k[2] + dz) in want_keys
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)):
            bc.fail("%s: blender-xray has a vertex at %s the scene does not" % (name, c[:3]))
    print("%s: %d bones, %d corners, %d materials agree" % (name, len(bones), len(want["corners"]), len(materials)))


for name in sorted(expect):
    check(name, expect[name])
print("blender-xray read every boneyard-written model as written")
