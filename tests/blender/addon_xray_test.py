"""The Blender add-on with an X-Ray model and its motions (issue 17, scopes 2-3).

ARGS after the harness's: ZIP LABEL OGF OMF EDIT_MOTION EDIT_BONE, where OGF and OMF are paths
relative to the source dir (examples/...) or to the samples dir (samples:cop/...).

The add-on is installed from its zip into a factory-startup Blender (24 fps scene) and enabled.
The model and its motion file are laid out as the game does (meshes/...), and:
1. File > Import X-Ray (.ogf): the scene becomes 30 fps; the armature has the model's bones; each
   motion is an action with the motion's frame count, in file order, with its params and marks.
2. File > Export X-Ray motions (.omf), nothing edited: the original .omf, byte for byte.
3. A rename, params, flags and a mark edited in the panel's properties reach the .omf; the renamed
   motion keeps its keys byte for byte; nothing else changes.
4. A 30 degree turn keyed on EDIT_BONE in EDIT_MOTION changes exactly that bone's rotation keys of
   that motion (by 30 degrees); every other record and motion keeps its bytes. With every motion
   through Blender's exporter instead, the keys stay within Blender's float noise of that.
   Example only: the panel drawn; a copied action added as a motion, another motion removed.
5. The .blend saved, the source files deleted, the .blend opened again: the export is still the
   original, byte for byte (the template lives in the .blend).
6. boneyard's error message reaches Blender's report for a broken file and a wrong executable path.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402
import xray_compare  # noqa: E402

import bpy  # noqa: E402
import mathutils  # noqa: E402

args = bc.Args()
zip_path, label, ogf_arg, omf_arg, edit_motion, edit_bone = args.extra[:6]


def resolve(argument):
    if argument.startswith("samples:"):
        path = args.sample(argument[len("samples:"):])
        if path is None:
            bc.skip("sample %s is absent (../shared/samples/xray)" % argument[len("samples:"):])
        return path
    return os.path.join(args.source_dir, argument)


ogf_source, omf_source = resolve(ogf_arg), resolve(omf_arg)
original_bytes = open(omf_source, "rb").read()
original = xray_compare.dump(args.cli, omf_source)
model_dump = ac.dump(args.cli, ogf_source)
ac.install(zip_path)
ac.fresh(args.cli)
model, omf = ac.game_tree(args, ogf_source, omf_source, args.out("gamedata"))


def import_model():
    ac.fresh(args.cli)
    if bpy.context.scene.render.fps == 30:
        bc.fail("the factory scene is already 30 fps: the test would not see the add-on set it")
    result = bpy.ops.import_scene.boneyard_xray(filepath=model)
    if result != {"FINISHED"}:
        bc.fail("import: %s" % result)
    return ac.armature()


def export(name, **options):
    out = args.out(name)
    result = bpy.ops.export_scene.boneyard_omf(filepath=out, **options)
    if result != {"FINISHED"}:
        bc.fail("export: %s" % result)
    return out


def motion_named(dump, name):
    return next(m for m in dump["motions"] if m["name"] == name)


# 1. Import: 30 fps, bones, one action per motion in file order, frame counts, params, marks.
arm = import_model()
scene = bpy.context.scene
if (scene.render.fps, scene.render.fps_base) != (30, 1.0):
    bc.fail("the scene is %d/%g fps after the import, expected 30" % (scene.render.fps, scene.render.fps_base))
bones = sorted(b.name for b in arm.data.bones)
expected_bones = sorted(b["name"] for b in model_dump["bones"])
if bones != expected_bones:
    bc.fail("bones %s, expected the model's %s" % (bones, expected_bones))
actions = ac.motion_actions(arm)
names = [a.boneyard.name for a in actions]
if names != [m["name"] for m in original["motions"]]:
    bc.fail("motions %s, expected %s in file order" % (names, [m["name"] for m in original["motions"]]))
for action, m in zip(actions, original["motions"]):
    motion = action.boneyard
    if ac.frames_of(action) != m["frames"] or motion.frames != m["frames"]:
        bc.fail("%s: %d frames in Blender (stored %d), the file has %d" % (m["name"], ac.frames_of(action),
                                                                          motion.frames, m["frames"]))
    got = (motion.speed, motion.power, motion.accrue, motion.falloff, motion.flags, motion.bone_or_part)
    want = (m["speed"], m["power"], m["accrue"], m["falloff"], m["flags"], m["bone_or_part"])
    if any(abs(a - b) > 1e-6 for a, b in zip(got, want)):
        bc.fail("%s: params %s in the panel, the file has %s" % (m["name"], got, want))
    marks = [(k.name, [(round(i.start, 5), round(i.end, 5)) for i in k.intervals]) for k in motion.marks]
    want_marks = [(k["name"], [(round(a, 5), round(b, 5)) for a, b in k["intervals"]]) for k in m.get("marks", [])]
    if marks != want_marks:
        bc.fail("%s: marks %s in the panel, the file has %s" % (m["name"], marks, want_marks))
print("import: %d bones, %d motions with their frames, params and marks; scene 30 fps" % (len(bones), len(actions)))

# 2. Unedited export: the original bytes.
unedited = export(label + "_unedited.omf")
if open(unedited, "rb").read() != original_bytes:
    diff = xray_compare.Comparison(original, xray_compare.dump(args.cli, unedited))
    bc.fail("the unedited export differs from the original: %s %s" % (diff.summary(), diff.field_differences[:5]))
print("unedited export: byte-identical to %s" % os.path.basename(omf_source))

# 2b. A .blend imported by an earlier add-on remembers its actions in the first fingerprint format:
# the export still tells untouched channels (byte-identical) from an edited key.
import json  # noqa: E402

from boneyard_io import fingerprint, fingerprint_v1  # noqa: E402

current = {a.name: a.boneyard.remembered for a in actions}
if any(json.loads(text).get("format") != fingerprint.FORMAT for text in current.values()):
    bc.fail("the import did not remember its actions in format %d" % fingerprint.FORMAT)
for action in actions:
    action.boneyard.remembered = json.dumps({"channels": fingerprint_v1.channel_hashes(arm, action),
                                             "range": fingerprint.frame_range(action)})
if open(export(label + "_format1.omf"), "rb").read() != original_bytes:
    bc.fail("with format-1 fingerprints, the unedited export differs from the original")
probe = next(a for a in actions if a.boneyard.name == edit_motion)
curve = next(c for c in probe.fcurves if c.data_path == 'pose.bones["%s"].location' % edit_bone)
key = curve.keyframe_points[0]
value = key.co[1]  # a float32's exact value: set back, the key is what it was
key.co[1] = value + 0.01
for text in (probe.boneyard.remembered, current[probe.name]):
    seen = fingerprint.changed_channels(arm, probe, text)
    if seen != {(edit_bone, "translation")}:
        bc.fail("a moved key of %s in %s: the %s fingerprint sees %s" % (edit_bone, edit_motion, json.loads(text).get("format", 1), seen))
key.co[1] = value
for action in actions:
    action.boneyard.remembered = current[action.name]
if fingerprint.changed_channels(arm, probe, current[probe.name]) != set():
    bc.fail("the key moved back: %s still seen as changed" % edit_bone)
print("format-1 fingerprints (earlier add-on): unedited export byte-identical, a moved key seen in both formats")

# 3. Params, flags and a mark edited in the panel.
param_motion = actions[-1].boneyard
param_name = param_motion.name
param_motion.speed = 1.25
param_motion.falloff = 0.5
param_motion.flag_stop_at_end = not param_motion.flag_stop_at_end
edited_flags = param_motion.flags
supports_marks = original["params_version"] >= 4
if supports_marks:
    bpy.context.view_layer.objects.active = arm  # the panel's buttons act on the active armature
    param_set = arm.data.boneyard.motion_sets[0]
    param_set.active_motion = len(param_set.motions) - 1
    bpy.ops.boneyard.motion_edit()  # the panel's "Edit": the motion's action becomes the active one
    if arm.animation_data.action != actions[-1]:
        bc.fail("the panel's Edit did not make %s the active action" % actions[-1].name)
    bpy.ops.boneyard.mark_add()
    mark = param_motion.marks[-1]
    mark.name = "Right"
    mark.intervals[0].start, mark.intervals[0].end = 0.0, 1.0 / 30
new_name = param_name + "_renamed"
param_motion.name = new_name
params_out = export(label + "_params.omf")
after = xray_compare.dump(args.cli, params_out)
if [m["name"] for m in after["motions"]] != [new_name if m["name"] == param_name else m["name"] for m in original["motions"]]:
    bc.fail("the rename in the panel: motions %s" % [m["name"] for m in after["motions"]])
raw_renamed = next(m for m in ac.dump(args.cli, params_out, raw=True)["motions"] if m["name"] == new_name)
raw_original = next(m for m in ac.dump(args.cli, omf_source, raw=True)["motions"] if m["name"] == param_name)
if raw_renamed["bones"] != raw_original["bones"]:
    bc.fail("renaming %s in the panel changed its keys" % param_name)
for m in after["motions"]:
    if m["name"] == new_name:
        m["name"] = param_name  # compared below under the old name
changed = motion_named(after, param_name)
if abs(changed["speed"] - 1.25) > 1e-6 or abs(changed["falloff"] - 0.5) > 1e-6 or changed["flags"] != edited_flags:
    bc.fail("panel edits did not reach the .omf: %s" % {k: changed[k] for k in ("speed", "falloff", "flags")})
if supports_marks and not any(k["name"] == "Right" and k["intervals"] == [[0.0, 1.0 / 30]] or
                              k["name"] == "Right" and abs(k["intervals"][0][1] - 1.0 / 30) < 1e-6
                              for k in changed["marks"]):
    bc.fail("the mark added in the panel is not in the .omf: %s" % changed["marks"])
comparison = xray_compare.Comparison(original, after)
others = [d for d in comparison.field_differences if not d.startswith(param_name + ".")]
if others or comparison.changed_bones or comparison.translation["worse"] or comparison.translation["one_step"]:
    bc.fail("the panel edit of %s changed more: %s %s" % (param_name, others[:5], comparison.summary()))
print("panel edit of %s: renamed (keys kept byte for byte), speed, falloff, flags%s reached the .omf, "
      "nothing else changed" % (param_name, " and a mark" if supports_marks else ""))


# 4. A 30 degree turn of one bone in one motion.
def turn_bone_30_degrees(action):
    path = 'pose.bones["%s"].rotation_quaternion' % edit_bone
    curves = sorted((c for c in action.fcurves if c.data_path == path), key=lambda c: c.array_index)
    if len(curves) != 4:
        bc.fail("action %s has %d rotation curves for %s, expected 4" % (action.name, len(curves), edit_bone))
    turn = mathutils.Quaternion((1.0, 0.0, 0.0), math.radians(30.0))
    for i in range(len(curves[0].keyframe_points)):
        q = turn @ mathutils.Quaternion([c.keyframe_points[i].co[1] for c in curves])
        for c, value in zip(curves, q):
            point = c.keyframe_points[i]
            point.co[1] = point.handle_left[1] = point.handle_right[1] = value
    for c in curves:
        c.update()


arm = import_model()
edit_action = next(a for a in ac.motion_actions(arm) if a.boneyard.name == edit_motion)
turn_bone_30_degrees(edit_action)
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode="POSE")  # exporting while posing: the add-on leaves and comes back
edited_out = export(label + "_edited.omf")
if bpy.context.mode != "POSE":
    bc.fail("the export did not return to pose mode (now %s)" % bpy.context.mode)
bpy.ops.object.mode_set(mode="OBJECT")
edited = xray_compare.dump(args.cli, edited_out)
edit = xray_compare.Comparison(original, edited)
bone_index = next(b["index"] for p in original["parts"] for b in p["bones"] if b["name"] == edit_bone)
if edit.changed_bones != {edit_motion: [bone_index]}:
    bc.fail("the 30 degree edit of %s in %s changed the rotation keys of %s" % (edit_bone, edit_motion, edit.changed_bones))
if edit.translation["worse"] or edit.field_differences:
    bc.fail("the 30 degree edit changed more: %s %s" % (edit.summary(), edit.field_differences[:5]))
old_m, new_m = motion_named(original, edit_motion), motion_named(edited, edit_motion)
old_keys, new_keys = old_m["bones"][bone_index]["rotation"], new_m["bones"][bone_index]["rotation"]
angles = [xray_compare.rotation_angle_degrees(old_keys[min(f, len(old_keys) - 1)], new_keys[min(f, len(new_keys) - 1)])
          for f in range(new_m["frames"])]
if max(abs(a - 30.0) for a in angles) > 0.05:
    bc.fail("the edited keys turned by %.3f..%.3f degrees, expected 30" % (min(angles), max(angles)))
raw_before, raw_after = ac.dump(args.cli, omf_source, raw=True), ac.dump(args.cli, edited_out, raw=True)
for old_motion, new_motion in zip(raw_before["motions"], raw_after["motions"]):
    if old_motion["name"] != edit_motion:
        if old_motion != new_motion:
            bc.fail("motion %s changed although only %s was edited" % (old_motion["name"], edit_motion))
        continue
    for index, (old_bone, new_bone) in enumerate(zip(old_motion["bones"], new_motion["bones"])):
        if index != bone_index and old_bone != new_bone:
            bc.fail("%s: bone %d's record changed although only %s was edited" % (edit_motion, index, edit_bone))
        if index == bone_index:
            kept = {k: (old_bone[k], new_bone.get(k)) for k in old_bone if k.startswith("translation")}
            if any(a != b for a, b in kept.values()):
                bc.fail("%s: the translation of %s changed with its rotation: %s" % (edit_motion, edit_bone, kept))
print("30 degree edit of %s in %s: only its %d rotation keys changed (turned %.3f..%.3f degrees); every other "
      "record, its translation and every other motion kept their stored bytes"
      % (edit_bone, edit_motion, len(angles), min(angles), max(angles)))

# 4b. The same edit with every motion through Blender's exporter (the option for edits the add-on
# cannot see, e.g. a changed rest pose): rotations within one step, translations within Blender's
# float noise (a 16-bit step can be smaller), params and marks the same.
through = export(label + "_through_blender.omf", through_blender=True)
full = xray_compare.Comparison(edited, xray_compare.dump(args.cli, through), own_steps=True)
if full.rotation["worse"] or full.worst_translation_m > 2e-6 or full.field_differences:
    bc.fail("every motion through Blender, against the exact export: %s %s" % (full.summary(), full.field_differences[:5]))
print("every motion through Blender, against the exact export: " + full.summary())

# 4c. The panel: a duplicated action added as a new motion (its params copied), a motion removed.
if label == "example":
    arm = import_model()
    bpy.context.view_layer.objects.active = arm
    drawn = ac.draw_panel(arm)
    for needed in [("list", "motions"), ("prop", "speed"), ("prop", "flag_fx"), ("prop", "bone_or_part"),
                   ("operator", "boneyard.mark_add"), ("prop", "start")]:
        if needed not in drawn:
            bc.fail("the panel does not draw %s: %s" % (needed, drawn))
    source = next(a for a in ac.motion_actions(arm) if a.boneyard.name == edit_motion)
    copy = source.copy()
    copy.name = edit_motion + "_copy"
    arm.animation_data.action = copy
    bpy.ops.boneyard.motion_add()
    motion_set = arm.data.boneyard.motion_sets[0]
    dropped = next(i for i, ref in enumerate(motion_set.motions) if ref.action.boneyard.name != edit_motion
                   and ref.action != copy)
    dropped_name = motion_set.motions[dropped].action.boneyard.name
    motion_set.active_motion = dropped
    bpy.ops.boneyard.motion_remove()
    listed = [ref.action.boneyard.name for ref in motion_set.motions]
    if listed != [edit_motion, copy.name]:
        bc.fail("after adding %s and removing %s the motions are %s" % (copy.name, dropped_name, listed))
    added = xray_compare.dump(args.cli, export(label + "_added.omf"))
    if [m["name"] for m in added["motions"]] != listed:
        bc.fail("exported motions %s, expected %s" % ([m["name"] for m in added["motions"]], listed))
    kept_raw = ac.dump(args.cli, args.out(label + "_added.omf"), raw=True)["motions"][0]
    if kept_raw != next(m for m in ac.dump(args.cli, omf_source, raw=True)["motions"] if m["name"] == edit_motion):
        bc.fail("%s changed when a motion was added and another removed" % edit_motion)
    new_motion, old_motion = added["motions"][1], motion_named(original, edit_motion)
    same = {k: (old_motion[k], new_motion[k]) for k in ("frames", "speed", "power", "accrue", "falloff", "flags", "marks")}
    if any(a != b for a, b in same.values()):
        bc.fail("the copied motion's frames and params differ from %s: %s" % (edit_motion, same))
    copied = xray_compare.Comparison({"motions": [dict(old_motion, name=copy.name)]}, {"motions": [new_motion]})
    if copied.rotation["worse"] or copied.translation["worse"]:
        bc.fail("the copied motion's keys: %s" % copied.summary())
    print("panel: %s added as a copy of %s (params kept, keys %s), %s removed; %s kept its bytes"
          % (copy.name, edit_motion, copied.summary().split(";")[0], dropped_name, edit_motion))

# 5. The template lives in the .blend: the sources may go.
arm = import_model()
blend = args.out(label + ".blend")
bpy.ops.wm.save_as_mainfile(filepath=blend)
os.remove(model)
os.remove(omf)
bpy.ops.wm.open_mainfile(filepath=blend)
moved = export(label + "_from_blend.omf")
if open(moved, "rb").read() != original_bytes:
    bc.fail("the export from the reopened .blend (sources deleted) differs from the original")
print("reopened .blend without the sources: export byte-identical (template kept in the .blend)")

# 6. Errors: boneyard's own message in Blender's report.
broken = args.out("broken.omf")
with open(broken, "wb") as f:
    f.write(original_bytes[:len(original_bytes) // 2])
ac.fresh(args.cli)
message = ac.expect_error(bpy.ops.import_scene.boneyard_xray, "error at byte", filepath=broken)
print("broken file: reported %s" % message.strip().splitlines()[0][:160])
bpy.context.preferences.addons[ac.MODULE].preferences.boneyard_path = args.out("no_such_boneyard")
message = ac.expect_error(bpy.ops.import_scene.boneyard_xray, "boneyard executable not found", filepath=omf_source)
print("wrong executable: reported %s" % message.strip().splitlines()[0][:160])
# Disabling the add-on unregisters everything it registered.
bpy.ops.preferences.addon_disable(module=ac.MODULE)
if hasattr(bpy.types, "BONEYARD_PT_model") or hasattr(bpy.types.Action, "boneyard"):
    bc.fail("disabling the add-on left its panel or properties registered")
print("addon xray %s: ok" % label)
