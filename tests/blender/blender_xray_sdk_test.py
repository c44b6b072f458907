"""blender-xray (PavelBlend/blender-xray, an independent reader and writer of the SDK's motion
formats) and boneyard agree on .skls, .skl and .anm (issue 38):

* blender-xray imports the .skls boneyard makes from real .omf files (binoculars: 8-bit; medkit:
  16-bit translations) onto the model it imports itself, and a .skl of one motion; at every frame of
  every motion each bone's pose (Blender's evaluated pose matrix, armature space) equals the pose
  boneyard's own decoder gives the .omf's keys (`boneyard dump --raw`), composed up the bone tree,
  within float precision;
* it imports the .anm boneyard writes from a glTF of each real camera motion (sdk/mod/*.anm): the
  object's world matrix at every frame equals boneyard's glTF export of the original .anm;
* boneyard reads what blender-xray exports: its .skls of the imported actions validates, and
  compiled back for the same model every key is within one quantisation step of the original .omf's;
  its .anm of the imported object validates and gives the same pose at every frame.

Coordinates: blender-xray maps X-Ray (x, y, z) to Blender (x, z, y) and gives bones the extra
MATRIX_BONE turn, so a bone's armature-space pose is K * S * W * S (S mirrors Z, K = MATRIX_BONE, W
the X-Ray world transform in column form) and an object's is B * W * B (B swaps y and z).

blender-xray runs from a checkout outside the repository: ARGS hold the folder with blender-xray/
(CMake BONEYARD_PEERS_DIR); skipped when it or the samples are absent. Facts on running it
headless: ../shared/docs/blender-notes.md.
"""
import json
import math
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402
import mathutils  # noqa: E402

args = bc.Args()
addon_parent = bc.blender_xray(args)
if not args.sample("soc/wpn_binoculars_hud.ogf"):
    bc.skip("real samples not found under %s" % args.samples_dir)

POSE = 1e-4       # pose matrix entries (rotation) and metres: float precision of both paths
out = args.out("sdk")
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)

K = mathutils.Matrix(((1, 0, 0, 0), (0, 0, -1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))
S = mathutils.Matrix.Diagonal((1, 1, -1, 1))
B = mathutils.Matrix(((1, 0, 0, 0), (0, 0, 1, 0), (0, 1, 0, 0), (0, 0, 0, 1)))


def reset_with_addon():
    bc.reset_with_blender_xray(addon_parent)


def dump(path):
    return json.loads(bc.boneyard(args, "dump", "--raw", path)[1])


def column(rows, t):
    """An X-Ray row-vector rotation (as stored) and translation as a column-form 4x4."""
    m = mathutils.Matrix(rows).transposed().to_4x4()
    m.translation = t
    return m


def quat_rows(q):
    x, y, z, w = q
    n = math.sqrt(x * x + y * y + z * z + w * w)
    x, y, z, w = x / n, y / n, z / n, w / n
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


def hpb_rows(h, p, b):
    """Fmatrix::setHPB."""
    sh, ch, sp, cp, sb, cb = math.sin(h), math.cos(h), math.sin(p), math.cos(p), math.sin(b), math.cos(b)
    cc, cs, sc, ss = ch * cb, ch * sb, sh * cb, sh * sb
    return ((cc - sp * ss, -cp * sb, sp * cs + sc), (sp * sc + cs, cp * cb, ss - sp * cc), (-cp * sh, sp, cp * ch))


def diff(a, b):
    return max(abs(a[i][j] - b[i][j]) for i in range(4) for j in range(4))


def motion_worlds(omf, parents, motion, frame):
    """Every bone's X-Ray world transform at `frame` from the .omf's decoded keys."""
    names = {}
    for part in omf["parts"]:
        for bone in part["bones"]:
            names[bone["index"]] = bone["name"]
    local = {}
    for r, rec in enumerate(motion["bones"]):
        q = rec["rotation"][min(frame, len(rec["rotation"]) - 1)]
        t = rec["translation"][min(frame, len(rec["translation"]) - 1)]
        local[names[r].lower()] = column(quat_rows(q), t)
    world = {}

    def get(name):
        if name not in world:
            parent = parents[name]
            world[name] = get(parent) @ local[name] if parent else local[name]
        return world[name]
    for name in parents:
        get(name)
    return world


def import_model(folder, ogf):
    reset_with_addon()
    if bpy.ops.xray_import.ogf(directory=folder, files=[{"name": ogf}], import_motions=False) != {"FINISHED"}:
        bc.fail("blender-xray could not import %s" % ogf)
    arm = bc.armatures()[0]
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    arm.animation_data_create()
    return arm


def check_skeletal(name, ogf_rel, omf_rel):
    ogf_path, omf_path = args.sample(ogf_rel), args.sample(omf_rel)
    folder = os.path.join(out, name)
    os.makedirs(folder)
    shutil.copy(ogf_path, folder)
    skls = os.path.join(folder, name + ".skls")
    bc.boneyard(args, "convert", omf_path, "-o", skls)
    omf = dump(omf_path)
    model = dump(ogf_path)
    parents = {b["name"].lower(): b["parent"].lower() for b in model["bones"]}
    first = omf["motions"][0]["name"]
    skl = os.path.join(folder, first + ".skl")  # blender-xray names a .skl's action after the file
    bc.boneyard(args, "omf", "extract", skls, "-o", skl, first)
    checked = 0
    for file_name, motions in ((name + ".skls", omf["motions"]), (first + ".skl", omf["motions"][:1])):
        arm = import_model(folder, os.path.basename(ogf_path))
        before = set(bpy.data.actions.keys())
        if bpy.ops.xray_import.skls(directory=folder, files=[{"name": file_name}]) != {"FINISHED"}:
            bc.fail("blender-xray could not import %s" % file_name)
        if set(bpy.data.actions.keys()) - before != {m["name"] for m in motions}:
            bc.fail("%s: blender-xray made actions %s" % (file_name, sorted(set(bpy.data.actions.keys()) - before)))
        for motion in motions:
            arm.animation_data.action = bpy.data.actions[motion["name"]]
            for frame in range(motion["frames"]):
                bpy.context.scene.frame_set(frame)
                world = motion_worlds(omf, parents, motion, frame)
                for pb in arm.pose.bones:
                    want = K @ S @ world[pb.name.lower()] @ S
                    d = diff(pb.matrix, want)
                    if d > POSE:
                        bc.fail("%s motion %s frame %d bone %s: blender-xray's pose is %.2g off boneyard's"
                                % (file_name, motion["name"], frame, pb.name, d))
                    checked += 1
    print("%s: blender-xray's poses of boneyard's .skls and .skl equal the .omf's, %d bone-frames" % (name, checked))

    # boneyard reads blender-xray's .skls of the same actions (imported above from the .skls).
    arm = import_model(folder, os.path.basename(ogf_path))
    bpy.ops.xray_import.skls(directory=folder, files=[{"name": name + ".skls"}], add_to_motion_list=True)
    export_dir = os.path.join(folder, "blender_xray")
    os.makedirs(export_dir)
    if bpy.ops.xray_export.skls(directory=export_dir) != {"FINISHED"}:
        bc.fail("blender-xray could not export the actions")
    written = [f for f in os.listdir(export_dir) if f.endswith(".skls")]
    if len(written) != 1:
        bc.fail("blender-xray wrote %s, one .skls expected" % written)
    exported = os.path.join(export_dir, written[0])
    code, text, err = bc.boneyard(args, "validate", exported, expect=None)
    if code != 0:
        bc.fail("boneyard validate of blender-xray's .skls: exit %d\n%s%s" % (code, text, err))
    back = os.path.join(folder, "back.omf")
    game = "soc" if omf["params_version"] == 3 else "cop"
    bc.boneyard(args, "convert", exported, "-o", back, "--skeleton", ogf_path, "--parts", omf_path, "--game", game)
    again = dump(back)
    worst_rot = worst_tr = longer = 0
    for a, b in zip(omf["motions"], again["motions"]):
        # blender-xray's .skls sometimes ends a frame later than the action (its frame range is the
        # action's, which may end past the last key); the SDK compiles that frame too.
        if a["name"] != b["name"] or b["frames"] not in (a["frames"], a["frames"] + 1):
            bc.fail("motion %s (%d frames) came back as %s (%d frames)" % (a["name"], a["frames"], b["name"], b["frames"]))
        longer += b["frames"] != a["frames"]
        for field in ("flags", "bone_or_part", "speed", "power", "accrue", "falloff"):
            if a[field] != b[field]:
                bc.fail("motion %s: %s %s came back as %s" % (a["name"], field, a[field], b[field]))
        for ra, rb in zip(a["bones"], b["bones"]):
            for f in range(a["frames"]):
                ka = ra["rotation_keys"][min(f, len(ra["rotation_keys"]) - 1)]
                kb = rb["rotation_keys"][min(f, len(rb["rotation_keys"]) - 1)]
                worst_rot = max(worst_rot, min(max(abs(x - y) for x, y in zip(ka, kb)),
                                               max(abs(x + y) for x, y in zip(ka, kb))))
                ta = ra["translation"][min(f, len(ra["translation"]) - 1)]
                tb = rb["translation"][min(f, len(rb["translation"]) - 1)]
                step = max(ra.get("translation_size", [0, 0, 0]) + rb.get("translation_size", [0, 0, 0]))
                worst_tr = max(worst_tr, max(abs(x - y) for x, y in zip(ta, tb)) - step)
    if worst_rot > 1 or worst_tr > 1e-4:
        bc.fail("blender-xray's .skls compiled by boneyard: rotation keys off by %d units, translations %.3g m beyond a "
                "step" % (worst_rot, worst_tr))
    print("%s: boneyard read blender-xray's .skls; compiled, its keys are within a step of the .omf's (worst %d units; "
          "%d motion(s) a frame longer)" % (name, worst_rot, longer))


def glb_object_poses(path):
    """The node poses per frame of a boneyard .glb of one object motion (one node, linear keys)."""
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + length])
    binary = data[20 + length + 8:]
    anim = doc["animations"][0]

    def floats(accessor):
        acc = doc["accessors"][accessor]
        view = doc["bufferViews"][acc["bufferView"]]
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[acc["type"]]
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        values = struct.unpack_from("<%df" % (acc["count"] * width), binary, start)
        return [values[i * width:(i + 1) * width] for i in range(acc["count"])]
    rot = tr = None
    for ch in anim["channels"]:
        sampler = anim["samplers"][ch["sampler"]]
        if ch["target"]["path"] == "rotation":
            rot = floats(sampler["output"])
        if ch["target"]["path"] == "translation":
            tr = floats(sampler["output"])
    poses = []
    for (x, y, z, w), (tx, ty, tz) in zip(rot, tr):
        # glTF space back to X-Ray (mirror Z), then the column-form transform.
        m = S @ mathutils.Quaternion((w, x, y, z)).to_matrix().to_4x4() @ S
        m.translation = (tx, ty, -tz)
        poses.append(m)
    return poses


def check_anm(path):
    name = os.path.splitext(os.path.basename(path))[0]
    folder = os.path.join(out, "anm_" + name)
    os.makedirs(folder)
    ours = os.path.join(folder, "ours.glb")
    bc.boneyard(args, "convert", path, "-o", ours)
    written = os.path.join(folder, name + ".anm")
    bc.boneyard(args, "convert", ours, "-o", written)
    poses = glb_object_poses(ours)
    reset_with_addon()
    if bpy.ops.xray_import.anm(directory=folder, files=[{"name": name + ".anm"}]) != {"FINISHED"}:
        bc.fail("blender-xray could not import %s" % written)
    obj = [o for o in bpy.data.objects if o.animation_data and o.animation_data.action][0]
    start = int(dump(written)["frame_start"])
    for i, want in enumerate(poses):
        bpy.context.scene.frame_set(start + i)
        d = diff(obj.matrix_world, B @ want @ B)
        if d > POSE:
            bc.fail("%s frame %d: blender-xray's object is %.2g off boneyard's pose" % (written, start + i, d))
    # boneyard reads blender-xray's .anm of that object.
    exported = os.path.join(folder, "blender_xray.anm")
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)
    if bpy.ops.xray_export.anm_file(filepath=exported) != {"FINISHED"}:
        bc.fail("blender-xray could not export %s" % exported)
    code, text, err = bc.boneyard(args, "validate", exported, expect=None)
    if code != 0:
        bc.fail("boneyard validate of blender-xray's .anm: exit %d\n%s%s" % (code, text, err))
    theirs = os.path.join(folder, "theirs.glb")
    bc.boneyard(args, "convert", exported, "-o", theirs)
    back = glb_object_poses(theirs)
    if len(back) != len(poses):
        bc.fail("%s: blender-xray's .anm holds %d frames, the original %d" % (name, len(back), len(poses)))
    worst = max(diff(a, b) for a, b in zip(poses, back))
    if worst > POSE:
        bc.fail("%s: boneyard's poses of blender-xray's .anm are %.2g off the original's" % (name, worst))
    print("%s: blender-xray's poses of boneyard's .anm equal boneyard's, %d frames; blender-xray's .anm reads back the same"
          % (name, len(poses)))


check_skeletal("binoculars", "soc/wpn_binoculars_hud.ogf", "soc/wpn_binoculars_hud_animations.omf")
check_skeletal("medkit", "cop/medkit_exo_hud.ogf", "cop/medkit_exo_anims.omf")
mod = os.path.join(args.samples_dir, "xray", "sdk", "mod")
anms = sorted(f for f in os.listdir(mod) if f.endswith(".anm")) if os.path.isdir(mod) else []
if not anms:
    bc.skip("no .anm samples under %s" % mod)
for f in anms:
    check_anm(os.path.join(mod, f))
print("blender-xray and boneyard agree on .skls, .skl and .anm")
