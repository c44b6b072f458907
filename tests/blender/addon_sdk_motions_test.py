"""The add-on's import and export of the X-Ray SDK's motions (issue 38): .skls/.skl through File >
Import X-Ray and File > Export X-Ray SDK motions, .anm through File > Import / Export X-Ray object
motion, all through the boneyard CLI.

ARGS after the harness's: ZIP.
1. An .skls made by boneyard from the example .omf, imported on the example model's skeleton and
   exported as .skls without an edit: the same motions (names, frame ranges, params) and, compiled
   back to an .omf for the model, rotation keys within one step (of 32767) and translations within
   one quantisation step of the original .omf at every frame; exported as a .skl of one motion too. A motion edited
   in Blender (one bone turned 30 degrees at every key) comes out turned, the others unchanged.
2. The real .skls of a public mod (when the samples are present) imported on a flat armature and
   exported: the same motions and bones, every bone's pose at every frame within 1e-4.
3. An .anm (TCB keys, laid out here) as an object and under camera_effects/ as a camera: imported,
   exported without an edit, and both .anm give the same node pose at every frame (boneyard's glTF
   of each) within 1e-4 m and 1e-4 in the quaternion; the header (name, fps, frame range) is kept.
   The real .anm of the samples the same way when present."""
import json
import math
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
ac.install(args.extra[0])
ARM = os.path.join(args.source_dir, "examples", "wave_arm.ogf")
WAVE = os.path.join(args.source_dir, "examples", "wave.omf")


def glb_json(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length]), data[20 + length + 8:]


def accessor(document, binary, index):
    a = document["accessors"][index]
    view = document["bufferViews"][a["bufferView"]]
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[a["type"]]
    start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    if a["componentType"] == 5126:
        values = struct.unpack_from("<%df" % (a["count"] * width), binary, start)
    elif a["componentType"] == 5122:  # normalized SHORT rotations
        values = [max(v / 32767.0, -1.0) for v in struct.unpack_from("<%dh" % (a["count"] * width), binary, start)]
    else:
        bc.fail("unexpected accessor component type %d" % a["componentType"])
    return [values[i * width:(i + 1) * width] for i in range(a["count"])]


def node_poses(path):
    """{(animation, node name, path): [per-key value]} of boneyard's glTF of a motion file."""
    glb = args.out(os.path.basename(path) + ".glb")
    bc.boneyard(args, "convert", path, "-o", glb, expect=None)
    document, binary = glb_json(glb)
    out = {}
    for animation in document.get("animations", []):
        for channel in animation["channels"]:
            sampler = animation["samplers"][channel["sampler"]]
            node = document["nodes"][channel["target"]["node"]]["name"]
            out[animation["name"], node, channel["target"]["path"]] = accessor(document, binary, sampler["output"])
    return out


def same_poses(a, b, tolerance, what):
    if sorted(a) != sorted(b):
        bc.fail("%s: other channels: %s vs %s" % (what, sorted(a)[:6], sorted(b)[:6]))
    worst = 0.0
    for key in a:
        va, vb = a[key], b[key]
        # A channel holding one value may be stored as one key on one side.
        n = max(len(va), len(vb))
        for i in range(n):
            x, y = va[min(i, len(va) - 1)], vb[min(i, len(vb) - 1)]
            d = max(abs(p - q) for p, q in zip(x, y))
            if key[2] == "rotation":
                d = min(d, max(abs(p + q) for p, q in zip(x, y)))
            worst = max(worst, d)
            if d > tolerance:
                bc.fail("%s: %s key %d differs by %g (%s vs %s)" % (what, key, i, d, x, y))
    print("%s: %d channels, worst difference %.2g" % (what, len(a), worst))


def motions(path):
    dump = ac.dump(args.cli, path)
    return [(m["name"], m["frame_start"], m["frame_end"], m["speed"], m["accrue"], m["falloff"], m["power"])
            for m in dump["motions"]]


def import_skls(path, skeleton=""):
    ac.fresh(args.cli)
    result = bpy.ops.import_scene.boneyard_xray(filepath=path, skeleton=skeleton)
    if result != {"FINISHED"}:
        bc.fail("import of %s: %s" % (path, result))
    return ac.armature()


def export_skls(arm, path):
    bpy.context.view_layer.objects.active = arm
    result = bpy.ops.export_scene.boneyard_skls(filepath=path)
    if result != {"FINISHED"}:
        bc.fail("export of %s: %s" % (path, result))
    bc.boneyard(args, "validate", path)


def omf_keys(path):
    dump = ac.dump(args.cli, path, raw=True)
    return {m["name"]: m for m in dump["motions"]}


def compare_compiled(original_omf, skls, turned=None):
    """Compiles `skls` for the example model and compares its keys with the original .omf's:
    within one step, except the bone `turned` = (motion, record) which must differ."""
    back = skls + ".omf"
    bc.boneyard(args, "convert", skls, "-o", back, "--skeleton", ARM, "--parts", original_omf)
    before, after = omf_keys(original_omf), omf_keys(back)
    if sorted(before) != sorted(after):
        bc.fail("motions differ: %s vs %s" % (sorted(before), sorted(after)))
    moved = 0
    for name, m in before.items():
        n = after[name]
        for r, (ra, rb) in enumerate(zip(m["bones"], n["bones"])):
            for f in range(m["frames"]):
                qa = ra["rotation_keys"][min(f, len(ra["rotation_keys"]) - 1)]
                qb = rb["rotation_keys"][min(f, len(rb["rotation_keys"]) - 1)]
                d = min(max(abs(x - y) for x, y in zip(qa, qb)), max(abs(x + y) for x, y in zip(qa, qb)))
                ta = ra["translation"][min(f, len(ra["translation"]) - 1)]
                tb = rb["translation"][min(f, len(rb["translation"]) - 1)]
                dt = max(abs(x - y) for x, y in zip(ta, tb))
                if turned == (name, r):
                    moved += d > 1000
                    continue
                # One quantisation step of either encoding (the values through Blender are float
                # noise off the stored ones, so the compiler may choose its own 8-bit size).
                step = max([*(ra.get("translation_size") or [0]), *(rb.get("translation_size") or [0])])
                if d > 1 or dt > 1.01 * step + 1e-5:
                    bc.fail("%s record %d frame %d: rotation %s vs %s, translation %s vs %s" % (name, r, f, qa, qb, ta, tb))
    return moved


# ---- 1. the example as .skls, round trip and an edit
skls = args.out("wave.skls")
bc.boneyard(args, "convert", WAVE, "-o", skls)
arm = import_skls(skls, ARM)
actions = ac.motion_actions(arm)
if sorted(a.boneyard.name for a in actions) != sorted(m[0] for m in motions(skls)):
    bc.fail("imported motions %s" % [a.boneyard.name for a in actions])
out = args.out("wave_back.skls")
export_skls(arm, out)
if motions(out) != motions(skls):
    bc.fail("exported motions %s, imported %s" % (motions(out), motions(skls)))
compare_compiled(WAVE, out)
print("the example .skls came back: %d motions, every key within one step" % len(actions))
one = args.out("wave_one.skl")
bpy.context.view_layer.objects.active = arm
# A .skl holds one motion: the export of several is refused by boneyard, named in Blender's report.
result = None
try:
    result = bpy.ops.export_scene.boneyard_skls(filepath=one)
except RuntimeError as error:
    if "one motion" not in str(error) and "holds one" not in str(error):
        bc.fail("the refusal does not say why: %s" % error)
if len(actions) > 1 and (result == {"FINISHED"} or os.path.exists(one)):
    bc.fail("a .skl of %d motions was written" % len(actions))
# The edit: one bone turned 30 degrees about X in the first motion, at every key.
action = actions[0]
bone = next(b.name for b in arm.pose.bones if any(c.data_path == 'pose.bones["%s"].rotation_quaternion' % b.name
                                                   for c in action.fcurves))
curves = {c.array_index: c for c in action.fcurves if c.data_path == 'pose.bones["%s"].rotation_quaternion' % bone}
turn = (math.cos(math.radians(15)), math.sin(math.radians(15)), 0.0, 0.0)
frames = sorted({round(p.co[0]) for c in curves.values() for p in c.keyframe_points})
for frame in frames:
    q = [curves[i].evaluate(frame) for i in range(4)]
    w, x, y, z = q
    tw, tx, ty, tz = turn
    turned = (w * tw - x * tx - y * ty - z * tz, w * tx + x * tw + y * tz - z * ty,
              w * ty - x * tz + y * tw + z * tx, w * tz + x * ty - y * tx + z * tw)
    for i in range(4):
        curves[i].keyframe_points.insert(frame, turned[i], options={"REPLACE"})
edited = args.out("wave_edited.skls")
export_skls(arm, edited)
index = next(i for i, b in enumerate(ac.dump(args.cli, skls)["motions"][0]["bones"]) if b["name"] == bone)
moved = compare_compiled(WAVE, edited, turned=(action.boneyard.name, index))
if moved == 0:
    bc.fail("the 30 degree edit of %s did not reach the .skls" % bone)
print("the edit of %s reached %d compiled keys, every other key within one step" % (bone, moved))

# ---- 2. a real .skls on a flat armature
real = args.sample("sdk/mod/hand_unarmed.skls")
if real:
    arm = import_skls(real)
    back = args.out("hand_unarmed_back.skls")
    export_skls(arm, back)
    if motions(back) != motions(real):
        bc.fail("%s: exported motions %s, imported %s" % (real, motions(back), motions(real)))
    same_poses(node_poses(real), node_poses(back), 1e-4, "hand_unarmed.skls through Blender")
else:
    print("(real samples not found: the mod's .skls was not checked)")


# ---- 3. .anm: an object and a camera
def anm_bytes():
    body = b"shot\0" + struct.pack("<iifH", 0, 60, 30.0, 5)
    for c in range(6):
        body += struct.pack("<BBH", 1, 1, 3)
        for time, value in ((0.0, 0.1 * c), (1.0, 0.3 * c + 0.2), (2.0, -0.2 * c)):
            body += struct.pack("<ffB7H", value, time, 0, *([32768] * 7))
    return struct.pack("<II", 0x1100, len(body)) + body


def anm_round_trip(path, camera):
    ac.fresh(args.cli)
    result = bpy.ops.import_scene.boneyard_anm(filepath=path)
    if result != {"FINISHED"}:
        bc.fail("import of %s: %s" % (path, result))
    # boneyard's glTF of an .anm moves one node (a joint of a one-bone skin, so Blender makes an
    # armature of it); a camera motion's camera rides on it.
    moved = [o for o in bpy.data.objects if o.animation_data and o.animation_data.action]
    cameras = [o for o in bpy.data.objects if o.type == "CAMERA"]
    if len(moved) != 1 or len(cameras) != (1 if camera else 0):
        bc.fail("%s: imported %s" % (path, [(o.name, o.type) for o in bpy.data.objects]))
    bpy.context.view_layer.objects.active = moved[0]
    back = os.path.join(os.path.dirname(path), "back_" + os.path.basename(path))
    result = bpy.ops.export_scene.boneyard_anm(filepath=back)
    if result != {"FINISHED"}:
        bc.fail("export of %s: %s" % (back, result))
    bc.boneyard(args, "validate", back)
    a, b = ac.dump(args.cli, path), ac.dump(args.cli, back)
    if (a["name"], a["frame_start"], a["frame_end"], a["fps"]) != (b["name"], b["frame_start"], b["frame_end"], b["fps"]):
        bc.fail("%s: header %s back as %s" % (path, (a["name"], a["frame_start"], a["frame_end"], a["fps"]),
                                              (b["name"], b["frame_start"], b["frame_end"], b["fps"])))
    # One node each (named after the motion, or after the file when the motion has no name).
    pa = {("", "node", k[2]): v for k, v in node_poses(path).items()}
    pb = {("", "node", k[2]): v for k, v in node_poses(back).items()}
    same_poses(pa, pb, 1e-4, "%s through Blender" % os.path.basename(path))


made = args.out("object.anm")
with open(made, "wb") as f:
    f.write(anm_bytes())
anm_round_trip(made, camera=False)
os.makedirs(args.out("camera_effects"), exist_ok=True)
shot = os.path.join(args.out("camera_effects"), "shot.anm")
shutil.copyfile(made, shot)
anm_round_trip(shot, camera=True)
real_anm = args.sample("sdk/mod/l85_reload.anm")
if real_anm:
    copy = args.out("l85_reload.anm")
    shutil.copyfile(real_anm, copy)
    anm_round_trip(copy, camera=False)
print("addon sdk motions: all checks passed")
