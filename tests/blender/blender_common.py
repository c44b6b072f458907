"""Helpers for boneyard's tests inside headless Blender (tests/blender/run_blender.sh).

Facts behind them: ../shared/docs/blender-notes.md (numpy.bool, 30 fps scenes, the export
settings that write every action whole).
"""
import numpy

numpy.bool = bool  # Debian's numpy 1.24 lacks np.bool, which Blender 3.4's glTF add-on uses

import os
import subprocess
import sys
import types

import bpy


class Args:
    """The arguments run_blender.sh passes after "--"."""

    def __init__(self):
        argv = sys.argv[sys.argv.index("--") + 1:]
        self.cli, self.source_dir, self.samples_dir, self.scratch = argv[:4]
        self.extra = argv[4:]

    def sample(self, relative):
        """Path of a real sample under samples/xray, or None when the samples are absent."""
        path = os.path.join(self.samples_dir, "xray", relative)
        return path if os.path.isfile(path) else None

    def out(self, name):
        return os.path.join(self.scratch, name)


def skip(reason):
    """Ends the test as skipped (ctest SKIP_RETURN_CODE 77)."""
    print("SKIP: " + reason)
    sys.stdout.flush()
    os._exit(77)


def fail(message):
    raise AssertionError(message)


def boneyard(args, *command, expect=0):
    """Runs the boneyard CLI; returns (exit code, stdout, stderr). Fails on an unexpected code."""
    run = subprocess.run([args.cli, *command], capture_output=True, text=True)
    if expect is not None and run.returncode != expect:
        fail("boneyard %s: exit %d (expected %d)\n%s%s" % (" ".join(command), run.returncode, expect,
                                                         run.stdout, run.stderr))
    return run.returncode, run.stdout, run.stderr


def reset(fps=30):
    """An empty factory scene at `fps` (30 keeps X-Ray keys on Blender frames)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = fps
    bpy.context.scene.render.fps_base = 1.0


def blender_xray(args):
    """blender-xray's checkout, the folder holding io_scene_xray/ under the peers folder (the last
    ARG, CMake BONEYARD_PEERS_DIR), put on sys.path; the test is skipped without it."""
    parent = os.path.join(args.extra[0], "blender-xray")
    if not os.path.isdir(os.path.join(parent, "io_scene_xray")):
        skip("blender-xray checkout not found at %s (io_scene_xray/)" % parent)
    sys.modules.setdefault("requests", types.ModuleType("requests"))  # its updater imports it
    sys.path.insert(0, parent)
    return parent


def reset_with_blender_xray(parent):
    """A factory scene (which disables add-ons) with blender-xray enabled again."""
    import addon_utils
    reset()
    if addon_utils.enable("io_scene_xray", default_set=True, handle_error=None) is None:
        fail("blender-xray could not be enabled from %s" % parent)


def import_gltf(path, **settings):
    """Blender's glTF import with its default settings unless `settings` say otherwise."""
    result = bpy.ops.import_scene.gltf(filepath=path, **settings)
    if result != {"FINISHED"}:
        fail("glTF import of %s: %s" % (path, result))


def export_glb(path, **settings):
    """Blender's glTF export with the settings that write every action whole (blender-notes.md)."""
    options = dict(export_format="GLB", export_animations=True, export_frame_range=False,
                   export_force_sampling=True, export_nla_strips=True, export_anim_single_armature=True,
                   export_extras=True)
    options.update(settings)
    result = bpy.ops.export_scene.gltf(filepath=path, **options)
    if result != {"FINISHED"}:
        fail("glTF export to %s: %s" % (path, result))


def armatures():
    return [o for o in bpy.data.objects if o.type == "ARMATURE"]


def action_for(animation):
    """The action Blender's glTF import made of `animation`: its name, or "<name>_<armature>"."""
    names = {animation} | {"%s_%s" % (animation, a.name) for a in armatures()}
    for action in bpy.data.actions:
        if action.name in names:
            return action
    fail("no action for animation %s among %s" % (animation, [a.name for a in bpy.data.actions]))
