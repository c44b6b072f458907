"""Hostile MGS2 motion archives (.mar, docs/mgs2-mar.md) and Master Collection index files
(docs/mgs2-mc-index.md): counts checked before anything is allocated, streams that run out or
that motions and joints share so much that decoding would multiply the file (the key budget), a
frame count of 4 billion over a short stream, and index files of a million blank lines or with NUL
bytes; none leaves an output behind."""
import struct

from hostile_case import case

ONE_LINE = dict(exit=1, one_line=True)


def mar(motions, max_joint=None, mtcm_offset=None, count=None):
    """A PS2 .mar laid out as boneyard's builder lays it out. `motions`: [(frames, joints, joint
    offsets or None (all right after a 10-unit translation stream), archive bytes)]; the root
    offset is the archive's end."""
    n = len(motions)
    area = (0x10 + 8 * n + 15) // 16 * 16
    body, table = bytearray(), bytearray()
    for frames, joints, offsets, archive in motions:
        start = area + len(body)
        archive_offset = (0x2C + 4 * joints + 15) // 16 * 16
        if offsets is None:
            offsets = [10] * joints
        head = struct.pack("<11I", 0x123456, 0, 0, frames, archive_offset, len(archive), joints, len(archive) // 2, 0, 0, 0)
        mtcm = head + b"".join(struct.pack("<I", o) for o in offsets)
        mtcm += b"\0" * (archive_offset - len(mtcm)) + archive
        table += struct.pack("<II", start - area, len(mtcm))
        body += mtcm + b"\0" * (-len(mtcm) % 16)
    head = struct.pack("<4I", 0x6152414D, max(j for _, j, _, _ in motions) if max_joint is None else max_joint,
                       n if count is None else count, area if mtcm_offset is None else mtcm_offset)
    out = head + table
    return out + b"\0" * (area - len(out)) + bytes(body)


def translation_stream(frames):
    """Joint 0's translation: the initial (0, 0, 0), one record reaching `frames`; 20 bytes."""
    data = (b"\0" * 6 + bytes([min(frames, 255)]) + b"\0" * 12).ljust(20, b"\0")
    return data


def rotation_stream(records):
    """`records` rotation records (delta 1, identity quaternion), LSB first, padded to 16 bits."""
    bits, value = 0, 0
    for _ in range(records):
        for v, width in ((1, 8), (0, 12), (0, 12), (0, 12), (2047, 12), (0, 48)):
            value |= v << bits
            bits += width
    data = value.to_bytes((bits + 7) // 8, "little")
    return data + b"\0" * (len(data) % 2)


def shared_streams(joints, records):
    """One motion of `joints` joints whose offsets all name one stream of `records` keys."""
    archive = translation_stream(records) + rotation_stream(records)
    return mar([(records, joints, None, archive)])


@case("mar_motion_count_bomb", why="4 billion motions in a 64-byte .mar fail before any allocation",
      stderr=r"header motion count: more motions than any motion archive holds", **ONE_LINE)
def _(d):
    (d / "x.mar").write_bytes(mar([(1, 1, None, translation_stream(1) + rotation_stream(1))], count=0xFFFFFFFF))
    return ["info", "x.mar"]


@case("mar_joint_count_bomb", why="an MTCM declaring a billion joints is an unreadable motion, not an allocation",
      stdout=r"joint offsets: count past the data", exit=1)
def _(d):
    data = bytearray(mar([(1, 1, None, translation_stream(1) + rotation_stream(1))]))
    struct.pack_into("<I", data, 0x20 + 0x18, 0x40000000)
    (d / "x.mar").write_bytes(bytes(data))
    return ["validate", "--layout", "ps2", "x.mar"]


@case("mar_frames_overrun", why="4 billion frames over a stream of 3 keys end at the stream, at once",
      stdout=r"motion 0 joint 0 rotation keys: the stream ends before its keys reach the motion's last frame", exit=1,
      max_seconds=5)
def _(d):
    data = bytearray(mar([(3, 1, None, translation_stream(3) + rotation_stream(3))]))
    struct.pack_into("<I", data, 0x20 + 0x0C, 0xFFFFFFFF)
    (d / "x.mar").write_bytes(bytes(data))
    return ["validate", "x.mar"]


@case("mar_shared_streams_validate", why="60,000 joints sharing a stream of 10,000 keys (6e8 keys from 370 KB) stop at the "
      "key budget in well under a second", stdout=r"share key streams so much", exit=1, max_seconds=10)
def _(d):
    (d / "x.mar").write_bytes(shared_streams(60000, 10000))
    return ["validate", "x.mar"]


@case("mar_shared_streams_convert", why="the same file converted on a flat armature fails at the key budget and writes nothing",
      stderr=r"share key streams so much", exit=1, max_seconds=10)
def _(d):
    (d / "x.mar").write_bytes(shared_streams(60000, 10000))
    return ["convert", "x.mar", "-o", "x.glb"]


@case("mar_broken_convert_writes_nothing", why="a .mar whose streams run out is not converted (no .glb, no temporary file)",
      stderr=r"stream ends before its keys reach", exit=1)
def _(d):
    stream = rotation_stream(3)
    data = bytearray(mar([(3, 2, [10, 10 + len(stream) // 2], translation_stream(3) + stream + stream)]))
    struct.pack_into("<I", data, 0x20 + 0x0C, 40)  # 40 frames, 3 keys
    (d / "x.mar").write_bytes(bytes(data))
    return ["convert", "x.mar", "-o", "x.glb"]


@case("mar_layout_conversion_of_unreadable_motion", why="a motion outside the file cannot be laid out in the other layout: "
      "an error naming it, no output", stderr=r"motion 1 .*cannot lay out an unreadable motion", exit=1)
def _(d):
    data = bytearray(mar([(1, 1, None, translation_stream(1) + rotation_stream(1)), (1, 1, None, translation_stream(1) + rotation_stream(1))]))
    struct.pack_into("<I", data, 0x10 + 8, 0x00FFFFF0)
    (d / "x.mar").write_bytes(bytes(data))
    return ["convert", "--force", "--input-layout", "ps2", "x.mar", "-o", "y.mar", "--layout", "mc"]


@case("mc_index_million_blank_lines", why="a 2 MB index of a million blank lines validates in linear time and bounded memory",
      stdout=r"1000001 lines are blank", exit=0, max_seconds=10)
def _(d):
    (d / "manifest.txt").write_bytes(b"assets/tri/us/a.tri,us/stage/w00a/cache/00000001.tri,cache/00000001.tri\r\r\n" + b"\r\n" * 1000001)
    return ["validate", "--info", "manifest.txt"]


@case("mc_index_nul_byte", why="an index with a NUL byte is not text: refused as no known format", stderr=r"not a recognised file",
      **ONE_LINE)
def _(d):
    (d / "bp_assets.txt").write_bytes(b"textures/flatlist/a.bmp.ctxr,stage/w00a/cache/a.bmp.ctxr,eu\0/stage\r\r\n")
    return ["info", "bp_assets.txt"]


@case("mc_index_repeated_lines", why="200,000 copies of one line are found as repeats through sorted hashes, in bounded memory",
      stdout=r"199999 lines repeat an earlier line", exit=0, max_seconds=10)
def _(d):
    line = b"assets/kms/us/a.cmdl,us/stage/w00a/cache/0000abcd.cmdl,eu/stage/w00a/cache/0000abcd.cmdl\r\r\n"
    (d / "bp_assets.txt").write_bytes(line * 200000)
    return ["validate", "--info", "bp_assets.txt"]
