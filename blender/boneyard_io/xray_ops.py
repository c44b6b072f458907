"""File > Import "X-Ray model/motions (.ogf/.omf/.skls)" and File > Export "X-Ray motions (.omf)" and
"X-Ray SDK motions (.skls/.skl)"; the SDK's object and camera motions (.anm): sdk_ops.py.

Import: boneyard converts the file to a temporary .glb; Blender's glTF importer reads it into a
30 fps scene with the joint frames the file has; the add-on keeps the source, a copy of each
motion file (the template), the glTF scene extras and every motion's params and marks.
Export: xray_export.py."""
import os

import bpy
from bpy.props import BoolProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import cli, common, fingerprint, glb, gltf_bridge, gltf_motions, props, xray_export, xray_model_ops
from .cli import BoneyardError

FPS = 30  # X-Ray motions are sampled at 30 frames per second


def _kind(path):
    """"omf", "skls" (the SDK's .skls/.skl) or "ogf": by extension, else by content (an .omf starts
    with chunk 0xE, an .ogf with 0x1)."""
    low = path.lower()
    if low.endswith((".skls", ".skl")):
        return "skls"
    if low.endswith(".object"):
        return "object"
    if low.endswith((".omf", ".ogf")):
        return "omf" if low.endswith(".omf") else "ogf"
    head = common.read_bytes(path, "file")[:4]
    return "omf" if head == b"\x0e\x00\x00\x00" else "ogf"


def _templates(exe, source, kind, sets, tmp, messages):
    """(file, bytes) per motion set: the .omf itself; none for the SDK's motions (an .skls is no
    .omf template: its motions are exported from Blender); an .ogf's refs as boneyard found them
    (`file` in the scene extras); an .ogf's embedded motions as boneyard extracts them (an OGF v3
    model's float-translation key sets have no .omf form: no template, said in a warning)."""
    if kind == "omf":
        return [(source, common.read_bytes(source, "motion file"))]
    if kind in ("skls", "object"):  # an .object's embedded motions come back through the .object itself
        return [(source, b"")]
    out = []
    for index, motion_set in enumerate(sets):
        if motion_set.get("source") == "embedded":
            extracted = os.path.join(tmp, "embedded_%d.omf" % index)
            try:
                cli.run(exe, "convert", "--output=" + str(extracted), "--", source)
            except BoneyardError as e:
                if not common.is_ogf_v3(source):
                    raise
                messages.warn("the motions are exported without a template: %s" % e)
                out.append(("", b""))
                continue
            out.append(("", common.read_bytes(extracted, "extracted motions")))
        elif motion_set.get("file"):
            path = os.path.normpath(os.path.join(os.path.dirname(source), motion_set["file"]))
            out.append((path, common.read_bytes(path, "motion file")))
        else:
            raise BoneyardError("boneyard did not say which file motion ref %s came from (update boneyard)"
                                % motion_set.get("source"))
    return out


def _imported_interpolation(animation):
    """The interpolation Blender's glTF import gives every key of `animation` when all its samplers
    are linear (it sets each key's from its sampler), so that the fingerprint need not read it
    back; None otherwise (then it is read)."""
    if all(s.get("interpolation", "LINEAR") == "LINEAR" for s in animation.get("samplers", [])):
        if not _LINEAR:
            _LINEAR.append(bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items["LINEAR"].value)
        return _LINEAR[0]
    return None


_LINEAR = []  # the enum value of a linear key, looked up once (an RNA lookup per action costs)


def _store(arm, source, skeleton, xscene, animations, templates, made_curves):
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
    paths = fingerprint.channel_paths(arm)
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
        if made_curves is not None and action.name in made_curves:
            remembered = fingerprint.remember_action(arm, action, paths, keys=made_curves[action.name])
        else:  # made by Blender's importer: read back
            remembered = fingerprint.remember_action(arm, action, paths, _imported_interpolation(animation))
        action.boneyard.remembered = remembered
        model.motion_sets[set_index].motions.add().action = action
    model.rest = fingerprint.remember_rest(arm)
    return missing


# What a glTF import makes, removed again when the add-on starts the import over.
_IMPORTED_KINDS = ("objects", "meshes", "armatures", "materials", "images", "textures", "actions", "collections")


def import_xray(context, filepath, skeleton="", meshes="", textures="", extra_arguments=(), scene_extras=None):
    """Imports an .ogf (with the motions the game gives it), an .omf or the SDK's .skls/.skl (on
    `skeleton`, an .ogf or an .object, else on a flat armature) or an .object. `extra_arguments` go
    to `boneyard convert`; `scene_extras` (a list), when given, gets the glTF scene's X-Ray extras.
    Returns (armature object, common.Messages)."""
    source = common.absolute(filepath)
    common.refuse_other_game(source, "XRAY")
    exe = common.executable(context)
    skeleton, meshes, textures = common.absolute(skeleton), common.absolute(meshes), common.absolute(textures)
    kind = _kind(source)
    is_omf = kind in ("omf", "skls")  # motions only
    with common.scratch(context) as tmp:
        converted = os.path.join(tmp, os.path.splitext(os.path.basename(source))[0] + ".glb")
        arguments = ["convert", "--output=" + str(converted)]
        if is_omf and skeleton:
            arguments += ["--skeleton", skeleton]
        if not is_omf and meshes:
            arguments += ["--meshes", meshes]
        if textures:
            arguments += ["--textures", textures]
        arguments += list(extra_arguments)
        messages = common.Messages()
        messages.warn(cli.run(exe, *arguments, "--", source))
        document, binary = glb.read(converted)
        animations = document.get("animations", [])
        xscene = ((document.get("scenes") or [{}])[0].get("extras") or {}).get("xray", {})
        if scene_extras is not None:
            scene_extras.append(xscene)
        templates = _templates(exe, source, kind, xscene.get("motion_sets", []), tmp, messages)
        old_fps = common.set_scene_fps(context.scene, FPS)
        if old_fps is not None:
            messages.note("scene frame rate set from %g to %d fps (X-Ray motions are %d fps)" % (old_fps, FPS, FPS))
        before = set(bpy.data.objects)
        # Blender's importer gets the model without the motions, which the add-on makes itself
        # (gltf_motions.py), when it can; else the whole file.
        model_only = glb.without_animations(document) if animations and gltf_motions.supported(document) else None
        given = converted
        if model_only is not None:  # beside the converted file: image URIs stay relative to the same folder
            given = converted[:-len(".glb")] + ".model.glb"
            glb.write(given, model_only, binary)
        made_ids = {kind: set(getattr(bpy.data, kind)) for kind in _IMPORTED_KINDS}
        with common.scene_custom_properties_kept(context.scene, ["xray"]), \
                gltf_motions.made_here(document if model_only is not None else None, binary) as made:
            gltf_bridge.import_glb(given)
        if model_only is not None and made.curves is None:
            # The hook did not make the motions (it failed, or the importer never called it): the
            # model goes, and Blender's importer imports the whole file.
            bpy.data.batch_remove([item for kind, items in made_ids.items() for item in getattr(bpy.data, kind)
                                   if item not in items])
            messages.warn("the add-on could not make the motions itself (%s): Blender's importer made them"
                          % (made.error or "its glTF importer did not call the add-on"))
            with common.scene_custom_properties_kept(context.scene, ["xray"]):
                gltf_bridge.import_glb(converted)
        arm = common.imported_armature(before, required=bool(xscene.get("motion_sets")))
        if arm is None:
            messages.note("a model without skeleton: meshes only, nothing to export as motions")
            return None, messages
        missing = _store(arm, source, skeleton if is_omf else "", xscene, animations, templates,
                         made.curves)
        if not is_omf:
            xray_model_ops.remember_template(arm, source, messages)
    if missing:
        messages.warn("%d animations did not arrive as actions: %s" % (len(missing), ", ".join(missing[:8])))
    return arm, messages


class IMPORT_SCENE_OT_boneyard_xray(bpy.types.Operator, ImportHelper):
    """Import an X-Ray model (.ogf) with its motions, or motions (.omf, the SDK's .skls/.skl), through boneyard"""
    bl_idname = "import_scene.boneyard_xray"
    bl_label = "Import X-Ray (.ogf/.omf/.skls)"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filename_ext = ".ogf"
    filter_glob: StringProperty(default="*.ogf;*.omf;*.skls;*.skl", options={"HIDDEN"})
    skeleton: StringProperty(name="Skeleton (.ogf/.object)", subtype="FILE_PATH",
                             description="For an .omf or .skls/.skl: the model whose skeleton the motions play on "
                                         "(empty: a flat armature)")
    meshes: StringProperty(name="Meshes folder", subtype="DIR_PATH",
                           description="For an .ogf: where its motion refs are looked up "
                                       "(empty: the nearest folder called meshes)")
    textures: StringProperty(name="Textures folder", subtype="DIR_PATH",
                             description="Textures root: .dds (or .png) laid out like gamedata/textures (default: the "
                                         "'textures' folder beside the model's 'meshes' folder)")

    def execute(self, context):
        try:
            arm, messages = import_xray(context, self.filepath, self.skeleton, self.meshes, self.textures)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        if arm is None:
            return {"FINISHED"}
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
    through_blender: BoolProperty(name="Every motion through Blender", default=False,
                                  description="Export every motion with Blender's glTF exporter, not only the "
                                              "changed ones (untouched keys may then move by one step)")

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
        layout.prop(self, "through_blender")

    def execute(self, context):
        try:
            arm = common.armature_for(context, "XRAY")
            messages = xray_export.export_xray(context, arm, self.filepath, self.motion_set, self.use_template, self.hq,
                                            self.through_blender)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        self.report({"INFO"}, "wrote %s" % self.filepath)
        return {"FINISHED"}


class EXPORT_SCENE_OT_boneyard_skls(bpy.types.Operator, ExportHelper):
    """Export the motions of an armature imported by boneyard as the X-Ray SDK's .skls (or a .skl of one motion)"""
    bl_idname = "export_scene.boneyard_skls"
    bl_label = "Export X-Ray SDK motions (.skls/.skl)"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ".skls"
    filter_glob: StringProperty(default="*.skls;*.skl", options={"HIDDEN"})
    motion_set: IntProperty(name="Motion set", min=0, default=0,
                            description="Which of the model's motion files to write (0: the first)")

    @classmethod
    def poll(cls, context):
        return EXPORT_SCENE_OT_boneyard_omf.poll(context)

    def check(self, context):
        # ExportHelper appends filename_ext: a name the user ends in .skl stays a .skl.
        if self.filepath.lower().endswith(".skl"):
            return False
        return ExportHelper.check(self, context)

    def execute(self, context):
        try:
            arm = common.armature_for(context, "XRAY")
            messages = xray_export.export_sdk_motions(context, arm, self.filepath, self.motion_set)
        except (BoneyardError, glb.GlbError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        messages.report(self)
        self.report({"INFO"}, "wrote %s" % self.filepath)
        return {"FINISHED"}


CLASSES = (IMPORT_SCENE_OT_boneyard_xray, EXPORT_SCENE_OT_boneyard_omf, EXPORT_SCENE_OT_boneyard_skls)
