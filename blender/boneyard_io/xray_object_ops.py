"""File > Import / Export "X-Ray source model (.object)": the SDK's editable model.

Import: boneyard converts the .object to a temporary .glb (meshes per surface, every UV map and
weight, normals from the smoothing groups, the bones on their bind pose, everything else in the
extras) and Blender's glTF importer reads it (xray_ops.import_xray, as for an .ogf). The imported
.object is remembered on the armature (a skeletal object) or on each mesh (a static one) as the
custom property "object_template", and the glTF scene extras on the scene objects.
Export: Blender's glTF exporter writes the model to a temporary .glb; boneyard builds the .object
from it with the imported one as --template: meshes left as they were keep their bytes, edited
ones are rebuilt in the template's layout, bones, surfaces and everything else keep theirs, the
actions become the embedded motions (0x916; unedited ones keep their bytes) (docs/xray-object.md). Without a template (or with "Keep the original" off), a new object for the
chosen game."""
import os

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import cli, common, glb, gltf_bridge, props, xray_model_ops, xray_ops
from .cli import BoneyardError

TEMPLATE_PROPERTY = "object_template"
EXTRAS_PROPERTY = "object_scene_extras"


def _model_objects(context):
    """What the export writes: the armature of an imported skeletal object and its meshes, else the
    meshes that remember an .object (the selected ones first)."""
    try:
        arm = common.armature_for(context, "XRAY")
        return arm, xray_model_ops.model_objects(arm)
    except BoneyardError:
        pass
    meshes = [o for o in context.selected_objects if o.type == "MESH" and TEMPLATE_PROPERTY in o]
    if not meshes:
        meshes = [o for o in context.scene.objects if o.type == "MESH" and TEMPLATE_PROPERTY in o]
    if not meshes:
        raise BoneyardError("no imported X-Ray source model in the scene (import an .object first)")
    return meshes[0], meshes


def import_object(context, filepath, textures="", smoothing="AUTO"):
    """Imports an .object; returns common.Messages."""
    source = common.absolute(filepath)
    before = set(bpy.data.objects)
    extra = [] if smoothing == "AUTO" else ["--smoothing", smoothing.lower()]
    xscene = []
    arm, messages = xray_ops.import_xray(context, source, textures=textures, extra_arguments=extra, scene_extras=xscene)
    made = [o for o in bpy.data.objects if o not in before]
    holders = [arm] if arm is not None else [o for o in made if o.type == "MESH"]
    for o in holders:
        o[TEMPLATE_PROPERTY] = source
        if arm is None:  # a static object: no armature holds the scene extras
            o[EXTRAS_PROPERTY] = glb.dumps(xscene[0] if xscene else {})
    return messages


def _motion_extras(document):
    """Each exported action's motion header (name, params, flags, marks as the panel has them) in
    its animation's extras, as the motion export writes them; Blender's scale channels left out
    (X-Ray motions have none: boneyard would only warn)."""
    # Blender's glTF import names an action "<motion>_<model>", its export the animation after
    # the action or after the motion: both are looked up.
    actions = {a.boneyard.name: a for a in bpy.data.actions if a.boneyard.is_motion}
    actions.update({a.name: a for a in bpy.data.actions})
    for animation in document.get("animations", []):
        animation["channels"] = [c for c in animation.get("channels", []) if c.get("target", {}).get("path") != "scale"]
        action = actions.get(animation.get("name"))
        if action is not None and action.boneyard.is_motion:
            animation["extras"] = {"xray": props.motion_extras(action.boneyard, 0)}


def export_object(context, filepath, use_template=True, game="KEEP"):
    """Writes the imported model as an .object. Returns common.Messages."""
    exe = common.executable(context)
    holder, objects = _model_objects(context)
    output = common.absolute(filepath)
    template = holder.get(TEMPLATE_PROPERTY, "") if use_template else ""
    if template and not os.path.isfile(template):
        raise BoneyardError("the template %s (the .object this model was imported from) is gone: export without "
                            "'Keep the original' or import it again" % template)
    with common.scratch(context) as tmp:
        exported = os.path.join(tmp, "blender.glb")
        with gltf_bridge.only_selected(context, objects):
            # The actions go along: boneyard keeps each embedded motion that was not edited
            # (docs/xray-object.md section 5) and makes the others from the animation.
            gltf_bridge.export_glb(exported, animations=holder.type == "ARMATURE")
        document, binary = glb.read(exported)
        _motion_extras(document)
        scene = (document.get("scenes") or [{}])[0]
        extras = scene.get("extras") if isinstance(scene.get("extras"), dict) else {}
        stored = holder.data.boneyard.scene_extras if holder.type == "ARMATURE" else holder.get(EXTRAS_PROPERTY, "")
        extras["xray"] = glb.loads(stored or "{}")
        scene["extras"] = extras
        patched = os.path.join(tmp, "model.glb")
        glb.write(patched, document, binary)
        arguments = ["convert", "--output=" + str(output)]
        if template:
            arguments += ["--template=" + str(template)]
        if game != "KEEP":
            arguments += ["--game", game.lower()]
        arguments += ["--", patched]
        messages = common.Messages()
        messages.warn(cli.run(exe, *arguments))
        return messages


class IMPORT_SCENE_OT_boneyard_object(bpy.types.Operator, ImportHelper):
    """Import an X-Ray SDK source model (.object) through boneyard"""
    bl_idname = "import_scene.boneyard_object"
    bl_label = "Import X-Ray source model (.object)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".object"
    filter_glob: StringProperty(default="*.object", options={"HIDDEN"})
    textures: StringProperty(name="Textures folder", subtype="DIR_PATH",
                             description="Textures root: .dds (or .png) laid out like gamedata/textures (default: the "
                                         "'textures' folder beside the model's 'meshes' folder)")
    smoothing: EnumProperty(name="Smoothing groups", default="AUTO", items=(
        ("AUTO", "As the values say", "SoC ids or CS/CoP edge flags, told from the values"),
        ("SOC", "SoC ids", "Shadow of Chernobyl's SDK: faces with one id smooth together"),
        ("CSCOP", "CS/CoP edge flags", "Clear Sky's and Call of Pripyat's SDK: hard-edge bits per face")))

    def execute(self, context):
        try:
            messages = import_object(context, self.filepath, self.textures, self.smoothing)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        return {"FINISHED"}


class EXPORT_SCENE_OT_boneyard_object(bpy.types.Operator, ExportHelper):
    """Export a model imported from an .object back as an X-Ray SDK source model"""
    bl_idname = "export_scene.boneyard_object"
    bl_label = "Export X-Ray source model (.object)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".object"
    filter_glob: StringProperty(default="*.object", options={"HIDDEN"})
    use_template: BoolProperty(name="Keep the original", default=True,
                               description="Pass the imported .object as --template: bones, surfaces, refs and the "
                                           "bytes of unchanged meshes come back")
    game: EnumProperty(name="Game", default="KEEP", items=(
        ("KEEP", "As the original", "the template's smoothing style (CS/CoP without one)"),
        ("SOC", "Shadow of Chernobyl", "smoothing ids, refs in 0x924"),
        ("CS", "Clear Sky", "smoothing edge flags, refs in 0x926"),
        ("COP", "Call of Pripyat", "smoothing edge flags, refs in 0x926")))

    @classmethod
    def poll(cls, context):
        return any(TEMPLATE_PROPERTY in o for o in context.scene.objects)

    def invoke(self, context, event):
        try:
            holder, _ = _model_objects(context)
            if not self.filepath:
                self.filepath = holder.get(TEMPLATE_PROPERTY, "")
        except BoneyardError:
            pass
        return ExportHelper.invoke(self, context, event)

    def execute(self, context):
        try:
            messages = export_object(context, self.filepath, self.use_template, self.game)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        self.report({"INFO"}, "wrote %s" % self.filepath)
        return {"FINISHED"}


CLASSES = (IMPORT_SCENE_OT_boneyard_object, EXPORT_SCENE_OT_boneyard_object)
