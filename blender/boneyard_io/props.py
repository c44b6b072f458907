"""What the add-on stores in the .blend (docs/blender-addon.md, "What is stored where").

* `Armature.boneyard` (the armature data, which Blender's glTF exporter never writes out): the
  game, the source file, the glTF scene extras boneyard wrote, and per motion set its source, the
  file read at import, its motions in file order and, as the ID property `template`, a copy of the
  original file's bytes (the template of every export).
* `Action.boneyard`: the motion an action holds: its name, params, flags and marks (edited in the
  panel) and the animation extras boneyard wrote at import (JSON)."""
import json
import struct

import bpy
from bpy.props import (BoolProperty, CollectionProperty, EnumProperty, FloatProperty, IntProperty,
                       PointerProperty, StringProperty)

# 0xF motion flags, bit by bit (ESMFlags; the CLI's words, `boneyard omf set --flags`).
FLAG_NAMES = ("fx", "stop_at_end", "no_mix", "sync_part", "foot_steps", "root_mover", "idle", "weapon_bone")
PARAM_NAMES = ("speed", "power", "accrue", "falloff")
NO_BONE_OR_PART = 0xFFFF


def f32(value):
    """`value` as the float32 the .omf stores (None stays None)."""
    if value is None:
        return None
    return struct.unpack("<f", struct.pack("<f", float(value)))[0]


def to_s32(value):
    """An unsigned 32-bit field in Blender's signed IntProperty (bit patterns kept)."""
    value = int(value) & 0xFFFFFFFF
    return value - (1 << 32) if value >= (1 << 31) else value


def to_u32(value):
    return int(value) & 0xFFFFFFFF


def _flag_property(bit, word):
    def get(self):
        return bool(to_u32(self.flags) & (1 << bit))

    def set_(self, on):
        flags = to_u32(self.flags)
        self.flags = to_s32(flags | (1 << bit) if on else flags & ~(1 << bit))

    return BoolProperty(name=word, description="motion flag %s (bit %d)" % (word, bit), get=get, set=set_)


class BoneyardInterval(bpy.types.PropertyGroup):
    start: FloatProperty(name="Start", description="seconds from the motion's first frame", precision=4)
    end: FloatProperty(name="End", description="seconds from the motion's first frame", precision=4)


class BoneyardMark(bpy.types.PropertyGroup):
    name: StringProperty(name="Name", description="mark name (e.g. Left, Right)")
    intervals: CollectionProperty(type=BoneyardInterval)


_motion_annotations = {
    "is_motion": BoolProperty(name="X-Ray motion", default=False),
    "name": StringProperty(name="Name", description="motion name in the .omf"),
    "motion_set": IntProperty(name="Motion set", default=0, min=0),
    "frames": IntProperty(name="Frames", description="frames at import (30 per second)", default=0),
    "flags": IntProperty(name="Flags", description="0xF motion flags as stored"),
    "bone_or_part": IntProperty(name="Part or bone", min=0, max=NO_BONE_OR_PART, default=NO_BONE_OR_PART,
                                description="cycle: the bone part it plays on (65535 = all); FX: its start bone"),
    "motion_id": IntProperty(name="Motion id", min=0, max=0xFFFF),
    "speed": FloatProperty(name="Speed", default=1.0, soft_min=0.0, precision=4),
    "power": FloatProperty(name="Power", default=1.0, soft_min=0.0, precision=4),
    "accrue": FloatProperty(name="Accrue", default=2.0, soft_min=0.0, precision=4),
    "falloff": FloatProperty(name="Falloff", default=2.0, soft_min=0.0, precision=4),
    "marks": CollectionProperty(type=BoneyardMark),
    "extras": StringProperty(name="glTF extras", description="boneyard's animation extras at import (JSON)"),
    "remembered": StringProperty(name="At import", description="the action's channels at import (fingerprint.py)"),
}
for _bit, _word in enumerate(FLAG_NAMES):
    _motion_annotations["flag_" + _word] = _flag_property(_bit, _word)
BoneyardMotion = type("BoneyardMotion", (bpy.types.PropertyGroup,), {"__annotations__": _motion_annotations})


class BoneyardMotionRef(bpy.types.PropertyGroup):
    action: PointerProperty(type=bpy.types.Action, name="Action")


class BoneyardMotionSet(bpy.types.PropertyGroup):
    """One .omf (or an .ogf's embedded motions); ID property `template`: the original's bytes."""
    source: StringProperty(name="Source", description="the motion ref or file name boneyard read")
    file: StringProperty(name="File", description="the .omf read at import", subtype="FILE_PATH")
    motions: CollectionProperty(type=BoneyardMotionRef)
    active_motion: IntProperty(name="Motion", default=0)


class BoneyardModel(bpy.types.PropertyGroup):
    """On the armature data: what was imported; ID property `template` (MGS2): the original's bytes."""
    game: EnumProperty(name="Game", items=(("NONE", "None", ""), ("XRAY", "X-Ray", ""), ("MGS2", "MGS2", "")),
                       default="NONE")
    source: StringProperty(name="Source", subtype="FILE_PATH", description="the file imported")
    skeleton: StringProperty(name="Skeleton", subtype="FILE_PATH", description="the .ogf an .omf was put on")
    scene_extras: StringProperty(name="Scene extras", description="boneyard's glTF scene extras (JSON)")
    motion_sets: CollectionProperty(type=BoneyardMotionSet)
    active_set: IntProperty(name="Motion set", default=0)
    rest: StringProperty(name="Rest pose", description="the bones' rest pose at import (fingerprint.py)")
    model_format: StringProperty(name="Format", description="kms or evm")
    motions: StringProperty(name="Motions", subtype="FILE_PATH",
                            description="MGS2: the .mar whose motions were imported with the model (not written back)")
    scale: FloatProperty(name="Scale", default=0.0, description="metres per unit given at import (0: boneyard's default)")


CLASSES = (BoneyardInterval, BoneyardMark, BoneyardMotion, BoneyardMotionRef, BoneyardMotionSet, BoneyardModel)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Action.boneyard = PointerProperty(type=BoneyardMotion)
    bpy.types.Armature.boneyard = PointerProperty(type=BoneyardModel)


def unregister():
    del bpy.types.Armature.boneyard
    del bpy.types.Action.boneyard
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)


# --- motion params <-> boneyard's animation extras (docs/xray-gltf.md section 6) ---

def _marks_of_extras(x):
    out = []
    for mark in x.get("marks") or []:
        intervals = [(f32(a), f32(b)) for a, b in mark.get("intervals") or [] if a is not None and b is not None]
        out.append((mark.get("name", ""), intervals))
    return out


def _marks_of_panel(motion):
    return [(m.name, [(f32(i.start), f32(i.end)) for i in m.intervals]) for m in motion.marks]


def fill_motion(motion, name, extras, set_index):
    """Sets an action's motion from boneyard's animation extras (`xray` member)."""
    motion.is_motion = True
    motion.name = extras.get("name", name)
    motion.motion_set = set_index
    motion.frames = int(extras.get("frames", 0))
    motion.flags = to_s32(extras.get("flags", 0))
    motion.bone_or_part = int(extras.get("bone_or_part", NO_BONE_OR_PART))
    motion.motion_id = int(extras.get("motion_id", 0))
    for field in PARAM_NAMES:
        if extras.get(field) is not None:
            setattr(motion, field, extras[field])
    motion.marks.clear()
    for mark_name, intervals in _marks_of_extras(extras):
        mark = motion.marks.add()
        mark.name = mark_name
        for start, end in intervals:
            interval = mark.intervals.add()
            interval.start, interval.end = start, end
    motion.extras = json.dumps(extras, ensure_ascii=False, separators=(",", ":"))


def motion_extras(motion, set_index, name=None):
    """The animation extras (`xray` member) for export: what boneyard wrote at import, with every
    field the panel changed replaced; boneyard's importer reads them over the template's. `name`:
    the motion name to write (default: the panel's)."""
    x = json.loads(motion.extras) if motion.extras else {}
    x["motion_set"] = set_index
    name = motion.name if name is None else name
    if name != x.get("name"):
        x["name"] = name
        for key in ("name_hex", "keys_name", "keys_name_hex"):  # the 0xE copy follows the new name
            x.pop(key, None)
    if to_u32(motion.flags) != x.get("flags"):
        x["flags"] = to_u32(motion.flags)
        x.pop("flag_words", None)
    if motion.bone_or_part != x.get("bone_or_part"):
        x["bone_or_part"] = motion.bone_or_part
    if "motion_id" in x and motion.motion_id != x["motion_id"]:  # a new motion's id is its position
        x["motion_id"] = motion.motion_id
    for field in PARAM_NAMES:
        value = f32(getattr(motion, field))
        if value != f32(x.get(field)):
            x[field] = value
    panel_marks = _marks_of_panel(motion)
    if panel_marks != _marks_of_extras(x):
        old = {m.get("name"): m for m in x.get("marks") or []}
        marks = []
        for mark_name, intervals in panel_marks:
            mark = {"name": mark_name, "intervals": [[a, b] for a, b in intervals]}
            if "name_hex" in old.get(mark_name, {}):  # bytes without a cp1251 spelling, name unchanged
                mark["name_hex"] = old[mark_name]["name_hex"]
            marks.append(mark)
        x["marks"] = marks
    return x
