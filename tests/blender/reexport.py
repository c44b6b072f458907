"""Blender's default glTF import in a 30 fps scene, then the whole-action export (the DCC round
trip of the docs' results table). ARGS after "--": IN.glb OUT.glb"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blender_common as bc  # noqa: E402

source, target = sys.argv[sys.argv.index("--") + 1:][:2]
bc.reset(fps=30)
bc.import_gltf(source)
bc.export_glb(target)
