"""What the add-on remembers of an action and of the armature at import, to tell at export which
channels the user changed. A channel nobody changed is left out of the glTF, so boneyard keeps
that channel's bytes from the template; only changed channels go through Blender's glTF export,
whose float noise (up to about 1e-6 m on translations, after Blender recomputes each bone's local
matrix) would otherwise move 16-bit keys with tiny steps (docs/blender-addon.md, "Exactness")."""
import hashlib
import json
from array import array

# Pose-bone properties whose F-curves make a glTF channel.
KINDS = {"location": "translation", "rotation_quaternion": "rotation", "rotation_euler": "rotation",
         "rotation_axis_angle": "rotation", "scale": "scale"}
REST_TOLERANCE = 1e-5  # entering and leaving edit mode recomputes rest matrices with float noise


def _curve_parts(curve, data_path, array_index, fresh, runs):
    """The bytes a curve adds to its channel's hash. `fresh`: the curve is one Blender's glTF import
    has just made, every key with interpolation `fresh`; its extrapolation (constant), mute (off)
    and modifiers (none) are then Blender's defaults, which the import never changes, and are not
    read back: the bytes are the same as when they are read, with fewer reads (there are about
    20,000 curves for 69 motions of 41 bones, and each read counts)."""
    points = curve.keyframe_points
    n = len(points)
    co = array("f", bytes(8 * n))  # foreach_get takes no memoryview slice of a reused buffer
    points.foreach_get("co", co)
    if fresh is None:
        modifiers = curve.modifiers
        head = "%s|%d|%s|%d|%s|" % (data_path, array_index, curve.extrapolation, curve.mute,
                                    ",".join(m.type for m in modifiers) if len(modifiers) else "")
        interpolation = array("i", bytes(4 * n))
        points.foreach_get("interpolation", interpolation)
    else:
        head = "%s|%d|CONSTANT|0||" % (data_path, array_index)
        interpolation = runs[fresh, n]
    # Handles shape only Bezier keys, and boneyard's glTF imports as linear keys: a curve whose
    # interpolation still equals the import's plays the same whatever its handles.
    return head.encode(), co, interpolation


class _Runs(dict):
    """(value, count) -> `count` ints of `value`: the interpolation bytes of fresh curves, made
    once per key count."""

    def __missing__(self, key):
        value, count = key
        run = self[key] = array("i", [value]) * count
        return run


def bone_paths(arm):
    """Pose-bone data path -> (bone name, rotation mode): looked up once per armature, not per action."""
    return {pb.path_from_id(): (pb.name, pb.rotation_mode) for pb in arm.pose.bones}


def _path_and_index(member):
    return member[0], member[1]


def channel_hashes(arm, action, bones=None, fresh=None):
    """{bone: {kind: hash}} of the action's F-curves on `arm`'s pose bones (rotation: with the
    bone's rotation mode, which decides which curves Blender plays). `bones`: bone_paths(arm);
    `fresh`: see _curve_parts. Each RNA attribute is read once per curve, the array indices all
    at once: these reads are most of the import's own time."""
    if bones is None:
        bones = bone_paths(arm)
    curves = action.fcurves
    indices = array("i", bytes(4 * len(curves)))
    curves.foreach_get("array_index", indices)
    groups = {}
    for curve, index in zip(curves, indices):
        path = curve.data_path
        head, _, prop = path.rpartition(".")
        bone, kind = bones.get(head), KINDS.get(prop)
        if bone is not None and kind is not None:
            groups.setdefault((bone, kind), []).append((path, index, curve))
    out = {}
    runs = _Runs()
    for ((name, rotation_mode), kind), members in groups.items():
        digest = hashlib.sha1()
        if kind == "rotation":
            digest.update(rotation_mode.encode())
        members.sort(key=_path_and_index)
        for path, index, curve in members:
            for part in _curve_parts(curve, path, index, fresh, runs):
                digest.update(part)
        out.setdefault(name, {})[kind] = digest.hexdigest()
    return out


def frame_range(action):
    return [float(action.frame_range[0]), float(action.frame_range[1])]


def remember_action(arm, action, bones=None, fresh=None):
    """The action's state at import, as JSON kept on the action (arguments: channel_hashes)."""
    return json.dumps({"channels": channel_hashes(arm, action, bones, fresh), "range": frame_range(action)})


def rest_pose(arm):
    """Each bone's parent, rest matrix and inheritance flags (what decides a channel's glTF value)."""
    out = {}
    for bone in arm.data.bones:
        matrix = [v for row in bone.matrix_local for v in row]
        out[bone.name] = [bone.parent.name if bone.parent else "", matrix, bool(bone.use_inherit_rotation),
                          str(getattr(bone, "inherit_scale", "FULL")), bool(bone.use_local_location)]
    return out


def remember_rest(arm):
    return json.dumps(rest_pose(arm))


def rest_changed(arm, remembered):
    """Bone names whose rest pose (or parent, or inheritance) differs from `remembered`."""
    try:
        before = json.loads(remembered) if remembered else None
    except ValueError:
        before = None
    if before is None:
        return ["(no rest pose remembered)"]
    now = rest_pose(arm)
    changed = sorted(set(before) ^ set(now))
    for name in set(before) & set(now):
        a, b = before[name], now[name]
        if a[0] != b[0] or a[2:] != b[2:] or max(abs(x - y) for x, y in zip(a[1], b[1])) > REST_TOLERANCE:
            changed.append(name)
    return sorted(changed)


def _animated_elsewhere(arm):
    """Bones whose pose does not come from the action alone: active constraints or drivers."""
    bones = {pb.name for pb in arm.pose.bones if any(not c.mute and c.influence > 0 for c in pb.constraints)}
    if arm.animation_data is not None:
        paths = {pb.path_from_id(): pb.name for pb in arm.pose.bones}
        for driver in arm.animation_data.drivers:
            head = driver.data_path.rpartition(".")[0]
            if head in paths:
                bones.add(paths[head])
    return bones


def changed_channels(arm, action, remembered):
    """The (bone, kind) channels of `action` that differ from `remembered`: a set (empty: nothing
    changed), or None when the whole action must be exported (not remembered, or its first frame
    moved). A longer or shorter action is fine: the original's keys hold their last value past
    their end, as Blender holds an unchanged curve's last key."""
    try:
        before = json.loads(remembered) if remembered else None
    except ValueError:
        before = None
    if before is None or abs(before["range"][0] - frame_range(action)[0]) > 1e-6:
        return None  # a moved start would shift the original's keys against the edited ones
    now = channel_hashes(arm, action)
    changed = set()
    for bone in set(before["channels"]) | set(now):
        old, new = before["channels"].get(bone, {}), now.get(bone, {})
        for kind in set(old) | set(new):
            if old.get(kind) != new.get(kind):
                changed.add((bone, kind))
    for bone in _animated_elsewhere(arm):
        changed |= {(bone, "translation"), (bone, "rotation")}
    return changed
