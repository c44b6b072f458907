"""The Blender add-on with MGS2 models (issue 17, scope 3): the branching fixtures (six units or
joints, parents [-1, 0, 0, 2, 1, 1], four texture sets, single-sided packets; the KMS with texture
names) through File > Import MGS2 and File > Export MGS2 of the add-on installed from its zip.

1. Import: one armature with a bone per unit/joint; the source and its bytes kept on it.
2. Export, nothing edited: the original bytes (and, to say what differs if not: unit/joint order,
   parents, places, texture ids and triangles as mgs2_compare reads them, header fields).
3. One vertex moved by 10 mm in Blender: exactly the triangles with that corner change, by 10 units,
   everything else (order, parents, texture ids, other triangles) stays.

ARGS: ZIP, the fixture writer (tests/blender/write_mgs2_blender_fixtures.cpp).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402
import mgs2_compare as mc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
zip_path, writer = args.extra[:2]
subprocess.run([writer, args.scratch], check=True)
ac.install(zip_path)

HEADER_KEYS = {".kms": ["layout", "data_format", "n_models", "texture", "position"],
               ".evm": ["layout", "n_models", "type", "texture"]}
MOVE_M = 0.01  # 10 mm: 10 units at boneyard's default scale (1 unit = 1 mm)


def import_model(source, **options):
    ac.fresh(args.cli)
    result = bpy.ops.import_scene.boneyard_mgs2(filepath=source, **options)
    if result != {"FINISHED"}:
        bc.fail("import of %s: %s" % (source, result))
    return ac.armature()


def export(arm, name):
    bpy.context.view_layer.objects.active = arm
    out = args.out(name)
    result = bpy.ops.export_scene.boneyard_mgs2(filepath=out)
    if result != {"FINISHED"}:
        bc.fail("export to %s: %s" % (out, result))
    return out


def changed_triangles(original, edited):
    """(triangles only in `original`, triangles only in `edited`)."""
    a, b = mc.triangles(original), mc.triangles(edited)
    return [t for t in a if t not in b], [t for t in b if t not in a]


def run_model(stem, ext, options):
    source = args.out(stem + ext)
    original = mc.dump(args.cli, source)
    arm = import_model(source, **options)
    joints = original["units"] if ext == ".kms" else original["bones"]
    if len(arm.data.bones) != len(joints):
        bc.fail("%s: %d bones, the model has %d units/joints" % (ext, len(arm.data.bones), len(joints)))
    if ("label", "format %s, template kept" % ext[1:]) not in ac.draw_panel(arm):
        bc.fail("%s: the panel does not show the kept template" % ext)
    model = arm.data.boneyard
    if model.game != "MGS2" or model.model_format != ext[1:] or bytes(model["template"]) != open(source, "rb").read():
        bc.fail("%s: the armature does not hold the source and its bytes" % ext)

    back_path = export(arm, stem + "_unedited" + ext)
    back = mc.dump(args.cli, back_path)
    diffs = mc.differences(original, back)
    diffs += ["header %s: %s -> %s" % (k, original[k], back[k]) for k in HEADER_KEYS[ext] if original[k] != back[k]]
    if diffs:
        bc.fail("%s unedited export changed the model:\n  %s" % (ext, "\n  ".join(diffs)))
    if open(back_path, "rb").read() != open(source, "rb").read():
        bc.fail("%s unedited export: same model but not the original bytes" % ext)
    print("%s unedited: byte-identical (unit order, parents, places, texture ids, triangles, header)" % ext)

    arm = import_model(source, **options)
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    mesh = sorted(meshes, key=lambda o: o.name)[0]
    vertex = mesh.data.vertices[0]
    vertex.co.x += MOVE_M / max(mesh.matrix_world.to_scale().x, 1e-9)
    mesh.data.update()
    edited = mc.dump(args.cli, export(arm, stem + "_edited" + ext))
    if mc.parents(edited) != mc.parents(original) or mc.joint_places(edited) != mc.joint_places(original):
        bc.fail("%s: moving a vertex changed the joints" % ext)
    gone, new = changed_triangles(original, edited)
    if not gone or len(gone) != len(new):
        bc.fail("%s: moving one vertex changed %d triangles into %d" % (ext, len(gone), len(new)))
    moved = set()
    for t in new:  # the same triangle (unit, texture ids, culling, winding) with one corner 10 units away
        found = False
        for o in gone:
            for turn in range(3):  # corners start at the smallest one, which the move may change
                corners = t[3][turn:] + t[3][:turn]
                differing = [(a, b) for a, b in zip(o[3], corners) if a != b]
                if o[:3] == t[:3] and len(differing) == 1 and differing[0][0][3:] == differing[0][1][3:]:
                    a, b = differing[0]
                    if abs(sum((x - y) ** 2 for x, y in zip(a[:3], b[:3])) ** 0.5 - MOVE_M * 1000) < 0.05:
                        moved.add(b[:3])
                        found = True
        if not found:
            bc.fail("%s: triangle %s is not an original one with one corner moved by 10 units" % (ext, t))
    if len(moved) != 1:
        bc.fail("%s: expected one moved corner, found %s" % (ext, sorted(moved)))
    print("%s: one vertex moved by 10 mm in Blender: %d triangles got that corner 10 units away, nothing else changed"
          % (ext, len(gone)))


run_model("branching", ".kms", {"names": args.out("textures.txt")})
run_model("branching", ".evm", {})
print("addon mgs2: ok")
