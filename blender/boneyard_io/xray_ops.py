"""File > Import "X-Ray model/motions (.ogf/.omf)" and File > Export "X-Ray motions (.omf)".

Import: boneyard converts the file to a temporary .glb; Blender's glTF importer reads it into a
30 fps scene with the joint frames the file has; the add-on keeps the source, a copy of each
motion file (the template), the glTF scene extras and every motion's params and marks.
Export: Blender's glTF exporter writes the armature's actions; the add-on puts the motion names,
order, params and marks back into that .glb and boneyard writes the .omf with the template."""
import os

import bpy
from bpy.props import BoolProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import cli, common, glb, gltf_bridge, props
from .cli import BoneyardError

FPS = 30  # X-Ray motions are sampled at 30 frames per second


def _is_omf(path):
    """.omf by extension, else by content (an .omf starts with chunk 0xE, an .ogf with 0x1)."""
    if path.lower().endswith((".omf", ".ogf")):
        return path.lower().endswith(".omf")
    head = common.read_bytes(path, "file")[:4]
    return head == b"\x0e\x00\x00\x00"


def _templates(exe, source, is_omf, sets, tmp):
    """(file, bytes) per motion set: the .omf itself; an .ogf's refs as boneyard found them
    (`file` in the scene extras); an .ogf's embedded motions as boneyard extracts them."""
    if is_omf:
        return [(source, common.read_bytes(source, "motion file"))]
    out = []
    for index, motion_set in enumerate(sets):
        if motion_set.get("source") == "embedded":
            extracted = os.path.join(tmp, "embedded_%d.omf" % index)
            cli.run(exe, "convert", source, "-o", extracted)
            out.append(("", common.read_bytes(extracted, "extracted motions")))
        elif motion_set.get("file"):
            path = os.path.normpath(os.path.join(os.path.dirname(source), motion_set["file"]))
            out.append((path, common.read_bytes(path, "motion file")))
        else:
            raise BoneyardError("boneyard did not say which file motion ref %s came from (update boneyard)"
                                % motion_set.get("source"))
    return out


def _set_scene_fps(scene):
    """X-Ray keys land on whole frames only at 30 fps; returns the previous rate when it changed."""
    before = scene.render.fps / scene.render.fps_base
    if scene.render.fps == FPS and scene.render.fps_base == 1.0:
        return None
    scene.render.fps, scene.render.fps_base = FPS, 1.0
    return before


def _store(arm, source, skeleton, xscene, animations, templates):
    model = arm.data.boneyard
    model.game = "XRAY"
    model.source = source
    model.skeleton = skeleton
    model.scene_extras = glb.dumps(xscene)
    model.motion_sets.clear()
    for index, motion_set in enumerate(xscene.get("motion_sets", [])):
        entry = model.motion_sets.add()
        entry.source = motion_set.get("source", "")
        entry.file, data = templates[index] if index < len(templates) else ("", b"")
        entry["template"] = data
    by_track = common.track_actions(arm)
    missing = []
    for animation in animations:
        name = animation.get("name", "")
        extras = (animation.get("extras") or {}).get("xray", {})
        action = by_track.get(name)
        set_index = int(extras.get("motion_set", 0))
        if action is None or set_index >= len(model.motion_sets):
            missing.append(name)
            continue
        props.fill_motion(action.boneyard, name, extras, set_index)
        model.motion_sets[set_index].motions.add().action = action
    return missing


def import_xray(context, filepath, skeleton="", meshes="", textures=""):
    """Imports an .ogf (with the motions the game gives it) or an .omf (on `skeleton`, else on a
    flat armature). Returns (armature object, message lines)."""
    exe = common.executable(context)
    source = common.absolute(filepath)
    skeleton, meshes, textures = common.absolute(skeleton), common.absolute(meshes), common.absolute(textures)
    is_omf = _is_omf(source)
    with common.scratch(context) as tmp:
        converted = os.path.join(tmp, os.path.splitext(os.path.basename(source))[0] + ".glb")
        arguments = ["convert", source, "-o", converted]
        if is_omf and skeleton:
            arguments += ["--skeleton", skeleton]
        if not is_omf and meshes:
            arguments += ["--meshes", meshes]
        if textures:
            arguments += ["--textures", textures]
        lines = cli.run(exe, *arguments)
        document, _ = glb.read(converted)
        xscene = ((document.get("scenes") or [{}])[0].get("extras") or {}).get("xray", {})
        templates = _templates(exe, source, is_omf, xscene.get("motion_sets", []), tmp)
        old_fps = _set_scene_fps(context.scene)
        if old_fps is not None:
            lines.append("scene frame rate set from %g to %d fps (X-Ray motions are %d fps)" % (old_fps, FPS, FPS))
        before = set(bpy.data.objects)
        with common.scene_custom_properties_kept(context.scene, ["xray"]):
            gltf_bridge.import_glb(converted)
        arm = common.imported_armature(before)
        missing = _store(arm, source, skeleton if is_omf else "", xscene, document.get("animations", []), templates)
    if missing:
        lines.append("%d animations did not arrive as actions: %s" % (len(missing), ", ".join(missing[:8])))
    return arm, lines


def _motion_actions(model, set_index):
    """(action, motion) of the set's motions in order; motions whose action was deleted are left out."""
    out, gone = [], 0
    for ref in model.motion_sets[set_index].motions:
        if ref.action is None:
            gone += 1
        else:
            out.append(ref.action)
    return out, gone


def _patch_animations(document, arm, actions, set_index, xscene):
    """Keeps the animations of `actions` in their order, named after their motions, with their
    params and marks as boneyard's extras, and boneyard's scene extras. Blender drops animation
    extras and sorts animations by name; other armatures' actions are dropped."""
    names = common.exported_names(arm)
    by_action = {}
    for animation in document.get("animations", []):
        action = names.get(animation.get("name"))
        if action is not None:
            by_action.setdefault(action.name, animation)
    kept, lost = [], []
    for action in actions:
        animation = by_action.get(action.name)
        if animation is None:
            lost.append(action.name)
            continue
        motion = action.boneyard
        animation["name"] = motion.name
        animation["extras"] = {"xray": props.motion_extras(motion, set_index)}
        kept.append(animation)
    if lost:
        raise BoneyardError("Blender's glTF export left out %d actions (%s): keep each motion's action on the "
                            "armature (NLA track or active action)" % (len(lost), ", ".join(lost[:6])))
    document["animations"] = kept
    scene = (document.get("scenes") or [{}])[0]
    extras = scene.get("extras") if isinstance(scene.get("extras"), dict) else {}
    extras["xray"] = xscene
    scene["extras"] = extras


def export_xray(context, arm, filepath, set_index=0, use_template=True, hq=False):
    """Writes motion set `set_index` of the armature `arm` as an .omf. Returns message lines."""
    exe = common.executable(context)
    model = arm.data.boneyard
    if not 0 <= set_index < len(model.motion_sets):
        raise BoneyardError("%s has no motion set %d (it has %d)" % (arm.name, set_index, len(model.motion_sets)))
    actions, gone = _motion_actions(model, set_index)
    if not actions:
        raise BoneyardError("motion set %d of %s has no motions to export" % (set_index, arm.name))
    lines = ["%d motions whose actions were deleted are left out" % gone] if gone else []
    output = common.absolute(filepath)
    with common.scratch(context) as tmp:
        exported = os.path.join(tmp, "blender.glb")
        with gltf_bridge.only_selected(context, [arm]):
            gltf_bridge.export_glb(exported, animations=True)
        document, binary = glb.read(exported)
        _patch_animations(document, arm, actions, set_index, glb.loads(model.scene_extras or "{}"))
        patched = os.path.join(tmp, "motions.glb")
        glb.write(patched, document, binary)
        arguments = ["convert", patched, "-o", output]
        template = model.motion_sets[set_index].get("template")
        if use_template and template:
            template_path = os.path.join(tmp, "template.omf")
            common.write_bytes(template_path, template)
            arguments += ["--template", template_path]
        if hq:
            arguments.append("--hq")
        lines += cli.run(exe, *arguments)
    return lines


class IMPORT_SCENE_OT_boneyard_xray(bpy.types.Operator, ImportHelper):
    """Import an X-Ray model (.ogf) with its motions, or motions (.omf), through boneyard"""
    bl_idname = "import_scene.boneyard_xray"
    bl_label = "Import X-Ray (.ogf/.omf)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".ogf"
    filter_glob: StringProperty(default="*.ogf;*.omf", options={"HIDDEN"})
    skeleton: StringProperty(name="Skeleton (.ogf)", subtype="FILE_PATH",
                             description="For an .omf: the model whose skeleton the motions play on "
                                         "(empty: a flat armature)")
    meshes: StringProperty(name="Meshes folder", subtype="DIR_PATH",
                           description="For an .ogf: where its motion refs are looked up "
                                       "(empty: the nearest folder called meshes)")
    textures: StringProperty(name="Textures folder", subtype="DIR_PATH",
                             description="PNG textures laid out like gamedata/textures (optional)")

    def execute(self, context):
        try:
            arm, lines = import_xray(context, self.filepath, self.skeleton, self.meshes, self.textures)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        common.report_lines(self, lines)
        count = sum(len(s.motions) for s in arm.data.boneyard.motion_sets)
        self.report({"INFO"}, "%s: %d bones, %d motions" % (arm.name, len(arm.data.bones), count))
        return {"FINISHED"}


class EXPORT_SCENE_OT_boneyard_omf(bpy.types.Operator, ExportHelper):
    """Export the motions of an armature imported by boneyard as an X-Ray .omf"""
    bl_idname = "export_scene.boneyard_omf"
    bl_label = "Export X-Ray motions (.omf)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".omf"
    filter_glob: StringProperty(default="*.omf", options={"HIDDEN"})
    motion_set: IntProperty(name="Motion set", min=0, default=0,
                            description="Which of the model's motion files to write (0: the first)")
    use_template: BoolProperty(name="Keep the original's layout", default=True,
                               description="Pass the original .omf as --template: order, params, marks, "
                                           "encodings and the bytes of untouched motions come back")
    hq: BoolProperty(name="16-bit translations", default=False,
                     description="--hq: 16-bit translation keys for every keyed bone")

    @classmethod
    def poll(cls, context):
        return any(o.type == "ARMATURE" and o.data.boneyard.game == "XRAY" for o in context.scene.objects)

    def invoke(self, context, event):
        try:
            model = common.armature_for(context, "XRAY").data.boneyard
            motion_set = model.motion_sets[min(self.motion_set, len(model.motion_sets) - 1)]
            if motion_set.file and not self.filepath:
                self.filepath = motion_set.file
        except (BoneyardError, IndexError):
            pass
        return ExportHelper.invoke(self, context, event)

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "motion_set")
        try:
            model = common.armature_for(context, "XRAY").data.boneyard
            if self.motion_set < len(model.motion_sets):
                s = model.motion_sets[self.motion_set]
                layout.label(text="%s (%d motions)" % (s.source or s.file, len(s.motions)))
        except BoneyardError as error:
            layout.label(text=str(error), icon="ERROR")
        layout.prop(self, "use_template")
        layout.prop(self, "hq")

    def execute(self, context):
        try:
            arm = common.armature_for(context, "XRAY")
            lines = export_xray(context, arm, self.filepath, self.motion_set, self.use_template, self.hq)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        common.report_lines(self, lines)
        self.report({"INFO"}, "wrote %s" % self.filepath)
        return {"FINISHED"}


CLASSES = (IMPORT_SCENE_OT_boneyard_xray, EXPORT_SCENE_OT_boneyard_omf)
