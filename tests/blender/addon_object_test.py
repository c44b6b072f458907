"""The add-on's File > Import / Export "X-Ray source model (.object)" (issue 39 scope 5), installed
from build/boneyard_io.zip as a user does:

1. a skinned object (a mod's HUD model) imports with its armature and meshes; exported unedited with
   "Keep the original" it is the original byte for byte (its meshes compared within float noise,
   everything else kept);
2. one point moved in Blender (every vertex at its position): the export validates, the mesh is
   rebuilt in the template's layout (same points in the same order, one of them moved), every
   other chunk keeps its bytes;
3. exported for SoC without the template: a new object in SoC's smoothing style that validates;
4. a static object (blender-xray's test_level_1) imports as meshes and exports identically.
Skipped without the samples.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
zip_path = args.extra[0]
skinned = args.sample("sdk/mod/handflash_hud.object")
static = args.sample("sdk/blender-xray/test_level_1.object")
if skinned is None or static is None:
    bc.skip("real samples not found under %s" % args.samples_dir)
ac.install(zip_path)


def import_object(path):
    ac.fresh(args.cli)
    result = bpy.ops.import_scene.boneyard_object(filepath=path)
    if result != {"FINISHED"}:
        bc.fail("import of %s: %s" % (path, result))


def export(name, **options):
    out = args.out(name)
    result = bpy.ops.export_scene.boneyard_object(filepath=out, **options)
    if result != {"FINISHED"}:
        bc.fail("export %s: %s" % (name, result))
    return out


def same_bytes(a, b):
    return open(a, "rb").read() == open(b, "rb").read()


# 1. Unedited: the original's bytes.
import_object(skinned)
arms = bc.armatures()
if len(arms) != 1 or len(arms[0].data.bones) != 8:
    bc.fail("expected one armature with 8 bones, found %s" % [(a.name, len(a.data.bones)) for a in arms])
meshes = [o for o in bpy.data.objects if o.type == "MESH"]
if not meshes:
    bc.fail("no meshes imported")
unedited = export("unedited.object")
if not same_bytes(unedited, skinned):
    code, out, err = bc.boneyard(args, "info", unedited)
    bc.fail("the unedited export differs from the original:\n%s" % out)
print("skinned object: unedited export identical")

# 2. One point moved 1 cm up (Blender's Z is X-Ray's Y): every Blender vertex at its position (the
# glTF import splits a point into a vertex per normal and UV), as a user moving it in Edit Mode with
# the split vertices merged would.
mesh = meshes[0].data
at = mesh.vertices[0].co.copy()
for v in mesh.vertices:
    if (v.co - at).length == 0:
        v.co.z += 0.01
edited = export("edited.object")
bc.boneyard(args, "validate", edited)
before = ac.dump(args.cli, skinned, raw=True)
after = ac.dump(args.cli, edited, raw=True)
if [m["points"] for m in before["meshes"]] == [m["points"] for m in after["meshes"]]:
    bc.fail("the edited export did not move a point")
# Blender's skinned import and export add float noise (about 1e-7 m) to every point.
moved = sum(1 for a, b in zip(before["meshes"][0]["points"], after["meshes"][0]["points"])
            if max(abs(x - y) for x, y in zip(a, b)) > 1e-5)
if len(before["meshes"][0]["points"]) != len(after["meshes"][0]["points"]) or moved != 1:
    bc.fail("expected the same points with one moved; %d -> %d points, %d moved" %
            (len(before["meshes"][0]["points"]), len(after["meshes"][0]["points"]), moved))
plain_before, plain_after = ac.dump(args.cli, skinned), ac.dump(args.cli, edited)  # without offsets
for key in ("surfaces", "bones", "parts", "motion_refs", "description"):
    if plain_before[key] != plain_after[key]:
        bc.fail("the edit changed %s" % key)
print("skinned object: edit rebuilt one mesh in the template's layout, the rest kept")

# 3. A new object for SoC.
fresh = export("fresh_soc.object", use_template=False, game="SOC")
code, out, err = bc.boneyard(args, "info", fresh)
if "smoothing groups in the SoC style" not in out or "motion refs (0x924)" not in out:
    bc.fail("the SoC export is not in SoC's style:\n%s" % out)
bc.boneyard(args, "validate", fresh)
print("skinned object: a new SoC object validates")

# 4. A static object.
import_object(static)
if bc.armatures():
    bc.fail("a static object imported an armature")
again = export("static.object")
if not same_bytes(again, static):
    bc.fail("the static object's unedited export differs from the original")
print("static object: unedited export identical")

# 5. Embedded motions (0x916): the detector HUD model with the 17 motions of its .skls embedded
# (made here, in the scratch folder) imports with an action per motion; exported unedited through
# Blender's glTF round trip (its resampling at 30 fps) it is the original byte for byte: every
# motion is found unedited within the tolerances of docs/xray-object.md section 5.
import struct  # noqa: E402

detector, skls = args.sample("sdk/mod/dev_detector_1_hud.object"), args.sample("sdk/mod/dev_detector_1_hud_animation.skls")
if detector is not None and skls is not None:
    data, motion_list = open(detector, "rb").read(), open(skls, "rb").read()
    cid, size = struct.unpack_from("<II", data, 0)
    body, at, new = data[8:8 + size], 0, b""
    while at < len(body):
        i, n = struct.unpack_from("<II", body, at)
        new += body[at:at + 8 + n]
        if i == 0x921:
            new += struct.pack("<II", 0x916, len(motion_list)) + motion_list
        at += 8 + n
    with_motions = args.out("detector_motions.object")
    open(with_motions, "wb").write(struct.pack("<II", cid, len(new)) + new + data[8 + size:])
    import_object(with_motions)
    if len(bpy.data.actions) < 17:
        bc.fail("expected an action per embedded motion (17), found %s" % sorted(bpy.data.actions.keys()))
    again = export("detector_motions_unedited.object")
    if not same_bytes(again, with_motions):
        code, out, err = bc.boneyard(args, "info", again)
        bc.fail("the unedited export of the object with motions differs from the original:\n%s" % out)
    print("object with 17 embedded motions: unedited export through Blender identical")
    # The panel's speed of one motion changed: that motion is made anew with it, the others keep
    # their bytes (dumped the same), the meshes and bones too.
    idle = [a for a in bpy.data.actions if a.boneyard.name == "idle"]
    if len(idle) != 1:
        bc.fail("no action of the motion idle: %s" % sorted((a.name, a.boneyard.name) for a in bpy.data.actions))
    idle[0].boneyard.speed = 2.0
    edited_motion = export("detector_motions_speed.object")
    bc.boneyard(args, "validate", edited_motion)
    was, now = ac.dump(args.cli, with_motions), ac.dump(args.cli, edited_motion)
    if [m["name"] for m in now["motions"]] != [m["name"] for m in was["motions"]]:
        bc.fail("the motions changed order or names: %s" % [m["name"] for m in now["motions"]])
    for a, b in zip(was["motions"], now["motions"]):
        if a["name"] == "idle":
            if abs(b["speed"] - 2.0) > 1e-6:
                bc.fail("idle's speed is %s, not 2" % b["speed"])
        elif a != b:
            bc.fail("motion %s changed" % a["name"])
    for key in ("meshes", "bones", "surfaces"):
        if was[key] != now[key]:
            bc.fail("the speed edit changed %s" % key)
    print("object with embedded motions: a motion's speed edited in the panel, the rest kept")
