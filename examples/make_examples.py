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


def arm_mesh():
    """One skinned child (0x9/0): a square tube 4 cm wide around the arm (from the upper arm's head at y = 0.3 m to 0.8 m), 1-link vertices (format
    1: position, normal, tangent, binormal, uv, bone). Rings below the elbow follow upper_arm, the
    others forearm. Triangles are laid out so that cross(b - a, c - a) points outwards in X-Ray
    coordinates, as the engine's data is (the exporter mirrors Z and flips the winding)."""
    half = 0.02
    rings = [0.3, 0.425, 0.55, 0.675, 0.8]  # upper_arm's head at 0.3, forearm's at 0.55
    sides = [((1, 0, 0), (0, 0, 1)), ((0, 0, 1), (-1, 0, 0)), ((-1, 0, 0), (0, 0, -1)), ((0, 0, -1), (1, 0, 0))]
    verts, indices = b"", []
    count = 0
    for normal, across in sides:
        base = count
        for r, y in enumerate(rings):
            for k, s in enumerate((-1.0, 1.0)):
                pos = [normal[i] * half + across[i] * half * s for i in range(3)]
                pos[1] += y
                bone = 1 if y < 0.55 else 2
                verts += struct.pack("<3f3f3f3f2fI", *pos, *normal, *across, 0.0, 1.0, 0.0,
                                     (k + 0.0), r / (len(rings) - 1), bone)
                count += 1
        for r in range(len(rings) - 1):
            a, b = base + r * 2, base + r * 2 + 1  # this ring: -across, +across
            c, d = a + 2, b + 2                      # the ring above
            # across x up = -normal for these sides, so (a, c, b) winds outwards.
            indices += [a, c, b, b, c, d]
    header = struct.pack("<I", 4 | (5 << 8)) + struct.pack("<6f", -half, 0.3, -half, half, 0.8, half)
    header += struct.pack("<4f", 0.0, 0.55, 0.0, 0.26)
    texture = b"act\\act_arm\0models\\model\0"
    vertices = struct.pack("<II", 1, count) + verts
    index_data = struct.pack("<I", len(indices)) + struct.pack("<%dH" % len(indices), *indices)
    return chunk(0x1, header) + chunk(0x2, texture) + chunk(0x3, vertices) + chunk(0x4, index_data)


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
    ogf = chunk(0x1, header) + chunk(0x9, chunk(0, arm_mesh())) + chunk(0xD, names) + chunk(0x10, ik)
    ogf += chunk(0x13, b"wave\0")
    out = pathlib.Path(__file__).with_name("wave_arm.ogf")
    out.write_bytes(ogf)
    print(out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
