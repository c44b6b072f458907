"""Textures (issue 15): .dds, .ctxr and .png from strangers. Sizes in headers are checked against
the data before anything is allocated (a 65535x65535 header in a 128-byte file is an error, not
16 GB), a texture that cannot be read never fails a model's conversion (one warning naming it),
and nothing half-written is left."""
import os
import struct
import zlib

from craft import example
from hostile_case import case

ONE_LINE_ERROR = r"^[^\n]*: error at byte \d+ \(0x[0-9A-F]+\)[^\n]*\n$"


def dds(width, height, data=b"", fourcc=b"DXT1", mips=1, caps2=0, flags=0x1007):
    """A DDS header (FourCC format) followed by `data`."""
    head = struct.pack("<4sI6I44x", b"DDS ", 124, flags | (0x20000 if mips > 1 else 0), height, width, 0, 0, mips)
    head += struct.pack("<2I4s5I", 32, 0x4, fourcc, 0, 0, 0, 0, 0)
    head += struct.pack("<5I", 0x1000, caps2, 0, 0, 0)
    return head + data


def ctxr(width, height, mips=1, level_sizes=None, pixel=b"\x10\x20\x30\xff"):
    """A CTXR as the tools write it; `level_sizes` overrides the stored size fields."""
    out = b"TXTR" + struct.pack(">I6H", 7, width, height, 1, 0, 0, 0x100)
    out += bytes(3) + b"\xff" * 10 + bytes(5) + bytes([mips, 0]) + bytes(88)
    for level in range(mips):
        w, h = max(1, width >> level), max(1, height >> level)
        size = w * h * 4 if level_sizes is None else level_sizes[level]
        out += struct.pack(">I", size) + pixel * (w * h)
        out += bytes(-len(out) % 32)
    return out


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, rows=None, extra=()):
    """An 8-bit RGB PNG; `rows` (raw filtered scanlines) default to zeros of the declared size."""
    ihdr = struct.pack(">2I5B", width, height, 8, 2, 0, 0, 0)
    raw = rows if rows is not None else bytes((1 + width * 3) * height)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + b"".join(extra)
            + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))


# ---------------------------------------------------------------------------------------------
# Sizes from headers against the data

@case("dds_65535_square_in_128_bytes", why="a 65535x65535 header in a 128-byte file is an error, not a 16 GB allocation",
      exit=1, stderr=r"texture larger than Direct3D allows \(expected at most 16384 each way, found 65535x65535\)",
      one_line=True)
def _(d):
    (d / "big.dds").write_bytes(dds(65535, 65535))
    return ["info", "big.dds"]


@case("dds_16384_dxt1_in_192_bytes_to_png", why="the largest legal size with 64 bytes of data: the missing data is named, "
      "nothing is decoded or written", exit=1,
      stderr=r"error at byte 128 \(0x80\) in level 0: truncated level \(expected 134217728 bytes", one_line=True)
def _(d):
    (d / "big.dds").write_bytes(dds(16384, 16384, bytes(64)))
    return ["texture", "big.dds", "-o", "big.png"]


@case("dds_16384_dxt1_validate", why="validate names the truncated level with its offset and sizes", exit=1,
      stdout=r"error at byte 128 \(0x80\) in level 0: truncated level \(expected 134217728 bytes \(16384x16384 DXT1\), "
             r"found 64 bytes\)")
def _(d):
    (d / "big.dds").write_bytes(dds(16384, 16384, bytes(64)))
    return ["validate", "big.dds"]


@case("dds_mip_count_4g", why="mipMapCount 0xFFFFFFFF is one finding, not four billion levels", exit=1,
      stdout=r"more mip levels than the size allows down to 1x1 \(expected at most 3, found 4294967295\)", max_seconds=5)
def _(d):
    (d / "m.dds").write_bytes(dds(4, 4, bytes(24), mips=0xFFFFFFFF))
    return ["validate", "m.dds"]


@case("dds_header_cut_short", why="a header that ends early is one line with the offset", exit=1,
      stderr=r"error at byte 56 \(0x38\) in reserved: truncated", one_line=True)
def _(d):
    (d / "cut.dds").write_bytes(dds(4, 4)[:58])
    return ["info", "cut.dds"]


@case("dds_unknown_fourcc_to_png", why="a FourCC no decoder knows: exit 1, the FourCC named, no PNG", exit=1,
      stderr=r"error at byte 84 \(0x54\) in pixel format FourCC: unknown FourCC \(not decoded\) \(expected DXT1-DXT5, "
             r"ATI1, ATI2, BC4U, BC5U or DX10, found 'Q\?!Z' \(0x5A213F51\)\)", one_line=True)
def _(d):
    (d / "q.dds").write_bytes(dds(4, 4, bytes(16), fourcc=b"Q?!Z"))
    return ["texture", "q.dds", "-o", "q.png"]


@case("dds_cube_with_three_faces_of_data", why="a cube map whose data ends after three faces writes no face at all "
      "(all six or nothing)", exit=1, stderr=r"in face negy level 0: no data for the level", one_line=True)
def _(d):
    (d / "sky.dds").write_bytes(dds(4, 4, bytes(8 * 3), caps2=0xFE00))
    return ["texture", "sky.dds", "-o", "sky.png"]


@case("ctxr_level_size_4g", why="a CTXR level claiming 4 GB is a truncated level, never allocated", exit=1,
      stderr=r"in level 0 size: level size is not BGRA8", one_line=True)
def _(d):
    (d / "t.ctxr").write_bytes(ctxr(4, 4, level_sizes=[0xFFFFFFFF]))
    return ["texture", "t.ctxr", "-o", "t.png"]


@case("ctxr_65535_square", why="a CTXR header of 65535x65535 is an error before any level is read", exit=1,
      stderr=r"texture larger than Direct3D allows", one_line=True)
def _(d):
    (d / "t.ctxr").write_bytes(ctxr(65535, 65535, mips=0))
    return ["validate", "t.ctxr"]


@case("png_8192_square_in_100_bytes", why="a PNG whose IHDR asks for more pixels than zlib can inflate from the file "
      "is refused before allocating (8192x8192: within the pixel budget, cases_texture_memory.py)", exit=1,
      stderr=r"error at byte 16 \(0x10\) in IHDR: image size larger than the file can hold", one_line=True)
def _(d):
    (d / "big.png").write_bytes(png(8192, 8192, rows=b""))
    return ["texture", "big.png", "-o", "big.dds"]


@case("png_broken_idat", why="a PNG whose pixel data does not inflate: one line, no .dds", exit=1,
      stderr=r"not a readable PNG", one_line=True)
def _(d):
    good = png(8, 8)
    at = good.index(b"IDAT")
    bad = bytearray(good)
    bad[at + 6:at + 12] = b"\xff" * 6  # zlib stream damaged (the chunk CRC is then wrong as well)
    (d / "bad.png").write_bytes(bytes(bad))
    return ["texture", "bad.png", "-o", "bad.dds"]


@case("png_forged_ctxr_chunk", why="a ctXr chunk that claims gigabytes of levels is ignored: a fresh .ctxr that "
      "validates", exit=0, creates=[r"f\.ctxr"], creates_required=[r"f\.ctxr"])
def _(d):
    forged = bytes([1]) + struct.pack(">III", 0, 132, 0xFFFFFFF0) + zlib.compress(b"x" * 64)
    (d / "f.png").write_bytes(png(4, 4, extra=[png_chunk(b"ctXr", forged)]))
    return ["texture", "f.png", "-o", "f.ctxr"]


@case("texture_symlink_to_dev_zero", why="a texture that is /dev/zero is not read forever: exit 2", exit=2,
      stderr=r"not a regular file", one_line=True)
def _(d):
    os.symlink("/dev/zero", d / "z.dds")
    return ["texture", "z.dds", "-o", "z.png"]


@case("texture_output_names_the_input", why="writing the output over the input is refused", exit=2,
      stderr=r"refusing to overwrite the input file", one_line=True)
def _(d):
    (d / "a.png").write_bytes(png(2, 2))
    return ["texture", "a.png", "-o", "a.png"]


@case("texture_folder_with_one_broken_file", why="in a folder, a broken texture fails alone: exit 1, the others written",
      exit=1, stdout=r"1 written, 1 failed \(of 2\)", creates=[r"out", r"out/good\.png"],
      creates_required=[r"out/good\.png"])
def _(d):
    (d / "in").mkdir()
    (d / "in" / "good.dds").write_bytes(dds(4, 4, bytes(8)))
    (d / "in" / "bad.dds").write_bytes(dds(4, 4, bytes(3)))
    return ["texture", "in", "-o", "out"]


# ---------------------------------------------------------------------------------------------
# Models whose textures are broken: never a failed conversion

def arm_with_texture(d, texture_bytes=None):
    (d / "arm.ogf").write_bytes(example("wave_arm.ogf"))
    (d / "tex" / "act").mkdir(parents=True)
    if texture_bytes is not None:
        (d / "tex" / "act" / "act_arm.dds").write_bytes(texture_bytes)


@case("model_with_corrupt_texture", why="a texture that does not decode is one warning naming it; the model converts",
      exit=0, stderr=r"warning at byte 60 \(0x3C\) in 0x9/0 0x2 texture: texture tex/act/act_arm\.dds not used \(material "
                     r"left untextured\): texture larger than Direct3D allows at byte 16 in width x height \(expected at "
                     r"most 16384 each way, found 65535x65535\)",
      not_in_stderr=r"error at", creates=[r"arm\.glb"], creates_required=[r"arm\.glb"])
def _(d):
    arm_with_texture(d, dds(65535, 65535))
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


@case("model_with_truncated_texture", why="a truncated DXT1 texture (16384 square, 64 bytes) is one warning, "
      "no allocation of its size", exit=0, stderr=r"texture [^\n]*act_arm\.dds not used", creates=[r"arm\.glb"])
def _(d):
    arm_with_texture(d, dds(16384, 16384, bytes(64)))
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


@case("model_texture_is_a_fifo", why="a texture that is a FIFO is never opened (it would block): it is no texture "
      "file, one warning, the model converts", exit=0, stderr=r"texture not found: material left untextured",
      creates=[r"arm\.glb"], timeout=10)
def _(d):
    arm_with_texture(d)
    os.mkfifo(d / "tex" / "act" / "act_arm.dds")
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


@case("model_texture_missing", why="a missing texture is one warning naming it, never a failure", exit=0,
      stderr=r"in 0x9/0 0x2 texture: texture not found: material left untextured \(expected tex/act/act_arm\.dds \(or "
             r"\.png\), found nothing\)\n(?![\s\S]*texture)", creates=[r"arm\.gltf", r"arm\.bin"])
def _(d):
    arm_with_texture(d)
    return ["convert", "arm.ogf", "-o", "arm.gltf", "--textures", "tex"]
