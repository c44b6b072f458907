"""Helpers for the tests of the Blender add-on (blender/boneyard_io): install it from its zip into
a factory-startup Blender (run_blender.sh points Blender's user scripts at the scratch folder, so
the installation never touches the user's own Blender), enable it, point it at the CLI under test."""
import json
import os
import shutil
import subprocess
import types

import blender_common as bc

import bpy

MODULE = "boneyard_io"


def install(zip_path):
    """Blender's own add-on installer with the built zip, as a user does (Preferences > Add-ons >
    Install...)."""
    if not os.path.isfile(zip_path):
        bc.fail("the add-on zip %s is missing (cmake --build builds it)" % zip_path)
    import numpy
    if vars(numpy).get("bool") is bool:  # blender_common's patch: the add-on must bring its own
        del numpy.bool
    result = bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
    if result != {"FINISHED"}:
        bc.fail("addon_install of %s: %s" % (zip_path, result))
    installed = os.path.join(bpy.utils.user_resource("SCRIPTS", path="addons"), MODULE, "__init__.py")
    if not os.path.isfile(installed):
        bc.fail("the add-on was not installed at %s" % installed)


def enable(cli):
    """Enables the installed add-on and sets its boneyard path (Preferences > Add-ons > boneyard I/O)."""
    result = bpy.ops.preferences.addon_enable(module=MODULE)
    if result != {"FINISHED"}:
        bc.fail("addon_enable: %s" % result)
    bpy.context.preferences.addons[MODULE].preferences.boneyard_path = cli


def fresh(cli):
    """An empty factory scene (24 fps, Blender's default) with the add-on enabled again (factory
    settings disable add-ons)."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    enable(cli)


def dump(cli, path, raw=False):
    run = subprocess.run([cli, "dump", *(["--raw"] if raw else []), path], capture_output=True, text=True)
    if run.returncode != 0:
        bc.fail("boneyard dump %s: exit %d\n%s" % (path, run.returncode, run.stderr))
    return json.loads(run.stdout)


def game_tree(args, ogf, omf, root):
    """Lays out `ogf` and `omf` as the game does: the model under root/meshes/models/ and the
    motion file where the model's first motion ref names it. Returns the model's new path."""
    refs = (dump(args.cli, ogf).get("motion_refs") or {}).get("refs") or []
    if not refs:
        bc.fail("%s has no motion refs" % ogf)
    meshes = os.path.join(root, "meshes")
    target = os.path.join(meshes, *refs[0].replace("\\", "/").split("/")) + ".omf"
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(omf, target)
    model = os.path.join(meshes, "models", os.path.basename(ogf))
    os.makedirs(os.path.dirname(model), exist_ok=True)
    shutil.copyfile(ogf, model)
    return model, target


def armature():
    arms = bc.armatures()
    if len(arms) != 1:
        bc.fail("expected one armature, found %d" % len(arms))
    return arms[0]


def motion_actions(arm, set_index=0):
    return [ref.action for ref in arm.data.boneyard.motion_sets[set_index].motions]


def frames_of(action):
    start, end = action.frame_range
    return int(round(end - start)) + 1


def expect_error(operator, needle, **options):
    """Runs `operator`, which must fail with a report holding `needle` (Blender turns an
    operator's ERROR report into a RuntimeError when called from Python)."""
    try:
        result = operator(**options)
    except RuntimeError as error:
        if needle not in str(error):
            bc.fail("expected an error with %r, got: %s" % (needle, error))
        return str(error)
    bc.fail("expected an error with %r, the operator returned %s" % (needle, result))


class _Layout:
    """Stands in for Blender's UI layout (there is none in background mode): records what a panel
    draws and fails on a property or operator that does not exist."""

    def __init__(self, log):
        self.log = log

    def _child(self, *args, **kwargs):
        return _Layout(self.log)

    row = column = box = grid_flow = _child

    def separator(self, *args, **kwargs):
        pass

    def label(self, text="", **kwargs):
        self.log.append(("label", text))

    def prop(self, data, attribute, **kwargs):
        if attribute not in data.bl_rna.properties:
            bc.fail("the panel draws %s.%s, which does not exist" % (type(data).__name__, attribute))
        self.log.append(("prop", attribute))

    def operator(self, idname, **kwargs):
        module, name = idname.split(".")
        getattr(getattr(bpy.ops, module), name).get_rna_type()  # raises for an unknown operator
        self.log.append(("operator", idname))
        return types.SimpleNamespace()

    def template_list(self, list_type, list_id, data, prop, active_data, active_prop, **kwargs):
        if list_type not in dir(bpy.types) or prop not in data.bl_rna.properties or \
                active_prop not in active_data.bl_rna.properties:
            bc.fail("the panel's list %s over %s.%s does not exist" % (list_type, type(data).__name__, prop))
        self.log.append(("list", prop))


def draw_panel(arm):
    """Draws the add-on's panel for `arm` into a recording layout; returns what it drew."""
    import boneyard_io.panel as panel  # the installed add-on
    log = []
    context = types.SimpleNamespace(object=arm)
    if not panel.BONEYARD_PT_model.poll(context):
        bc.fail("the boneyard panel does not show for %s" % arm.name)
    fake = types.SimpleNamespace(layout=_Layout(log), _draw_motion=panel.BONEYARD_PT_model._draw_motion)
    panel.BONEYARD_PT_model.draw(fake, context)
    return log
