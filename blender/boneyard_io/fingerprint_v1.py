"""The fingerprint's first format (boneyard_io 0.1.0 before format 2, fingerprint.py): only read,
to compare a `.blend` imported with it. An action remembered in this format is compared with hashes
made the same way, so that its untouched motions still export byte for byte; new imports write
format 2, which reads back the same keys with fewer calls."""
import hashlib
from array import array

from .fingerprint_kinds import KINDS


def _curve_parts(curve, data_path, array_index):
    points = curve.keyframe_points
    n = len(points)
    co = array("f", bytes(8 * n))
    points.foreach_get("co", co)
    modifiers = curve.modifiers
    head = "%s|%d|%s|%d|%s|" % (data_path, array_index, curve.extrapolation, curve.mute,
                                ",".join(m.type for m in modifiers) if len(modifiers) else "")
    interpolation = array("i", bytes(4 * n))
    points.foreach_get("interpolation", interpolation)
    return head.encode(), co, interpolation


def channel_hashes(arm, action):
    """{bone: {kind: hash}} in the first format: per channel, a SHA-1 of the rotation mode (for
    rotations) then, curve after curve in (data path, array index) order, the text
    "path|index|extrapolation|mute|modifier types|", the keys' (frame, value) as float32 and their
    interpolations as int32."""
    bones = {pb.path_from_id(): (pb.name, pb.rotation_mode) for pb in arm.pose.bones}
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
    for ((name, rotation_mode), kind), members in groups.items():
        digest = hashlib.sha1()
        if kind == "rotation":
            digest.update(rotation_mode.encode())
        members.sort(key=lambda member: (member[0], member[1]))
        for path, index, curve in members:
            for part in _curve_parts(curve, path, index):
                digest.update(part)
        out.setdefault(name, {})[kind] = digest.hexdigest()
    return out
