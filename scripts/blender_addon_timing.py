"""Times the Blender add-on on the zombi sample (zombi_1.ogf and its 69 motions), for docs/performance.md.
Run by scripts/blender_addon_timing.sh inside headless Blender:
    blender -b --factory-startup --python scripts/blender_addon_timing.py -- ZIP CLI SAMPLES [IMPORTS] [EXPORTS]
Prints the median wall time of File > Import X-Ray (boneyard's conversion + Blender's glTF import,
each from a fresh factory scene) and of File > Export X-Ray motions: unedited (byte-identical),
with one motion edited, and with every motion through Blender's glTF exporter."""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import bpy

zip_path, cli, samples = sys.argv[sys.argv.index("--") + 1:][:3]
rest = sys.argv[sys.argv.index("--") + 4:]
imports = int(rest[0]) if rest else 5
exports = int(rest[1]) if len(rest) > 1 else 2
ogf = os.path.join(samples, "xray", "soc", "zombi_1.ogf")
omf = os.path.join(samples, "xray", "soc", "zombi_animation.omf")
work = tempfile.mkdtemp(prefix="boneyard_timing_")
meshes = os.path.join(work, "meshes")
os.makedirs(os.path.join(meshes, "monsters", "zombi"))
shutil.copyfile(ogf, os.path.join(meshes, "monsters", "zombi", "zombi_1.ogf"))
shutil.copyfile(omf, os.path.join(meshes, "monsters", "zombi_animation.omf"))  # its ref: monsters\zombi_animation
model = os.path.join(meshes, "monsters", "zombi", "zombi_1.ogf")

bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)


def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.preferences.addon_enable(module="boneyard_io")
    bpy.context.preferences.addons["boneyard_io"].preferences.boneyard_path = cli


def timed(call):
    start = time.perf_counter()
    result = call()
    if result != {"FINISHED"}:
        raise SystemExit("failed: %s" % result)
    return time.perf_counter() - start


convert_times = []
for _ in range(imports):
    start = time.perf_counter()
    subprocess.run([cli, "convert", model, "-o", os.path.join(work, "z.glb")], check=True, capture_output=True)
    convert_times.append(time.perf_counter() - start)
import_times = []
for _ in range(imports):
    fresh()
    import_times.append(timed(lambda: bpy.ops.import_scene.boneyard_xray(filepath=model)))
export_times = []
out = os.path.join(work, "out.omf")
for _ in range(exports):
    export_times.append(timed(lambda: bpy.ops.export_scene.boneyard_omf(filepath=out)))
identical = open(out, "rb").read() == open(omf, "rb").read()

# One motion edited: a key of one bone's rotation moved, so that motion goes through Blender.
arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
action = arm.data.boneyard.motion_sets[0].motions[0].action
curve = next(c for c in action.fcurves if c.data_path.endswith("rotation_quaternion"))
curve.keyframe_points[0].co[1] += 0.05
curve.update()
edited_times = [timed(lambda: bpy.ops.export_scene.boneyard_omf(filepath=out)) for _ in range(exports)]
full_times = [timed(lambda: bpy.ops.export_scene.boneyard_omf(filepath=out, through_blender=True))]
print("zombi_1.ogf + zombi_animation.omf (41 bones, 69 motions), Blender %s" % bpy.app.version_string)
print("  boneyard convert .ogf -> .glb alone: median %.3f s of %d" % (statistics.median(convert_times), imports))
print("  add-on import (convert + Blender glTF import): median %.2f s of %d (%s)"
      % (statistics.median(import_times), imports, ", ".join("%.2f" % t for t in import_times)))
print("  add-on export, unedited: median %.2f s of %d (%s); byte-identical: %s"
      % (statistics.median(export_times), exports, ", ".join("%.2f" % t for t in export_times), identical))
print("  add-on export, one motion edited (that one through Blender's glTF export): median %.2f s of %d (%s)"
      % (statistics.median(edited_times), exports, ", ".join("%.2f" % t for t in edited_times)))
print("  add-on export, every motion through Blender's glTF export: %.1f s" % full_times[0])
shutil.rmtree(work, ignore_errors=True)
