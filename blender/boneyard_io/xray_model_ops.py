"""File > Export "X-Ray model (.ogf)".

Blender's glTF exporter writes the imported armature and the meshes it deforms to a temporary
.glb (with their custom properties as extras, and the import's scene extras put back); boneyard
builds the .ogf from it with the imported .ogf as --template: the skeleton, IK data, motion refs
and user data come from the template, meshes left as they were keep their bytes, edited and new
ones are written in the game's layout (docs/ogf-write.md). The template is the file the model
was imported from, remembered on the armature data as the custom property "ogf_template"."""
import os

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper

from . import cli, common, glb, gltf_bridge
from .cli import BoneyardError

TEMPLATE_PROPERTY = "ogf_template"


def remember_template(arm, source, messages):
    """Called by the import: an .ogf's path becomes the template of the model's export. An OGF v3
    model cannot be one (its export is a new v4 model: docs/xray-ogf-v3.md "Back to a game")."""
    if not source.lower().endswith(".ogf"):
        return
    if common.is_ogf_v3(source):
        messages.note("an OGF v3 model: its export is a new v4 model, without the original as template")
        return
    arm.data[TEMPLATE_PROPERTY] = source


def model_objects(arm):
    """The armature and the meshes it deforms (children, or bound by an Armature modifier)."""
    meshes = [o for o in bpy.data.objects if o.type == "MESH" and (
        o.parent == arm or any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers))]
    return [arm] + sorted(meshes, key=lambda o: o.name)


def export_ogf(context, arm, filepath, use_template=True, game="KEEP"):
    """Writes the armature's model as an .ogf. Returns common.Messages."""
    exe = common.executable(context)
    model = arm.data.boneyard
    output = common.absolute(filepath)
    template = arm.data.get(TEMPLATE_PROPERTY, "") if use_template else ""
    if template and not os.path.isfile(template):
        raise BoneyardError("the template %s (the .ogf this model was imported from) is gone: export without "
                            "'Keep the original' or import it again" % template)
    with common.scratch(context) as tmp:
        exported = os.path.join(tmp, "blender.glb")
        with gltf_bridge.only_selected(context, model_objects(arm)):
            gltf_bridge.export_glb(exported, animations=False)
        document, binary = glb.read(exported)
        scene = (document.get("scenes") or [{}])[0]
        extras = scene.get("extras") if isinstance(scene.get("extras"), dict) else {}
        extras["xray"] = glb.loads(model.scene_extras or "{}")
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


class EXPORT_SCENE_OT_boneyard_ogf(bpy.types.Operator, ExportHelper):
    """Export a model imported by boneyard as an X-Ray .ogf"""
    bl_idname = "export_scene.boneyard_ogf"
    bl_label = "Export X-Ray model (.ogf)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".ogf"
    filter_glob: StringProperty(default="*.ogf", options={"HIDDEN"})
    use_template: BoolProperty(name="Keep the original", default=True,
                               description="Pass the imported .ogf as --template: skeleton, refs, user data and "
                                           "the bytes of unchanged meshes come back")
    game: EnumProperty(name="Game", default="KEEP", items=(
        ("KEEP", "As the original", "the template's game (Call of Pripyat without one)"),
        ("SOC", "Shadow of Chernobyl", "1-2 links per vertex, refs in 0x13"),
        ("CS", "Clear Sky", "1-4 links per vertex, refs in 0x18"),
        ("COP", "Call of Pripyat", "1-4 links per vertex, refs in 0x18")))

    @classmethod
    def poll(cls, context):
        return any(o.type == "ARMATURE" and o.data.boneyard.game == "XRAY" for o in context.scene.objects)

    def invoke(self, context, event):
        try:
            arm = common.armature_for(context, "XRAY")
            if not self.filepath:
                self.filepath = arm.data.get(TEMPLATE_PROPERTY, "") or arm.data.boneyard.source
        except BoneyardError:
            pass
        return ExportHelper.invoke(self, context, event)

    def execute(self, context):
        try:
            arm = common.armature_for(context, "XRAY")
            messages = export_ogf(context, arm, self.filepath, self.use_template, self.game)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        self.report({"INFO"}, "wrote %s" % self.filepath)
        return {"FINISHED"}


CLASSES = (EXPORT_SCENE_OT_boneyard_ogf,)
