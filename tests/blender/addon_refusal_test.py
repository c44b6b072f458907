"""Each import operator of the add-on refuses the other game's files (issue 28, scope 6): boneyard
converts them all, so without the check an .ogf came in through File > Import MGS2 as an armature
tagged MGS2. The MGS2 operator refuses an .ogf and an .omf, the X-Ray operator a .kms, an .evm and
a .cmdl: the report names the file and the operator to use, and nothing is added to the scene.

ARGS: ZIP, the fixture writer (tests/blender/write_mgs2_blender_fixtures.cpp).
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
zip_path, writer = args.extra[:2]
subprocess.run([writer, args.scratch], check=True)
ac.install(zip_path)
ogf, omf = args.out("wave_arm.ogf"), args.out("wave.omf")
shutil.copyfile(os.path.join(args.source_dir, "examples", "wave_arm.ogf"), ogf)
shutil.copyfile(os.path.join(args.source_dir, "examples", "wave.omf"), omf)
cmdl = args.out("branching.cmdl")
with open(cmdl, "wb") as f:  # refused by its name, before anything reads it
    f.write(b"\0" * 16)

CASES = [
    (bpy.ops.import_scene.boneyard_mgs2, ogf, "X-Ray model/motions (.ogf/.omf/.skls)"),
    (bpy.ops.import_scene.boneyard_mgs2, omf, "X-Ray model/motions (.ogf/.omf/.skls)"),
    (bpy.ops.import_scene.boneyard_xray, args.out("branching.kms"), "MGS2 model (.kms/.evm)"),
    (bpy.ops.import_scene.boneyard_xray, args.out("branching.evm"), "MGS2 model (.kms/.evm)"),
    (bpy.ops.import_scene.boneyard_xray, cmdl, "MGS2 model (.kms/.evm)"),
]
for operator, path, use in CASES:
    if not os.path.isfile(path):
        bc.fail("the fixture %s is missing" % path)
    ac.fresh(args.cli)
    message = ac.expect_error(operator, "File > Import > " + use, filepath=path)
    if os.path.basename(path) not in message:
        bc.fail("the refusal of %s does not name the file: %s" % (path, message))
    if len(bpy.data.objects) or len(bpy.data.actions):
        bc.fail("%s was refused but the scene holds %d objects" % (path, len(bpy.data.objects)))
    print("%s refused %s: %s" % (operator.idname(), os.path.basename(path), message.strip().splitlines()[-1]))

# The right operator still imports the same files.
ac.fresh(args.cli)
if bpy.ops.import_scene.boneyard_xray(filepath=ogf) != {"FINISHED"} or ac.armature().data.boneyard.game != "XRAY":
    bc.fail("the X-Ray operator did not import %s" % ogf)
ac.fresh(args.cli)
if bpy.ops.import_scene.boneyard_mgs2(filepath=args.out("branching.evm")) != {"FINISHED"} \
        or ac.armature().data.boneyard.game != "MGS2":
    bc.fail("the MGS2 operator did not import branching.evm")
print("addon refusals: ok")
