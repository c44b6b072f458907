"""X-Ray motions through Blender with its DEFAULT import settings, and back (issue 12, scope 7).

ARGS after the harness's: LABEL OMF SKELETON|- EDIT_MOTION EDIT_BONE, where OMF and SKELETON are
either paths relative to the source dir (examples/...) or to the samples dir (samples:cop/...).

1. boneyard: .omf (+ skeleton) -> .glb; Blender: import with default settings in a 30 fps scene,
   export every action whole.
2. boneyard: Blender's .glb -> .omf with --template: names, order, params, marks and frame counts
   kept, rotation keys identical or within one step, translations within one step of the
   source's own encoding (16-bit tracks stay 16-bit).
   Without a template: the same names and frame counts, keys within one step.
3. A 30 degree rotation of EDIT_BONE keyed in Blender on the action of EDIT_MOTION lands on exactly
   that bone's rotation keys of that motion (each turned by 30 degrees); no other rotation key
   changes, translations stay within one step (Blender's float noise).
4. The same motions imported into a 24 fps scene come back with boneyard's "not on the 30 fps
   grid" warning, naming the rate Blender wrote.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402
import xray_compare  # noqa: E402

import bpy  # noqa: E402
import mathutils  # noqa: E402

args = bc.Args()
label, omf_arg, skeleton_arg, edit_motion, edit_bone = args.extra[:5]


def resolve(argument):
    if argument == "-":
        return None
    if argument.startswith("samples:"):
        path = args.sample(argument[len("samples:"):])
        if path is None:
            bc.skip("sample %s is absent (../shared/samples/xray)" % argument[len("samples:"):])
        return path
    return os.path.join(args.source_dir, argument)


omf, skeleton = resolve(omf_arg), resolve(skeleton_arg)
skeleton_flags = ["--skeleton", skeleton] if skeleton else []
original = xray_compare.dump(args.cli, omf)


def to_omf(glb, name, template=True):
    out = args.out(name)
    flags = ["--template", omf] if template else []
    code, _, err = bc.boneyard(args, "convert", glb, "-o", out, *skeleton_flags, *flags)
    return out, err


def through_blender(glb, name, fps=30, edit=None):
    bc.reset(fps=fps)
    bc.import_gltf(glb)  # Blender's defaults: bone_heuristic='TEMPERANCE' turns the joint frames
    if edit:
        edit()
    back = args.out(name)
    bc.export_glb(back)
    return back


def turn_bone_30_degrees():
    """Keys a 30 degree turn about the bone's own X axis on every key of one action."""
    action = bc.action_for(edit_motion)
    path = 'pose.bones["%s"].rotation_quaternion' % edit_bone
    curves = sorted((c for c in action.fcurves if c.data_path == path), key=lambda c: c.array_index)
    if len(curves) != 4:
        bc.fail("action %s has %d rotation curves for %s, expected 4" % (action.name, len(curves), edit_bone))
    turn = mathutils.Quaternion((1.0, 0.0, 0.0), math.radians(30.0))
    for i in range(len(curves[0].keyframe_points)):
        q = mathutils.Quaternion([c.keyframe_points[i].co[1] for c in curves])
        turned = turn @ q
        for c, value in zip(curves, turned):
            point = c.keyframe_points[i]
            point.co[1] = value
            point.handle_left[1] = value
            point.handle_right[1] = value
    for c in curves:
        c.update()


def motion_bone_index(dump, bone):
    for part in dump["parts"]:
        for b in part["bones"]:
            if b["name"] == bone:
                return b["index"]
    bc.fail("bone %s is not in the motion set" % bone)


def check_kept(comparison, what):
    if comparison.missing:
        bc.fail("%s: motions lost: %s" % (what, comparison.missing))
    if comparison.rotation["worse"] or comparison.translation["worse"]:
        bc.fail("%s: keys more than one step off: %s" % (what, comparison.summary()))


glb = args.out(label + ".glb")
bc.boneyard(args, "convert", omf, *skeleton_flags, "-o", glb)
back = through_blender(glb, label + "_blender.glb")

# 2. With --template: everything the template holds, keys identical or within one step.
with_template, _ = to_omf(back, label + "_template.omf")
kept = xray_compare.Comparison(original, xray_compare.dump(args.cli, with_template), own_steps=True)
check_kept(kept, "with --template")
if not kept.order_kept or kept.field_differences:
    bc.fail("with --template: order or motion fields changed: %s %s" % (kept.summary(), kept.field_differences[:5]))
print("with --template: " + kept.summary())
print("  byte-identical to the source: %s" % (open(with_template, "rb").read() == open(omf, "rb").read()))

# Without a template: names and frame counts survive Blender, keys within one step.
without_template, _ = to_omf(back, label + "_plain.omf", template=False)
plain = xray_compare.Comparison(original, xray_compare.dump(args.cli, without_template))
check_kept(plain, "without --template")
frame_changes = [d for d in plain.field_differences if ".frames:" in d]
if frame_changes:
    bc.fail("without --template: frame counts changed: %s" % frame_changes[:5])
print("without --template: " + plain.summary())

# 3. One bone turned by 30 degrees in one action: exactly its rotation keys change.
edited_glb = through_blender(glb, label + "_edited.glb", edit=turn_bone_30_degrees)
edited_omf, _ = to_omf(edited_glb, label + "_edited.omf")
unedited = xray_compare.dump(args.cli, with_template)
edited = xray_compare.dump(args.cli, edited_omf)
edit = xray_compare.Comparison(unedited, edited)
bone_index = motion_bone_index(original, edit_bone)
if edit.changed_bones != {edit_motion: [bone_index]}:
    bc.fail("the 30 degree edit of %s in %s changed the rotation keys of %s" % (edit_bone, edit_motion, edit.changed_bones))
# Blender recomputes children's local matrices from the turned parent, so float noise may move a
# 16-bit translation key by one step, or by about 1e-6 m (the parent's rotation keys are the stored
# normalised SHORTs, up to 6e-5 off unit length, which scales the child's offset by up to 1.2e-4):
# what the importer takes as noise (2e-6 m). More than that would be a real change.
if edit.translation["worse"] and edit.worst_translation_m > 2e-6:
    bc.fail("the 30 degree edit changed translations: %s" % edit.summary())
if edit.field_differences:
    bc.fail("the 30 degree edit changed motion fields: %s" % edit.field_differences[:5])
old_motion = next(m for m in unedited["motions"] if m["name"] == edit_motion)
new_motion = next(m for m in edited["motions"] if m["name"] == edit_motion)
old_keys, new_keys = old_motion["bones"][bone_index]["rotation"], new_motion["bones"][bone_index]["rotation"]
angles = [xray_compare.rotation_angle_degrees(old_keys[min(f, len(old_keys) - 1)], new_keys[min(f, len(new_keys) - 1)])
          for f in range(new_motion["frames"])]
if max(abs(a - 30.0) for a in angles) > 0.05:
    bc.fail("the edited keys turned by %.3f..%.3f degrees, expected 30" % (min(angles), max(angles)))
print("30 degree edit of %s in %s: only its %d keys changed, turned by %.3f..%.3f degrees"
      % (edit_bone, edit_motion, len(angles), min(angles), max(angles)))

# 4. Blender's default 24 fps scene resamples the keys: boneyard says so once, with the rate.
back24 = through_blender(glb, label + "_24fps.glb", fps=24)
_, warnings = to_omf(back24, label + "_24fps.omf")
if "not on the 30 fps grid" not in warnings or "about 24 fps" not in warnings:
    bc.fail("a 24 fps export: expected the 30 fps grid warning naming 24 fps, got:\n" + warnings)
if warnings.count("not on the 30 fps grid") != 1:
    bc.fail("the 30 fps grid warning should come once, got:\n" + warnings)
print("24 fps scene: warned once (%s)" % warnings.strip().splitlines()[0][:160])
print("xray roundtrip %s: ok" % label)
