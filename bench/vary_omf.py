#!/usr/bin/env python3
"""Writes a variant of an .omf whose key values differ from the original's, for the hands proxy of
bench/make_proxies.sh: repeating one file's motions would make every key array a duplicate,
which no real model has. Variant V (1..) moves the x and y components of every keyed rotation key (by V % 40 + 1 and
V // 40 units) and the z key of every keyed translation (CRCs recomputed), and, in 3 of every 8
variants, static rotations and constant translations too: the real 2,760-motion hands model has
69,921 distinct values among its 184,349 constant outputs (38 %).
Usage: vary_omf.py IN OUT V"""
import struct
import sys
import zlib


def chunks(b, off, end):
    while off + 8 <= end:
        cid, size = struct.unpack_from('<II', b, off)
        yield cid, off + 8, size
        off += 8 + size


def shift(b, at, d):
    x = struct.unpack_from('<h', b, at)[0]
    struct.pack_into('<h', b, at, max(-32767, min(32767, x + d)))


def vary_motion(b, start, end, v, held_too):
    p = b.index(b'\0', start) + 1  # name
    frames = struct.unpack_from('<I', b, p)[0]
    p += 4
    while p < end:
        flags = b[p]
        p += 1
        if flags & 2:  # static rotation: one key, no CRC
            if held_too:
                shift(b, p, v % 40 + 1)
                shift(b, p + 2, v // 40)
            p += 8
        else:
            crc_at, p = p, p + 4
            for k in range(frames):
                shift(b, p + k * 8, v % 40 + 1)
                shift(b, p + k * 8 + 2, v // 40)
            struct.pack_into('<I', b, crc_at, zlib.crc32(bytes(b[p:p + frames * 8])))
            p += frames * 8
        if flags & 1:  # keyed translation
            width = 6 if flags & 4 else 3
            crc_at, p = p, p + 4
            for k in range(frames):
                at = p + k * width + width - (2 if width == 6 else 1)
                if width == 6:
                    z = struct.unpack_from('<h', b, at)[0]
                    struct.pack_into('<h', b, at, max(-32767, min(32767, z + (v % 7) - 3)))
                else:
                    z = struct.unpack_from('<b', b, at)[0]
                    struct.pack_into('<b', b, at, max(-128, min(127, z + (v % 3) - 1)))
            struct.pack_into('<I', b, crc_at, zlib.crc32(bytes(b[p:p + frames * width])))
            p += frames * width + 24
        else:
            if held_too:
                x = struct.unpack_from('<f', b, p)[0]
                struct.pack_into('<f', b, p, x + v * 1e-5)
            p += 12


def main():
    src, dst, v = sys.argv[1], sys.argv[2], int(sys.argv[3])
    b = bytearray(open(src, 'rb').read())
    for cid, off, size in chunks(b, 0, len(b)):
        if cid == 0xE:
            for sid, soff, ssize in chunks(b, off, off + size):
                if sid != 0:
                    vary_motion(b, soff, soff + ssize, v, v % 8 < 3)
    open(dst, 'wb').write(b)


main()
