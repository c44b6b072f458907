"""The boneyard panel (Properties > Object Data of an imported armature): the source, and for
X-Ray the motions with their params, flags and marks, editable; the export writes them."""
import json

import bpy
from bpy.props import IntProperty

from . import common, props


def _model(context):
    arm = context.object
    if arm is None or arm.type != "ARMATURE":
        return None, None
    return arm, arm.data.boneyard


def _active_set(model):
    if not model.motion_sets:
        return None
    return model.motion_sets[min(max(model.active_set, 0), len(model.motion_sets) - 1)]


def _active_motion(model):
    motion_set = _active_set(model)
    if motion_set is None or not 0 <= motion_set.active_motion < len(motion_set.motions):
        return None, None
    ref = motion_set.motions[motion_set.active_motion]
    return ref, ref.action


def _params_version(model, motion):
    try:
        return int(json.loads(model.scene_extras or "{}")["motion_sets"][motion.motion_set]["params_version"])
    except (ValueError, IndexError, KeyError, TypeError):
        return 4


def _part_or_bone(model, motion):
    """What bone_or_part names: a bone part for a cycle, the start bone for an FX."""
    if motion.bone_or_part == props.NO_BONE_OR_PART:
        return "no start bone" if motion.flag_fx else "all parts"
    try:
        sets = json.loads(model.scene_extras or "{}").get("motion_sets", [])
        parts = sets[motion.motion_set]["parts"]
    except (ValueError, IndexError, KeyError, TypeError):
        return "?"
    if motion.flag_fx:
        for part in parts:
            for bone in part.get("bones", []):
                if bone.get("index") == motion.bone_or_part:
                    return "bone " + bone.get("name", "?")
        return "bone ?"
    if motion.bone_or_part < len(parts):
        return "part " + parts[motion.bone_or_part].get("name", "?")
    return "part ?"


class BONEYARD_UL_motions(bpy.types.UIList):
    def draw_item(self, context, layout, data, item, icon, active_data, active_property, index=0, flt_flag=0):
        action = item.action
        if action is None:
            layout.label(text="(deleted action)", icon="ERROR")
            return
        motion = action.boneyard
        row = layout.row()
        row.label(text=motion.name or action.name, icon="ACTION")
        row.label(text="%d frames%s" % (motion.frames, ", FX" if motion.flag_fx else ""))


class _MotionOperator:
    @classmethod
    def poll(cls, context):
        arm, model = _model(context)
        return model is not None and model.game == "XRAY" and _active_set(model) is not None


class BONEYARD_OT_motion_edit(_MotionOperator, bpy.types.Operator):
    """Make this motion's action the armature's active action, and the scene's range its frames"""
    bl_idname = "boneyard.motion_edit"
    bl_label = "Edit"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        arm, model = _model(context)
        _, action = _active_motion(model)
        if action is None:
            self.report({"ERROR"}, "no motion selected")
            return {"CANCELLED"}
        if arm.animation_data is None:
            arm.animation_data_create()
        arm.animation_data.action = action
        start, end = action.frame_range
        context.scene.frame_start, context.scene.frame_end = int(round(start)), int(round(end))
        context.scene.frame_current = int(round(start))
        return {"FINISHED"}


class BONEYARD_OT_motion_add(_MotionOperator, bpy.types.Operator):
    """Add the armature's active action to this motion set as a new motion (default params)"""
    bl_idname = "boneyard.motion_add"
    bl_label = "Add active action"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        arm, model = _model(context)
        action = arm.animation_data.action if arm.animation_data else None
        if action is None:
            self.report({"ERROR"}, "the armature has no active action")
            return {"CANCELLED"}
        for s in model.motion_sets:
            if any(ref.action == action for ref in s.motions):
                self.report({"ERROR"}, "%s is already a motion" % action.name)
                return {"CANCELLED"}
        motion_set = _active_set(model)
        motion = action.boneyard
        fresh = not motion.is_motion  # a copied action keeps its params, under its own name
        motion.is_motion = True
        motion.name = action.name
        motion.motion_set = model.active_set
        motion.extras = "" if fresh else _without_identity(motion.extras)
        start, end = action.frame_range
        motion.frames = int(round(end - start)) + 1
        motion_set.motions.add().action = action
        motion_set.active_motion = len(motion_set.motions) - 1
        return {"FINISHED"}


def _without_identity(extras):
    """A copied motion's extras without what tied them to the original's records."""
    try:
        x = json.loads(extras) if extras else {}
    except ValueError:
        return ""
    for key in ("name", "name_hex", "keys_name", "keys_name_hex", "records", "index", "motion_id", "frames"):
        x.pop(key, None)
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


class BONEYARD_OT_motion_remove(_MotionOperator, bpy.types.Operator):
    """Leave this motion out of the export (the action itself stays)"""
    bl_idname = "boneyard.motion_remove"
    bl_label = "Remove motion"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        arm, model = _model(context)
        motion_set = _active_set(model)
        if not 0 <= motion_set.active_motion < len(motion_set.motions):
            return {"CANCELLED"}
        action = motion_set.motions[motion_set.active_motion].action
        if action is not None:
            action.boneyard.is_motion = False
        motion_set.motions.remove(motion_set.active_motion)
        motion_set.active_motion = max(0, motion_set.active_motion - 1)
        return {"FINISHED"}


class BONEYARD_OT_motion_move(_MotionOperator, bpy.types.Operator):
    """Move this motion up or down in the file's order"""
    bl_idname = "boneyard.motion_move"
    bl_label = "Move motion"
    bl_options = {"REGISTER", "UNDO"}
    step: IntProperty(default=1)

    def execute(self, context):
        arm, model = _model(context)
        motion_set = _active_set(model)
        i, j = motion_set.active_motion, motion_set.active_motion + self.step
        if not (0 <= i < len(motion_set.motions) and 0 <= j < len(motion_set.motions)):
            return {"CANCELLED"}
        motion_set.motions.move(i, j)
        motion_set.active_motion = j
        return {"FINISHED"}


class BONEYARD_OT_mark_add(_MotionOperator, bpy.types.Operator):
    """Add a mark (e.g. Left or Right foot) with one interval"""
    bl_idname = "boneyard.mark_add"
    bl_label = "Add mark"
    bl_options = {"REGISTER", "UNDO"}

    def execute(self, context):
        _, action = _active_motion(_model(context)[1])
        if action is None:
            return {"CANCELLED"}
        mark = action.boneyard.marks.add()
        mark.name = "Mark"
        mark.intervals.add()
        return {"FINISHED"}


class BONEYARD_OT_mark_remove(_MotionOperator, bpy.types.Operator):
    """Remove this mark, or one of its intervals"""
    bl_idname = "boneyard.mark_remove"
    bl_label = "Remove"
    bl_options = {"REGISTER", "UNDO"}
    mark: IntProperty(default=0)
    interval: IntProperty(default=-1, description="-1: the whole mark")

    def execute(self, context):
        _, action = _active_motion(_model(context)[1])
        marks = action.boneyard.marks if action is not None else []
        if not 0 <= self.mark < len(marks):
            return {"CANCELLED"}
        if self.interval < 0:
            marks.remove(self.mark)
        elif self.interval < len(marks[self.mark].intervals):
            marks[self.mark].intervals.remove(self.interval)
        return {"FINISHED"}


class BONEYARD_OT_interval_add(_MotionOperator, bpy.types.Operator):
    """Add an interval to this mark"""
    bl_idname = "boneyard.interval_add"
    bl_label = "Add interval"
    bl_options = {"REGISTER", "UNDO"}
    mark: IntProperty(default=0)

    def execute(self, context):
        _, action = _active_motion(_model(context)[1])
        if action is None or not 0 <= self.mark < len(action.boneyard.marks):
            return {"CANCELLED"}
        action.boneyard.marks[self.mark].intervals.add()
        return {"FINISHED"}


class BONEYARD_PT_model(bpy.types.Panel):
    bl_label = "boneyard"
    bl_space_type = "PROPERTIES"
    bl_region_type = "WINDOW"
    bl_context = "data"

    @classmethod
    def poll(cls, context):
        arm, model = _model(context)
        return model is not None and model.game != "NONE"

    def draw(self, context):
        layout = self.layout
        arm, model = _model(context)
        layout.label(text="%s: %s" % ("X-Ray" if model.game == "XRAY" else "MGS2", bpy.path.basename(model.source)),
                     icon="FILE")
        if model.game == "MGS2":
            layout.label(text="format %s, template %s" % (model.model_format,
                                                           "kept" if model.get("template") else "none"))
            if model.motions:
                count = len(common.track_actions(arm))
                layout.label(text="motions: %s (%d, not written back)" % (bpy.path.basename(model.motions), count),
                             icon="ACTION")
            return
        if len(model.motion_sets) > 1:
            layout.prop(model, "active_set")
        motion_set = _active_set(model)
        if motion_set is None:
            layout.label(text="no motions")
            return
        layout.label(text="%s (template %s)" % (motion_set.source or bpy.path.basename(motion_set.file),
                                                "kept" if motion_set.get("template") else "none"))
        row = layout.row()
        row.template_list("BONEYARD_UL_motions", "", motion_set, "motions", motion_set, "active_motion", rows=6)
        column = row.column(align=True)
        column.operator("boneyard.motion_add", icon="ADD", text="")
        column.operator("boneyard.motion_remove", icon="REMOVE", text="")
        column.separator()
        column.operator("boneyard.motion_move", icon="TRIA_UP", text="").step = -1
        column.operator("boneyard.motion_move", icon="TRIA_DOWN", text="").step = 1
        _, action = _active_motion(model)
        if action is not None:
            self._draw_motion(layout, model, action)

    @staticmethod
    def _draw_motion(layout, model, action):
        motion = action.boneyard
        row = layout.row()
        row.prop(motion, "name")
        row.operator("boneyard.motion_edit", icon="ACTION")
        grid = layout.grid_flow(columns=2, align=True)
        for field in props.PARAM_NAMES:
            grid.prop(motion, field)
        box = layout.box()
        box.label(text="Flags")
        grid = box.grid_flow(columns=2, align=True)
        for word in props.FLAG_NAMES:
            grid.prop(motion, "flag_" + word, toggle=True)
        row = layout.row()
        row.prop(motion, "bone_or_part")
        row.label(text=_part_or_bone(model, motion))
        box = layout.box()
        if _params_version(model, motion) < 4:
            box.label(text="Marks: this file's params version %d has none" % _params_version(model, motion))
            return
        row = box.row()
        row.label(text="Marks (seconds)")
        row.operator("boneyard.mark_add", icon="ADD", text="")
        for m, mark in enumerate(motion.marks):
            row = box.row(align=True)
            row.prop(mark, "name", text="")
            add = row.operator("boneyard.interval_add", icon="ADD", text="")
            add.mark = m
            remove = row.operator("boneyard.mark_remove", icon="X", text="")
            remove.mark, remove.interval = m, -1
            for i, interval in enumerate(mark.intervals):
                row = box.row(align=True)
                row.separator()
                row.prop(interval, "start")
                row.prop(interval, "end")
                remove = row.operator("boneyard.mark_remove", icon="REMOVE", text="")
                remove.mark, remove.interval = m, i


CLASSES = (BONEYARD_UL_motions, BONEYARD_OT_motion_edit, BONEYARD_OT_motion_add, BONEYARD_OT_motion_remove,
           BONEYARD_OT_motion_move, BONEYARD_OT_mark_add, BONEYARD_OT_mark_remove, BONEYARD_OT_interval_add,
           BONEYARD_PT_model)
