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


def _floats(points, attribute, count):
    values = array("f", bytes(4 * count))
    points.foreach_get(attribute, values)
    return values.tobytes()


def _curve_bytes(curve):
    points = curve.keyframe_points
    n = len(points)
    head = "%s|%d|%s|%d|%s|" % (curve.data_path, curve.array_index, curve.extrapolation, curve.mute,
                                ",".join(m.type for m in curve.modifiers))
    interpolation = array("i", bytes(4 * n))
    points.foreach_get("interpolation", interpolation)
    # Handles shape only Bezier keys, and boneyard's glTF imports as linear keys: a curve whose
    # interpolation still equals the import's plays the same whatever its handles.
    return head.encode() + _floats(points, "co", 2 * n) + interpolation.tobytes()


def channel_hashes(arm, action):
    """{bone: {kind: hash}} of the action's F-curves on `arm`'s pose bones (rotation: with the
    bone's rotation mode, which decides which curves Blender plays)."""
    bones = {pb.path_from_id(): pb for pb in arm.pose.bones}
    groups = {}
    for curve in action.fcurves:
        head, _, prop = curve.data_path.rpartition(".")
        bone, kind = bones.get(head), KINDS.get(prop)
        if bone is not None and kind is not None:
            groups.setdefault((bone.name, kind), []).append(curve)
    out = {}
    for (bone, kind), curves in groups.items():
        digest = hashlib.sha1()
        if kind == "rotation":
            digest.update(arm.pose.bones[bone].rotation_mode.encode())
        for curve in sorted(curves, key=lambda c: (c.data_path, c.array_index)):
            digest.update(_curve_bytes(curve))
        out.setdefault(bone, {})[kind] = digest.hexdigest()
    return out


def frame_range(action):
    return [float(action.frame_range[0]), float(action.frame_range[1])]


def remember_action(arm, action):
    """The action's state at import, as JSON kept on the action."""
    return json.dumps({"channels": channel_hashes(arm, action), "range": frame_range(action)})


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
