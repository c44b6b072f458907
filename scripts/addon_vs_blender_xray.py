"""The boneyard add-on against blender-xray on the same work, in one Blender: zombi_1.ogf with its 69
motions in, the motions out as .omf (docs/performance.md "The Blender add-on").
Run by scripts/addon_vs_blender_xray.sh inside headless Blender:
    blender -b --factory-startup --python scripts/addon_vs_blender_xray.py -- ZIP CLI SAMPLES XRAY_DIR [RUNS] [PROFILE]
XRAY_DIR: a blender-xray checkout (the folder holding io_scene_xray); when it is absent its rows say why.
Every timing starts from a fresh factory scene and excludes Blender's start-up. The add-on's import
is split into boneyard's conversion (the subprocesses), Blender's glTF import call (its own code),
the add-on's motions made in that call's extension hook, and the add-on's own work (the rest).
PROFILE (a path): a cProfile of one add-on import is written there."""
import cProfile
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
import types

import bpy
import numpy

if "bool" not in vars(numpy):  # Blender 3.4's glTF add-on and Debian's numpy 1.24
    numpy.bool = bool

args = sys.argv[sys.argv.index("--") + 1:]
zip_path, cli_path, samples, xray_dir = args[:4]
runs = int(args[4]) if len(args) > 4 else 5
profile_path = args[5] if len(args) > 5 else ""
ogf = os.path.join(samples, "xray", "soc", "zombi_1.ogf")
omf = os.path.join(samples, "xray", "soc", "zombi_animation.omf")
if not (os.path.isfile(ogf) and os.path.isfile(omf)):
    raise SystemExit("SKIP: the samples are missing (%s, %s)" % (ogf, omf))
work = tempfile.mkdtemp(prefix="boneyard_vs_xray_")
zombi = os.path.join(work, "meshes", "monsters", "zombi")
os.makedirs(zombi)
model = os.path.join(zombi, "zombi_1.ogf")
shutil.copyfile(ogf, model)
motions = os.path.join(work, "meshes", "monsters", "zombi_animation.omf")  # its ref: monsters\zombi_animation
shutil.copyfile(omf, motions)

bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)

xray_skip = ""
if os.environ.get("BONEYARD_ONLY_ADDON"):
    xray_skip = "not run (BONEYARD_ONLY_ADDON is set)"
elif not os.path.isdir(os.path.join(xray_dir, "io_scene_xray")):
    xray_skip = "blender-xray not found at %s (a checkout of PavelBlend/blender-xray)" % xray_dir
else:
    sys.path.insert(0, xray_dir)
    # Its self-updater imports `requests` at module level; Debian's Blender Python has none.
    sys.modules.setdefault("requests", types.ModuleType("requests"))


def curves_and_keys():
    curves = [c for a in bpy.data.actions for c in a.fcurves]
    return len(curves), sum(len(c.keyframe_points) for c in curves)


def fresh(addon):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = 30  # X-Ray's rate, for both (the add-on would set it itself)
    if addon == "boneyard":
        bpy.ops.preferences.addon_enable(module="boneyard_io")
        bpy.context.preferences.addons["boneyard_io"].preferences.boneyard_path = cli_path
    else:
        import addon_utils
        addon_utils.enable("io_scene_xray", default_set=True)


def _cpu():
    """CPU seconds of Blender and of the processes it ran (boneyard): on a loaded machine the wall
    time stretches with the load, the CPU time is about what an idle machine's wall time would be."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(call, key):
    """Runs `call` (an operator), which must finish; records its wall and CPU time under `key`."""
    start, cpu = time.perf_counter(), _cpu()
    result = call()
    if result != {"FINISHED"}:
        raise SystemExit("failed: %s" % result)
    add(key + "_cpu", _cpu() - cpu)
    add(key, time.perf_counter() - start)


class Split:
    """Wraps the add-on's subprocess call and its glTF import call to time them apart."""

    def __init__(self):
        import boneyard_io.cli as cli
        import boneyard_io.gltf_bridge as bridge
        import boneyard_io.xray_ops as ops
        try:
            from boneyard_io.gltf_motions import ImportExtension as hooks
        except ImportError:  # an add-on from before the hook, for a side-by-side run
            hooks = types.SimpleNamespace(gather_import_animations=None)
        self.convert = self.gltf = self.code = self.motions = 0.0
        self.convert_cpu = self.gltf_cpu = self.code_cpu = self.motions_cpu = 0.0
        self.modules = (cli, bridge, ops, hooks)
        self.originals = (cli._call, bridge.import_glb, ops.import_xray, hooks.gather_import_animations)
        cli._call = self._wrap(cli._call, "convert")
        bridge.import_glb = self._wrap(bridge.import_glb, "gltf")
        ops.import_xray = self._wrap(ops.import_xray, "code")
        if hooks.gather_import_animations is not None:
            # The add-on's hook, called inside Blender's glTF import: its time is the add-on's.
            hooks.gather_import_animations = self._wrap(self.originals[3], "motions")

    def _wrap(self, function, slot):
        def wrapped(*a, **k):
            start, cpu = time.perf_counter(), _cpu()
            try:
                return function(*a, **k)
            finally:
                setattr(self, slot, getattr(self, slot) + time.perf_counter() - start)
                setattr(self, slot + "_cpu", getattr(self, slot + "_cpu") + _cpu() - cpu)
        return wrapped

    def restore(self):
        (self.modules[0]._call, self.modules[1].import_glb, self.modules[2].import_xray,
         self.modules[3].gather_import_animations) = self.originals


rows = {}


def add(key, value):
    rows.setdefault(key, []).append(value)


out_dir = os.path.join(work, "out")
os.makedirs(out_dir)
for run in range(runs):
    if not xray_skip:
        fresh("xray")
        timed(lambda: bpy.ops.xray_import.ogf(directory=zombi, files=[{"name": "zombi_1.ogf"}], import_motions=False),
              "xray_ogf")
        arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
        bpy.context.view_layer.objects.active = arm
        arm.select_set(True)
        timed(lambda: bpy.ops.xray_import.omf(directory=os.path.dirname(motions),
                                              files=[{"name": "zombi_animation.omf"}], import_motions=True,
                                              import_bone_parts=True, add_to_motion_list=True), "xray_omf")
        add("xray_actions", len(bpy.data.actions))
        add("xray_curves", curves_and_keys())
        xray_out = os.path.join(out_dir, "xray.omf")
        timed(lambda: bpy.ops.xray_export.omf_file(filepath=xray_out, export_mode="OVERWRITE"), "xray_export")
        add("xray_size", os.path.getsize(xray_out))
    fresh("boneyard")
    split = Split()
    profiler = cProfile.Profile() if profile_path and run == runs - 1 else None
    if profiler:
        profiler.enable()
    timed(lambda: bpy.ops.import_scene.boneyard_xray(filepath=model), "by_import")
    total, cpu = rows["by_import"][-1], rows["by_import_cpu"][-1]
    if profiler:
        profiler.disable()
        profiler.dump_stats(profile_path)
    split.restore()
    add("by_convert", split.convert)
    add("by_convert_cpu", split.convert_cpu)
    add("by_gltf", split.gltf - split.motions)
    add("by_gltf_cpu", split.gltf_cpu - split.motions_cpu)
    add("by_motions", split.motions)
    add("by_motions_cpu", split.motions_cpu)
    add("by_own", total - split.convert - split.gltf)
    add("by_own_cpu", cpu - split.convert_cpu - split.gltf_cpu)
    # Outside import_xray: the operator's call and Blender's undo step after it.
    add("by_operator_cpu", cpu - split.code_cpu)
    add("by_actions", len(bpy.data.actions))
    add("by_curves", curves_and_keys())
    by_out = os.path.join(out_dir, "boneyard.omf")
    split = Split()
    timed(lambda: bpy.ops.export_scene.boneyard_omf(filepath=by_out), "by_export")
    split.restore()
    add("by_export_convert", split.convert)
    add("by_export_convert_cpu", split.convert_cpu)
    add("by_identical", open(by_out, "rb").read() == open(omf, "rb").read())


def med(key):
    """The median wall time, and the median CPU time when there is one."""
    if key not in rows:
        return "-"
    if key + "_cpu" in rows:
        return "%.3f s | %.3f s" % (statistics.median(rows[key]), statistics.median(rows[key + "_cpu"]))
    return "%.3f s | " % statistics.median(rows[key])


def spread(key):
    return " / ".join("%.2f" % v for v in sorted(rows[key])) if key in rows else xray_skip


load = os.getloadavg()
print("zombi_1.ogf + zombi_animation.omf (41 bones, 69 motions), Blender %s, %d runs, load %.1f %.1f %.1f"
      % (bpy.app.version_string, runs, *load))
print("| step | median wall | median CPU | wall of each run |")
print("|---|---|---|---|")
if xray_skip:
    print("| blender-xray | skipped | | %s |" % xray_skip)
else:
    for suffix in ("", "_cpu"):
        rows["xray_import" + suffix] = [a + b for a, b in zip(rows["xray_ogf" + suffix], rows["xray_omf" + suffix])]
    print("| blender-xray import (.ogf, then .omf onto it; %d actions, %d F-curves, %d keys) | %s | %s |"
          % (rows["xray_actions"][0], *rows["xray_curves"][0], med("xray_import"), spread("xray_import")))
    print("|   its .ogf import | %s | %s |" % (med("xray_ogf"), spread("xray_ogf")))
    print("|   its .omf import | %s | %s |" % (med("xray_omf"), spread("xray_omf")))
    print("| blender-xray .omf export (%d bytes; the original has %d) | %s | %s |"
          % (rows["xray_size"][0], os.path.getsize(omf), med("xray_export"), spread("xray_export")))
print("| add-on import (%d actions, %d F-curves, %d keys) | %s | %s |"
      % (rows["by_actions"][0], *rows["by_curves"][0], med("by_import"), spread("by_import")))
print("|   boneyard's conversion (subprocess) | %s | %s |" % (med("by_convert"), spread("by_convert")))
print("|   Blender's glTF import (its own code) | %s | %s |" % (med("by_gltf"), spread("by_gltf")))
print("|   the add-on's motions, made in that import's hook | %s | %s |" % (med("by_motions"), spread("by_motions")))
print("|   the add-on's own work (outside the glTF import) | %s | %s |" % (med("by_own"), spread("by_own")))
print("|     of which Blender's operator call and undo step | | %.3f s | |"
      % statistics.median(rows["by_operator_cpu"]))
print("| add-on .omf export, unedited (byte-identical: %s) | %s | %s |"
      % (all(rows["by_identical"]), med("by_export"), spread("by_export")))
print("|   boneyard's conversion (subprocess) | %s | %s |" % (med("by_export_convert"), spread("by_export_convert")))
shutil.rmtree(work, ignore_errors=True)
