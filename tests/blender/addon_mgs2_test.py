"""The Blender add-on with MGS2 models (issue 17, scope 3): the branching fixtures (six units or
joints, parents [-1, 0, 0, 2, 1, 1], four texture sets, single-sided packets; the KMS with texture
names) through File > Import MGS2 and File > Export MGS2 of the add-on installed from its zip.

1. Import: one armature with a bone per unit/joint; the source and its bytes kept on it.
2. Export, nothing edited: the original bytes (and, to say what differs if not: unit/joint order,
   parents, places, texture ids and triangles as mgs2_compare reads them, header fields).
3. One vertex moved by 10 mm in Blender: exactly the triangles with that corner change, by 10 units,
   everything else (order, parents, texture ids, other triangles) stays.
4. Textures from the model's .tri (issue 40): the fixtures in textured/ have branching.tri beside
   them, which the import finds without any option: each material's base colour is an image with
   the pixels `boneyard texture X.tri --alpha scaled` writes for its texture id; the unedited
   export is still the original bytes.
5. Motions (issue 40): the import's "Motions (.mar)" option with motions/branching.mar (the standard
   PS2 motions, named by motions/motions.txt): a scene at 30 fps, one NLA track per motion named
   after it, each bone's rotation keys and joint 0's translation keys on the frames the .mar
   holds, only the joints a motion drives keyed; "Only motions" keeps the matching ones; the panel
   names the .mar; the unedited export is still the original bytes (motions are not written back).

ARGS: ZIP, the fixture writer (tests/blender/write_mgs2_blender_fixtures.cpp).
"""
import json
import os
import struct
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


def unedited_export_is_the_original(arm, source, name):
    back = export(arm, name)
    if open(back, "rb").read() != open(source, "rb").read():
        bc.fail("%s: the unedited export is not the original bytes" % name)


def run_textured(ext):
    source = args.out("textured/branching" + ext)
    reference = args.out("textured_png" + ext.replace(".", "_"))
    bc.boneyard(args, "texture", args.out("textured/branching.tri"), "-o", reference, "--alpha", "scaled")
    arm = import_model(source)  # no option: the .tri beside the model
    materials = {m for o in bpy.data.objects if o.type == "MESH" for m in o.data.materials if m}
    used = set()
    for m in materials:
        bsdf = next((n for n in m.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)
        links = [link for link in m.node_tree.links if link.to_node == bsdf and link.to_socket.name == "Base Color"]
        if not links or links[0].from_node.type != "TEX_IMAGE" or links[0].from_node.image is None:
            bc.fail("%s: material %s takes no base colour from an image" % (ext, m.name))
        image = links[0].from_node.image
        texture_id = int(image.name.split(".")[0], 16)  # embedded images are named by the id's 8 hex digits
        want = bpy.data.images.load(os.path.join(reference, "%06x.png" % texture_id))
        if tuple(image.size) != tuple(want.size) or list(image.pixels[:]) != list(want.pixels[:]):
            bc.fail("%s: material %s: image %s (%s) is not boneyard's PNG of texture %06x (%s)"
                    % (ext, m.name, image.name, tuple(image.size), texture_id, tuple(want.size)))
        used.add(texture_id)
    if len(used) != 2:  # slot 0 of the packets: body and face
        bc.fail("%s: expected the two base-colour textures, found %s" % (ext, sorted("%06x" % i for i in used)))
    unedited_export_is_the_original(arm, source, "textured_unedited" + ext)
    print("%s textured from its .tri: %d materials, pixels as boneyard's PNGs; export unedited: byte-identical"
          % (ext, len(materials)))


def glb_animations(path):
    """name -> (largest key time, joints rotated) of each animation of a .glb."""
    data = open(path, "rb").read()
    length = struct.unpack("<I", data[12:16])[0]
    doc = json.loads(data[20:20 + length])
    out = {}
    for a in doc.get("animations", []):
        times = max(doc["accessors"][s["input"]]["max"][0] for s in a["samplers"])
        rotated = sum(1 for c in a["channels"] if c["target"]["path"] == "rotation")
        out[a["name"]] = (times, rotated)
    return out


def run_motions(ext):
    source = args.out("branching" + ext)
    mar = args.out("motions/branching.mar")
    names = args.out("motions/motions.txt")
    reference = args.out("motions_reference" + ext.replace(".", "_") + ".glb")
    bc.boneyard(args, "convert", source, "--mar", mar, "--names", names, "-o", reference)
    expected = glb_animations(reference)
    if sorted(expected) != ["rai_hold", "rai_idle", "rai_turn", "rai_walk"]:
        bc.fail("the reference conversion has animations %s" % sorted(expected))
    arm = import_model(source, motions=mar, names=names)
    scene = bpy.context.scene
    if scene.render.fps != 30 or scene.render.fps_base != 1.0:
        bc.fail("%s: the scene is at %g fps, not 30" % (ext, scene.render.fps / scene.render.fps_base))
    tracks = {t.name: [s.action for s in t.strips][0] for t in arm.animation_data.nla_tracks}
    if sorted(tracks) != sorted(expected):
        bc.fail("%s: NLA tracks %s, the .mar has %s" % (ext, sorted(tracks), sorted(expected)))
    for name, action in tracks.items():
        last, rotated = expected[name]
        rotation_bones = {c.data_path for c in action.fcurves if c.data_path.endswith("rotation_quaternion")}
        if len(rotation_bones) != rotated:
            bc.fail("%s %s: %d bones rotated, the .mar drives %d joints" % (ext, name, len(rotation_bones), rotated))
        frames = sorted({round(k.co[0], 3) for c in action.fcurves for k in c.keyframe_points})
        if frames[0] != 0 or abs(frames[-1] - last * 30) > 1e-3:
            bc.fail("%s %s: keys on frames %s..%s, the .mar's last key is at %g s (frame %g at 30 fps)"
                    % (ext, name, frames[0], frames[-1], last, last * 30))
    walk = tracks["rai_walk"]
    located = [c for c in walk.fcurves if c.data_path.endswith(".location")]
    if not located or sorted({round(k.co[0]) for c in located for k in c.keyframe_points}) != [0, 15, 30]:
        bc.fail("%s rai_walk: joint 0's translation keys are not on frames 0, 15 and 30" % ext)
    rotated = [c for c in walk.fcurves if c.data_path.endswith("rotation_quaternion")]
    if sorted({round(k.co[0]) for c in rotated for k in c.keyframe_points}) != [0, 10, 30]:
        bc.fail("%s rai_walk: rotation keys are not on frames 0, 10 and 30 (deltas 0, 10, 20)" % ext)
    if not any(text.startswith("motions: branching.mar (4") for _, text in ac.draw_panel(arm)):
        bc.fail("%s: the panel does not name the .mar: %s" % (ext, ac.draw_panel(arm)))
    unedited_export_is_the_original(arm, source, "motions_unedited" + ext)
    arm = import_model(source, motions=mar, names=names, motion_filter="rai_w*, rai_t*")
    tracks = sorted(t.name for t in arm.animation_data.nla_tracks)
    if tracks != ["rai_turn", "rai_walk"]:
        bc.fail("%s: Only motions 'rai_w*, rai_t*' imported %s" % (ext, tracks))
    print("%s with motions: 4 NLA tracks at 30 fps, keys on the .mar's frames, joints as driven; "
          "a filter keeps 2; export unedited: byte-identical" % ext)


run_model("branching", ".kms", {"names": args.out("textures.txt")})
run_model("branching", ".evm", {})
for model_ext in (".kms", ".evm"):
    run_textured(model_ext)
    run_motions(model_ext)
print("addon mgs2: ok")
