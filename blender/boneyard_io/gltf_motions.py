"""The motions of an X-Ray import made into Blender actions by the add-on, inside Blender's glTF
import, through the glTF add-on's extension hook (`gather_import_animations`). Blender's importer
is given the converted file without its animations (glb.without_animations), so that it neither
turns their 5,000 accessors and channels into Python objects nor converts every key with Python
objects one at a time and makes each F-curve itself: for 69 motions (767,052 keys in 19,803
curves) that was three quarters of the whole import. Here the conversion is a few numpy operations
for all channels at once, and the curves, actions and NLA tracks are the ones Blender's importer
makes: same names, groups, order, frames, interpolation and track order, the first motion restored
on the armature; the values the same within float32 rounding. Because the keys are set from
arrays, each channel's fingerprint (fingerprint.py) is hashed from those arrays: nothing is read
back.

Only during the add-on's own X-Ray import (`made_here`), and only for what this code knows
(`supported`: translation and rotation channels of skin joints, LINEAR or STEP samplers); any
other glTF import, or a file with anything else, is Blender's importer's alone (the add-on then
reads the fingerprints back), and so is every Blender but the ones this was checked against
(VERIFIED). The conversion follows the importer of Blender 3.4
(`io_scene_gltf2/blender/imp/gltf2_blender_animation_node.py`): glTF Y-up to Blender Z-up, the
node's correction rotations, then the edit bone's inverse; rotations made sign-continuous."""
import contextlib

import bpy
import numpy

_JOBS = []


class Job:
    """The motions the hook is to make in one import: the converted file's glTF `document` and
    binary chunk (Blender's importer is given the file without them). After the import: `curves`,
    {action name: [(data path, array index, interpolation, keys)]} (see _make), or `error`."""

    def __init__(self, document, binary):
        self.document, self.binary = document, binary
        self.curves, self.error = None, None


@contextlib.contextmanager
def made_here(document, binary):
    """Within this block, the next glTF import's hook makes the animations of `document`."""
    job = Job(document, binary)
    _JOBS.append(job)
    try:
        yield job
    finally:
        _JOBS.remove(job)


_INTERPOLATIONS = {None: "LINEAR", "LINEAR": "LINEAR", "STEP": "CONSTANT"}


# The Blender versions whose glTF importer this file follows and was checked against (tests/blender/
# addon_motions_test.py compares the two); with any other, Blender's importer makes the motions.
VERIFIED = ((3, 4), (3, 5))


def supported(document):
    """Whether the hook can make every animation of `document`: a Blender whose importer this
    follows, translation and rotation channels of skin joints (which become bones), LINEAR or STEP
    samplers."""
    if not VERIFIED[0] <= tuple(bpy.app.version[:2]) < VERIFIED[1]:
        return False
    joints = {joint for skin in document.get("skins", []) for joint in skin.get("joints", [])}
    for animation in document.get("animations", []):
        samplers = animation.get("samplers", [])
        for channel in animation.get("channels", []):
            target = channel.get("target", {})
            sampler = channel.get("sampler")
            if (target.get("node") not in joints or target.get("path") not in ("translation", "rotation")
                    or not isinstance(sampler, int) or not 0 <= sampler < len(samplers)
                    or samplers[sampler].get("interpolation") not in _INTERPOLATIONS):
                return False
    return True


class ImportExtension:
    """The glTF importer's user extension (found as boneyard_io.glTF2ImportUserExtension)."""

    def gather_import_animations(self, animations, options, gltf):
        if not _JOBS or _JOBS[-1].document is None or animations:
            return  # not the add-on's import, or one whose motions Blender makes
        job = _JOBS[-1]
        made = []
        try:
            job.curves, first_track = _make(gltf, job.document, job.binary, made)
            for obj in {obj for obj, _ in made}:
                _restore(obj, first_track)
        except Exception as error:  # reported by the add-on's import, with nothing half made left
            for obj, action in made:
                _unstash(obj, action)
            job.curves, job.error = None, error


def _track_names(animations):
    """The NLA track name of each animation, unique as the importer makes them."""
    from io_scene_gltf2.blender.imp.gltf2_blender_gltf import BlenderGlTF
    taken, names = set(), []
    for index, animation in enumerate(animations):
        name = BlenderGlTF.find_unused_name(taken, animation.get("name") or "Anim_%d" % index)
        taken.add(name)
        names.append(name)
    return names


def _multiply(a, b):
    """Row-wise quaternion products a @ b, (w, x, y, z) in float64."""
    aw, ax, ay, az = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    bw, bx, by, bz = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    return numpy.stack((aw * bw - ax * bx - ay * by - az * bz,
                        aw * bx + ax * bw + ay * bz - az * by,
                        aw * by - ax * bz + ay * bw + az * bx,
                        aw * bz + ax * by - ay * bx + az * bw), axis=1)


def _rotate(q, v):
    """Rows of v (x, y, z) turned by the rows of q (w, x, y, z) as mathutils' `q @ v` does:
    q (0, v) q*."""
    conjugate = q * numpy.array([1.0, -1.0, -1.0, -1.0])
    pure = numpy.concatenate((numpy.zeros((len(v), 1)), v), axis=1)
    return _multiply(_multiply(q, pure), conjugate)[:, 1:]


class _Channels:
    """The channels of one kind (translation or rotation) of every animation, their keys in one
    array of rows: the conversion is a few numpy operations for all of them at once."""

    def __init__(self):
        self.vnodes, self.inputs, self.outputs = [], [], []

    def add(self, vnode, sampler):
        self.vnodes.append(vnode)
        self.inputs.append(sampler["input"])
        self.outputs.append(sampler["output"])

    def convert(self, decode, fps, unit, translation):
        """Per channel: (rows begin, end) into self.keys[component], (frame, value) float32 rows."""
        if not self.vnodes:
            self.keys, self.spans = [], []
            return
        outputs = [decode(i) for i in self.outputs]
        lengths = numpy.array([len(o) for o in outputs])
        data = numpy.concatenate(outputs).astype(numpy.float64)
        frames = numpy.concatenate([decode(i)[:, 0] for i in self.inputs]).astype(numpy.float64) * fps

        def per_row(values):
            return numpy.repeat(numpy.array(values, numpy.float64), lengths, axis=0)

        def turned(quaternions, values, turn):
            """turn(per-row quaternions, values), skipped when every quaternion is the identity
            (the importer's correction rotations usually are): the same values, with less work."""
            quaternions = numpy.array(quaternions, numpy.float64)
            if not quaternions.size or (quaternions == (1.0, 0.0, 0.0, 0.0)).all():
                return values
            return turn(numpy.repeat(quaternions, lengths, axis=0), values)

        edit_inverse = [tuple(v.editbone_rot.conjugated()) for v in self.vnodes]
        after = [tuple(v.rotation_after) for v in self.vnodes]
        if translation:
            locs = numpy.stack((data[:, 0], -data[:, 2], data[:, 1]), axis=1) * unit  # Y-up to Z-up
            locs = turned(after, locs, _rotate) - per_row([tuple(v.editbone_trans) for v in self.vnodes])
            values = turned(edit_inverse, locs, _rotate)
        else:
            rots = numpy.stack((data[:, 3], data[:, 0], -data[:, 2], data[:, 1]), axis=1)
            rots = turned([tuple(v.rotation_before) for v in self.vnodes], rots, lambda q, r: _multiply(r, q))
            values = turned(edit_inverse, turned(after, rots, _multiply), _multiply)
            # The shortest path between neighbours: a key whose dot product with the (already
            # turned) previous key of its channel is negative is negated, as the importer does.
            ends = numpy.cumsum(lengths)
            begins = ends - lengths
            flips = numpy.concatenate(([False], numpy.einsum("ij,ij->i", values[1:], values[:-1]) < 0))
            flips[begins[lengths > 0]] = False
            parity = numpy.cumsum(flips)
            parity -= numpy.repeat(parity[numpy.minimum(begins, len(parity) - 1)], lengths)
            values[parity % 2 == 1] *= -1
        self.keys = []
        for component in range(values.shape[1]):
            keys = numpy.empty((len(values), 2), numpy.float32)
            keys[:, 0] = frames
            keys[:, 1] = values[:, component]
            self.keys.append(keys)
        ends = numpy.cumsum(lengths).tolist()
        self.spans = list(zip([0] + ends[:-1], ends))


def _make(gltf, document, binary, made):
    """Makes the actions, curves and NLA tracks of `document`'s animations as Blender's importer
    would. Returns ({action name: [(data path, array index, interpolation, keys)]}, the first
    animation's track name); the keys as set: (frame, value) float32 rows."""
    from io_scene_gltf2.blender.imp.gltf2_blender_vnode import VNode
    from . import glb
    enum = bpy.types.Keyframe.bl_rna.properties["interpolation"].enum_items
    decode = glb.Accessors(document, binary)

    animations = document.get("animations", [])
    tracks = _track_names(animations)
    kinds = {"translation": _Channels(), "rotation": _Channels()}
    order = []  # per animation: [(vnode, [(path, channel number, interpolation)])] in the importer's order
    for animation in animations:
        by_node = {}
        for channel in animation["channels"]:
            by_node.setdefault(channel["target"]["node"], []).append(channel)
        listed = []
        for vnode_id in gltf.vnodes:
            if not isinstance(vnode_id, int) or vnode_id not in by_node:
                continue
            vnode = gltf.vnodes[vnode_id]
            if vnode.type != VNode.Bone:
                raise ValueError("node %d is animated but is not a bone in Blender" % vnode_id)
            mine = []
            for channel in by_node[vnode_id]:
                path = channel["target"]["path"]
                sampler = animation["samplers"][channel["sampler"]]
                mine.append((path, len(kinds[path].vnodes), sampler.get("interpolation")))
                kinds[path].add(vnode, sampler)
            listed.append((vnode, mine))
        order.append(listed)
    unit = 1.0 / bpy.context.scene.unit_settings.scale_length
    for path, kind in kinds.items():
        kind.convert(decode, bpy.context.scene.render.fps, unit, path == "translation")
    runs = {}
    curves_of = {}
    # NLA tracks are added bottom to top: the last animation first, so that the first is on top.
    for index in reversed(range(len(order))):
        actions = {}
        for vnode, mine in order[index]:
            obj = gltf.vnodes[vnode.bone_arma].blender_object
            action = actions.get(obj.name, (None, None))[1]
            if action is None:
                action = bpy.data.actions.new(tracks[index] + "_" + obj.name)
                action.id_root = "OBJECT"
                actions[obj.name] = obj, action
                made.append((obj, action))
                curves_of[action.name] = []
            bone = vnode.blender_bone_name
            pose_bone = 'pose.bones["%s"].' % bpy.utils.escape_identifier(bone)
            for path, number, interpolation in mine:
                kind = kinds[path]
                begin, end = kind.spans[number]
                data_path = pose_bone + ("location" if path == "translation" else "rotation_quaternion")
                value = enum[_INTERPOLATIONS[interpolation]].value
                run = runs.get((value, end - begin))
                if run is None:
                    run = runs[value, end - begin] = numpy.full(end - begin, value, numpy.int32)
                for component, keys in enumerate(kind.keys):
                    rows = keys[begin:end]
                    curve = action.fcurves.new(data_path=data_path, index=component, action_group=bone)
                    points = curve.keyframe_points
                    points.add(end - begin)
                    points.foreach_set("co", rows.ravel())
                    points.foreach_set("interpolation", run)
                    curve.update()
                    curves_of[action.name].append((data_path, component, value, rows))
        for obj, action in actions.values():
            _stash(obj, tracks[index], action)
    return curves_of, tracks[0] if tracks else None


def _stash(obj, track_name, action):
    """The action on a new, locked and muted NLA track named after the animation (as the importer)."""
    if not obj.animation_data:
        obj.animation_data_create()
    track = obj.animation_data.nla_tracks.new(prev=None)
    track.name = track_name
    track.strips.new(action.name, bpy.context.scene.frame_start, action)
    track.lock = True
    track.mute = True


def _unstash(obj, action):
    if obj.animation_data:
        for track in list(obj.animation_data.nla_tracks):
            if any(strip.action == action for strip in track.strips):
                obj.animation_data.nla_tracks.remove(track)
    bpy.data.actions.remove(action)


def _restore(obj, track_name):
    """The first animation's action made active on `obj`, as the importer leaves it."""
    for track in obj.animation_data.nla_tracks:
        if track.name == track_name and track.strips:
            obj.animation_data.action = track.strips[0].action
            return
    obj.animation_data.action = None
