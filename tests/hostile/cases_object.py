"""The SDK's source models (.object) and bone data (.bones) from hostile hands: packed bodies that
declare more than they can hold, counts far past the bytes, a point shared by 100k faces (the
smoothing rules stay linear) or by 100k corners of distinct UVs (the weld stays linear), thousands
of distinct smoothing masks around one point (bounded), a 20k-bone chain, parent cycles, a broken
mesh left out with --keep-going, and outputs that are never inputs. Layouts:
../shared/docs/sdk-formats.md sections 1.1 and 1.2."""
import json
import struct

from hostile_case import case


def _chunk(cid, payload):
    return struct.pack("<II", cid, len(payload)) + payload


def _sz(s):
    return s.encode() + b"\0"


def _bone(name, parent):
    data = _chunk(1, struct.pack("<H", 2)) + _chunk(2, _sz(name) + _sz(parent) + _sz(name))
    data += _chunk(3, struct.pack("<7f", 0, 0.1, 0, 0, 0, 0, 0))
    data += _chunk(2, _sz(name)) + _chunk(4, _sz("default_object"))
    data += _chunk(5, struct.pack("<HH", 0, 0) + struct.pack("<9f", 1, 0, 0, 0, 1, 0, 0, 0, 1) + bytes(72))
    data += _chunk(6, struct.pack("<I", 0) + struct.pack("<12f", *([0, 0, 1, 1] * 3)) + struct.pack("<2f", 1, 1))
    return data + _chunk(7, struct.pack("<4f", 10, 0, 0, 0))


def _mesh(points, faces, groups, sg_mask=False, vmref_count=None, point_count=None):
    """A mesh whose corners all use vmref 0 (one UV value for every corner: a continuous map)."""
    m = _chunk(0x1000, struct.pack("<H", 0x11)) + _chunk(0x1001, _sz("m")) + _chunk(0x1004, bytes(24))
    m += _chunk(0x1002, bytes([1 | (4 if sg_mask else 0)]))
    pts = struct.pack("<I", len(points) if point_count is None else point_count)
    pts += b"".join(struct.pack("<3f", *p) for p in points)
    m += _chunk(0x1005, pts)
    m += _chunk(0x1006, struct.pack("<I", len(faces)) + b"".join(struct.pack("<6I", a, 0, b, 0, c, 0) for a, b, c in faces))
    m += _chunk(0x1013, struct.pack("<%dI" % len(groups), *groups))
    m += _chunk(0x1008, struct.pack("<I", 1 if vmref_count is None else vmref_count) + bytes([1]) + struct.pack("<ii", 0, 0))
    m += _chunk(0x1009, struct.pack("<H", 1) + _sz("s") + struct.pack("<I", len(faces)) +
                struct.pack("<%dI" % len(faces), *range(len(faces))))
    m += _chunk(0x1012, struct.pack("<I", 1) + _sz("Texture") + bytes([2, 0, 0]) + struct.pack("<I", 1) +
                struct.pack("<2f", 0, 0) + struct.pack("<i", 0))
    return m


def _object(meshes, bones=(), parts=None):
    body = _chunk(0x900, struct.pack("<H", 0x10)) + _chunk(0x903, struct.pack("<I", 1 if bones else 0))
    body += _chunk(0x910, b"".join(_chunk(i, m) for i, m in enumerate(meshes)))
    body += _chunk(0x907, struct.pack("<I", 1) + _sz("s") + _sz("models\\model") + _sz("default") + _sz("default") +
                   _sz("t") + _sz("Texture") + struct.pack("<3I", 0, 0x112, 1))
    if bones:
        body += _chunk(0x921, b"".join(_chunk(i, _bone(n, p)) for i, (n, p) in enumerate(bones)))
    if parts is not None:
        body += _chunk(0x923, parts)
    return _chunk(0x7777, body)


def _fan(n):
    """n faces around point 0: (0, i + 1, i + 2)."""
    points = [(0.0, 0.0, 0.0)] + [((i % 97) * 0.01, 0.0, (i // 97) * 0.01 + 0.005 * (i % 2)) for i in range(n + 1)]
    return points, [(0, i + 1, i + 2) for i in range(n)]


@case("object_lzhuf_declares_4gb", why="a packed object body declaring 4 GB unpacked is refused before anything is "
      "allocated, at the body's offset", exit=1, stderr=r"0x80007777", one_line=True, max_seconds=1)
def _(d):
    (d / "bomb.object").write_bytes(_chunk(0x80007777, struct.pack("<I", 0xFFFFFFF0) + bytes(64)))
    return ["validate", "bomb.object"]


@case("object_point_count_past_the_bytes", why="a mesh declaring 4 billion points fails that mesh with its path and "
      "offset; nothing is allocated for them", exit=1, stdout=r"0x910/0 0x1005 points: count past the data", max_seconds=1)
def _(d):
    points, faces = _fan(4)
    (d / "huge.object").write_bytes(_object([_mesh(points, faces, [0] * 4, point_count=0xFFFFFFFF)]))
    return ["validate", "huge.object"]


@case("object_vmref_count_past_the_bytes", why="a vmref count far past the chunk is refused before the vmref table "
      "is allocated", exit=1, stdout=r"0x910/0 0x1008 vmrefs: count past the data", max_seconds=1)
def _(d):
    points, faces = _fan(4)
    (d / "refs.object").write_bytes(_object([_mesh(points, faces, [0] * 4, vmref_count=0x7FFFFFFF)]))
    return ["validate", "refs.object"]


@case("object_point_in_100k_faces_to_glb", why="a point shared by 100k faces: the CS/CoP smoothing rule (faces "
      "joined across soft edges around each point) stays linear", exit=0, creates=[r"fan\.glb"],
      creates_required=[r"fan\.glb"], max_seconds=4)
def _(d):
    points, faces = _fan(100_000)
    (d / "fan.object").write_bytes(_object([_mesh(points, faces, [0] * len(faces))]))
    return ["convert", "fan.object", "-o", "fan.glb", "--smoothing", "cscop"]


@case("object_point_in_20k_distinct_masks_to_glb", why="20k faces around one point, each with its own SoC smoothing "
      "mask: the mask rule's work is bounded", exit=0, creates=[r"masks\.glb"], creates_required=[r"masks\.glb"],
      max_seconds=4)
def _(d):
    points, faces = _fan(20_000)
    groups = [(i * 2654435761) & 0xFFFFFFFF or 1 for i in range(len(faces))]
    (d / "masks.object").write_bytes(_object([_mesh(points, faces, groups, sg_mask=True)]))
    return ["convert", "masks.object", "-o", "masks.glb", "--smoothing", "soc"]


@case("object_point_in_100k_distinct_uvs_to_glb", why="100k faces around one point whose corners each have their own "
      "vmref and UV: 100k vertices on one point, and the weld still looks at 16 of them per corner (linear)", exit=0,
      creates=[r"uvs\.glb"], creates_required=[r"uvs\.glb"], max_seconds=4)
def _(d):
    points, faces = _fan(100_000)
    mesh = _mesh(points, faces, [0] * len(faces))
    n = 3 * len(faces)
    corners = [p for face in faces for p in face]
    mesh = mesh.replace(
        _chunk(0x1006, struct.pack("<I", len(faces)) + b"".join(struct.pack("<6I", a, 0, b, 0, c, 0) for a, b, c in faces)),
        _chunk(0x1006, struct.pack("<I", len(faces)) +
               b"".join(struct.pack("<6I", a, 3 * i, b, 3 * i + 1, c, 3 * i + 2) for i, (a, b, c) in enumerate(faces))))
    mesh = mesh.replace(_chunk(0x1008, struct.pack("<I", 1) + bytes([1]) + struct.pack("<ii", 0, 0)),
                        _chunk(0x1008, struct.pack("<I", n) + b"".join(bytes([1]) + struct.pack("<ii", 0, k) for k in range(n))))
    mesh = mesh.replace(_chunk(0x1012, struct.pack("<I", 1) + _sz("Texture") + bytes([2, 0, 0]) + struct.pack("<I", 1) +
                               struct.pack("<2f", 0, 0) + struct.pack("<i", 0)),
                        _chunk(0x1012, struct.pack("<I", 1) + _sz("Texture") + bytes([2, 0, 0]) + struct.pack("<I", n) +
                               b"".join(struct.pack("<2f", k * 1e-5, 0) for k in range(n)) +
                               struct.pack("<%di" % n, *corners)))
    (d / "uvs.object").write_bytes(_object([mesh]))
    return ["convert", "uvs.object", "-o", "uvs.glb", "--smoothing", "soc"]


def _chain_object(n):
    """A two-face mesh weighted to the root of an n-bone parent chain."""
    points, faces = _fan(2)
    bones = [("b0", "")] + [("b%d" % i, "b%d" % (i - 1)) for i in range(1, n)]
    mesh = _mesh(points, faces, [0, 0])
    # Every corner weighted to the root: one weight map, named after it.
    mesh = mesh.replace(_chunk(0x1008, struct.pack("<I", 1) + bytes([1]) + struct.pack("<ii", 0, 0)),
                        _chunk(0x1008, struct.pack("<I", 1) + bytes([2]) + struct.pack("<iiii", 0, 0, 1, 0)))
    mesh = mesh.replace(_chunk(0x1012, struct.pack("<I", 1) + _sz("Texture") + bytes([2, 0, 0]) + struct.pack("<I", 1) +
                               struct.pack("<2f", 0, 0) + struct.pack("<i", 0)),
                        _chunk(0x1012, struct.pack("<I", 2) + _sz("Texture") + bytes([2, 0, 0]) + struct.pack("<I", 1) +
                               struct.pack("<2f", 0, 0) + struct.pack("<i", 0) + _sz("b0") + bytes([1, 0, 1]) +
                               struct.pack("<I", 1) + struct.pack("<f", 1) + struct.pack("<i", 0)))
    return _object([mesh], bones)


@case("object_20k_bone_chain_validate", why="validating a 20k-bone parent chain takes linear time", exit=0,
      stdout=r"ok \(object\)", max_seconds=2)
def _(d):
    (d / "chain.object").write_bytes(_chain_object(20_000))
    return ["validate", "chain.object"]


# The glTF export keeps a JSON object per joint (its bone data), about 3 KB: 4k bones stay within
# this suite's RSS bound; the walk is linear either way.
@case("object_4k_bone_chain_to_glb", why="a 4k-bone parent chain converts in linear time without overflowing the "
      "stack", exit=0, creates=[r"chain\.glb"], creates_required=[r"chain\.glb"], max_seconds=4)
def _(d):
    (d / "chain.object").write_bytes(_chain_object(4_000))
    return ["convert", "chain.object", "-o", "chain.glb"]


@case("object_bone_cycle", why="bones whose parents form a cycle are an error naming a bone, and nothing is written",
      exit=1, stderr=r"parent cycle", max_seconds=1)
def _(d):
    points, faces = _fan(2)
    (d / "cycle.object").write_bytes(_object([_mesh(points, faces, [0, 0])], [("a", "c"), ("b", "a"), ("c", "b")]))
    return ["convert", "cycle.object", "-o", "cycle.glb"]


@case("object_broken_mesh_keep_going", why="with --keep-going a broken mesh is left out with a warning and the others "
      "convert", exit=0, stderr=r"mesh left out of the export", creates=[r"two\.glb"], creates_required=[r"two\.glb"])
def _(d):
    points, faces = _fan(4)
    good = _mesh(points, faces, [0] * 4)
    bad = _mesh(points, faces[:3] + [(0, 1, 99)], [0] * 4)  # a point past the mesh
    (d / "two.object").write_bytes(_object([good, bad]))
    return ["convert", "two.object", "-o", "two.glb", "--keep-going", "--force"]


@case("object_output_is_the_input", why="converting an object onto itself is refused before anything is written",
      exit=2, stderr=r"refusing to overwrite", modifies=[])
def _(d):
    points, faces = _fan(2)
    (d / "same.object").write_bytes(_object([_mesh(points, faces, [0, 0])]))
    return ["convert", "same.object", "-o", "same.object"]


@case("bones_part_count_past_the_bytes", why="a .bones file whose parts chunk declares 4 billion parts is refused "
      "with the chunk's path", exit=1, stderr=r"0x923", max_seconds=1)
def _(d):
    (d / "parts.bones").write_bytes(_chunk(0, _bone("a", "")[
        len(_chunk(1, struct.pack("<H", 2)) + _chunk(2, _sz("a") + _sz("") + _sz("a")) + _chunk(3, bytes(28))):]) +
        _chunk(0x923, struct.pack("<I", 0xFFFFFFFF)))
    return ["validate", "parts.bones"]


@case("object_template_50k_points_in_one_cell", why="a template whose 50k points (and faces) sit within 0.1 mm, and "
      "a glTF without primitive extras moving each by 5e-8 m: matching its points and faces to the template's "
      "stays linear (bounded candidates per grid cell)", exit=0, creates=[r"out\.object"],
      creates_required=[r"out\.object"], max_seconds=4)
def _(d):
    n = 50_000
    pts = [((i % 200) * 2e-7, 0.0, (i // 200) * 2e-7) for i in range(n)]
    faces = [(i, i + 1, i + 200) for i in range(n - 200) if i % 200 != 199]
    (d / "tpl.object").write_bytes(_object([_mesh(pts, faces, [0] * len(faces))]))
    # glTF space: (x, y, -z), faces turned (0, 2, 1) to keep their front.
    pos = b"".join(struct.pack("<3f", x, y + 5e-8, -z) for x, y, z in pts)
    nrm = struct.pack("<3f", 0, 1, 0) * n
    idx = b"".join(struct.pack("<3I", a, c, b) for a, b, c in faces)
    binary = pos + nrm + idx
    xs, zs = [p[0] for p in pts], [-p[2] for p in pts]
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"name": "m", "mesh": 0}],
           "meshes": [{"name": "m", "primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2,
                                                     "material": 0}]}],
           "materials": [{"name": "s"}], "buffers": [{"byteLength": len(binary)}],
           "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": len(pos)},
                           {"buffer": 0, "byteOffset": len(pos), "byteLength": len(nrm)},
                           {"buffer": 0, "byteOffset": len(pos) + len(nrm), "byteLength": len(idx)}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": n, "type": "VEC3",
                          "min": [min(xs), 5e-8, min(zs)], "max": [max(xs), 5e-8, max(zs)]},
                         {"bufferView": 1, "componentType": 5126, "count": n, "type": "VEC3"},
                         {"bufferView": 2, "componentType": 5125, "count": len(idx) // 4, "type": "SCALAR"}]}
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    glb = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(binary))
    glb += struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
    (d / "edit.glb").write_bytes(glb)
    return ["convert", "edit.glb", "-o", "out.object", "--template", "tpl.object"]


def _with_motions(obj, payload):
    """`obj` (one 0x7777 chunk) with a 0x916 (embedded motions) chunk appended to its body."""
    body = obj[8:] + _chunk(0x916, payload)
    return _chunk(0x7777, body)


def _motion_header(name="m"):
    """A v6 motion's header (name, frames 0-1 at 30 fps, flags, bone or part, params)."""
    return _sz(name) + struct.pack("<iifH", 0, 1, 30.0, 6) + struct.pack("<BH4f", 0, 0xFFFF, 1, 2, 2, 1)


@case("object_motion_count_past_the_bytes", why="an object whose 0x916 declares 4 billion motions in a few bytes is "
      "a validation error naming the chunk; nothing is allocated for them", exit=1, stdout=r"0x916",
      max_seconds=1)
def _(d):
    (d / "m.object").write_bytes(_with_motions(_chain_object(2), struct.pack("<I", 0xFFFFFFFF) + _motion_header()))
    return ["validate", "m.object"]


@case("object_truncated_motions_to_glb", why="an object whose embedded motions are cut short converts with --force "
      "to a glTF of its model without animations, saying why", exit=0, stderr=r"embedded motions do not read",
      creates=[r"m\.glb"], creates_required=[r"m\.glb"], max_seconds=2)
def _(d):
    # One motion declared with 2 bones, cut inside the first bone's envelopes.
    body = _motion_header() + struct.pack("<H", 2) + _sz("b0") + bytes([0]) + bytes([1, 1]) + struct.pack("<H", 500)
    (d / "m.object").write_bytes(_with_motions(_chain_object(2), struct.pack("<I", 1) + body))
    return ["convert", "m.object", "-o", "m.glb", "--force"]


@case("object_motion_of_a_million_frames_to_glb", why="a few bytes of 0x916 declaring a motion of 2^20 frames on a "
      "64-bone object (1.8 GB of samples): the model converts, the motions are left out with a warning naming the "
      "budget, nothing is sampled", exit=0, stderr=r"too long to sample", creates=[r"m\.glb"],
      creates_required=[r"m\.glb"], max_seconds=2)
def _(d):
    motion = _sz("long") + struct.pack("<iifH", 0, (1 << 20) - 1, 30.0, 6) + struct.pack("<BH4f", 0, 0xFFFF, 1, 2, 2, 1)
    motion += struct.pack("<H", 0)  # no bones: every bone in its rest pose at every frame
    (d / "m.object").write_bytes(_with_motions(_chain_object(64), struct.pack("<I", 1) + motion))
    return ["convert", "m.object", "-o", "m.glb"]
