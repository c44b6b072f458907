"""What the add-on remembers of an action and of the armature at import, to tell at export which
channels the user changed. A channel nobody changed is left out of the glTF, so boneyard keeps
that channel's bytes from the template; only changed channels go through Blender's glTF export,
whose float noise (up to about 1e-6 m on translations, after Blender recomputes each bone's local
matrix) would otherwise move 16-bit keys with tiny steps (docs/blender-addon.md, "Exactness")."""
import hashlib
import json
from array import array

import numpy

from . import fingerprint_v1
from .fingerprint_kinds import KINDS

FORMAT = 2  # what remember_action writes; format 1 (no "format" member) is still read: fingerprint_v1.py
REST_TOLERANCE = 1e-5  # entering and leaving edit mode recomputes rest matrices with float noise


# Numbers for what a channel's hash covers besides its keys; a value not listed here (a later
# Blender's) goes into the hash as text.
_RANKS = {prop: rank for rank, prop in enumerate(KINDS)}  # the curve's property, in a channel
_ROTATION_MODES = {mode: code for code, mode in enumerate(
    ("QUATERNION", "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX", "AXIS_ANGLE"), 1)}
_EXTRAPOLATIONS = {"CONSTANT": 0, "LINEAR": 1}
_HEAD = 7  # int32 words a curve adds to its channel's record (see channel_hashes)


class ChannelPaths(dict):
    """F-curve data path -> channel number * 8 + the property's rank, for every pose-bone property
    that makes a glTF channel; `channels`: (bone name, kind, rotation mode text when it has no
    code) and `modes`: the rotation mode codes (0: not a rotation), by channel number. Made once
    per armature, not per action, so that a curve costs one dictionary lookup."""

    def __init__(self, arm):
        super().__init__()
        self.channels = []
        modes = []
        numbers = {}
        for pb in arm.pose.bones:
            head = pb.path_from_id()
            mode = pb.rotation_mode
            for prop, kind in KINDS.items():
                number = numbers.get((pb.name, kind))
                if number is None:
                    number = numbers[pb.name, kind] = len(self.channels)
                    code = _ROTATION_MODES.get(mode, 0) if kind == "rotation" else 0
                    self.channels.append((pb.name, kind, mode if kind == "rotation" and not code else ""))
                    modes.append(code)
                self[head + "." + prop] = number * 8 + _RANKS[prop]
        self.modes = numpy.array(modes, numpy.int32)


def channel_paths(arm):
    return ChannelPaths(arm)


_SCRATCH = [numpy.empty(0, numpy.int32)]


def _scratch(size):
    """`size` int32 words of a buffer kept from call to call: a new buffer of some 100 KB per action
    costs more in page faults (fresh pages) than filling it."""
    if len(_SCRATCH[0]) < size:
        _SCRATCH[0] = numpy.empty(max(size, 2 * len(_SCRATCH[0])), numpy.int32)
    return _SCRATCH[0][:size]


def channel_hashes(arm, action, paths=None, fresh=None):
    """{bone: {kind: hash}} of the action's F-curves on `arm`'s pose bones (rotation: with the
    bone's rotation mode, which decides which curves Blender plays). `paths`: channel_paths(arm).

    A channel's hash is a SHA-1 of one record of int32 words: the rotation mode code; for each of
    its curves in (property, array index) order its property, array index, key count,
    extrapolation, mute, modifier count and the interpolation all its keys share (-1: they differ,
    -2: no keys); then every key's (frame, value) as float32, curve after curve; then the
    interpolation of every key of the curves whose keys differ in it; a rotation mode or
    extrapolation without a code, and the modifiers' types, follow as text. Handles shape only
    Bezier keys, and boneyard's glTF imports as linear keys: a curve whose interpolation still
    equals the import's plays the same whatever its handles, so they are not read.

    `fresh`: the curves are the ones Blender's glTF import has just made, every key with
    interpolation `fresh` (an enum value); their extrapolation (constant), mute (off) and
    modifiers (none) are then Blender's defaults, which the import never changes, and are not read
    back: the hash is the same as when they are read, with fewer reads (there are about 20,000
    curves for 69 motions of 41 bones, and each read counts). The records of all channels of the
    action are laid out in one buffer, the keys read straight into their place (one foreach_get
    per curve), and each channel is hashed in one call."""
    if paths is None:
        paths = channel_paths(arm)
    curves = action.fcurves
    indices = numpy.empty(len(curves), numpy.int32)
    curves.foreach_get("array_index", indices)
    codes, positions, points, counts, members = [], [], [], [], []
    for position, curve in enumerate(curves):
        code = paths.get(curve.data_path)
        if code is not None:
            keys = curve.keyframe_points
            codes.append(code)
            positions.append(position)
            points.append(keys)
            counts.append(len(keys))
            if fresh is None:
                members.append(curve)
    if not codes:
        return {}
    # The curves in channel, property, index order (a data path and index are unique in an action).
    codes = numpy.array(codes, numpy.int64) << 32 | indices[positions].astype(numpy.int64) & 0xFFFFFFFF
    order = numpy.argsort(codes, kind="stable")
    codes = codes[order]
    counts = numpy.array(counts, numpy.int64)[order]
    curve_count = len(codes)
    first_key = numpy.cumsum(counts) - counts  # each curve's first key among all the action's keys
    head = numpy.empty((curve_count, _HEAD), numpy.int32)
    head[:, 0] = (codes >> 32) & 7
    head[:, 1] = codes & 0xFFFFFFFF
    head[:, 2] = counts
    has_keys = counts > 0
    texts = {}
    if fresh is not None:
        head[:, 3:6] = 0
        head[:, 6] = numpy.where(has_keys, fresh, -2)
        spilled = None
    else:
        interpolations = numpy.empty(int(counts.sum()), numpy.int32)
        extrapolations, mutes, modifier_counts = [], [], []
        for row, (at, count, i) in enumerate(zip(first_key.tolist(), counts.tolist(), order.tolist())):
            curve = members[i]
            if count:
                points[i].foreach_get("interpolation", interpolations[at:at + count])
            extrapolation = _EXTRAPOLATIONS.get(curve.extrapolation, -1)
            modifiers = curve.modifiers
            extrapolations.append(extrapolation)
            mutes.append(curve.mute)
            modifier_counts.append(len(modifiers))
            if extrapolation < 0 or len(modifiers):
                texts.setdefault(int(codes[row] >> 35), []).append(
                    "%d:%s:%s" % (row, curve.extrapolation, ",".join(m.type for m in modifiers)))
        head[:, 3] = extrapolations  # lists of ints: numpy converts a list of tuples item by item
        head[:, 4] = mutes
        head[:, 5] = modifier_counts
        # Keys whose interpolation differs from the curve's first key's, counted up to each key.
        differ = numpy.concatenate(([0], numpy.cumsum(interpolations[1:] != interpolations[:-1])))
        first = numpy.where(has_keys, first_key, 0)
        last = numpy.where(has_keys, first_key + counts - 1, 0)
        uniform = differ[last] == differ[first] if len(interpolations) else has_keys
        firsts = interpolations[first] if len(interpolations) else numpy.zeros(curve_count, numpy.int32)
        head[:, 6] = numpy.where(has_keys, numpy.where(uniform, firsts, -1), -2)
        spilled = numpy.flatnonzero(has_keys & ~uniform)
    # Each channel's record: [mode][_HEAD words per curve][2 float32 per key][spilled interpolations].
    channel = codes >> 35
    starts = numpy.flatnonzero(numpy.concatenate(([True], channel[1:] != channel[:-1])))
    per_channel = numpy.diff(numpy.append(starts, curve_count))
    keys = numpy.add.reduceat(counts, starts)
    extra = numpy.zeros(curve_count, numpy.int64)
    if spilled is not None and len(spilled):
        extra[spilled] = counts[spilled]
    extras = numpy.add.reduceat(extra, starts)
    sizes = 1 + _HEAD * per_channel + 2 * keys + extras
    ends = numpy.cumsum(sizes)
    begins = ends - sizes
    record = _scratch(int(ends[-1]))  # every word is written below
    values = record.view(numpy.float32)
    numbers = channel[starts]
    record[begins] = paths.modes[numbers]
    head_at = numpy.repeat(begins + 1 - _HEAD * starts, per_channel) + _HEAD * numpy.arange(curve_count)
    record[head_at[:, None] + numpy.arange(_HEAD)] = head
    keys_at = begins + 1 + _HEAD * per_channel
    co_at = numpy.repeat(keys_at - 2 * first_key[starts], per_channel) + 2 * first_key
    for at, count, i in zip(co_at.tolist(), counts.tolist(), order.tolist()):
        if count:
            points[i].foreach_get("co", values[at:at + 2 * count])
    if spilled is not None and len(spilled):
        before = numpy.cumsum(extra) - extra
        extra_at = numpy.repeat(keys_at + 2 * keys - before[starts], per_channel) + before
        for row in spilled.tolist():
            at, first, count = int(extra_at[row]), int(first_key[row]), int(counts[row])
            record[at:at + count] = interpolations[first:first + count]
    out = {}
    info = paths.channels
    for number, begin, end in zip(numbers.tolist(), begins.tolist(), ends.tolist()):
        name, kind, mode = info[number]
        digest = hashlib.sha1(record[begin:end])
        if mode or number in texts:
            digest.update(("%s|%s" % (mode, ";".join(texts.get(number, [])))).encode())
        bone = out.get(name)
        if bone is None:
            bone = out[name] = {}
        bone[kind] = digest.hexdigest()
    return out


def hashes_of_keys(paths, curves):
    """channel_hashes of fresh curves (see channel_hashes) given as they were set: (data path,
    array index, interpolation of every key, keys as (frame, value) float32 rows). The same
    records, made from the arrays instead of read back from Blender."""
    groups = {}
    for data_path, index, interpolation, keys in curves:
        code = paths.get(data_path)
        if code is not None:
            groups.setdefault(code >> 3, []).append((code & 7, index, interpolation, keys))
    out = {}
    for number, members in groups.items():
        members.sort(key=lambda member: (member[0], member[1]))
        head = [int(paths.modes[number])]
        for rank, index, interpolation, keys in members:
            head += (rank, index, len(keys), 0, 0, 0, interpolation if len(keys) else -2)
        digest = hashlib.sha1(array("i", head))
        for _, _, _, keys in members:
            digest.update(keys)  # contiguous float32 rows: the same bytes as in channel_hashes' record
        name, kind, mode = paths.channels[number]
        if mode:
            digest.update(("%s|" % mode).encode())
        out.setdefault(name, {})[kind] = digest.hexdigest()
    return out


def frame_range(action):
    return [float(action.frame_range[0]), float(action.frame_range[1])]


def remember_action(arm, action, paths=None, fresh=None, keys=None):
    """The action's state at import, as JSON kept on the action (arguments: channel_hashes; `keys`:
    the curves as they were made, see hashes_of_keys, so that nothing is read back)."""
    if keys is not None:
        channels = hashes_of_keys(paths or channel_paths(arm), keys)
    else:
        channels = channel_hashes(arm, action, paths, fresh)
    return json.dumps({"format": FORMAT, "channels": channels, "range": frame_range(action)})


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
    if before.get("format", 1) == 1:
        now = fingerprint_v1.channel_hashes(arm, action)  # remembered by an earlier add-on
    elif before["format"] == FORMAT:
        now = channel_hashes(arm, action)
    else:
        return None  # remembered by a later add-on: nothing to compare with
    changed = set()
    for bone in set(before["channels"]) | set(now):
        old, new = before["channels"].get(bone, {}), now.get(bone, {})
        for kind in set(old) | set(new):
            if old.get(kind) != new.get(kind):
                changed.add((bone, kind))
    for bone in _animated_elsewhere(arm):
        changed |= {(bone, "translation"), (bone, "rotation")}
    return changed
