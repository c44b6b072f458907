"""The add-on makes an X-Ray import's motions itself, inside Blender's glTF import (its extension
hook, blender/boneyard_io/gltf_motions.py), and nothing else changes.

ARGS after the harness's: ZIP, then pairs OGF OMF (paths relative to the source dir, or
samples:... relative to the samples dir; a pair whose sample is absent is skipped). For each pair:
1. The add-on's import (of the model; for the first pair also of the motion file alone, on a flat
   armature) with the hook and with Blender's importer making the motions (as when the hook
   cannot: the importer gets the whole file) give the same actions, NLA tracks (names, order, lock, mute, start), active
   action, F-curves (data path, index, group, order, key count, frames, interpolation,
   extrapolation) and key values within float32 noise (1e-5; the importer rounds each step to
   float32, the hook once); the hook's fingerprints equal those read back from Blender.
2. Blender's own File > Import glTF of the same .glb with the add-on enabled is untouched by the
   hook: its motions are the importer's own.
3. (first pair) A hook that fails half-way: the import still finishes, as Blender's importer alone
   makes it, with nothing of the failed attempt left."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402
import numpy  # noqa: E402

args = bc.Args()
zip_path, pairs = args.extra[0], args.extra[1:]
ac.install(zip_path)
ac.fresh(args.cli)
from boneyard_io import fingerprint, gltf_motions  # noqa: E402

hook = gltf_motions.ImportExtension.gather_import_animations
supported = gltf_motions.supported


def resolve(argument):
    if argument.startswith("samples:"):
        return args.sample(argument[len("samples:"):])
    return os.path.join(args.source_dir, argument)


def snapshot():
    arm = ac.armature()
    data = arm.animation_data
    curves = {}
    for action in bpy.data.actions:
        for curve in action.fcurves:
            n = len(curve.keyframe_points)
            co = numpy.empty(2 * n, numpy.float32)
            curve.keyframe_points.foreach_get("co", co)
            kinds = numpy.empty(n, numpy.int32)
            curve.keyframe_points.foreach_get("interpolation", kinds)
            curves[action.name, curve.data_path, curve.array_index] = (
                curve.group.name if curve.group else None, curve.extrapolation, co.reshape(-1, 2), kinds)
    return {
        "tracks": [(t.name, [s.action.name for s in t.strips], t.lock, t.mute, [s.frame_start for s in t.strips])
                   for t in data.nla_tracks],
        "active": data.action.name if data.action else None,
        "order": {a.name: [(c.data_path, c.array_index) for c in a.fcurves] for a in bpy.data.actions},
        "curves": curves,
        "remembered": {a.name: json.loads(a.boneyard.remembered)["channels"] for a in bpy.data.actions
                       if a.boneyard.remembered},
        "read_back": {a.name: fingerprint.channel_hashes(arm, a) for a in bpy.data.actions},
    }


def import_with(model, made_here):
    """The add-on's import of `model`; made_here False: as if the hook could not make the motions
    (Blender's importer gets the whole file and makes them)."""
    left, made = [], []

    def watched(self, animations, options, gltf):
        hook(self, animations, options, gltf)
        left.append(len(animations or []))  # None: the importer got no animations
        made.append(bool(gltf_motions._JOBS and gltf_motions._JOBS[-1].curves))

    gltf_motions.ImportExtension.gather_import_animations = watched
    gltf_motions.supported = supported if made_here else (lambda document: False)
    try:
        ac.fresh(args.cli)
        if bpy.ops.import_scene.boneyard_xray(filepath=model) != {"FINISHED"}:
            bc.fail("import of %s failed" % model)
    finally:
        gltf_motions.ImportExtension.gather_import_animations = hook
        gltf_motions.supported = supported
    if made != [made_here] or (left != [0] if made_here else len(left) != 1 or not left[0]):
        bc.fail("import of %s %s the hook: it made motions %s, left %s animations to the importer"
                % (model, "with" if made_here else "without", made, left))
    return snapshot()


def compare(label, source):
    """1. for one file: the hook's motions against Blender's importer's."""
    mine, blenders = import_with(source, True), import_with(source, False)
    for key in ("tracks", "active", "order"):
        if mine[key] != blenders[key]:
            bc.fail("%s: %s differ: hook %s, Blender's importer %s" % (label, key, str(mine[key])[:300], str(blenders[key])[:300]))
    if set(mine["curves"]) != set(blenders["curves"]):
        bc.fail("%s: the F-curves differ: %s" % (label, sorted(set(mine["curves"]) ^ set(blenders["curves"]))[:5]))
    worst = 0.0
    for key, (group, extrapolation, co, kinds) in blenders["curves"].items():
        g, e, c, k = mine["curves"][key]
        if (g, e) != (group, extrapolation) or c.shape != co.shape or not numpy.array_equal(k, kinds):
            bc.fail("%s: curve %s: group/extrapolation/keys/interpolation differ" % (label, key))
        if not numpy.array_equal(c[:, 0], co[:, 0]):
            bc.fail("%s: curve %s: frames differ" % (label, key))
        worst = max(worst, float(numpy.abs(c[:, 1].astype(numpy.float64) - co[:, 1]).max(initial=0.0)))
    if worst > 1e-5:
        bc.fail("%s: key values differ by up to %g (float32 noise is below 1e-5)" % (label, worst))
    if mine["remembered"] != mine["read_back"] or not mine["remembered"]:
        bc.fail("%s: the hook's fingerprints differ from those read back from Blender" % label)
    print("%s: %d actions, %d F-curves: the hook's motions are Blender's importer's (values within %.1e), "
          "fingerprints equal to the read-back ones" % (label, len(mine["order"]), len(mine["curves"]), worst))
    return mine, blenders


def failing_hook(source, expected):
    """3. A hook that fails: the model made again by Blender's importer alone, with a warning."""
    make = gltf_motions._make

    def broken(gltf, document, binary, made):
        make(gltf, document, binary, made)  # some actions made, then a failure: none may stay
        raise RuntimeError("a failure for the test")

    gltf_motions._make = broken
    try:
        ac.fresh(args.cli)
        if bpy.ops.import_scene.boneyard_xray(filepath=source) != {"FINISHED"}:
            bc.fail("import of %s with a failing hook did not finish" % source)
    finally:
        gltf_motions._make = make
    counts = {kind: len(getattr(bpy.data, kind)) for kind in ("objects", "meshes", "armatures", "materials", "images")}
    ac.fresh(args.cli)
    gltf_motions.supported = lambda document: False
    try:
        bpy.ops.import_scene.boneyard_xray(filepath=source)
    finally:
        gltf_motions.supported = supported
    alone = {kind: len(getattr(bpy.data, kind)) for kind in counts}
    if counts != alone:
        bc.fail("a failing hook left data behind: %s, Blender's importer alone makes %s" % (counts, alone))
    ac.fresh(args.cli)
    gltf_motions._make = broken
    try:
        bpy.ops.import_scene.boneyard_xray(filepath=source)
    finally:
        gltf_motions._make = make
    got = snapshot()
    if len(bc.armatures()) != 1 or any(got[k] != expected[k] for k in ("tracks", "active", "order", "remembered")):
        bc.fail("with a failing hook, %s did not arrive as Blender's importer makes it alone" % source)
    print("a failing hook: the import falls back to Blender's importer (same result, nothing left over)")


checked = 0
for ogf_arg, omf_arg in zip(pairs[0::2], pairs[1::2]):
    ogf, omf = resolve(ogf_arg), resolve(omf_arg)
    if ogf is None or omf is None:
        print("skipped %s: sample absent (../shared/samples/xray)" % ogf_arg)
        continue
    model, omf_path = ac.game_tree(args, ogf, omf, args.out("tree_%d" % checked))
    mine, blenders = compare(os.path.basename(ogf), model)
    if not checked:
        compare(os.path.basename(omf) + " alone", omf_path)  # the motion file on its own: a flat armature
        failing_hook(model, blenders)
    # 2. Blender's own glTF import, add-on enabled: the hook leaves it alone.
    glb = args.out("plain_%d.glb" % checked)
    bc.boneyard(args, "convert", "--output=" + glb, "--", model)
    ac.fresh(args.cli)
    left = []  # the animations the hook left to the importer, each time it was called

    def watched(self, animations, options, gltf):
        hook(self, animations, options, gltf)
        left.append(len(animations or []))

    gltf_motions.ImportExtension.gather_import_animations = watched
    try:
        bc.import_gltf(glb, bone_heuristic="BLENDER")
    finally:
        gltf_motions.ImportExtension.gather_import_animations = hook
    plain = sum(len(a.fcurves) for a in bpy.data.actions)
    if len(left) != 1 or left[0] == 0 or plain != len(mine["curves"]):
        bc.fail("%s: a plain glTF import: hook calls leaving %s animations, %d F-curves (expected one call "
                "leaving them all, %d F-curves by the importer)" % (ogf_arg, left, plain, len(mine["curves"])))
    print("plain File > Import glTF with the add-on enabled: the hook left all %d animations to the importer" % left[0])
    checked += 1
if not checked:
    bc.skip("no model to check")
print("addon motions: ok")
