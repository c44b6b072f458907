"""The X-Ray SDK's motion files (.skl, .skls, .anm; issue 38): absurd counts, NaN times,
behaviours and shapes out of range, truncations and LZHuf bombs, each failing with one clear line
or found by validate, within the memory bound, nothing left behind."""
import struct

from hostile_case import case


def envelope(keys, pre=1, post=1, shape=4, layout=2):
    """An envelope: keys (time, value) of `shape`; v2 (u8/u16 header, 9 or 23-byte keys) or v1."""
    if layout == 1:
        out = struct.pack("<III", pre, post, len(keys))
        for t, v in keys:
            out += struct.pack("<ffI7f", v, t, shape, *([0.0] * 7))
        return out
    out = struct.pack("<BBH", pre, post, len(keys))
    for t, v in keys:
        out += struct.pack("<ffB", v, t, shape) + (b"" if shape == 4 else struct.pack("<7H", *([32768] * 7)))
    return out


def motion(name=b"idle", version=6, bones=(b"bip01",), channels=None, marks=b""):
    out = name + b"\0" + struct.pack("<iifH", 0, 30, 30.0, version)
    if version >= 6:
        out += struct.pack("<BHffffH", 2, 0xFFFF, 1.0, 2.0, 1.0, 1.0, len(bones))
    else:
        out += struct.pack("<IIffffI", 2, 0xFFFF, 1.0, 2.0, 1.0, 1.0, len(bones))
    for bone in bones:
        out += bone + b"\0" + (b"\0" if version >= 6 else b"\0\0\0\0")
        for c in range(6):
            out += channels[c] if channels else envelope([(0.0, 0.0), (1.0, 1.0)], layout=2 if version >= 6 else 1)
    if version >= 7:
        out += marks or struct.pack("<I", 0)
    return out


def skls(*motions):
    return struct.pack("<I", len(motions)) + b"".join(motions)


def chunk(cid, payload):
    return struct.pack("<II", cid, len(payload)) + payload


def anm(channels=None, version=5):
    body = b"cam\0" + struct.pack("<iifH", 0, 30, 30.0, version)
    for c in range(6):
        body += channels[c] if channels else envelope([(0.0, 0.0), (1.0, 1.0)], shape=0, layout=1 if version == 3 else 2)
    return chunk(0x1100, body)


COUNT = r"count past the data"


@case("skls_motion_count_4g", why="a .skls declaring 2^32-1 motions, then one, fails before allocating",
      exit=1, stderr=r"motions: " + COUNT, one_line=True)
def _(d):
    (d / "a.skls").write_bytes(struct.pack("<I", 0xFFFFFFFF) + motion())
    return ["info", "a.skls"]


@case("skls_v5_bone_count_4g", why="a v5 motion's u32 bone count of 2^32-1 fails before allocating",
      exit=1, stderr=r"motion 0 bones: " + COUNT, one_line=True)
def _(d):
    body = bytearray(motion(version=5))
    at = 5 + 12 + 2 + 8 + 16
    body[at:at + 4] = struct.pack("<I", 0xFFFFFFFF)
    (d / "a.skls").write_bytes(skls(bytes(body)))
    return ["validate", "a.skls"]


@case("skls_key_count_65535", why="an envelope declaring 65535 keys in a few bytes fails at its count",
      exit=1, stderr=r"motion 0 bone 0 x: " + COUNT, one_line=True)
def _(d):
    channels = [struct.pack("<BBH", 1, 1, 0xFFFF) + b"\0" * 9] + [envelope([(0.0, 0.0)])] * 5
    (d / "a.skls").write_bytes(skls(motion(channels=channels)))
    return ["dump", "a.skls"]


@case("anm_v3_key_count_4g", why="a v3 .anm (u32 key counts) declaring 2^32-1 keys fails before allocating",
      exit=1, stderr=r"0x1100 x: " + COUNT, one_line=True)
def _(d):
    channels = [struct.pack("<III", 1, 1, 0xFFFFFFFF)] + [envelope([(0.0, 0.0)], layout=1)] * 5
    (d / "a.anm").write_bytes(anm(channels, version=3))
    return ["info", "a.anm"]


@case("skls_v7_mark_intervals_4g", why="a v7 mark declaring 2^32-1 intervals fails before allocating",
      exit=1, stderr=r"motion 0 mark 0 intervals: " + COUNT, one_line=True)
def _(d):
    marks = struct.pack("<I", 1) + b"step\r\n" + struct.pack("<I", 0xFFFFFFFF)
    (d / "a.skls").write_bytes(skls(motion(version=7, marks=marks)))
    return ["info", "a.skls"]


@case("skls_nan_key_time", why="a NaN key time is an error at its byte, naming motion, bone and channel",
      exit=1, stdout=r"error at byte \d+ \(0x[0-9A-F]+\) in motion 0 \"idle\" bone 0 \"bip01\" y: key time is not a finite number")
def _(d):
    channels = [envelope([(0.0, 0.0)]), envelope([(0.0, 0.0), (float("nan"), 1.0)])] + [envelope([(0.0, 0.0)])] * 4
    (d / "a.skls").write_bytes(skls(motion(channels=channels)))
    return ["validate", "a.skls"]


@case("anm_behaviour_and_shape_out_of_range", why="behaviour 200 and shape 77 are errors naming the channel",
      exit=1, stdout=r"(?s)0x1100 h post-behaviour: behaviour out of range.*0x1100 b: key shape out of range")
def _(d):
    channels = [envelope([(0.0, 0.0), (1.0, 1.0)], shape=0)] * 3 + [
        envelope([(0.0, 0.0), (1.0, 1.0)], shape=0, post=200), envelope([(0.0, 0.0), (1.0, 1.0)], shape=0),
        envelope([(0.0, 0.0), (1.0, 1.0)], shape=77)]
    (d / "a.anm").write_bytes(anm(channels))
    return ["validate", "a.anm"]


@case("skls_keys_out_of_order_convert_refused", why="keys out of time order stop a rewrite unless --force",
      exit=1, stderr=r"keys out of time order", creates=())
def _(d):
    channels = [envelope([(1.0, 0.0), (0.5, 1.0)])] + [envelope([(0.0, 0.0)])] * 5
    (d / "a.skls").write_bytes(skls(motion(channels=channels)))
    return ["convert", "a.skls", "-o", "b.skls"]


@case("skls_truncated_key", why="a .skls cut inside its last key fails with one line naming the key",
      exit=1, stderr=r"motion 0 bone 0 b key 1: truncated", one_line=True)
def _(d):
    channels = [envelope([(0.0, 0.0)])] * 5 + [envelope([(0.0, 0.0), (1.0, 1.0)], shape=0)]
    (d / "a.skls").write_bytes(skls(motion(channels=channels))[:-5])
    return ["info", "a.skls"]


@case("skl_lzhuf_bomb", why="a packed .skl chunk declaring 4 GB of motion in 1 MB is refused before allocating",
      exit=1, stderr=r"0x80001200", one_line=True)
def _(d):
    payload = struct.pack("<I", 0xFFFFFFF0) + b"\x55" * (1 << 20)
    (d / "a.skl").write_bytes(chunk(0x80001200, payload))
    return ["info", "a.skl"]


@case("anm_lzhuf_bomb_within_the_bound", why="a packed .anm chunk declaring 48 bytes per packed byte, then no stream",
      exit=1, stderr=r"0x80001100", one_line=True)
def _(d):
    stream = b"\0" * (1 << 20)
    payload = struct.pack("<I", 48 * len(stream)) + stream
    (d / "a.anm").write_bytes(chunk(0x80001100, payload))
    return ["validate", "a.anm"]


@case("skls_cut_after_its_count", why="a .skls of 7 bytes is read as a .skls (its name) and fails with one line",
      exit=1, stderr=r"in motions: count past the data", one_line=True)
def _(d):
    (d / "a.skls").write_bytes(struct.pack("<I", 1) + b"idl")
    return ["validate", "a.skls"]
