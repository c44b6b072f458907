"""boneyard I/O: S.T.A.L.K.E.R. (X-Ray .ogf/.omf) and Metal Gear Solid 2 (.kms/.evm) files in
Blender, through the boneyard executable and Blender's own glTF add-on (docs/blender-addon.md)."""

bl_info = {
    "name": "boneyard I/O (X-Ray .ogf/.omf/.object/.skls/.anm, MGS2 .kms/.evm)",
    "author": "the boneyard project",
    "version": (0, 1, 0),
    "blender": (3, 0, 0),
    "location": "File > Import / Export; Properties > Object Data > boneyard",
    "description": "Import X-Ray models, motions and SDK source models and MGS2 models, export .omf, .ogf, "
                   ".object and .kms/.evm, exactly, with the boneyard executable",
    "category": "Import-Export",
}

if "bpy" in locals():  # F8 / script reload: reload the submodules too
    import importlib
    for _name in ("cli", "glb", "gltf_bridge", "gltf_motions", "common", "props", "fingerprint", "xray_export",
                  "xray_ops", "xray_model_ops", "xray_object_ops", "sdk_ops", "mgs2_ops", "panel"):
        if _name in locals():
            importlib.reload(locals()[_name])

import bpy  # noqa: E402
from bpy.props import BoolProperty, StringProperty  # noqa: E402

from . import (cli, common, fingerprint, glb, gltf_bridge, gltf_motions, mgs2_ops, panel, props,  # noqa: E402,F401
               sdk_ops, xray_export, xray_model_ops, xray_object_ops, xray_ops)

# Blender's glTF importer looks for this name in every enabled add-on: its hook makes an X-Ray
# import's motions (gltf_motions.py) and does nothing in any other glTF import.
glTF2ImportUserExtension = gltf_motions.ImportExtension


class BoneyardPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    boneyard_path: StringProperty(
        name="boneyard executable", subtype="FILE_PATH",
        description="Path of the boneyard executable (empty: the one shipped in the add-on, else `boneyard` on PATH)")
    keep_temporary: BoolProperty(
        name="Keep temporary files", default=False,
        description="Keep the .glb files passed between boneyard and Blender (their folder is printed)")

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "boneyard_path")
        try:
            layout.label(text="using " + cli.find_executable(self.boneyard_path), icon="CHECKMARK")
        except cli.BoneyardError as error:
            layout.label(text=str(error), icon="ERROR")
        layout.prop(self, "keep_temporary")


def menu_import(self, context):
    self.layout.operator(xray_ops.IMPORT_SCENE_OT_boneyard_xray.bl_idname, text="X-Ray model/motions (.ogf/.omf/.skls)")
    self.layout.operator(xray_object_ops.IMPORT_SCENE_OT_boneyard_object.bl_idname, text="X-Ray source model (.object)")
    self.layout.operator(sdk_ops.IMPORT_SCENE_OT_boneyard_anm.bl_idname, text="X-Ray object motion (.anm)")
    self.layout.operator(mgs2_ops.IMPORT_SCENE_OT_boneyard_mgs2.bl_idname, text="MGS2 model (.kms/.evm)")


def menu_export(self, context):
    self.layout.operator(xray_ops.EXPORT_SCENE_OT_boneyard_omf.bl_idname, text="X-Ray motions (.omf)")
    self.layout.operator(xray_ops.EXPORT_SCENE_OT_boneyard_skls.bl_idname, text="X-Ray SDK motions (.skls/.skl)")
    self.layout.operator(sdk_ops.EXPORT_SCENE_OT_boneyard_anm.bl_idname, text="X-Ray object motion (.anm)")
    self.layout.operator(xray_model_ops.EXPORT_SCENE_OT_boneyard_ogf.bl_idname, text="X-Ray model (.ogf)")
    self.layout.operator(xray_object_ops.EXPORT_SCENE_OT_boneyard_object.bl_idname, text="X-Ray source model (.object)")
    self.layout.operator(mgs2_ops.EXPORT_SCENE_OT_boneyard_mgs2.bl_idname, text="MGS2 model (.kms/.evm)")


CLASSES = (BoneyardPreferences,) + xray_ops.CLASSES + sdk_ops.CLASSES + xray_model_ops.CLASSES + \
    xray_object_ops.CLASSES + mgs2_ops.CLASSES + panel.CLASSES


def register():
    props.register()
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
    props.unregister()
