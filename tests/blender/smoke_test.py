"""The Blender harness works: the shipped example arm (3 bones, 2 motions) imports as an armature
with its bones and one action per motion, and Blender exports it back as a glb boneyard reads."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402

import bpy  # noqa: E402

args = bc.Args()
glb = args.out("wave_arm.glb")
bc.boneyard(args, "convert", os.path.join(args.source_dir, "examples", "wave_arm.ogf"), "-o", glb)
bc.reset(fps=30)
bc.import_gltf(glb)
arms = bc.armatures()
if len(arms) != 1:
    bc.fail("expected one armature, found %d" % len(arms))
bones = sorted(b.name for b in arms[0].data.bones)
if len(bones) != 3:
    bc.fail("expected 3 bones, found %s" % bones)
actions = sorted(a.name for a in bpy.data.actions)
if not any(a.startswith("wave") for a in actions) or not any(a.startswith("idle") for a in actions):
    bc.fail("expected actions for the motions wave and idle, found %s" % actions)
back = args.out("back.glb")
bc.export_glb(back)
code, out, err = bc.boneyard(args, "info", back)
if "skin of 3 joints" not in out or "2 animations" not in out or "31 frames" not in out:
    bc.fail("boneyard info of Blender's export: expected a 3-joint skin and 2 animations (wave: 31 frames):\n" + out)
print("blender smoke: ok (bones %s, actions %s)" % (bones, actions))
