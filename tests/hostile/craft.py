"""Byte builders for crafted files, shared by every cases_*.py. They reuse the example generator's
encoders (examples/make_examples.py) so that a crafted file differs from a valid one only where a
case says.

    OMF      omf_params, cycle, omf, omf_static, omf_one_bone, static_record
    OGF      ogf_skeleton, ogf_bone_chain
    KMS      kms_ps2 (PS2 layout: any number of units, header pads, one unit with a mesh)
    glTF     gltf_json, gltf_buffers, gltf_blob_accessors, data_uri, rotation_keys
"""
import base64
import json
import pathlib
import struct
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples"))

from make_examples import chunk, motion, quat_axis, record  # noqa: E402,F401

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def example(name):
    """The bytes of a shipped example (wave.omf, wave_arm.ogf)."""
    return (EXAMPLES / name).read_bytes()


def _cstr(name):
    """`name` (str, encoded as UTF-8, or raw bytes such as cp1251) as bytes."""
    return name if isinstance(name, bytes) else name.encode()


# ---- OMF (chunk 0xE keys, chunk 0xF params) ------------------------------------------------------

def omf_params(bones, motions, version=4, part="default"):
    """Chunk 0xF payload (params) of `version` 4 (motions carry marks) or 3 (no marks): one part
    `part` holding `bones`, each a name (its motion-bone index is its position) or a (name, index)
    pair; then `motions`, each (name, flags, bone_or_part, motion_id, speed, power, accrue,
    falloff, marks) with name str or raw bytes and marks a list of (name, [(start, end), ...])
    (see cycle())."""
    p = struct.pack("<HH", version, 1) + part.encode() + b"\0" + struct.pack("<H", len(bones))
    for i, b in enumerate(bones):
        name, index = (b, i) if isinstance(b, str) else b
        p += name.encode() + b"\0" + struct.pack("<I", index)
    p += struct.pack("<H", len(motions))
    for name, flags, bone_or_part, motion_id, speed, power, accrue, falloff, marks in motions:
        p += _cstr(name) + b"\0"
        p += struct.pack("<IHH4f", flags, bone_or_part, motion_id, speed, power, accrue, falloff)
        if version < 4:
            assert not marks, "params version 3 has no marks"
            continue
        p += struct.pack("<I", len(marks))
        for mark_name, intervals in marks:
            p += _cstr(mark_name) + b"\r\n"
            p += struct.pack("<I", len(intervals)) + b"".join(struct.pack("<2f", s, e) for s, e in intervals)
    return p


def cycle(name, motion_id=0, bone_or_part=0xFFFF, speed=1.0, power=1.0, accrue=2.0, falloff=1.0, marks=()):
    """One motion entry of omf_params(): a cycle (flags 0) named `name` (str or raw bytes)."""
    return (name, 0, bone_or_part, motion_id, speed, power, accrue, falloff, list(marks))


def static_record():
    """A bone record with a static rotation (identity) and a constant zero translation."""
    return record([[0, 0, 0, 32767]], const=(0.0, 0.0, 0.0))


def omf(keysets, params):
    """An .omf from [(name, frames, [record bytes per bone])] (name str or raw bytes, e.g. cp1251)
    and a 0xF payload."""
    keys = chunk(0, struct.pack("<I", len(keysets)))
    for i, (name, frames, records) in enumerate(keysets, start=1):
        keys += chunk(i, _cstr(name) + b"\0" + struct.pack("<I", frames) + b"".join(records))
    return chunk(0xE, keys) + chunk(0xF, params)


def omf_static(motions, bones=("root",), version=4, bone_or_part=0xFFFF):
    """An .omf of static motions (every bone keeps the identity rotation and a zero translation):
    `motions` is [(name, frames)] (name str or raw bytes), written as cycles with motion ids 0, 1, ...
    and default speed, power, accrue and falloff, no marks. `bones` as in omf_params() (a (name,
    index) pair gives a bone its motion-bone index)."""
    params = omf_params(list(bones), [cycle(name, i, bone_or_part) for i, (name, _) in enumerate(motions)],
                        version=version)
    return omf([(name, frames, [static_record() for _ in bones]) for name, frames in motions], params)


def omf_one_bone(frames=30, name="m", speed=1.0, power=1.0, accrue=2.0, falloff=1.0, marks=()):
    """The smallest playable .omf: one bone "root", one cycle motion with static keys."""
    params = omf_params(["root"], [cycle(name, 0, 0xFFFF, speed, power, accrue, falloff, marks)])
    return omf([(name, frames, [static_record()])], params)


# ---- OGF (the layout of examples/wave_arm.ogf: header, bone names 0xD, IK data 0x10) -------------

def ogf_skeleton(bones):
    """An OGF v4 skeleton (type 3) from [(name, parent name)] ("" for a root), no meshes or
    motions."""
    header = struct.pack("<BBH", 4, 3, 0) + struct.pack("<6f", -0.1, 0.0, -0.1, 0.1, 0.6, 0.1)
    header += struct.pack("<4f", 0.0, 0.3, 0.0, 0.35)
    obb = struct.pack("<9f", 1, 0, 0, 0, 1, 0, 0, 0, 1) + struct.pack("<3f", 0, 0.1, 0)
    obb += struct.pack("<3f", 0.05, 0.1, 0.05)
    ik_one = struct.pack("<I", 1) + b"default_object\0" + bytes(112)
    ik_one += struct.pack("<I", 0) + bytes(48) + struct.pack("<2fI3f", 0, 0, 0, 0, 0, 0)
    ik_one += struct.pack("<3f", 0, 0, 0) + struct.pack("<3f", 0, 0.01, 0) + struct.pack("<f3f", 1.0, 0, 0, 0)
    names = [struct.pack("<I", len(bones))]
    for name, parent in bones:
        names.append(name.encode() + b"\0" + parent.encode() + b"\0" + obb)
    return chunk(0x1, header) + chunk(0xD, b"".join(names)) + chunk(0x10, ik_one * len(bones))


def ogf_bone_chain(n_bones):
    """ogf_skeleton() bones of one parent chain b0 > b1 > ... of `n_bones`."""
    return [("b%d" % i, "" if i == 0 else "b%d" % (i - 1)) for i in range(n_bones)]


# ---- KMS, PS2 layout (see tests/mgs2/mgs2_fixture.h and docs/mgs2.md "Layouts") ------------------

KMS_NORM = 0x00C81371

# A strip as [((x, y, z), (u, v))]: a unit square of 4 vertices, UVs over the whole texture.
KMS_SQUARE = [((0, 0, 0), (0, 0)), ((1, 0, 0), (4096, 0)), ((0, 1, 0), (0, 4096)), ((1, 1, 0), (4096, 4096))]


def _pad16(b):
    return b + b"\0" * (-len(b) % 16)


def kms_ps2(parents=(-1,), pads=(0, 0, 0), texture=0x88D878, bbox=(-10, -10, -10, 10, 10, 10), positions=None,
            packet_unit=None, packets=1, strip=KMS_SQUARE):
    """A PS2 .kms: header 0x40, one regular unit (0x40) per entry of `parents` (the unit's parent
    index, -1 for none), then the mesh. `pads` are the three header pads at 0x10, 0x14 and 0x18;
    `bbox` (min xyz, max xyz) is the header's and every unit's bounding box; `positions` the
    units' positions (default 0). When `packet_unit` is an index, that unit gets `packets` packets
    (0x30 each, more than one all reading the same arrays, which overlap) of the strip `strip`
    ([((x, y, z), (u, v))], normals +Z, the first two vertices kicked), followed by its vertex,
    normal and UV0 arrays, each padded to 16 bytes. With no units this is the smallest .kms
    boneyard reads."""
    n = len(parents)
    head = struct.pack("<4I", KMS_NORM, n, n, texture) + struct.pack("<3I", *pads)
    head += struct.pack("<9f", *bbox, 0, 0, 0)
    assert len(head) == 0x40
    table_at = 0x40 + n * 0x40
    units = bytearray()
    for i, parent in enumerate(parents):
        pos = positions[i] if positions else (0.0, 0.0, 0.0)
        has_packet = packet_unit == i
        units += struct.pack("<II", 0, packets if has_packet else 0)
        units += struct.pack("<9f", *bbox, *pos)
        units += struct.pack("<iI3I", parent, table_at if has_packet else 0, 0, 0, 0)
    body = head + bytes(units)
    if packet_unit is None:
        return body
    verts = _pad16(b"".join(struct.pack("<4h", x, y, z, 4096) for (x, y, z), _ in strip))
    norms = _pad16(b"".join(struct.pack("<3hH", 0, 0, 4096, 0x8000 if i < 2 else 0) for i in range(len(strip))))
    uvs = _pad16(b"".join(struct.pack("<2h", u, v) for _, (u, v) in strip))
    verts_at = table_at + packets * 0x30
    norms_at = verts_at + len(verts)
    uv_at = norms_at + len(norms)
    packet = struct.pack("<5I", 0x48, len(strip), 0xB7E31E, 0, 0)
    packet += struct.pack("<7I", verts_at, norms_at, uv_at, 0, 0, 0, 0)
    assert len(packet) == 0x30
    return body + packet * packets + verts + norms + uvs


# ---- glTF ---------------------------------------------------------------------------------------

GLTF_ASSET = {"version": "2.0"}


def gltf_json(doc=None, **members):
    """The bytes of a .gltf: a JSON object of the members of `doc` (a dict), then `members`, in the
    order given; an "asset" of version 2.0 comes first unless either names one."""
    out = dict(doc or {})
    out.update(members)
    if "asset" not in out:
        out = {"asset": dict(GLTF_ASSET), **out}
    return json.dumps(out).encode()


def data_uri(data):
    """`data` as a base64 data: URI (application/octet-stream)."""
    return "data:application/octet-stream;base64," + base64.b64encode(data).decode()


def gltf_buffers(data=b"", accessors=(), views=None, uri=None, byte_length=None):
    """The "buffers", "bufferViews" and "accessors" members of a .gltf (a dict for gltf_json(**...)):
    one buffer holding `data` as a data: URI, or with `uri` an external buffer of `byte_length`
    bytes; `views` default to one view over the whole buffer."""
    if uri is None:
        buffer = {"byteLength": len(data), "uri": data_uri(data)}
    else:
        buffer = {"byteLength": byte_length, "uri": uri}
    if views is None:
        views = [{"buffer": 0, "byteLength": buffer["byteLength"]}]
    return {"buffers": [buffer], "bufferViews": list(views), "accessors": list(accessors)}


def gltf_blob_accessors(blobs, specs):
    """Like gltf_buffers(), over one data: buffer holding `blobs` each at a 4-aligned offset, with one
    buffer view and one accessor per spec (blob index, count, type, componentType)."""
    offsets, data = [], b""
    for b in blobs:
        data += b"\0" * (-len(data) % 4)
        offsets.append(len(data))
        data += b
    sizes = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
    widths = {5126: 4, 5125: 4, 5123: 2, 5121: 1}
    views, accessors = [], []
    for i, (blob, count, typ, comp) in enumerate(specs):
        views.append({"buffer": 0, "byteOffset": offsets[blob], "byteLength": count * sizes[typ] * widths[comp]})
        accessors.append({"bufferView": i, "count": count, "type": typ, "componentType": comp})
    return gltf_buffers(data, accessors, views)


def rotation_keys(t_end):
    """Animation data of two keys: times [0, t_end] (8 bytes), then two identity rotations (32
    bytes)."""
    return struct.pack("<2f", 0.0, t_end) + struct.pack("<8f", 0, 0, 0, 1, 0, 0, 0, 1)
