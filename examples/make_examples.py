#!/usr/bin/env python3
"""Writes examples/wave.omf and examples/wave_arm.ogf: a small motion file and the skeleton that
plays it, made for this repository (no game data).

Three bones (root > upper_arm > forearm), params version 4, two motions:
  wave  31 frames, cycle, keyed rotations, 8-bit translation keys on the forearm, a "Left" mark
  idle  2 frames, FX, static rotations and constant translations
Quantised like the X-Ray SDK: rotation components x32767 rounded; translation
init = (min+max)/2, size = halfrange/127, q = int(127*(t-init)/halfrange).
"""
import math
import pathlib
import struct
import zlib


def chunk(cid, payload):
    return struct.pack("<II", cid, len(payload)) + payload


def quat_axis(axis, angle):
    s = math.sin(angle / 2)
    q = [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]
    return [int(round(c * 32767)) for c in q]


def record(rot_keys, trans_keys=None, const=(0.0, 0.0, 0.0)):
    static = all(k == rot_keys[0] for k in rot_keys)
    flags = 0x2 if static else 0
    body = b""
    if static:
        body += struct.pack("<4h", *rot_keys[0])
    else:
        keys = b"".join(struct.pack("<4h", *k) for k in rot_keys)
        body += struct.pack("<I", zlib.crc32(keys)) + keys
    if trans_keys:
        flags |= 0x1
        lo = [min(t[i] for t in trans_keys) for i in range(3)]
        hi = [max(t[i] for t in trans_keys) for i in range(3)]
        init = [(a + b) / 2 for a, b in zip(lo, hi)]
        half = [(b - a) / 2 for a, b in zip(lo, hi)]
        size = [h / 127 for h in half]
        q = []
        for t in trans_keys:
            q.append([max(-128, min(127, int(127 * (t[i] - init[i]) / half[i]))) if half[i] > 0 else 0 for i in range(3)])
        keys = b"".join(struct.pack("<3b", *k) for k in q)
        body += struct.pack("<I", zlib.crc32(keys)) + keys + struct.pack("<3f", *size) + struct.pack("<3f", *init)
    else:
        body += struct.pack("<3f", *const)
    return bytes([flags]) + body


def motion(name, frames, records):
    return name.encode() + b"\0" + struct.pack("<I", frames) + b"".join(records)


def main():
    n = 31
    t = [i / (n - 1) for i in range(n)]
    wave = motion("wave", n, [
        record([quat_axis((0, 1, 0), 0.0)] * n, const=(0.0, 0.0, 0.0)),
        record([quat_axis((0, 0, 1), 0.6 * math.sin(2 * math.pi * x)) for x in t], const=(0.0, 0.3, 0.0)),
        record([quat_axis((1, 0, 0), 0.9 * math.sin(2 * math.pi * x) + 0.3) for x in t],
               trans_keys=[(0.0, 0.25 + 0.02 * math.sin(2 * math.pi * x), 0.0) for x in t]),
    ])
    idle = motion("idle", 2, [
        record([quat_axis((0, 1, 0), 0.0)] * 2),
        record([quat_axis((0, 0, 1), 0.1)] * 2, const=(0.0, 0.3, 0.0)),
        record([quat_axis((1, 0, 0), 0.3)] * 2, const=(0.0, 0.25, 0.0)),
    ])
    keys = chunk(0, struct.pack("<I", 2)) + chunk(1, wave) + chunk(2, idle)

    params = struct.pack("<HH", 4, 1) + b"default\0" + struct.pack("<H", 3)
    for i, bone in enumerate(["root", "upper_arm", "forearm"]):
        params += bone.encode() + b"\0" + struct.pack("<I", i)
    params += struct.pack("<H", 2)
    params += b"wave\0" + struct.pack("<IHH4f", 0, 0xFFFF, 0, 1.0, 1.0, 2.0, 1.0)
    params += struct.pack("<I", 1) + b"Left\r\n" + struct.pack("<I2f", 1, 0.2, 0.5)
    params += b"idle\0" + struct.pack("<IHH4f", 0x1, 0xFFFF, 1, 1.0, 1.0, 2.0, 1.0) + struct.pack("<I", 0)

    out = pathlib.Path(__file__).with_name("wave.omf")
    out.write_bytes(chunk(0xE, keys) + chunk(0xF, params))
    print(out, out.stat().st_size, "bytes")

    # The skeleton: OGF v4 type 3 with bone names (0xD), IK data with the bind pose (0x10) and a
    # motion ref (0x13) to "wave", found relative to the model's folder.
    bones = [("root", "", (0.0, 0.0, 0.0)), ("upper_arm", "root", (0.0, 0.3, 0.0)),
             ("forearm", "upper_arm", (0.0, 0.25, 0.0))]
    header = struct.pack("<BBH", 4, 3, 0) + struct.pack("<6f", -0.1, 0.0, -0.1, 0.1, 0.6, 0.1)
    header += struct.pack("<4f", 0.0, 0.3, 0.0, 0.35)
    names = struct.pack("<I", len(bones))
    ik = b""
    for name, parent, pos in bones:
        obb = struct.pack("<9f", 1, 0, 0, 0, 1, 0, 0, 0, 1) + struct.pack("<3f", 0, 0.1, 0)
        obb += struct.pack("<3f", 0.05, 0.1, 0.05)
        names += name.encode() + b"\0" + parent.encode() + b"\0" + obb
        ik += struct.pack("<I", 1) + b"default_object\0" + bytes(112)  # version 1, material, no shape
        ik += struct.pack("<I", 0) + bytes(48) + struct.pack("<2fI3f", 0, 0, 0, 0, 0, 0)  # joint data, friction
        ik += struct.pack("<3f", 0, 0, 0) + struct.pack("<3f", *pos) + struct.pack("<f3f", 1.0, 0, 0, 0)
    ogf = chunk(0x1, header) + chunk(0xD, names) + chunk(0x10, ik) + chunk(0x13, b"wave\0")
    out = pathlib.Path(__file__).with_name("wave_arm.ogf")
    out.write_bytes(ogf)
    print(out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
