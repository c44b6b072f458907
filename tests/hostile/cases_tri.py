"""MGS2 .tri archives from strangers (issue 40): counts and block sizes in the header are checked
against the file before anything is allocated, rectangles that read the same memory thousands of
times over are refused whole instead of becoming gigabytes of PNGs, a texture that cannot be
decoded fails alone, and nothing half-written is left (PNGs to .tri included)."""
import os
import struct
import zlib

from hostile_case import case

TAG = bytes([0x01, 0x80, 0, 0, 0, 0, 0, 0x70, 0xEE, 0xEE]) + bytes(6)


def tex0(tbp0=0, tbw=2, psm=0x14, tw=5, th=5, cbp=0, csa=0):
    return tbp0 | tbw << 14 | psm << 20 | tw << 26 | th << 30 | 1 << 34 | cbp << 37 | csa << 56


def entry(texture, texture_id=0xB7E31E, rect=(0.0, 0.0, 31 / 32, 31 / 32)):
    """A PS2 (0xA0-byte) entry with the layout tag."""
    e = bytearray(0xA0)
    struct.pack_into("<4fI", e, 0, *rect, texture_id)
    e[0x20:0x30] = TAG
    struct.pack_into("<Q", e, 0x50, texture)
    return bytes(e)


def tri(entries, image_rows=32, clut_rows=32, count=None, trailing=b""):
    table = b"".join(entries)
    image_at = 0x20 + len(table)
    clut_at = image_at + image_rows * 256
    head = struct.pack("<IiiiiIii", 0, 64, image_rows, clut_rows, len(entries) if count is None else count, 0, image_at, clut_at)
    # A CLUT of grey colours, alpha 0x80, so that any index decodes.
    clut = b"".join(struct.pack("<I", (i & 0xFF) * 0x010101 | 0x80000000) for i in range(clut_rows * 64))
    return head + table + bytes(image_rows * 256) + clut + trailing


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height):
    ihdr = struct.pack(">2I5B", width, height, 8, 6, 0, 0, 0)
    raw = bytes((1 + width * 4) * height)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(raw))
            + png_chunk(b"IEND", b""))


@case("tri_count_2g_in_64_bytes", why="a count of 2^31 - 1 entries in a 64-byte file is one error, not an allocation",
      exit=1, stderr=r"error at byte 16 \(0x10\) in texture count: the entry table runs past the end of the file",
      one_line=True, max_seconds=5)
def _(d):
    (d / "big.tri").write_bytes(struct.pack("<IiiiiIii", 0, 64, 0, 0, 0x7FFFFFFF, 0, 64, 64) + bytes(32))
    return ["info", "big.tri"]


@case("tri_block_rows_2g", why="an image block of 2^31 - 1 rows is checked against the file: one error", exit=1,
      stderr=r"error at byte 24 \(0x18\) in image block: block past the end of the file", one_line=True, max_seconds=5)
def _(d):
    data = bytearray(tri([entry(tex0())], image_rows=1, clut_rows=1))
    struct.pack_into("<i", data, 8, 0x7FFFFFFF)
    (d / "big.tri").write_bytes(bytes(data))
    return ["validate", "big.tri"]


@case("tri_rectangles_2g_pixels_to_png", why="4000 entries of 1024x1024 pixels over one 8 KB block would be 16 GB of PNGs: "
      "refused whole, fast, nothing written", exit=1, stderr=r"larger than the image block holds 16 times over",
      one_line=True, max_seconds=10)
def _(d):
    e = entry(tex0(tw=10, th=10), rect=(0.0, 0.0, 1023 / 1024, 1023 / 1024))
    (d / "many.tri").write_bytes(tri([e] * 4000))
    return ["texture", "many.tri", "-o", "out"]


@case("tri_rectangles_2g_pixels_validate", why="validate stops decoding at the same budget: one error, fast", exit=1,
      stdout=r"larger than the image block holds 16 times over", max_seconds=20)
def _(d):
    e = entry(tex0(tw=10, th=10), rect=(0.0, 0.0, 1023 / 1024, 1023 / 1024))
    (d / "many.tri").write_bytes(tri([e] * 4000))
    return ["validate", "many.tri"]


@case("tri_tw_15", why="TW 15 (32768 pixels) is past the GS's 1024: an error naming the entry, nothing allocated", exit=1,
      stdout=r"entry 0 \(texture 0xB7E31E\) TEX0 TW/TH: texture larger than the GS allows", max_seconds=5)
def _(d):
    (d / "t.tri").write_bytes(tri([entry(tex0(tw=15, th=15), rect=(0.0, 0.0, 1.0, 1.0))]))
    return ["validate", "t.tri"]


@case("tri_one_texture_past_its_block", why="a texture whose pixels lie past the image block fails alone; the other is "
      "written", exit=1, stdout=r"1 written, 1 failed \(of 2\)", stderr=r"lies past the image block",
      creates=[r"out", r"out/123456\.png"], creates_required=[r"out/123456\.png"])
def _(d):
    good = entry(tex0(), texture_id=0x123456)
    bad = entry(tex0(tbp0=0x3FFF))
    (d / "t.tri").write_bytes(tri([good, bad]))
    return ["texture", "t.tri", "-o", "out"]


@case("tri_png_output_is_a_fifo", why="a PNG output that is a FIFO refuses the whole .tri before anything is written",
      exit=2, stderr=r"b7e31e\.png: refusing to write over a FIFO", one_line=True, timeout=10)
def _(d):
    (d / "t.tri").write_bytes(tri([entry(tex0()), entry(tex0(), texture_id=0x123456)]))
    (d / "out").mkdir()
    os.mkfifo(d / "out" / "b7e31e.png")
    return ["texture", "t.tri", "-o", "out"]


@case("tri_from_png_of_another_size", why="a PNG that does not fit its entry is refused naming it; no .tri is written",
      exit=1, stderr=r"b7e31e\.png \(texture 0xB7E31E\): the image is not the size of its texture in the \.tri "
                     r"\(crop or scale it to that size\) \(expected 32x32, found 4x4\)", one_line=True)
def _(d):
    (d / "t.tri").write_bytes(tri([entry(tex0())]))
    (d / "in").mkdir()
    (d / "in" / "b7e31e.png").write_bytes(png(4, 4))
    return ["texture", "in", "-o", "new.tri", "--template", "t.tri"]


@case("tri_from_png_claiming_16384_square", why="a PNG header of 16384x16384 in a tiny file is refused before its pixels "
      "are allocated; no .tri is written", exit=1, stderr=r"b7e31e\.png at byte 16 in IHDR: too many pixels to decode",
      one_line=True, max_seconds=5)
def _(d):
    (d / "t.tri").write_bytes(tri([entry(tex0())]))
    (d / "in").mkdir()
    ihdr = struct.pack(">2I5B", 16384, 16384, 8, 6, 0, 0, 0)
    (d / "in" / "b7e31e.png").write_bytes(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
                                         + png_chunk(b"IDAT", zlib.compress(b"\0" * 100)) + png_chunk(b"IEND", b""))
    return ["texture", "in", "-o", "new.tri", "--template", "t.tri"]


@case("tri_folder_with_2g_pixel_tri", why="in a texture folder, a .tri whose rectangles would be 16 GB of PNGs fails "
      "alone, fast, at planning; the other .tri is written into a folder of its own", exit=1,
      stdout=r"1 written, 1 failed \(of 2\)", stderr=r"many\.tri: error at byte 16 \(0x10\) in texture count: the textures "
      r"together are larger than the image block holds 16 times over", max_seconds=10,
      creates=[r"out", r"out/good", r"out/good/b7e31e\.png"], creates_required=[r"out/good/b7e31e\.png"])
def _(d):
    e = entry(tex0(tw=10, th=10), rect=(0.0, 0.0, 1023 / 1024, 1023 / 1024))
    (d / "in").mkdir()
    (d / "in" / "many.tri").write_bytes(tri([e] * 4000))
    (d / "in" / "good.tri").write_bytes(tri([entry(tex0())]))
    return ["texture", "in", "-o", "out"]


@case("tri_folder_png_output_is_a_fifo", why="in a texture folder, a .tri's PNG output that is a FIFO refuses the "
      "whole batch before anything is written", exit=2, stderr=r"b7e31e\.png: refusing to write over a FIFO",
      one_line=True, timeout=10)
def _(d):
    (d / "in").mkdir()
    (d / "in" / "a.tri").write_bytes(tri([entry(tex0(), texture_id=0x123456)]))
    (d / "in" / "t.tri").write_bytes(tri([entry(tex0())]))
    (d / "out" / "t").mkdir(parents=True)
    os.mkfifo(d / "out" / "t" / "b7e31e.png")
    return ["texture", "in", "-o", "out"]


@case("tri_folder_name_taken", why="in a texture folder, a .tri whose folder name is a file already, or holds another "
      "input's PNG, goes into <name>_tri (said), never over them", exit=0, stdout=r"3 written, 0 failed \(of 3\)",
      stderr=r"written into t_tri/", creates=[r"out/t_tri", r"out/t_tri/b7e31e\.png", r"out/x_tri", r"out/x_tri/b7e31e\.png",
                                           r"out/x", r"out/x/y\.png"],
      creates_required=[r"out/t_tri/b7e31e\.png", r"out/x_tri/b7e31e\.png", r"out/x/y\.png"])
def _(d):
    (d / "in" / "x").mkdir(parents=True)
    (d / "in" / "t.tri").write_bytes(tri([entry(tex0())]))
    (d / "in" / "x.tri").write_bytes(tri([entry(tex0())]))
    # A DDS (4x4 A8R8G8B8) whose PNG goes into out/x/, where x.tri's folder would be.
    header = struct.pack("<4s7I44x8I5I", b"DDS ", 124, 0x100F, 4, 4, 16, 0, 1,
                         32, 0x41, 0, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000, 0x1000, 0, 0, 0, 0)
    (d / "in" / "x" / "y.dds").write_bytes(header + bytes(64))
    (d / "out").mkdir()
    (d / "out" / "t").write_bytes(b"a file where t.tri's folder would go")
    return ["texture", "in", "-o", "out"]
