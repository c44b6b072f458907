"""The release's Linux add-on zip (scripts/package.sh: boneyard_io-VERSION-linux-x64.zip, the
executable in boneyard_io/bin/) installed into a fresh Blender user folder, with no boneyard on PATH
and the preference left empty, as a user who only downloads the zip has it: the add-on must run its
own copy. It imports a sample model with its motions (the shipped example when the samples are
absent), and bl_info's version is the CMake project's.

ARGS: ZIP VERSION.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import addon_common as ac  # noqa: E402
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
zip_path, version = args.extra[0], args.extra[1]
if not os.path.isfile(zip_path):
    bc.skip("no release zip %s (scripts/package.sh makes it)" % zip_path)
if shutil.which("boneyard") is not None:
    bc.fail("a boneyard on PATH (%s) would hide which executable the add-on runs" % shutil.which("boneyard"))

ac.install(zip_path)
result = bpy.ops.preferences.addon_enable(module=ac.MODULE)
if result != {"FINISHED"}:
    bc.fail("addon_enable: %s" % result)
addon = sys.modules[ac.MODULE]
if ".".join(map(str, addon.bl_info["version"])) != version:
    bc.fail("bl_info version %s, the CMake project's is %s" % (addon.bl_info["version"], version))
if bpy.context.preferences.addons[ac.MODULE].preferences.boneyard_path:
    bc.fail("the boneyard path preference is set in a fresh user folder")
found = addon.cli.find_executable("")
bin_dir = os.path.join(bpy.utils.user_resource("SCRIPTS", path="addons"), ac.MODULE, "bin")
if os.path.dirname(found) != bin_dir:
    bc.fail("the add-on runs %s, not its own copy in %s" % (found, bin_dir))

ogf, omf = args.sample("cop/medkit_exo_hud.ogf"), args.sample("cop/medkit_exo_anims.omf")
if not (ogf and omf):
    ogf = os.path.join(args.source_dir, "examples", "wave_arm.ogf")
    omf = os.path.join(args.source_dir, "examples", "wave.omf")
model, _ = ac.game_tree(args, ogf, omf, args.out("game"))
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.preferences.addon_enable(module=ac.MODULE)
result = bpy.ops.import_scene.boneyard_xray(filepath=model)
if result != {"FINISHED"}:
    bc.fail("import %s: %s" % (model, result))
arm = ac.armature()
actions = ac.motion_actions(arm)
if not actions:
    bc.fail("%s: no motions imported" % model)
print("release add-on zip: its own %s ran; %s imported with %d bones and %d motions"
      % (os.path.relpath(found, bin_dir), os.path.basename(model), len(arm.data.bones), len(actions)))
