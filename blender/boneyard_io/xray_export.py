"""File > Export "X-Ray motions (.omf)": the motions of one motion set of an armature the add-on
imported, written by boneyard with the original .omf as template.

Exact path (the default): boneyard converts the template to a .glb (every motion as the file has
it); each motion whose action nobody changed is taken from there; each changed or new motion is
exported by Blender's glTF exporter, and of a changed one only the channels that changed are kept,
so boneyard keeps every other channel's bytes from the template. Params and marks from the panel
go in as boneyard's animation extras. Full path (the option "Every motion through Blender", or
when the armature's rest pose changed or there is no template): every motion comes from Blender."""
import contextlib
import json
import os

from . import cli, common, fingerprint, glb, gltf_bridge, props
from .cli import BoneyardError

TRACK_PREFIX = "boneyard_export_"
CHANNEL_KINDS = ("translation", "rotation")  # X-Ray motions have no scale


def set_actions(model, set_index):
    """The actions of the set's motions in order, and how many motions lost their action."""
    refs = model.motion_sets[set_index].motions
    actions = [ref.action for ref in refs if ref.action is not None]
    return actions, len(refs) - len(actions)


@contextlib.contextmanager
def _exported_alone(arm, actions):
    """Blender's exporter writes one animation per NLA track with one unmuted strip: for the time of
    the export, each of `actions` gets such a track of its own (named TRACK_PREFIX + its position)
    and everything else on the armature is muted. Yields {track name: action}."""
    data = arm.animation_data or arm.animation_data_create()
    active, tweak = data.action, data.use_tweak_mode
    saved = [(track, track.mute, [(strip, strip.mute) for strip in track.strips]) for track in data.nla_tracks]
    added = []
    try:
        data.use_tweak_mode = False
        data.action = None
        for track, _, strips in saved:
            track.mute = True
            for strip, _ in strips:
                strip.mute = True
        names = {}
        for i, action in enumerate(actions):
            track = data.nla_tracks.new()
            added.append(track)
            track.name = "%s%d" % (TRACK_PREFIX, i)
            track.strips.new(action.name, int(round(action.frame_range[0])), action)
            names[track.name] = action
        yield names
    finally:
        for track in added:
            data.nla_tracks.remove(track)
        for track, mute, strips in saved:
            track.mute = mute
            for strip, strip_mute in strips:
                strip.mute = strip_mute
        data.action = active
        data.use_tweak_mode = tweak


def blender_animations(context, arm, actions, tmp):
    """Blender's glTF export of the armature with exactly `actions`. Returns (document, binary,
    {action name: animation})."""
    path = os.path.join(tmp, "blender.glb")
    with gltf_bridge.only_selected(context, [arm]), _exported_alone(arm, actions) as names:
        gltf_bridge.export_glb(path, animations=True, nla_tracks=True)
    document, binary = glb.read(path)
    by_action = {}
    for animation in document.get("animations", []):
        action = names.get(animation.get("name"))
        if action is not None:
            by_action[action.name] = animation
    lost = [a.name for a in actions if a.name not in by_action]
    if lost:
        raise BoneyardError("Blender's glTF export wrote no animation for %s (no keys on the armature's bones?)"
                            % ", ".join(lost[:6]))
    return document, binary, by_action


def _imported_name(motion):
    try:
        return json.loads(motion.extras).get("name") if motion.extras else None
    except ValueError:
        return None


def scaled_actions(actions):
    """Names of the actions that key a bone's scale to anything but 1 (X-Ray motions have no scale)."""
    out = []
    for action in actions:
        for curve in action.fcurves:
            if curve.data_path.startswith("pose.bones[") and curve.data_path.endswith(".scale") and any(
                    abs(p.co[1] - 1.0) > 1e-6 for p in curve.keyframe_points):
                out.append(action.name)
                break
    return out


def _full_path(context, arm, actions, set_index, tmp, names):
    """Every motion from Blender's export; scene extras as boneyard wrote them at import. Blender's
    scale channels are left out (its constant ones would only make boneyard warn)."""
    document, binary, by_action = blender_animations(context, arm, actions, tmp)
    animations = []
    for action in actions:
        animation = by_action[action.name]
        animation["channels"] = [c for c in animation.get("channels", []) if c.get("target", {}).get("path") != "scale"]
        animation["name"] = names[action.name]
        animation["extras"] = {"xray": props.motion_extras(action.boneyard, set_index, names[action.name])}
        animations.append(animation)
    document["animations"] = animations
    scene = (document.get("scenes") or [{}])[0]
    extras = scene.get("extras") if isinstance(scene.get("extras"), dict) else {}
    extras["xray"] = json.loads(arm.data.boneyard.scene_extras or "{}")
    scene["extras"] = extras
    return document, binary


def _exact_path(context, exe, arm, actions, template_path, tmp, messages, names):
    """Untouched motions and channels from boneyard's own .glb of the template, changed ones from
    Blender (see the module's docstring)."""
    base_path = os.path.join(tmp, "template.glb")
    cli.run(exe, "convert", "--output=" + str(base_path), "--", template_path)  # a flat armature: only the keys matter here
    document, binary = glb.read(base_path)
    binary = bytearray(binary)
    base_by_name = {a.get("name"): a for a in document.get("animations", [])}
    base_nodes = {n.get("name"): i for i, n in enumerate(document.get("nodes", []))}
    plan = []
    for action in actions:
        motion = action.boneyard
        base = base_by_name.get(_imported_name(motion))
        changed = fingerprint.changed_channels(arm, action, motion.remembered) if base is not None else None
        plan.append((action, base, changed))
    to_blender = [action for action, base, changed in plan if base is None or changed is None or changed]
    if to_blender:
        blender, blender_bin, by_action = blender_animations(context, arm, to_blender, tmp)
        node_names = [n.get("name") for n in blender.get("nodes", [])]
        node_map = {i: base_nodes[name] for i, name in enumerate(node_names) if name in base_nodes}
        outside = sorted({node_names[c["target"]["node"]] for a in by_action.values() for c in a.get("channels", [])
                          if c["target"].get("node") not in node_map})
        if outside:
            messages.warn("channels on bones the motion file does not have are left out: " + ", ".join(outside[:8]))
    animations, through = [], 0
    for action, base, changed in plan:
        animation = base
        if action in to_blender:
            whole = base is None or changed is None

            def keep(node, path, whole=whole, changed=changed):
                if node not in node_map or path not in CHANNEL_KINDS:
                    return False
                return whole or (node_names[node], path) in changed

            copied = glb.append_animation(document, binary, blender, blender_bin, by_action[action.name], node_map, keep)
            if copied["channels"]:
                animation, through = copied, through + 1
            elif base is None:
                raise BoneyardError("%s: no keys on the motion file's bones" % action.name)
        animation["name"] = names[action.name]
        animation["extras"] = {"xray": props.motion_extras(action.boneyard, 0, names[action.name])}
        animations.append(animation)
    document["animations"] = animations
    listed = {_imported_name(a.boneyard) for a in actions}
    left_out = [name for name in base_by_name if name not in listed]
    if left_out:
        messages.warn("%d motions of the original are not exported (removed from the list, or replaced by a later "
                      "motion ref at import): %s" % (len(left_out), ", ".join(left_out[:6])))
    messages.note("%d of %d motions exported by Blender (changed or new), the others kept from the template"
                 % (through, len(actions)))
    return document, binary


def export_xray(context, arm, filepath, set_index=0, use_template=True, hq=False, through_blender=False):
    """Writes motion set `set_index` of the armature `arm` as an .omf. Returns common.Messages."""
    exe = common.executable(context)
    model = arm.data.boneyard
    if not 0 <= set_index < len(model.motion_sets):
        raise BoneyardError("%s has no motion set %d (it has %d)" % (arm.name, set_index, len(model.motion_sets)))
    actions, gone = set_actions(model, set_index)
    if not actions:
        raise BoneyardError("motion set %d of %s has no motions to export" % (set_index, arm.name))
    messages = common.Messages()
    if gone:
        messages.warn("%d motions whose actions were deleted are left out" % gone)
    template = model.motion_sets[set_index].get("template") if use_template else None
    rest = fingerprint.rest_changed(arm, model.rest)
    scaled = scaled_actions(actions)
    if scaled:
        messages.warn("scale keys are not exported (X-Ray motions have no scale): " + ", ".join(scaled[:6]))
    output = common.absolute(filepath)
    names, renames = _names(actions, bool(template))
    with common.scratch(context) as tmp:
        template_path = None
        if template:
            template_path = os.path.join(tmp, "template.omf")
            common.write_bytes(template_path, template)
        if template_path and not rest and not through_blender:
            document, binary = _exact_path(context, exe, arm, actions, template_path, tmp, messages, names)
        else:
            if template_path and rest and not through_blender:
                messages.warn("the rest pose of %d bones changed since the import (%s): every motion goes through "
                             "Blender's export" % (len(rest), ", ".join(rest[:4])))
            document, binary = _full_path(context, arm, actions, set_index, tmp, names)
        patched = os.path.join(tmp, "motions.glb")
        glb.write(patched, document, binary)
        converted = os.path.join(tmp, "converted.omf") if renames else output
        arguments = ["convert", "--output=" + str(converted)]
        if template_path:
            arguments += ["--template", template_path]
        if hq:
            arguments.append("--hq")
        messages.warn(cli.run(exe, *arguments, "--", patched))
        _rename(exe, converted, renames, output, tmp)
    return messages


def export_sdk_motions(context, arm, filepath, set_index=0):
    """Writes motion set `set_index` of `arm` as the SDK's .skls (or a .skl of one motion): every
    motion through Blender's glTF export (an .skls holds values, not the .omf's stored keys), then
    boneyard's glTF -> .skls (one stepped key per change), on the skeleton the motions were imported
    on (an .object's ACTORTRANSFORM is taken out of the root bones again). Returns common.Messages."""
    exe = common.executable(context)
    model = arm.data.boneyard
    if not 0 <= set_index < len(model.motion_sets):
        raise BoneyardError("%s has no motion set %d (it has %d)" % (arm.name, set_index, len(model.motion_sets)))
    actions, gone = set_actions(model, set_index)
    if not actions:
        raise BoneyardError("motion set %d of %s has no motions to export" % (set_index, arm.name))
    messages = common.Messages()
    if gone:
        messages.warn("%d motions whose actions were deleted are left out" % gone)
    scaled = scaled_actions(actions)
    if scaled:
        messages.warn("scale keys are not exported (X-Ray motions have no scale): " + ", ".join(scaled[:6]))
    names = {action.name: action.boneyard.name for action in actions}
    with common.scratch(context) as tmp:
        document, binary = _full_path(context, arm, actions, set_index, tmp, names)
        patched = os.path.join(tmp, "motions.glb")
        glb.write(patched, document, binary)
        arguments = ["convert", "--output=" + str(common.absolute(filepath))]
        if model.skeleton:
            arguments += ["--skeleton", model.skeleton]
        messages.warn(cli.run(exe, *arguments, "--", patched))
    return messages


def _names(actions, with_template):
    """The name each motion is exported under, and the renames to make afterwards. A motion renamed
    in the panel is exported under its imported name, so that the template still matches it and
    keeps its bytes, then renamed by `boneyard omf rename` (which touches only the name)."""
    names, renames = {}, []
    for action in actions:
        motion = action.boneyard
        imported = _imported_name(motion)
        if with_template and imported and imported != motion.name:
            names[action.name] = imported
            renames.append((imported, motion.name))
        else:
            names[action.name] = motion.name
    return names, renames


def _rename(exe, path, renames, output, tmp):
    """Applies `renames` to the .omf at `path`, writing `output` last: through temporary names
    first, so that swapped names do not collide."""
    steps = [(old, "boneyard_rename_%d" % i) for i, (old, _) in enumerate(renames)]
    steps += [("boneyard_rename_%d" % i, new) for i, (_, new) in enumerate(renames)]
    for i, (old, new) in enumerate(steps):
        target = output if i == len(steps) - 1 else os.path.join(tmp, "renamed_%d.omf" % i)
        cli.run(exe, "omf", "rename", "--output=" + str(target), "--", path, old, new)
        path = target
