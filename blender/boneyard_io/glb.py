"""Reading and writing binary glTF (.glb) files: the JSON chunk as Python objects, the binary
chunk as bytes. Plain Python (no bpy): the add-on edits the JSON of the .glb files that boneyard
and Blender write, never their binary data."""
import json
import re
import struct

_MAGIC = 0x46546C67  # "glTF"
_JSON = 0x4E4F534A
_BIN = 0x004E4942


class GlbError(ValueError):
    pass


def _load(path):
    """(the JSON chunk's text, the whole file's bytes, the file's glTF length) of a .glb."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 20:
        raise GlbError("%s: not a binary glTF (%d bytes)" % (path, len(data)))
    magic, version, length = struct.unpack_from("<III", data, 0)
    if magic != _MAGIC or version != 2 or length > len(data):
        raise GlbError("%s: not a binary glTF 2.0 file" % path)
    chunk_length, chunk_type = struct.unpack_from("<II", data, 12)
    if chunk_type != _JSON or 20 + chunk_length > length:
        raise GlbError("%s: the first chunk is not JSON" % path)
    return data[20:20 + chunk_length].decode("utf-8"), data, length


def read(path):
    """(json dict, binary chunk bytes or b"") of a .glb file."""
    text, data, length = _load(path)
    document = json.loads(text)
    binary = b""
    at = 20 + struct.unpack_from("<I", data, 12)[0]
    if at + 8 <= length:
        chunk_length, chunk_type = struct.unpack_from("<II", data, at)
        if chunk_type == _BIN and at + 8 + chunk_length <= length:
            binary = data[at + 8:at + 8 + chunk_length]
    return document, binary


_SPACE = re.compile(r"[ \t\n\r]*")


_INTERPOLATION = re.compile(r'"interpolation"[ \t\n\r]*:[ \t\n\r]*"([A-Z]*)"')


def _skimmed_array(text, at, decoder):
    """(the text of the array at `at`, the position after it) when it holds only objects without
    arrays, extras or extensions (an animation's channels and samplers as boneyard writes them),
    found without parsing it; else (its parsed value, the position after it)."""
    end = text.find("]", at)
    if text[at] == "[" and end > 0:
        inner = text[at + 1:end]
        if "[" not in inner and '"extras"' not in inner and '"extensions"' not in inner:
            return inner, end + 1
    return decoder.raw_decode(text, at)


def _skim_animation(text, at, decoder):
    """An animation object at `at` as {"name", "extras", "interpolations": the set of its samplers'
    interpolations}, and the position after it."""
    if text[at] != "{":
        raise ValueError("an animation is not an object")
    out, at = {"interpolations": set()}, _SPACE.match(text, at + 1).end()
    while text[at] != "}":
        key, at = decoder.raw_decode(text, at)
        at = _SPACE.match(text, at).end()
        if text[at] != ":":
            raise ValueError("no ':' after %r" % key)
        at = _SPACE.match(text, at + 1).end()
        if key in ("channels", "samplers"):
            value, at = _skimmed_array(text, at, decoder)
            if key == "samplers":
                if isinstance(value, str):
                    found, objects = _INTERPOLATION.findall(value), value.count("{")
                else:
                    found = [s.get("interpolation", "LINEAR") for s in value if isinstance(s, dict)]
                    objects = len(found)
                out["interpolations"].update(found)
                if len(found) < objects:
                    out["interpolations"].add("LINEAR")  # the default, not written
        else:
            value, at = decoder.raw_decode(text, at)
            if key in ("name", "extras"):
                out[key] = value
        at = _SPACE.match(text, at).end()
        if text[at] == ",":
            at = _SPACE.match(text, at + 1).end()
        elif text[at] != "}":
            raise ValueError("no ',' after the value of %r" % key)
    return out, at + 1


def read_scenes_and_animations(path):
    """(scenes, animations) of a .glb, read as read_members does, each animation skimmed
    (_skim_animation): its channels and samplers, most of the JSON for 69 motions, are not turned
    into Python objects, since the add-on's import needs only the animations' names, extras and
    interpolations."""
    text = _load(path)[0]
    decoder, scenes, animations = json.JSONDecoder(), None, None
    try:
        at = _SPACE.match(text, 0).end()
        if text[at] != "{":
            raise ValueError("not an object")
        at += 1
        while scenes is None or animations is None:
            at = _SPACE.match(text, at).end()
            if text[at] == "}":
                break
            key, at = decoder.raw_decode(text, at)
            at = _SPACE.match(text, at).end()
            if text[at] != ":":
                raise ValueError("no ':' after %r" % key)
            at = _SPACE.match(text, at + 1).end()
            if key == "animations":
                if text[at] != "[":
                    raise ValueError("animations is not an array")
                animations, at = [], _SPACE.match(text, at + 1).end()
                while text[at] != "]":
                    animation, at = _skim_animation(text, at, decoder)
                    animations.append(animation)
                    at = _SPACE.match(text, at).end()
                    if text[at] == ",":
                        at = _SPACE.match(text, at + 1).end()
                    elif text[at] != "]":
                        raise ValueError("no ',' after an animation")
                at += 1
            else:
                value, at = decoder.raw_decode(text, at)
                if key == "scenes":
                    scenes = value
            at = _SPACE.match(text, at).end()
            if text[at] == ",":
                at += 1
            elif text[at] != "}":
                raise ValueError("no ',' after the value of %r" % key)
    except (ValueError, IndexError) as error:
        raise GlbError("%s: the JSON chunk does not read (%s)" % (path, error)) from error
    return scenes or [], animations or []


def write(path, document, binary):
    """Writes a .glb: the JSON chunk padded with spaces, the binary chunk with zeros (glTF 2.0 4.4)."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), _JSON) + text
    if binary:
        padded = bytes(binary) + b"\0" * (-len(binary) % 4)
        chunks += struct.pack("<II", len(padded), _BIN) + padded
    with open(path, "wb") as f:
        f.write(struct.pack("<III", _MAGIC, 2, 12 + len(chunks)) + chunks)


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
