"""Hostile MGS2 motion archives (.mar, docs/mgs2-mar.md) and Master Collection index files
(docs/mgs2-mc-index.md): counts checked before anything is allocated, streams that run out or
that motions and joints share so much that decoding would multiply the file (the key budget), a
frame count of 4 billion over a short stream, and index files of a million blank lines or with NUL
bytes; none leaves an output behind."""
import pathlib
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


# ---- mc-register -------------------------------------------------------------------------------

FUZZ_SEEDS = pathlib.Path(__file__).resolve().parent.parent / "fuzz_seeds"


def mc_model(d):
    """A Master Collection .kms with its _win/.cmdl (the fuzz_cmdl seed of the standard MULTITEX
    fixture: textures 0xB7E31E and 0x123456, texture group 0x88D878 = w03b1) as mod/w03b1.kms."""
    data = (FUZZ_SEEDS / "fuzz_cmdl" / "standard_mc_multitex_kms_pair").read_bytes()
    at = data.rfind(b"MODL")
    (d / "mod" / "_win").mkdir(parents=True)
    (d / "mod" / "w03b1.kms").write_bytes(data[:at])
    (d / "mod" / "_win" / "w03b1.cmdl").write_bytes(data[at:])


@case("mc_register_hostile_game_indices", why="the game's index files with a million blank lines, a NUL byte, a 1 MB "
      "line and lines of one comma are read in linear time and bounded memory; the mod's files are still right",
      exit=0, stdout=r"wrote out/eu/stage/w24c/bp_assets_fix\.txt \(2 lines\)", max_seconds=10,
      creates=[r"out", r"out/eu", r"out/eu/stage", r"out/eu/stage/w24c", r"out/eu/stage/w24c/.*_fix\.txt"],
      creates_required=[r"out/eu/stage/w24c/manifest_fix\.txt", r"out/eu/stage/w24c/bp_assets_fix\.txt"])
def _(d):
    mc_model(d)
    stage = d / "game" / "eu" / "stage" / "w24c"
    stage.mkdir(parents=True)
    (stage / "manifest.txt").write_bytes(b"assets/kms/us/w03b1.kms,us/stage/w24c/cache/00000001.kms,cache/0\0001.kms\r\r\n"
                                         + b"\r\n" * 1000000 + b"," * (1 << 20) + b"\n,\n,,\n")
    (stage / "bp_assets.txt").write_bytes(b"textures/flatlist/null_msk.bmp.ctxr,stage/w24c/cache/null_msk.bmp.ctxr,"
                                          b"eu/stage/w24c/cache/0088d878/00b7e31e.ctxr\r\r\n" + b"\0" * 4096 + b"\r\r\r\r\n" * 100000)
    (d / "tex").mkdir()
    for name in ("null_msk.bmp.ctxr", "00123456.ctxr"):
        (d / "tex" / name).write_bytes(b"\1")
    return ["mc-register", "mod/w03b1.kms", "--game", "game", "--lang", "eu", "--mod", "fix", "-o", "out", "--textures", "tex"]


@case("mc_register_textures_folder_of_odd_names", why="a textures folder of 3000 files named every odd way (a bare "
      "'.ctxr', '.bmp.ctxr', 32 hex digits after '_' and nothing before, 6 and 8 hex digits, 7 hex digits, 200-byte "
      "names, no extension) is indexed once, fast; the model's two textures are found by the documented rule",
      exit=0, stdout=r"registered null_msk\.bmp\.ctxr", max_seconds=10)
def _(d):
    mc_model(d)
    tex = d / "tex"
    tex.mkdir()
    odd = [".ctxr", ".bmp.ctxr", "_" + "0" * 32 + ".ctxr", "_" + "f" * 32, "1234567.ctxr", "x" * 200 + ".ctxr",
           "00000000.ctxr", "ffffffff.ctxr", "000000.ctxr", ".img.ctxr", "00000001.img_.ctxr"]
    for i in range(3000):
        (tex / f"{i:04d}_{odd[i % len(odd)]}").write_bytes(b"")
    for name in odd:
        (tex / name).write_bytes(b"")
    (tex / "null_msk.bmp.ctxr").write_bytes(b"\1")
    (tex / "b").mkdir()
    (tex / "b" / "null_msk.bmp_0123456789abcdef0123456789abcdef.ctxr").write_bytes(b"\1")
    (tex / "123456.ctxr").write_bytes(b"\1")
    return ["mc-register", "mod/w03b1.kms", "--stage", "w24c", "--lang", "eu", "--mod", "fix", "--dry-run", "--textures", "tex"]
