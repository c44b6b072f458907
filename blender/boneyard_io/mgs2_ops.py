"""File > Import and Export "MGS2 model (.kms/.evm)".

Import: boneyard converts the model to a temporary .glb (units or joints as bones, one primitive
per packet, texture ids and every native field in extras, the textures of its .tri or of the
textures folder embedded, and with a .mar its motions as animations); Blender's glTF importer reads
it with the joint frames the file has (the motions as actions, one NLA track each, at 30 fps). The
add-on keeps the source, a copy of its bytes (the template) and the glTF scene extras on the
armature. Export: Blender's glTF exporter writes the armature and its
meshes with their custom properties (extras); boneyard builds the .kms/.evm with the template, so
unit order, texture ids and the original's layout come back."""
import os

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import cli, common, glb, gltf_bridge

SCENE_EXTRAS = ("mgs2",)
FPS = 30  # MGS2 motions are 30 frames per second (docs/mgs2-mar.md)


def import_mgs2(context, filepath, scale=0.0, names="", textures="", motions="", motion_filter=""):
    """Imports a .kms or .evm, with the motions of the .mar `motions` (those whose name matches one
    of the comma-separated globs of `motion_filter`, when given). Returns (armature object,
    common.Messages)."""
    source = common.absolute(filepath)
    common.refuse_other_game(source, "MGS2")
    exe = common.executable(context)
    motions = common.absolute(motions)
    with common.scratch(context) as tmp:
        converted = os.path.join(tmp, os.path.splitext(os.path.basename(source))[0] + ".glb")
        arguments = ["convert", "--output=" + str(converted)]
        if scale > 0:
            arguments += ["--scale", repr(float(scale))]
        if names:
            arguments += ["--names", common.absolute(names)]
        if textures:
            arguments += ["--textures", common.absolute(textures)]
        if motions:
            arguments += ["--mar", motions]
            for pattern in (p.strip() for p in motion_filter.split(",")):
                if pattern:
                    arguments += ["--motions", pattern]
        messages = common.Messages()
        messages.warn(cli.run(exe, *arguments, "--", source))
        document, _ = glb.read(converted)
        extras = (document.get("scenes") or [{}])[0].get("extras") or {}
        if document.get("animations"):
            old_fps = common.set_scene_fps(context.scene, FPS)
            if old_fps is not None:
                messages.note("scene frame rate set from %g to %d fps (MGS2 motions are %d fps)" % (old_fps, FPS, FPS))
        before = set(bpy.data.objects)
        with common.scene_custom_properties_kept(context.scene, SCENE_EXTRAS):
            gltf_bridge.import_glb(converted)
        arm = common.imported_armature(before)
    model = arm.data.boneyard
    model.game = "MGS2"
    model.source = source
    model.model_format = (extras.get("mgs2") or {}).get("format", os.path.splitext(source)[1][1:].lower())
    model.scale = scale
    model.motions = motions
    model.scene_extras = glb.dumps({k: extras[k] for k in SCENE_EXTRAS if k in extras})
    model["template"] = common.read_bytes(source, "model")
    return arm, messages


def model_objects(arm):
    """The armature and the meshes it deforms (children, or bound by an Armature modifier)."""
    meshes = [o for o in bpy.data.objects if o.type == "MESH" and (
        o.parent == arm or any(m.type == "ARMATURE" and m.object == arm for m in o.modifiers))]
    return [arm] + sorted(meshes, key=lambda o: o.name)


def export_mgs2(context, arm, filepath, use_template=True, layout="KEEP", n_mats="KEEP"):
    """Writes the armature's model as a .kms or .evm (by `filepath`'s extension). Returns common.Messages."""
    exe = common.executable(context)
    model = arm.data.boneyard
    output = common.absolute(filepath)
    with common.scratch(context) as tmp:
        exported = os.path.join(tmp, "blender.glb")
        with gltf_bridge.only_selected(context, model_objects(arm)):
            gltf_bridge.export_glb(exported, animations=False)
        document, binary = glb.read(exported)
        scene = (document.get("scenes") or [{}])[0]
        extras = scene.get("extras") if isinstance(scene.get("extras"), dict) else {}
        extras.update(glb.loads(model.scene_extras or "{}"))
        scene["extras"] = extras
        patched = os.path.join(tmp, "model.glb")
        glb.write(patched, document, binary)
        arguments = ["convert", "--output=" + str(output)]
        template = model.get("template")
        same_format = os.path.splitext(output)[1][1:].lower() == model.model_format
        if use_template and template and same_format:
            template_path = os.path.join(tmp, "template." + model.model_format)
            common.write_bytes(template_path, template)
            arguments += ["--template", template_path]
        if model.scale > 0:
            arguments += ["--scale", repr(float(model.scale))]
        if layout != "KEEP":
            arguments += ["--layout", layout.lower()]
        if n_mats != "KEEP" and output.lower().endswith(".evm"):
            arguments += ["--n-mats", n_mats.lower()]
        messages = common.Messages()
        messages.warn(cli.run(exe, *arguments, "--", patched))
        return messages


class IMPORT_SCENE_OT_boneyard_mgs2(bpy.types.Operator, ImportHelper):
    """Import a Metal Gear Solid 2 model (.kms/.evm) through boneyard"""
    bl_idname = "import_scene.boneyard_mgs2"
    bl_label = "Import MGS2 model (.kms/.evm)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".kms"
    filter_glob: StringProperty(default="*.kms;*.evm", options={"HIDDEN"})
    scale: FloatProperty(name="Scale (m per unit)", default=0.0, min=0.0, precision=5,
                         description="Metres per model unit (0: boneyard's default, 1 unit = 1 mm)")
    names: StringProperty(name="Texture names", subtype="FILE_PATH",
                          description="A file of texture names, one per line (--names)")
    textures: StringProperty(name="Textures folder", subtype="DIR_PATH",
                             description="Folder of .ctxr (or .dds, .png) textures found by their names' StrCode24, and "
                                         ".tri files (optional: the .tri files beside the model are always searched)")
    motions: StringProperty(name="Motions (.mar)", subtype="FILE_PATH",
                            description="The .mar whose motions play on this model (--mar): each becomes an action "
                                        "(optional; viewed, not written back)")
    motion_filter: StringProperty(name="Only motions", default="",
                                  description="Comma-separated globs of motion names (hex ids, or names from the "
                                              "texture names file) to import (--motions; empty: all)")

    def execute(self, context):
        try:
            arm, messages = import_mgs2(context, self.filepath, self.scale, self.names, self.textures, self.motions,
                                        self.motion_filter)
        except (cli.BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        actions = len(common.track_actions(arm)) if arm.data.boneyard.motions else 0
        self.report({"INFO"}, "%s: %d bones, %d motions" % (arm.name, len(arm.data.bones), actions))
        return {"FINISHED"}


class EXPORT_SCENE_OT_boneyard_mgs2(bpy.types.Operator, ExportHelper):
    """Export a model imported by boneyard as an MGS2 .kms or .evm"""
    bl_idname = "export_scene.boneyard_mgs2"
    bl_label = "Export MGS2 model (.kms/.evm)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".kms"  # or .evm: check() keeps either
    filter_glob: StringProperty(default="*.kms;*.evm", options={"HIDDEN"})
    use_template: BoolProperty(name="Keep the original's layout", default=True,
                               description="Pass the original as --template (same format only): packet fields, "
                                           "unit order and the original's placement come back")
    layout: EnumProperty(name="Layout", default="KEEP", items=(
        ("KEEP", "As the original", "the template's layout (PS2 without one)"),
        ("PS2", "PS2", "the PlayStation 2 layout"),
        ("MC", "Master Collection", "the 2023 Master Collection layout")))
    n_mats: EnumProperty(name="EVM n_mats", default="KEEP", items=(
        ("KEEP", "Default", "boneyard's default (the spec's reading)"),
        ("SPEC", "Spec", "the number of matrices a packet uses"),
        ("SEALOUSE", "SeaLouse", "the largest number of influences per vertex, as SeaLouse writes it")))

    @classmethod
    def poll(cls, context):
        return any(o.type == "ARMATURE" and o.data.boneyard.game == "MGS2" for o in context.scene.objects)

    def invoke(self, context, event):
        try:
            model = common.armature_for(context, "MGS2").data.boneyard
            if not self.filepath:
                self.filepath = model.source
        except cli.BoneyardError:
            pass
        return ExportHelper.invoke(self, context, event)

    def check(self, context):
        """Keeps a .kms or .evm name; adds .kms to any other."""
        path = self.filepath
        if path and not path.lower().endswith((".kms", ".evm")):
            self.filepath = bpy.path.ensure_ext(path, ".kms")
            return True
        return False

    def execute(self, context):
        self.check(context)
        try:
            arm = common.armature_for(context, "MGS2")
            messages = export_mgs2(context, arm, self.filepath, self.use_template, self.layout, self.n_mats)
        except (cli.BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        self.report({"INFO"}, "wrote %s" % self.filepath)
        return {"FINISHED"}


CLASSES = (IMPORT_SCENE_OT_boneyard_mgs2, EXPORT_SCENE_OT_boneyard_mgs2)
