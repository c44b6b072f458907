"""Blender's own glTF add-on, driven with the settings that keep everything boneyard wrote.

Only the public operators `import_scene.gltf` and `export_scene.gltf` are used, and an option is
passed only when the installed glTF add-on has it, so that a Blender whose exporter gained or lost
options still works (see docs/blender-addon.md, "Blender versions")."""
import contextlib

import bpy

from .cli import BoneyardError


def _allow_numpy_bool():
    """Blender 3.4's glTF add-on uses numpy.bool, which numpy 1.24 (Debian 12's) removed."""
    try:
        import numpy
    except ImportError:
        return
    if "bool" not in vars(numpy):  # not getattr: numpy 1.24 warns when asked for numpy.bool
        numpy.bool = bool


def _supported(operator, options):
    try:
        names = {p.identifier for p in operator.get_rna_type().properties}
    except (AttributeError, KeyError, RuntimeError) as error:
        raise BoneyardError("Blender's glTF 2.0 add-on is not enabled (Preferences > Add-ons > "
                            "Import-Export: glTF 2.0 format)") from error
    return {k: v for k, v in options.items() if k in names}


def import_glb(path):
    """Blender's glTF import of `path`. bone_heuristic 'BLENDER' keeps each joint's frame as the
    file has it (the default 'TEMPERANCE' turns them), so keys stay in the engine's frames."""
    _allow_numpy_bool()
    options = _supported(bpy.ops.import_scene.gltf, {
        "filepath": path,
        "bone_heuristic": "BLENDER",
        "guess_original_bind_pose": True,
        "import_pack_images": True,  # images live in the .blend, not in our temporary folder
        "merge_vertices": False,
    })
    try:
        result = bpy.ops.import_scene.gltf(**options)
    except RuntimeError as error:
        raise BoneyardError("Blender's glTF import failed: %s" % error) from error
    if "FINISHED" not in result:
        raise BoneyardError("Blender's glTF import did not finish (%s)" % ", ".join(sorted(result)))


def export_glb(path, animations, nla_tracks=False):
    """Blender's glTF export of the selected objects with their custom properties (extras) and,
    with `animations`, actions whole: not clipped to the scene range, sampled at every frame; with
    `nla_tracks`, exactly one animation per NLA track (named after it) and no other action."""
    _allow_numpy_bool()
    options = _supported(bpy.ops.export_scene.gltf, {
        "filepath": path,
        "export_format": "GLB",
        "use_selection": True,
        "use_visible": False,
        "use_renderable": False,
        "use_active_collection": False,
        "export_extras": True,
        "export_yup": True,
        "export_apply": False,
        "export_skins": True,
        "export_all_influences": False,
        "export_def_bones": False,
        "export_animations": animations,
        "export_animation_mode": "NLA_TRACKS" if nla_tracks else "ACTIONS",  # glTF add-ons of Blender 4
        "export_frame_range": False,
        "export_force_sampling": True,
        "export_frame_step": 1,
        "export_nla_strips": True,
        "export_anim_single_armature": not nla_tracks,
        "export_optimize_animation_size": False,
        "export_reset_pose_bones": True,
        "export_current_frame": False,
        "will_save_settings": False,
    })
    try:
        result = bpy.ops.export_scene.gltf(**options)
    except RuntimeError as error:
        raise BoneyardError("Blender's glTF export failed: %s" % error) from error
    if "FINISHED" not in result:
        raise BoneyardError("Blender's glTF export did not finish (%s)" % ", ".join(sorted(result)))


@contextlib.contextmanager
def only_selected(context, objects):
    """Object mode, with exactly `objects` selected and visible (the first one active); the user's
    mode, selection, visibility and active object come back afterwards."""
    view_layer = context.view_layer
    active = view_layer.objects.active
    mode = context.mode
    if active is not None and mode != "OBJECT" and bpy.ops.object.mode_set.poll():
        bpy.ops.object.mode_set(mode="OBJECT")
    layer_objects = set(view_layer.objects)
    for obj in objects:
        if obj not in layer_objects:
            raise BoneyardError("%s is not in the current view layer (its collection is excluded)" % obj.name)
    selected = [o for o in view_layer.objects if o.select_get()]
    hidden = [o for o in objects if o.hide_get()]
    try:
        for obj in selected:
            obj.select_set(False)
        for obj in hidden:
            obj.hide_set(False)
        for obj in objects:
            obj.select_set(True)
        view_layer.objects.active = objects[0]
        yield
    finally:
        for obj in objects:
            obj.select_set(False)
        for obj in hidden:
            obj.hide_set(True)
        for obj in selected:
            obj.select_set(True)
        view_layer.objects.active = active
        if active is not None and mode.startswith(("POSE", "EDIT")) and bpy.ops.object.mode_set.poll():
            bpy.ops.object.mode_set(mode="POSE" if mode == "POSE" else "EDIT")
