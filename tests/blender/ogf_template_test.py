"""A model edited in Blender goes back into the game (issue 29): boneyard's .glb of a HUD model
with three meshes (handflash_hud: hands, flashlight, 8 bones) imported with Blender's default
glTF settings; vertices of the first mesh moved, one vertex of the second repainted to another
bone, a new skinned mesh added; exported with Blender's default glTF settings; converted with
`--template` the original. Checked with boneyard's own reading of the result: the moved vertices
and the repainted weight land, the new mesh is a new child with its material's texture, and the
untouched mesh keeps its bytes. Then the add-on's "Export X-Ray model (.ogf)" does the same from
an add-on import (its template remembered on the armature). Skipped without the samples.

ARGS: the add-on zip.
"""
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
zip_path = args.extra[0]
source = args.sample("cop/handflash_hud.ogf")
if source is None:
    bc.skip("real samples not found under %s" % args.samples_dir)
os.makedirs(args.scratch, exist_ok=True)


def chunks(data, start=0, end=None):
    """{id: payload} of the chunks in data[start:end]."""
    out, pos, end = {}, start, len(data) if end is None else end
    while pos + 8 <= end:
        cid, size = struct.unpack_from("<II", data, pos)
        out[cid & 0x7FFFFFFF] = data[pos + 8:pos + 8 + size]
        pos += 8 + size
    return out


def children(path):
    """The .ogf's children (chunk 0x9) as bytes, by index."""
    with open(path, "rb") as f:
        data = f.read()
    kids = chunks(chunks(data)[0x9])
    return [kids[i] for i in sorted(kids)]


def glb_positions(path):
    """Each primitive's POSITION values (glTF space) of a .glb boneyard wrote."""
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    blob = data[20 + n + 8:]
    out = []
    for mesh in doc["meshes"]:
        for prim in mesh["primitives"]:
            acc = doc["accessors"][prim["attributes"]["POSITION"]]
            view = doc["bufferViews"][acc["bufferView"]]
            at = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
            stride = view.get("byteStride", 12)
            out.append([struct.unpack_from("<3f", blob, at + i * stride) for i in range(acc["count"])])
    return out


def to_glb(ogf, glb):
    bc.boneyard(args, "convert", ogf, "-o", glb, expect=None)
    if not os.path.isfile(glb):
        bc.fail("boneyard could not export %s" % ogf)


def edit_in_blender(arm):
    """Moves the first mesh's vertices up 1 cm, gives one vertex of the second to another bone,
    adds a cube skinned to the first bone. Returns (mesh object, bone name of the repaint)."""
    body = [o for o in bpy.data.objects if o.type == "MESH"][0]
    mesh = body.data
    slot_of = {p.index: p.material_index for p in mesh.polygons}
    in_slot = {0: set(), 1: set()}
    for p in mesh.polygons:
        if slot_of[p.index] in in_slot:
            in_slot[slot_of[p.index]].update(p.vertices)
    shared = in_slot[0] & in_slot[1]
    for v in in_slot[0] - shared:
        mesh.vertices[v].co.z += 0.01
    # The second mesh: one vertex fully to a bone it did not use.
    vertex = sorted(in_slot[1] - shared)[0]
    used = {body.vertex_groups[g.group].name for g in mesh.vertices[vertex].groups}
    target = next(b.name for b in arm.data.bones if b.name not in used)
    for g in list(mesh.vertices[vertex].groups):
        body.vertex_groups[g.group].remove([vertex])
    group = body.vertex_groups.get(target) or body.vertex_groups.new(name=target)
    group.add([vertex], 1.0, "REPLACE")
    # A new mesh on the first bone, with a material named after its texture.
    bpy.ops.mesh.primitive_cube_add(size=0.02)
    cube = bpy.context.active_object
    cube.name = "added"
    cube.parent = arm
    mod = cube.modifiers.new("Armature", "ARMATURE")
    mod.object = arm
    cube.vertex_groups.new(name=arm.data.bones[0].name).add(list(range(len(cube.data.vertices))), 1.0, "REPLACE")
    mat = bpy.data.materials.new("wpn\\wpn_added")
    cube.data.materials.append(mat)
    return body, target


def check(result, original, tag):
    """What boneyard reads from `result` against `original`."""
    before, after = children(original), children(result)
    if len(after) != len(before) + 1:
        bc.fail("%s: %d children, expected %d (one added)" % (tag, len(after), len(before) + 1))
    if after[2] != before[2]:
        bc.fail("%s: the untouched child 2 changed its bytes" % tag)
    if after[0] == before[0] or after[1] == before[1]:
        bc.fail("%s: an edited child kept its bytes (edits lost)" % tag)
    meshes = addon_common.dump(args.cli, result)["meshes"]
    if meshes[3]["texture"] != "wpn\\wpn_added":
        bc.fail("%s: the new child's texture is %r" % (tag, meshes[3]["texture"]))
    glb = os.path.join(args.scratch, tag + "_back.glb")
    to_glb(result, glb)
    old_glb = os.path.join(args.scratch, "original.glb")
    old, new = glb_positions(old_glb)[0], glb_positions(glb)[0]
    top_old, top_new = max(p[1] for p in old), max(p[1] for p in new)  # Blender +Z is glTF +Y
    if abs((top_new - top_old) - 0.01) > 1e-3:
        bc.fail("%s: the first mesh's top moved by %g m, expected 0.01" % (tag, top_new - top_old))
    run = subprocess.run([args.cli, "validate", result], capture_output=True, text=True)
    if run.returncode != 0:
        bc.fail("%s: validate: %s%s" % (tag, run.stdout, run.stderr))
    print("%s: children %d -> %d, child 2 byte-identical, moved +%.4f m" % (tag, len(before), len(after),
                                                                          top_new - top_old))


# 1. Blender's default glTF settings, the CLI's convert --template.
original = os.path.join(args.scratch, "handflash_hud.ogf")
with open(source, "rb") as f, open(original, "wb") as g:
    g.write(f.read())
to_glb(original, os.path.join(args.scratch, "original.glb"))
bc.reset()
bc.import_gltf(os.path.join(args.scratch, "original.glb"))
arm = bc.armatures()[0]
edit_in_blender(arm)
edited = os.path.join(args.scratch, "edited.glb")
result = bpy.ops.export_scene.gltf(filepath=edited, export_format="GLB")
if result != {"FINISHED"}:
    bc.fail("glTF export: %s" % result)
out = os.path.join(args.scratch, "edited.ogf")
bc.boneyard(args, "convert", edited, "-o", out, "--template", original)
check(out, original, "plain")

# 2. The add-on: import the .ogf, edit, File > Export > X-Ray model (.ogf) with its remembered template.
addon_common.install(zip_path)
addon_common.fresh(args.cli)
if bpy.ops.import_scene.boneyard_xray(filepath=original) != {"FINISHED"}:
    bc.fail("add-on import of %s failed" % original)
arm = bc.armatures()[0]
if arm.data.get("ogf_template") != original:
    bc.fail("the import did not remember its template: %r" % arm.data.get("ogf_template"))
edit_in_blender(arm)
out = os.path.join(args.scratch, "addon.ogf")
if bpy.ops.export_scene.boneyard_ogf(filepath=out) != {"FINISHED"}:
    bc.fail("add-on export to %s failed" % out)
check(out, original, "addon")
print("PASS")
