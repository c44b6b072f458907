"""Helpers the import and export operators share."""
import contextlib
import os
import shutil
import tempfile

import bpy

from . import cli
from .cli import BoneyardError

ADDON = __package__


# What each import operator reads, and where the other game's files go instead: boneyard would
# convert them all, and the armature would then carry the wrong game (and a wrong template).
_IMPORTS = {
    "XRAY": ("X-Ray (S.T.A.L.K.E.R.)", "File > Import > X-Ray model/motions (.ogf/.omf/.skls)",
             (".ogf", ".omf", ".skls", ".skl", ".anm")),
    "MGS2": ("MGS2", "File > Import > MGS2 model (.kms/.evm)", (".kms", ".evm", ".cmdl")),
}


def refuse_other_game(path, game):
    """Raises BoneyardError when `path` is, by its extension, the other game's file (`game`: the
    importing operator's), naming the file and the operator that imports it."""
    extension = os.path.splitext(path)[1].lower()
    for other, (name, operator, extensions) in _IMPORTS.items():
        if other != game and extension in extensions:
            if extension == ".cmdl":  # the Master Collection's companion of a .kms/.evm
                what, action = "an MGS2 .cmdl (a model's companion file)", "import its .kms or .evm with "
            else:
                what, action = "an %s file" % name, "import it with "
            raise BoneyardError("%s is %s, not an %s one: %s%s" % (os.path.basename(path), what, _IMPORTS[game][0],
                                                                    action, operator))


def executable(context):
    prefs = context.preferences.addons[ADDON].preferences if ADDON in context.preferences.addons else None
    return cli.find_executable(prefs.boneyard_path if prefs is not None else "")


def keep_temporary(context):
    prefs = context.preferences.addons[ADDON].preferences if ADDON in context.preferences.addons else None
    return bool(prefs is not None and prefs.keep_temporary)


@contextlib.contextmanager
def scratch(context):
    """A temporary folder for the .glb files between boneyard and Blender, removed afterwards
    unless the preferences say to keep it (its path is then printed)."""
    folder = tempfile.mkdtemp(prefix="boneyard_io_")
    try:
        yield folder
    finally:
        if keep_temporary(context):
            print("boneyard_io: kept the temporary files in %s" % folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def read_bytes(path, what):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as error:
        raise BoneyardError("cannot read %s %s: %s" % (what, path, error.strerror or error)) from error


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(bytes(data))


@contextlib.contextmanager
def scene_custom_properties_kept(scene, keys):
    """Blender's glTF import copies the glTF scene extras onto the current scene; the add-on keeps
    them on the armature instead and leaves the scene's own properties as they were."""
    before = {k: scene[k] for k in keys if k in scene.keys()}
    try:
        yield
    finally:
        for k in keys:
            if k in before:
                scene[k] = before[k]
            elif k in scene.keys():
                del scene[k]


def set_scene_fps(scene, fps):
    """Keys at `fps` per second land on whole frames only at that rate; returns the previous
    rate when it changed (else None)."""
    before = scene.render.fps / scene.render.fps_base
    if scene.render.fps == fps and scene.render.fps_base == 1.0:
        return None
    scene.render.fps, scene.render.fps_base = fps, 1.0
    return before


def imported_armature(before, required=True):
    """The one armature object that Blender's glTF import added (`before`: the objects before);
    None for a model without skeleton when not `required`."""
    new = [o for o in bpy.data.objects if o not in before and o.type == "ARMATURE"]
    if not new and not required:
        return None
    if len(new) != 1:
        raise BoneyardError("expected one armature from the glTF import, found %d" % len(new))
    return new[0]


def track_actions(obj):
    """NLA track name -> the action of its one strip, for the tracks of `obj`."""
    out = {}
    if obj.animation_data is None:
        return out
    for track in obj.animation_data.nla_tracks:
        strips = [s for s in track.strips if s.action is not None]
        if len(strips) == 1:
            out[track.name] = strips[0].action
    return out


def armature_for(context, game):
    """The armature to export: the active object (or the armature it is bound to) when it holds
    a model of `game`, else the only such armature in the scene."""
    obj = context.active_object
    candidates = []
    if obj is not None:
        candidates.append(obj)
        if obj.parent is not None:
            candidates.append(obj.parent)
        candidates += [m.object for m in getattr(obj, "modifiers", []) if m.type == "ARMATURE" and m.object]
    for candidate in candidates:
        if candidate.type == "ARMATURE" and candidate.data.boneyard.game == game:
            return candidate
    found = [o for o in context.scene.objects if o.type == "ARMATURE" and o.data.boneyard.game == game]
    if len(found) == 1:
        return found[0]
    what = {"XRAY": "an X-Ray model or motions", "MGS2": "an MGS2 model"}[game]
    if not found:
        raise BoneyardError("no armature imported by boneyard as %s in this scene" % what)
    raise BoneyardError("%d armatures hold %s: select the one to export" % (len(found), what))


def is_ogf_v3(path):
    """An OGF v3 model (builds before 2004): its header chunk (id 1, bit 31 aside) holds 4 bytes."""
    try:
        with open(path, "rb") as f:
            head = f.read(9)
    except OSError:
        return False
    return (len(head) == 9 and int.from_bytes(head[0:4], "little") & 0x7FFFFFFF == 1
            and int.from_bytes(head[4:8], "little") == 4 and head[8] == 3)


class Messages:
    """What a step tells the user: warnings (boneyard's, and the add-on's) and information."""

    def __init__(self):
        self.warnings, self.info = [], []

    def warn(self, lines):
        self.warnings += [lines] if isinstance(lines, str) else list(lines)

    def note(self, line):
        self.info.append(line)

    def report(self, operator, limit=12):
        """Into Blender's report area (and the system console, which keeps every line)."""
        for level, lines in (("WARNING", self.warnings), ("INFO", self.info)):
            for line in lines[:limit]:
                operator.report({level}, line)
            if len(lines) > limit:
                operator.report({level}, "... and %d more lines (see the system console)" % (len(lines) - limit))
            for line in lines:
                print("boneyard_io: " + line)


def absolute(path):
    return os.path.abspath(bpy.path.abspath(path)) if path else ""
