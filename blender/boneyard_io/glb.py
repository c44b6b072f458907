"""Reading and writing binary glTF (.glb) files: the JSON chunk as Python objects, the binary
chunk as bytes. Plain Python (no bpy): the add-on edits the JSON of the .glb files that boneyard
and Blender write, never their binary data."""
import json
import struct

_MAGIC = 0x46546C67  # "glTF"
_JSON = 0x4E4F534A
_BIN = 0x004E4942


class GlbError(ValueError):
    pass


def parse(data, name="the data"):
    """(json dict, binary chunk bytes or b"") of a .glb file's bytes; `name` says whose in errors."""
    if len(data) < 20:
        raise GlbError("%s: not a binary glTF (%d bytes)" % (name, len(data)))
    magic, version, length = struct.unpack_from("<III", data, 0)
    if magic != _MAGIC or version != 2 or length > len(data):
        raise GlbError("%s: not a binary glTF 2.0 file" % name)
    chunk_length, chunk_type = struct.unpack_from("<II", data, 12)
    if chunk_type != _JSON or 20 + chunk_length > length:
        raise GlbError("%s: the first chunk is not JSON" % name)
    document = json.loads(data[20:20 + chunk_length].decode("utf-8"))
    binary = b""
    at = 20 + chunk_length
    if at + 8 <= length:
        chunk_length, chunk_type = struct.unpack_from("<II", data, at)
        if chunk_type == _BIN and at + 8 + chunk_length <= length:
            binary = data[at + 8:at + 8 + chunk_length]
    return document, binary


def read(path):
    """(json dict, binary chunk bytes or b"") of a .glb file."""
    with open(path, "rb") as f:
        return parse(f.read(), path)


def without_animations(document):
    """A copy of `document` without its animations and the accessors only they use (the others
    renumbered), for an importer that need not see the motions; None when the document may refer
    to accessors in ways this does not know (extensions)."""
    if document.get("extensionsUsed") or document.get("extensions"):
        return None
    used = set()
    for mesh in document.get("meshes", []):
        for primitive in mesh.get("primitives", []):
            if primitive.get("extensions"):
                return None
            used.update(primitive.get("attributes", {}).values())
            if "indices" in primitive:
                used.add(primitive["indices"])
            for target in primitive.get("targets", []):
                used.update(target.values())
    for skin in document.get("skins", []):
        if "inverseBindMatrices" in skin:
            used.add(skin["inverseBindMatrices"])
    motion_only = set()
    for animation in document.get("animations", []):
        for sampler in animation.get("samplers", []):
            motion_only.update((sampler.get("input"), sampler.get("output")))
    motion_only -= used
    accessors = document.get("accessors", [])
    number = {}
    for index in range(len(accessors)):
        if index not in motion_only:
            number[index] = len(number)
    out = {k: v for k, v in document.items() if k not in ("animations", "accessors")}
    if accessors:
        out["accessors"] = [accessors[i] for i in number]
    if "meshes" in document:
        out["meshes"] = [dict(mesh, primitives=[_renumbered(p, number) for p in mesh.get("primitives", [])])
                         for mesh in document["meshes"]]
    if "skins" in document:
        out["skins"] = [dict(skin, inverseBindMatrices=number[skin["inverseBindMatrices"]])
                        if "inverseBindMatrices" in skin else skin for skin in document["skins"]]
    return out


def _renumbered(primitive, number):
    out = dict(primitive, attributes={k: number[v] for k, v in primitive.get("attributes", {}).items()})
    if "indices" in primitive:
        out["indices"] = number[primitive["indices"]]
    if "targets" in primitive:
        out["targets"] = [{k: number[v] for k, v in target.items()} for target in primitive["targets"]]
    return out


_COMPONENTS = {5120: "<i1", 5121: "<u1", 5122: "<i2", 5123: "<u2", 5125: "<u4", 5126: "<f4"}
_WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
_NORMALIZED = {5120: 127.0, 5121: 255.0, 5122: 32767.0, 5123: 65535.0}


def _decoded(binary, view, accessor, what):
    """`accessor` (a dict: componentType, type, count, normalized, byteOffset) read from buffer
    view `view` of `binary`, as Blender's glTF importer decodes it (normalised integers divided by
    their maximum, clamped at -1, as float32). `what` names it in errors."""
    import numpy
    if view.get("buffer", 0) != 0:
        raise GlbError("%s is outside the .glb's binary chunk" % what)
    dtype = numpy.dtype(_COMPONENTS[accessor["componentType"]])
    width, count = _WIDTHS[accessor["type"]], accessor["count"]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    stride = view.get("byteStride") or dtype.itemsize * width
    if count == 0:
        return numpy.empty((0, width), dtype)
    end = start + (count - 1) * stride + dtype.itemsize * width
    if end > min(len(binary), view.get("byteOffset", 0) + view["byteLength"]) or stride % dtype.itemsize:
        raise GlbError("%s runs past its buffer view" % what)
    flat = numpy.frombuffer(binary, dtype, count=(end - start) // dtype.itemsize, offset=start)
    array = numpy.lib.stride_tricks.as_strided(flat, shape=(count, width), strides=(stride, dtype.itemsize))
    if accessor.get("normalized") and accessor["componentType"] in _NORMALIZED:
        array = numpy.maximum(-1.0, array / _NORMALIZED[accessor["componentType"]]).astype(numpy.float32)
    return array


def decode_accessor(document, binary, index):
    """Accessor `index` of a .glb as a (count, width) numpy array, as Blender's glTF importer
    decodes it (see _decoded)."""
    accessor = document["accessors"][index]
    if "sparse" in accessor or "bufferView" not in accessor:
        raise GlbError("accessor %d is sparse or has no data" % index)
    if document["buffers"][0].get("uri") is not None:
        raise GlbError("accessor %d is outside the .glb's binary chunk" % index)
    return _decoded(binary, document["bufferViews"][accessor["bufferView"]], accessor, "accessor %d" % index)


class Accessors:
    """decode_accessor for many accessors of one .glb: the accessors packed one after another in
    a buffer view with the same layout (boneyard puts all key times in one view, all rotations in
    another) are decoded as one array per view and handed out as row slices, instead of one
    numpy decode (and one normalisation) each; the values are the same."""

    def __init__(self, document, binary):
        self.document, self.binary = document, binary
        self.views = {}

    def __call__(self, index):
        accessor = self.document["accessors"][index]
        layout = (accessor.get("bufferView"), accessor.get("componentType"), accessor.get("type"),
                  bool(accessor.get("normalized")))
        if ("sparse" in accessor or None in layout or layout[1] not in _COMPONENTS or layout[2] not in _WIDTHS
                or self.document["buffers"][0].get("uri") is not None):
            return decode_accessor(self.document, self.binary, index)
        element = int(_COMPONENTS[layout[1]][2:]) * _WIDTHS[layout[2]]
        view = self.document["bufferViews"][layout[0]]
        stride = view.get("byteStride") or element
        offset = accessor.get("byteOffset", 0)
        if stride != element or offset % element:
            return decode_accessor(self.document, self.binary, index)
        whole = self.views.get(layout)
        if whole is None:
            whole_view = {"componentType": layout[1], "type": layout[2], "normalized": layout[3],
                          "count": view["byteLength"] // element}
            whole = self.views[layout] = _decoded(self.binary, view, whole_view, "buffer view %d" % layout[0])
        first = offset // element
        if first + accessor["count"] > len(whole):
            raise GlbError("accessor %d runs past its buffer view" % index)
        return whole[first:first + accessor["count"]]


def encode(document, binary):
    """A .glb's bytes: the JSON chunk padded with spaces, the binary chunk with zeros (glTF 2.0 4.4)."""
    text = dumps(document).encode("utf-8")
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), _JSON) + text
    if binary:
        padded = bytes(binary) + b"\0" * (-len(binary) % 4)
        chunks += struct.pack("<II", len(padded), _BIN) + padded
    return struct.pack("<III", _MAGIC, 2, 12 + len(chunks)) + chunks


def write(path, document, binary):
    """Writes a .glb (encode)."""
    with open(path, "wb") as f:
        f.write(encode(document, binary))


def dumps(value):
    """Compact JSON text (exact: Python writes the shortest text that reads back the same float)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text):
    return json.loads(text)


def _copy_view(dst, dst_bin, src, src_bin, view_index, views_done):
    """Appends bufferView `view_index` of `src` (and its bytes) to `dst`; returns its new index."""
    if view_index in views_done:
        return views_done[view_index]
    view = src["bufferViews"][view_index]
    if view.get("buffer", 0) != 0:
        raise GlbError("a buffer view outside the .glb's binary chunk")
    start = view.get("byteOffset", 0)
    data = src_bin[start:start + view["byteLength"]]
    if len(data) != view["byteLength"]:
        raise GlbError("a buffer view runs past the binary chunk")
    dst_bin.extend(b"\0" * (-len(dst_bin) % 4))
    copied = {"buffer": 0, "byteOffset": len(dst_bin), "byteLength": len(data)}
    if "byteStride" in view:
        copied["byteStride"] = view["byteStride"]
    dst_bin.extend(data)
    dst.setdefault("bufferViews", []).append(copied)
    views_done[view_index] = len(dst["bufferViews"]) - 1
    return views_done[view_index]


def append_animation(dst, dst_bin, src, src_bin, animation, node_map, keep=None):
    """Copies `animation` of `src` into `dst` (its accessors' bytes appended to `dst_bin`, a
    bytearray) and returns the copy, not yet listed in dst["animations"]. Channel targets go
    through `node_map` (src node index -> dst node index); `keep(src node, path)` chooses the
    channels to copy (all by default). Every accessor is copied as it is: its type, component type
    and normalisation mean the same in both files."""
    views_done, accessors_done, samplers_done = {}, {}, {}
    samplers, channels = [], []

    def accessor(index):
        if index not in accessors_done:
            acc = dict(src["accessors"][index])
            if "sparse" in acc or "bufferView" not in acc:
                raise GlbError("animation accessor %d is sparse or has no data" % index)
            acc["bufferView"] = _copy_view(dst, dst_bin, src, src_bin, acc["bufferView"], views_done)
            dst.setdefault("accessors", []).append(acc)
            accessors_done[index] = len(dst["accessors"]) - 1
        return accessors_done[index]

    for channel in animation.get("channels", []):
        target = channel.get("target", {})
        node, path = target.get("node"), target.get("path")
        if keep is not None and not keep(node, path):
            continue
        if node not in node_map:
            raise GlbError("node %s of animation %s has no counterpart" % (node, animation.get("name")))
        sampler_index = channel["sampler"]
        if sampler_index not in samplers_done:
            sampler = animation["samplers"][sampler_index]
            samplers.append({"input": accessor(sampler["input"]), "output": accessor(sampler["output"]),
                             "interpolation": sampler.get("interpolation", "LINEAR")})
            samplers_done[sampler_index] = len(samplers) - 1
        channels.append({"sampler": samplers_done[sampler_index],
                         "target": {"node": node_map[node], "path": path}})
    dst["buffers"][0]["byteLength"] = len(dst_bin)
    return {"name": animation.get("name", ""), "channels": channels, "samplers": samplers}
