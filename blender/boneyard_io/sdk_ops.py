"""File > Import / Export "X-Ray object motion (.anm)": the SDK's object and camera motions.

Import: boneyard converts the .anm to a temporary .glb (one node moved as the engine moves the
object, a camera on it for a camera motion); Blender's glTF importer reads it at the motion's frame
rate; the object keeps the source and the .anm header (boneyard's glTF scene extras).
Export: the object's action through Blender's glTF exporter, the header put back into the scene
extras, and boneyard's glTF -> .anm (linear keys per frame, version 5)."""
import json
import os

import bpy
from bpy.props import BoolProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import cli, common, glb, gltf_bridge
from .cli import BoneyardError

SOURCE_KEY = "boneyard_anm_source"
HEADER_KEY = "boneyard_anm"  # the glTF scene extras' xray.anm (name, version, fps, frame range, camera)


def import_anm(context, filepath, camera=False):
    """Imports an .anm as one animated object (boneyard's glTF moves one node, a joint of a one-bone
    skin: Blender makes an armature of it; a camera motion's camera rides on it). Returns (object,
    common.Messages)."""
    source = common.absolute(filepath)
    common.refuse_other_game(source, "XRAY")
    exe = common.executable(context)
    messages = common.Messages()
    with common.scratch(context) as tmp:
        converted = os.path.join(tmp, os.path.splitext(os.path.basename(source))[0] + ".glb")
        arguments = ["convert", "--output=" + str(converted)] + (["--camera"] if camera else [])
        messages.warn(cli.run(exe, *arguments, "--", source))
        document, _ = glb.read(converted)
        header = (((document.get("scenes") or [{}])[0].get("extras") or {}).get("xray") or {}).get("anm") or {}
        fps = header.get("fps", 30)
        if isinstance(fps, (int, float)) and fps > 0 and float(fps).is_integer():
            old = common.set_scene_fps(context.scene, int(fps))
            if old is not None:
                messages.note("scene frame rate set from %g to %d fps (the motion's)" % (old, int(fps)))
        elif fps != 30:
            messages.warn("the motion's %g fps is not a whole frame rate: its keys fall between Blender's frames" % fps)
        before = set(bpy.data.objects)
        with common.scene_custom_properties_kept(context.scene, ["xray"]):
            gltf_bridge.import_glb(converted)
    added = [o for o in bpy.data.objects if o not in before]
    moved = [o for o in added if o.animation_data and o.animation_data.action]
    if len(moved) != 1:
        raise BoneyardError("the import of %s made %d animated objects, expected 1" % (os.path.basename(source),
                                                                                      len(moved)))
    obj = moved[0]
    obj[SOURCE_KEY] = source
    obj[HEADER_KEY] = json.dumps(header)
    return obj, messages


def export_anm(context, obj, filepath):
    """Writes the action of `obj` as an .anm. Returns common.Messages."""
    exe = common.executable(context)
    if not (obj.animation_data and obj.animation_data.action):
        raise BoneyardError("%s has no action to export as an .anm" % obj.name)
    messages = common.Messages()
    with common.scratch(context) as tmp:
        exported = os.path.join(tmp, "blender.glb")
        with gltf_bridge.only_selected(context, [obj]):
            gltf_bridge.export_glb(exported, animations=True)
        document, binary = glb.read(exported)
        if HEADER_KEY in obj.keys():
            scene = (document.get("scenes") or [{}])[0]
            extras = scene.get("extras") if isinstance(scene.get("extras"), dict) else {}
            extras["xray"] = {"anm": json.loads(obj[HEADER_KEY])}
            scene["extras"] = extras
        patched = os.path.join(tmp, "motion.glb")
        glb.write(patched, document, binary)
        messages.warn(cli.run(exe, "convert", "--output=" + str(common.absolute(filepath)), "--", patched))
    return messages


class IMPORT_SCENE_OT_boneyard_anm(bpy.types.Operator, ImportHelper):
    """Import an X-Ray object or camera motion (.anm, the SDK's) through boneyard"""
    bl_idname = "import_scene.boneyard_anm"
    bl_label = "Import X-Ray object motion (.anm)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".anm"
    filter_glob: StringProperty(default="*.anm", options={"HIDDEN"})
    camera: BoolProperty(name="Camera motion", default=False,
                         description="The motion moves a camera (default: when the file is under a folder "
                                     "named camera_effects)")

    def execute(self, context):
        try:
            obj, messages = import_anm(context, self.filepath, self.camera)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        camera = any(o.type == "CAMERA" for o in obj.children_recursive)
        self.report({"INFO"}, "%s: %s motion" % (obj.name, "camera" if camera else "object"))
        return {"FINISHED"}


class EXPORT_SCENE_OT_boneyard_anm(bpy.types.Operator, ExportHelper):
    """Export the active object's motion as an X-Ray .anm (the SDK's object or camera motion)"""
    bl_idname = "export_scene.boneyard_anm"
    bl_label = "Export X-Ray object motion (.anm)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".anm"
    filter_glob: StringProperty(default="*.anm", options={"HIDDEN"})

    @classmethod
    def poll(cls, context):
        obj = context.active_object
        return obj is not None and obj.animation_data is not None and obj.animation_data.action is not None

    def execute(self, context):
        try:
            messages = export_anm(context, context.active_object, self.filepath)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        self.report({"INFO"}, "wrote %s" % self.filepath)
        return {"FINISHED"}


CLASSES = (IMPORT_SCENE_OT_boneyard_anm, EXPORT_SCENE_OT_boneyard_anm)
