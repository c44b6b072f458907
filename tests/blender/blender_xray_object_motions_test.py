"""blender-xray (PavelBlend/blender-xray, an independent .object reader) on the embedded motions
(0x916) of the .object files boneyard writes from glTF (issue 39): for blender-xray's
test_fmt_armature.object and the mod's dev_detector_1_hud.object with the 17 motions of its
dev_detector_1_hud_animation.skls embedded here (outside the repository, in the scratch folder),

* boneyard converts the object to glTF and back without a template (a new object whose motions are
  the glTF's animations) and with the template after one motion's bone was turned in the glTF;
* blender-xray imports the original and both outputs with their motions: the same actions, and at
  every frame of every motion each bone's pose (Blender's evaluated pose matrix, armature space)
  equals its pose in blender-xray's import of the original within 1e-4 -- except, in the edited
  output, the turned bone of the edited motion, which must have moved.

blender-xray runs from a checkout outside the repository: the last ARG is the folder holding
blender-xray/ (CMake BONEYARD_PEERS_DIR); skipped when it or the samples are absent.
"""
import json
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
addon_parent = bc.blender_xray(args)
ARMATURE = args.sample("sdk/blender-xray/test_fmt_armature.object")
DETECTOR = args.sample("sdk/mod/dev_detector_1_hud.object")
DETECTOR_SKLS = args.sample("sdk/mod/dev_detector_1_hud_animation.skls")
if ARMATURE is None or DETECTOR is None or DETECTOR_SKLS is None:
    bc.skip("real samples not found under %s" % args.samples_dir)
out = args.out("motions")
os.makedirs(out, exist_ok=True)
POSE = 1e-4


def with_motions(obj_bytes, motion_list):
    """The object with `motion_list` (a .skls's bytes) as its 0x916, after the bones (0x921)."""
    cid, size = struct.unpack_from("<II", obj_bytes, 0)
    body, at, new = obj_bytes[8:8 + size], 0, b""
    while at < len(body):
        i, n = struct.unpack_from("<II", body, at)
        if i != 0x916:
            new += body[at:at + 8 + n]
        if i == 0x921:
            new += struct.pack("<II", 0x916, len(motion_list)) + motion_list
        at += 8 + n
    return struct.pack("<II", cid, len(new)) + new + obj_bytes[8 + size:]


def reset_with_addon():
    bc.reset_with_blender_xray(addon_parent)


def poses(path, style, ranges):
    """blender-xray's import of `path` with its motions: {(action, frame, bone): pose matrix}, each
    action sampled over `ranges[action]` (the original motion's frames)."""
    reset_with_addon()
    result = bpy.ops.xray_import.object(directory=os.path.dirname(path), files=[{"name": os.path.basename(path)}],
                                        fmt_version=style, import_motions=True)
    if result != {"FINISHED"}:
        bc.fail("%s: blender-xray import: %s" % (path, result))
    arms = bc.armatures()
    if len(arms) != 1:
        bc.fail("%s: blender-xray made %d armatures" % (path, len(arms)))
    arm = arms[0]
    if arm.animation_data is None:
        arm.animation_data_create()
    out_poses = {}
    scene = bpy.context.scene
    for act in bpy.data.actions:
        first, last = ranges.get(act.name, (int(act.frame_range[0]), int(act.frame_range[1])))
        arm.animation_data.action = act
        for f in range(first, last + 1):
            scene.frame_set(f)
            for pb in arm.pose.bones:
                out_poses[(act.name, f, pb.name)] = [list(r) for r in pb.matrix]
    return out_poses


def frame_ranges(path):
    """Each embedded motion's frames, from boneyard's dump of the original."""
    _, text, _ = bc.boneyard(args, "dump", path)
    doc = json.loads(text)
    motions = doc.get("motions") or doc.get("embedded_motions") or []
    return {m["name"]: (int(m["frame_start"]), int(m["frame_end"])) for m in motions if "frame_start" in m}


def worst(a, b):
    return max(abs(a[i][j] - b[i][j]) for i in range(4) for j in range(4))


def style_of(path):
    _, info, _ = bc.boneyard(args, "info", path)
    return "soc" if "smoothing groups in the SoC style" in info else "cscop"


def turned_glb(src, dst, animation, joint_name, angle):
    """The .glb with the rotation keys of `joint_name` in animation `animation` turned about Y."""
    data = open(src, "rb").read()
    json_len = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + json_len])
    binary = bytearray(data[20 + json_len + 8:])
    node = [i for i, n in enumerate(doc["nodes"]) if n.get("name") == joint_name][0]
    anim = doc["animations"][animation]
    c, s = math.cos(angle / 2), math.sin(angle / 2)
    done = set()
    for ch in anim["channels"]:
        if ch["target"].get("node") != node or ch["target"]["path"] != "rotation":
            continue
        index = anim["samplers"][ch["sampler"]]["output"]
        acc = doc["accessors"][index]
        if acc["componentType"] != 5126:
            bc.fail("expected float rotations")
        if index in done:
            continue
        done.add(index)
        view = doc["bufferViews"][acc["bufferView"]]
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        for k in range(acc["count"]):
            x, y, z, w = struct.unpack_from("<4f", binary, base + 16 * k)
            struct.pack_into("<4f", binary, base + 16 * k, c * x + s * z, c * y + s * w, c * z - s * x, c * w - s * y)
    if not done:
        bc.fail("no rotation channel of %s in animation %d" % (joint_name, animation))
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    out_bytes = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary))
    out_bytes += struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
    open(dst, "wb").write(out_bytes)
    return doc["animations"][animation]["name"]


detector = os.path.join(out, "dev_detector_1_hud.object")
open(detector, "wb").write(with_motions(open(DETECTOR, "rb").read(), open(DETECTOR_SKLS, "rb").read()))
for original, edit in [(ARMATURE, (0, "Bone1")), (detector, (3, "lid"))]:
    name = os.path.splitext(os.path.basename(original))[0]
    style = style_of(original)
    ranges = frame_ranges(original)
    want = poses(original, style, ranges)
    glb = os.path.join(out, name + ".glb")
    bc.boneyard(args, "convert", original, "-o", glb)
    fresh = os.path.join(out, name + "_new.object")
    bc.boneyard(args, "convert", glb, "-o", fresh, "--game", "soc" if style == "soc" else "cop")
    have = poses(fresh, style, ranges)
    if set(have) != set(want):
        bc.fail("%s (template-less): blender-xray's actions, frames or bones differ: %d only in the output, %d only in "
                "the original" % (name, len(set(have) - set(want)), len(set(want) - set(have))))
    d = max(worst(want[k], have[k]) for k in want)
    if d > POSE:
        bc.fail("%s (template-less): blender-xray's poses are %.2g off its poses of the original" % (name, d))
    print("%s (template-less): %d actions, %d bone-frames, poses within %.1g" %
          (name, len({k[0] for k in want}), len(want), d))
    # One motion's bone turned in the glTF, back with the template: that bone moves in that
    # motion, everything else is the original's.
    edited_glb = os.path.join(out, name + "_edited.glb")
    motion, bone = edit
    action = turned_glb(glb, edited_glb, motion, bone, 0.3)
    rebuilt = os.path.join(out, name + "_edited.object")
    bc.boneyard(args, "convert", edited_glb, "-o", rebuilt, "--template", original)
    have = poses(rebuilt, style, ranges)
    if set(have) != set(want):
        bc.fail("%s (edited): blender-xray's actions, frames or bones differ" % name)
    moved = 0
    for k in want:
        d = worst(want[k], have[k])
        if k[0] == action and k[2] == bone:
            moved += d > 1e-2
        elif d > POSE:
            bc.fail("%s (edited): %s frame %d bone %s is %.2g off the original" % (name, k[0], k[1], k[2], d))
    if moved == 0:
        bc.fail("%s (edited): blender-xray does not see the turned bone %s in %s" % (name, bone, action))
    print("%s (edited, template): %s's %s turned in %d frames, every other pose the original's" % (name, action, bone, moved))
print("blender-xray imports the embedded motions of boneyard's objects with the originals' poses")
