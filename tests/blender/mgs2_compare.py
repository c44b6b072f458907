"""What an MGS2 model must keep through a DCC tool, read from `boneyard dump` JSON: joint order and
parents, joint places, and its triangles (model-space corners, winding, UV0, texture ids,
culling), EVM weights within a quantisation step. Plain Python (no bpy): the Blender tests and
a person comparing two files by hand use the same code.
"""
import json
import subprocess

CULLING = 0x6  # CULLAUTO | CULLON: the packet asks for back faces to be culled


def dump(cli, path):
    run = subprocess.run([cli, "dump", path], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError("boneyard dump %s: exit %d\n%s" % (path, run.returncode, run.stderr))
    return json.loads(run.stdout)


def _joints(d):
    return d["units"] if d["format"] == "kms" else d["bones"]


def parents(d):
    return [j["parent"] for j in _joints(d)]


def joint_places(d):
    """Model-space rest position of every unit / joint (KMS: header base + offsets up the chain)."""
    if d["format"] == "evm":
        return [tuple(b["root_offset"]) for b in d["bones"]]
    world = []
    for u in d["units"]:
        base = world[u["parent"]] if 0 <= u["parent"] < len(world) else tuple(d["position"])
        world.append(tuple(b + o for b, o in zip(base, u["position"])))
    return world


def _packets(d):
    """(unit or None, packet, unit place) for every packet."""
    if d["format"] == "evm":
        return [(None, p, (0.0, 0.0, 0.0)) for p in d["packets"]]
    places = joint_places(d)
    return [(i, p, places[i]) for i, u in enumerate(d["units"]) for p in u["packets"]]


def _corner(p, v, place):
    pos = tuple(round(place[c] + p["vertices"][v][c], 2) for c in range(3))
    uv = p["uvs"][0][v] if p["uvs"] and p["uvs"][0] else [0, 0]
    return pos + (round(uv[0] * 4096), round(uv[1] * 4096))


def triangles(d):
    """Sorted list of (unit, texture ids, culled, corners): corners rotated to start at the smallest,
    winding kept. EVM triangles have unit None."""
    out = []
    for unit, p, place in _packets(d):
        culled = (p["flag"] & CULLING) != 0
        for t in p["triangles"]:
            c = [_corner(p, v, place) for v in t]
            k = c.index(min(c))
            out.append((unit, tuple(p["tex_ids"]), culled, tuple(c[k:] + c[:k])))
    return sorted(out)


def weights_by_position(d):
    """EVM: model-space vertex position -> {joint: weight}, over every packet."""
    out = {}
    for p in d["packets"]:
        for v, w in zip(p["vertices"], p["weights"]):
            out.setdefault(tuple(round(x, 2) for x in v), {j: x for j, x in w})
    return out


def differences(original, back, weight_step=1.0 / 128):
    """Human-readable differences in what a round trip must keep; [] when none."""
    diffs = []
    if parents(original) != parents(back):
        diffs.append("parents %s, came back %s" % (parents(original), parents(back)))
    for i, (a, b) in enumerate(zip(joint_places(original), joint_places(back))):
        if max(abs(x - y) for x, y in zip(a, b)) > 1e-3:
            diffs.append("joint %d at %s, came back at %s" % (i, a, b))
    ta, tb = triangles(original), triangles(back)
    if ta != tb:
        missing = [t for t in ta if t not in tb]
        extra = [t for t in tb if t not in ta]
        diffs.append("triangles differ: %d of %d missing, %d new; first missing %s, first new %s" %
                     (len(missing), len(ta), len(extra), missing[:1], extra[:1]))
    if original["format"] == "evm":
        wa, wb = weights_by_position(original), weights_by_position(back)
        for pos, w in wa.items():
            got = wb.get(pos, {})
            for j in set(w) | set(got):
                if abs(w.get(j, 0) - got.get(j, 0)) > weight_step + 1e-6:
                    diffs.append("weights at %s: %s, came back %s" % (pos, w, got))
                    break
    return diffs
