"""boneyard against blender-xray on the SDK's motions, side by side in one Blender (run by
scripts/sdk_vs_blender_xray.sh; docs/performance.md "The SDK's motions: conversions").

* .skls -> .omf: the largest real .skls (the mod's dev_hand_detector_1_hud_animation.skls, 42 hand
  bones) for the hands model: blender-xray imports the .skls onto the model it imported (parts from
  the hands' .omf, imported before without motions) and exports an .omf; boneyard runs
  `convert X.skls -o X.omf --skeleton hands.ogf --parts hand_unarmed.omf`.
* .omf -> .skls: zombi_animation.omf (69 motions) and the benchmark .omf (its motions repeated to
  101 MiB, `bench_omf --make`) on zombi_1.ogf: blender-xray imports the .omf onto the model and
  exports the actions as an .skls; boneyard runs `convert X.omf -o X.skls`.

Only the conversion is timed: for blender-xray its import + export operators (the model's import
before is set-up), for boneyard the CLI run, as wall time and CPU time (Blender's and its children's).
Usage (inside Blender): -- CLI SAMPLES BLENDER_XRAY WORK RUNS BIG_OMF HANDS_OGF [BIG_RUNS]"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
import types

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
cli, samples, xray_dir, work, runs, big_omf, hands_ogf = argv[:7]
runs = int(runs)
big_runs = int(argv[7]) if len(argv) > 7 else 1
sys.path.insert(0, xray_dir)
sys.modules.setdefault("requests", types.ModuleType("requests"))  # blender-xray's updater imports it
import addon_utils  # noqa: E402

xray = os.path.join(samples, "xray")
skls = os.path.join(xray, "sdk", "mod", "dev_hand_detector_1_hud_animation.skls")
hand_parts = os.path.join(xray, "cop", "hand_unarmed.omf")
zombi_ogf = os.path.join(xray, "soc", "zombi_1.ogf")
zombi_omf = os.path.join(xray, "soc", "zombi_animation.omf")
for path in (skls, hand_parts, zombi_ogf, zombi_omf, big_omf, hands_ogf):
    if not os.path.isfile(path):
        raise SystemExit("SKIP: %s not found" % path)
if not os.path.isdir(os.path.join(xray_dir, "io_scene_xray")):
    raise SystemExit("SKIP: blender-xray not found at %s" % xray_dir)

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
rows = {}


def cpu():
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def add(key, wall, seconds):
    rows.setdefault(key, []).append((wall, seconds))


def fresh():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = 30
    addon_utils.enable("io_scene_xray", default_set=True)


def ok(result, what):
    if result != {"FINISHED"}:
        raise SystemExit("failed: %s: %s" % (what, result))


def model(ogf):
    ok(bpy.ops.xray_import.ogf(directory=os.path.dirname(ogf), files=[{"name": os.path.basename(ogf)}],
                               import_motions=False), "import " + ogf)
    arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)
    return arm


def omf_import(path, motions=True):
    return bpy.ops.xray_import.omf(directory=os.path.dirname(path), files=[{"name": os.path.basename(path)}],
                                   import_motions=motions, import_bone_parts=True, add_to_motion_list=True)


def boneyard(key, *command):
    start, c = time.perf_counter(), cpu()
    subprocess.run([cli, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    add(key, time.perf_counter() - start, cpu() - c)


def xray_skls_to_omf(out):
    fresh()
    model(hands_ogf)
    ok(omf_import(hand_parts, motions=False), "parts")
    start, c = time.perf_counter(), cpu()
    ok(bpy.ops.xray_import.skls(directory=os.path.dirname(skls), files=[{"name": os.path.basename(skls)}],
                                add_to_motion_list=True), "import .skls")
    ok(bpy.ops.xray_export.omf_file(filepath=out, export_mode="OVERWRITE"), "export .omf")
    add("xray skls>omf", time.perf_counter() - start, cpu() - c)
    rows["xray skls>omf size"] = [(os.path.getsize(out), 0)]


def xray_omf_to_skls(key, omf, out_dir):
    fresh()
    model(zombi_ogf)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    start, c = time.perf_counter(), cpu()
    ok(omf_import(omf), "import .omf")
    ok(bpy.ops.xray_export.skls(directory=out_dir), "export .skls")
    add(key, time.perf_counter() - start, cpu() - c)
    written = [f for f in os.listdir(out_dir) if f.endswith(".skls")]
    rows[key + " size"] = [(os.path.getsize(os.path.join(out_dir, written[0])), 0)]


for run in range(runs):
    xray_skls_to_omf(os.path.join(work, "xray_hands.omf"))
    boneyard("boneyard skls>omf", "convert", skls, "-o", os.path.join(work, "hands.omf"), "--skeleton", hands_ogf,
             "--parts", hand_parts)
    xray_omf_to_skls("xray zombi omf>skls", zombi_omf, os.path.join(work, "xray_zombi"))
    boneyard("boneyard zombi omf>skls", "convert", zombi_omf, "-o", os.path.join(work, "zombi.skls"))
    for f in ("hands.omf", "zombi.skls"):
        os.remove(os.path.join(work, f))
for run in range(big_runs):
    xray_omf_to_skls("xray big omf>skls", big_omf, os.path.join(work, "xray_big"))
    bpy.ops.wm.read_factory_settings(use_empty=True)  # frees the actions before boneyard's runs
for run in range(max(runs, big_runs)):
    boneyard("boneyard big omf>skls", "convert", big_omf, "-o", os.path.join(work, "big.skls"))
    os.remove(os.path.join(work, "big.skls"))

print("| what | runs | median wall | median CPU |")
print("|---|---:|---:|---:|")
for key, values in rows.items():
    if key.endswith("size"):
        print("| %s | | %d bytes | |" % (key, values[0][0]))
        continue
    print("| %s | %d | %.3f s | %.3f s |" % (key, len(values), statistics.median(v[0] for v in values),
                                            statistics.median(v[1] for v in values)))
for what in ("skls>omf", "zombi omf>skls", "big omf>skls"):
    a, b = rows.get("xray " + what), rows.get("boneyard " + what)
    if a and b:
        print("ratio %s: wall %.1fx, CPU %.1fx" % (what, statistics.median(v[0] for v in a) / statistics.median(v[0] for v in b),
                                                  statistics.median(v[1] for v in a) / statistics.median(v[1] for v in b)))
