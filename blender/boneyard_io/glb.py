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


def read(path):
    """(json dict, binary chunk bytes or b"") of a .glb file."""
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
    document = json.loads(data[20:20 + chunk_length].decode("utf-8"))
    binary = b""
    at = 20 + chunk_length
    if at + 8 <= length:
        chunk_length, chunk_type = struct.unpack_from("<II", data, at)
        if chunk_type == _BIN and at + 8 + chunk_length <= length:
            binary = data[at + 8:at + 8 + chunk_length]
    return document, binary


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
