"""The Blender add-on on OGF v3 models with embedded motions (docs/xray-ogf-v3.md), the hand-laid
fixtures of write_ogf_v3_fixtures, so it runs on a fresh clone:

* 0x1A key sets: the import makes the bones and one action per motion with its frame count; the
  motion set's template is the .omf `boneyard convert model.ogf -o x.omf` extracts; the unedited
  motions export from Blender as that .omf byte for byte.
* 0xE key sets (float translations, no exact .omf form): the same import, no template (a warning
  says so); the motions still export as an .omf that validates, on the model exported as a v4
  .ogf without a template (an OGF v3 model is never remembered as one).

ARGS: ZIP, the fixture writer.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
zip_path, writer = args.extra[0], args.extra[1]
fixtures = args.out("fixtures")
run = subprocess.run([writer, fixtures], capture_output=True, text=True)
if run.returncode != 0:
    bc.fail("fixture writer failed (%d): %s%s" % (run.returncode, run.stdout, run.stderr))
ac.install(zip_path)


def import_model(path):
    ac.fresh(args.cli)
    result = bpy.ops.import_scene.boneyard_xray(filepath=path)
    if result != {"FINISHED"}:
        bc.fail("%s: import %s" % (os.path.basename(path), result))
    return ac.armature()


for name, exact in (("v3_anim_8bit.ogf", True), ("v3_anim_floats.ogf", False)):
    path = os.path.join(fixtures, name)
    d = ac.dump(args.cli, path)
    arm = import_model(path)
    want_bones = sorted((b["name"], b["parent"]) for b in d["bones"])
    got_bones = sorted((b.name, b.parent.name if b.parent else "") for b in arm.data.bones)
    if got_bones != want_bones:
        bc.fail("%s: bones %s, expected %s" % (name, got_bones, want_bones))
    want = [(m["name"], m["frames"]) for m in d["motions"]["motions"]]
    got = [(a.boneyard.name, ac.frames_of(a)) for a in ac.motion_actions(arm)]
    if got != want:
        bc.fail("%s: motions %s, expected %s" % (name, got, want))
    if "ogf_template" in arm.data:
        bc.fail("%s: an OGF v3 model was kept as the template of the model's export" % name)
    template = bytes(arm.data.boneyard.motion_sets[0]["template"])
    out = args.out(name + ".omf")
    if exact:
        extracted = args.out(name + ".extracted.omf")
        bc.boneyard(args, "convert", path, "-o", extracted)
        if template != open(extracted, "rb").read():
            bc.fail("%s: the template is not the extracted .omf" % name)
        result = bpy.ops.export_scene.boneyard_omf(filepath=out)
        if result != {"FINISHED"}:
            bc.fail("%s: .omf export %s" % (name, result))
        if open(out, "rb").read() != template:
            bc.fail("%s: the unedited motions did not export as the extracted .omf" % name)
    else:
        if template:
            bc.fail("%s: 0xE motions got a template (%d bytes); they have no .omf form" % (name, len(template)))
        model = args.out(name + ".v4.ogf")
        result = bpy.ops.export_scene.boneyard_ogf(filepath=model)
        if result != {"FINISHED"}:
            bc.fail("%s: .ogf export %s" % (name, result))
        result = bpy.ops.export_scene.boneyard_omf(filepath=out)
        if result != {"FINISHED"}:
            bc.fail("%s: .omf export %s" % (name, result))
        bc.boneyard(args, "validate", model, out)
        if [m["name"] for m in ac.dump(args.cli, out)["motions"]] != [m for m, _ in want]:
            bc.fail("%s: the exported .omf holds other motions" % name)
    print("%s: %d bones, motions %s, %s" % (name, len(got_bones), got,
                                             "template = the extracted .omf, exported byte for byte" if exact
                                             else "no template, exported with a v4 model"))
print("the add-on imports and exports OGF v3 models with their motions")
