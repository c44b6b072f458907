"""OGF v3 (builds before 2004, a 4-byte header): counts no file could hold fail before anything is
sized, visuals nested without end are cut at a fixed depth, a 100k-bone chain in the model-space
IK layout validates and converts in linear time, a motion of 2^31 frames is refused before a
frame is sampled, a bit-31 chunk that is really compressed says so, and a v3 model as the
template of a v4 .ogf is a usage error. Layouts: docs/xray-ogf-v3.md."""
import struct

from craft import chunk, gltf_json
from hostile_case import case

ONE_LINE = dict(one_line=True)


def header(model_type):
    return chunk(0x1, struct.pack("<BBH", 3, model_type, 0))


def bone_names(bones):
    obb = struct.pack("<9f", 1, 0, 0, 0, 1, 0, 0, 0, 1) + struct.pack("<6f", 0, 0, 0, 0.1, 0.1, 0.1)
    return chunk(0xD, struct.pack("<I", len(bones)) +
                 b"".join(n.encode() + b"\0" + p.encode() + b"\0" + obb for n, p in bones))


def ik0(count, step=0.01):
    """S_IKDATA_0 records (bind pose in model space): each bone a step further up Y."""
    out = []
    for i in range(count):
        r = b"default_object\0" + bytes(112) + struct.pack("<I", 0) + bytes(48) + struct.pack("<2f", 1, 1)
        r += struct.pack("<3f", 0, 0, 0) + struct.pack("<3f", 0, step * i, 0) + struct.pack("<f3f", 1, 0, 0, 0)
        out.append(r)
    return chunk(0x17, b"".join(out))


def chain(n):
    return [("b%d" % i, "" if i == 0 else "b%d" % (i - 1)) for i in range(n)]


def skinned_child():
    """One 1-link triangle on bone 0."""
    v = b"".join(struct.pack("<3f3f2fI", x, 0, 0, 0, 1, 0, 0, 0, 0) for x in (0.0, 1.0, 0.5))
    return (header(7) + chunk(0x2, b"act\\a\0models\\model\0") + chunk(0x7, struct.pack("<II", 0x12071980, 3) + v) +
            chunk(0x8, struct.pack("<I3H", 3, 0, 1, 2)))


@case("ogf_v3_bone_count_bomb", why="a v3 model declaring 2^32-1 bones in a 20-byte chunk fails before allocating",
      exit=1, stderr=r"0xD bone records", **ONE_LINE)
def _(d):
    (d / "m.ogf").write_bytes(header(0xF) + chunk(0xD, struct.pack("<I", 0xFFFFFFFF)))
    return ["validate", "m.ogf"]


@case("ogf_v3_vertex_count_bomb", why="a v3 visual declaring 2^31-1 vertices in a 8-byte chunk fails with both sizes",
      exit=1, stderr=r"0x7 vertices: chunk size does not match count x stride", **ONE_LINE)
def _(d):
    (d / "m.ogf").write_bytes(header(0) + chunk(0x7, struct.pack("<II", 0x112, 0x7FFFFFFF)) +
                              chunk(0x8, struct.pack("<IH", 1, 0)))
    return ["convert", "m.ogf", "-o", "m.glb"]


@case("ogf_v3_visuals_nested_without_end", why="10,000 nested child visuals are cut at a fixed depth: info reads "
      "the model, validate names the deep visual, no stack overflow", exit=1, stdout=r"nested too deep")
def _(d):
    inner = header(1)
    for _ in range(10_000):
        inner = header(1) + chunk(0x11, chunk(0, inner))
    (d / "m.ogf").write_bytes(inner)
    return ["validate", "m.ogf"]


@case("ogf_v3_100k_bone_chain_validate", why="validating a v3 model with a 100k-bone chain in the model-space IK "
      "layout (made relative to each parent) takes linear time", exit=1, stdout=r"too many bones", max_seconds=2)
def _(d):
    n = 100_000
    (d / "m.ogf").write_bytes(header(0xF) + bone_names(chain(n)) + ik0(n))
    return ["validate", "m.ogf"]


@case("ogf_v3_100k_bone_chain_info", why="info of the same model lists its bones in linear time", exit=0,
      stdout=r"100000 bone\(s\)", max_seconds=2)
def _(d):
    n = 100_000
    (d / "m.ogf").write_bytes(header(0xF) + bone_names(chain(n)) + ik0(n))
    return ["info", "m.ogf"]


@case("ogf_v3_2g_frames_to_glb", why="a v3 motion claiming 2^31-1 frames on a model without bones is refused before "
      "a frame is sampled (the records would be empty)", exit=1, stderr=r"motion too long to convert", **ONE_LINE)
def _(d):
    params = struct.pack("<HH", 0, 1) + b"m\0" + struct.pack("<BHH4fB", 1, 0xFFFF, 0, 1, 1, 2, 2, 0)
    keys = chunk(0, struct.pack("<I", 1)) + chunk(1, b"m\0" + struct.pack("<I", 0x7FFFFFFF))
    (d / "m.ogf").write_bytes(header(1) + chunk(0x12, params) + chunk(0xE, keys))
    return ["convert", "m.ogf", "-o", "m.glb"]


@case("ogf_v3_compressed_chunk", why="a chunk whose bit 31 marks an LZHuf-compressed payload (which boneyard does "
      "not decompress) fails with what bit 31 means", exit=1, stderr=r"0x19 bone 0.*LZHuf", **ONE_LINE)
def _(d):
    packed = struct.pack("<I", 400) + bytes(range(0, 250, 5)) * 2  # a plausible LZHuf stream: unpacked size first
    (d / "m.ogf").write_bytes(header(0xF) + bone_names([("root", "")]) + struct.pack("<II", 0x80000019, len(packed)) +
                              packed)
    return ["info", "m.ogf"]


@case("ogf_v3_as_template", why="a v3 model as the template of a v4 .ogf is a usage error naming the way that works",
      exit=2, stderr=r"is an OGF v3 model.*without --template", **ONE_LINE)
def _(d):
    (d / "m.ogf").write_bytes(header(0xF) + chunk(0x11, chunk(0, skinned_child())) + bone_names([("root", "")]))
    (d / "x.gltf").write_bytes(gltf_json(scene=0, scenes=[{"nodes": [0]}], nodes=[{"name": "root"}]))
    return ["convert", "x.gltf", "--template", "m.ogf", "-o", "out.ogf"]
