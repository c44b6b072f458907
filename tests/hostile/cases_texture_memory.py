"""Issue 27, scope 1: decoded-size budgets for every image path. One image decodes to at most
kMaxTexturePixels = 2^26 pixels (8192x8192, 256 MiB as RGBA, include/boneyard/limits.h), checked
against the header before anything is allocated; libpng's chunk limits are set and the chunks
boneyard does not read are skipped; the ctXr chunk is bounded by the CTXR header it carries; a
batch decodes at most the budget at a time whatever its -j.

A case that decodes a texture states its decoded bytes (`decoded=`): its peak RSS may then be
3x that more than 4x the input + 64 MB (docs/safety.md "Memory"). The refused cases decode
nothing and keep the plain bound."""
import struct
import zlib

from cases_textures import arm_with_texture, ctxr, dds, png_chunk
from craft import example
from hostile_case import case

MB = 1 << 20
LIMIT_PIXELS = 1 << 26                   # kMaxTexturePixels
LIMIT_DECODED = LIMIT_PIXELS * 4         # 256 MiB
TOO_MANY = r"too many pixels to decode \(expected at most 67108864 pixels \(8192x8192, 256 MiB as RGBA\), found {}\)"
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def deflate(pieces, level=9):
    """zlib stream of the concatenated pieces (each bytes, or an int: that many zero bytes, fed in
    16 MiB steps so that gigabytes of zeros are never held)."""
    z = zlib.compressobj(level)
    out = []
    for p in pieces:
        if isinstance(p, int):
            block = bytes(min(p, 16 * MB))
            while p > 0:
                out.append(z.compress(block[:p]))
                p -= len(block)
        else:
            out.append(z.compress(p))
    out.append(z.flush())
    return b"".join(out)


def ihdr(width, height, depth=8, color=2):
    return png_chunk(b"IHDR", struct.pack(">2I5B", width, height, depth, color, 0, 0, 0))


def png_gray1(width, height, before_idat=()):
    """A 1-bit grey PNG of zeros: (1 + width / 8) inflated bytes per row, compressed about 1000:1,
    so a few kilobytes declare a huge image the 1032:1 zlib check lets through."""
    raw = (1 + (width + 7) // 8) * height
    return (SIGNATURE + ihdr(width, height, 1, 0) + b"".join(before_idat)
            + png_chunk(b"IDAT", deflate([raw])) + png_chunk(b"IEND", b""))


def png_rgb(width, height, before_idat=()):
    """An 8-bit RGB PNG of `width` x `height` zeros, with chunks before its IDAT."""
    return (SIGNATURE + ihdr(width, height) + b"".join(before_idat)
            + png_chunk(b"IDAT", deflate([(1 + 3 * width) * height])) + png_chunk(b"IEND", b""))


def dxt1(width, height, mips=1):
    """A DXT1 DDS of black blocks with every declared level present."""
    data = b""
    for level in range(mips):
        w, h = max(1, width >> level), max(1, height >> level)
        data += bytes(((w + 3) // 4) * ((h + 3) // 4) * 8)
    return dds(width, height, data, mips=mips)


ONE_LINE_ERROR = r"^[^\n]*: error at byte \d+ \(0x[0-9A-F]+\)[^\n]*\n$"

# ---------------------------------------------------------------------------------------------
# PNG: the pixel budget, from IHDR, before libpng allocates anything


@case("png_1bit_16384_square_to_dds", why="a 37 KB 1-bit PNG declaring 16384x16384 (it took 2 GB) is refused from its "
      "IHDR", exit=1, one_line=True,
      stderr=r"error at byte 16 \(0x10\) in IHDR: " + TOO_MANY.format(r"16384x16384 = 268435456 pixels"))
def _(d):
    (d / "big.png").write_bytes(png_gray1(16384, 16384))
    return ["texture", "big.png", "-o", "big.dds"]


@case("png_1bit_16384_square_as_model_texture", why="the same PNG as a model's texture (it took 1 GB) is one warning "
      "naming it; the model converts untextured", exit=0, creates=[r"arm\.glb"], creates_required=[r"arm\.glb"],
      stderr=r"texture tex/act/act_arm\.png not used \(material left untextured\): too many pixels to decode at byte 16 "
             r"in IHDR \(expected at most 67108864 pixels", not_in_stderr=r"error at")
def _(d):
    arm_with_texture(d)
    (d / "tex" / "act" / "act_arm.png").write_bytes(png_gray1(16384, 16384))
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


@case("png_one_pixel_row_past_the_limit", why="8193x8192, one column past 8192x8192, is refused before allocating",
      exit=1, one_line=True, stderr=r"in IHDR: " + TOO_MANY.format(r"8193x8192 = 67117056 pixels"))
def _(d):
    (d / "past.png").write_bytes(png_gray1(8193, 8192))
    return ["texture", "past.png", "-o", "past.ctxr"]


@case("png_16384x4097_past_the_limit", why="a long image one row past 2^26 pixels is refused too", exit=1,
      one_line=True, stderr=r"in IHDR: " + TOO_MANY.format(r"16384x4097 = 67125248 pixels"))
def _(d):
    (d / "past.png").write_bytes(png_gray1(16384, 4097))
    return ["texture", "past.png", "-o", "past.dds"]


@case("png_8192_square_at_the_limit_to_ctxr", why="exactly 2^26 pixels converts, with its full mip chain, within "
      "4 x input + 64 MB + 3 x 256 MiB", exit=0, decoded=LIMIT_DECODED, address_space_mb=2048,
      creates=[r"at\.ctxr"], creates_required=[r"at\.ctxr"], timeout=120)
def _(d):
    (d / "at.png").write_bytes(png_gray1(8192, 8192))
    return ["texture", "at.png", "-o", "at.ctxr"]


@case("png_8192_square_at_the_limit_to_rgba_dds", why="exactly 2^26 pixels to an A8R8G8B8 .dds with mips (the largest "
      "output: 4/3 of the decoded bytes) within the bound", exit=0, decoded=LIMIT_DECODED, address_space_mb=2048,
      creates=[r"at\.dds"], creates_required=[r"at\.dds"], timeout=120)
def _(d):
    (d / "at.png").write_bytes(png_gray1(8192, 8192))
    return ["texture", "at.png", "-o", "at.dds", "--format", "rgba"]


@case("png_16384x4096_at_the_limit_as_model_texture", why="a texture of exactly 2^26 pixels is embedded, within the "
      "bound", exit=0, decoded=LIMIT_DECODED, address_space_mb=2048, creates=[r"arm\.glb"],
      creates_required=[r"arm\.glb"], not_in_stderr=r"act_arm", timeout=60)
def _(d):
    arm_with_texture(d)
    (d / "tex" / "act" / "act_arm.png").write_bytes(png_gray1(16384, 4096))
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


# ---------------------------------------------------------------------------------------------
# PNG chunks: lengths against the file, libpng's limits, chunks boneyard does not read


def png_with_claim(kind, length, tail=b"x" * 37):
    """A 1x1 PNG header, then a `kind` chunk whose length field says `length`, then `tail` and the
    end of the file (86 bytes with the defaults)."""
    return SIGNATURE + ihdr(1, 1) + struct.pack(">I", length) + kind + b"Comment\0" + tail


@case("png_text_chunk_claims_2g", why="an 86-byte PNG whose tEXt chunk claims 2 GB (it took 2 GB) is one error with "
      "both sizes", exit=1, one_line=True,
      stderr=r"error at byte 33 \(0x21\) in tEXt: chunk runs past the end of the file \(truncated file\) \(expected at "
             r"most 41 bytes, found 2147483632 bytes\)")
def _(d):
    data = png_with_claim(b"tEXt", 0x7FFFFFF0)
    assert len(data) == 86
    (d / "t.png").write_bytes(data)
    return ["texture", "t.png", "-o", "t.dds"]


@case("png_ztxt_chunk_claims_2g_as_model_texture", why="the same claim in a zTXt chunk, as a model's texture: one "
      "warning, the model converts", exit=0, creates=[r"arm\.glb"],
      stderr=r"act_arm\.png not used \(material left untextured\): chunk runs past the end of the file")
def _(d):
    arm_with_texture(d)
    (d / "tex" / "act" / "act_arm.png").write_bytes(png_with_claim(b"zTXt", 0x7FFFFFF0))
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


@case("png_private_chunk_claims_4g", why="an unknown chunk claiming 0xFFFFFFFF bytes is the same error", exit=1,
      one_line=True, stderr=r"in prVt: chunk runs past the end of the file \(truncated file\) \(expected at most \d+ "
                            r"bytes, found 4294967295 bytes\)")
def _(d):
    (d / "p.png").write_bytes(png_with_claim(b"prVt", 0xFFFFFFFF))
    return ["texture", "p.png", "-o", "p.dds"]


@case("png_chunk_type_not_letters", why="a chunk whose type is not four letters is named by its hex", exit=1,
      one_line=True, stderr=r"in chunk type 0xFF0102: chunk runs past the end of the file")
def _(d):
    (d / "p.png").write_bytes(png_with_claim(b"\x00\xff\x01\x02", 1000))
    return ["texture", "p.png", "-o", "p.dds"]


@case("png_ztxt_inflating_to_1g", why="a real 1 MB zTXt chunk that inflates to 1 GiB is skipped unread: the PNG "
      "converts within 4 x input + 64 MB", exit=0, creates=[r"z\.dds"], creates_required=[r"z\.dds"])
def _(d):
    text = png_chunk(b"zTXt", b"Comment\0\0" + deflate([1 << 30]))
    (d / "z.png").write_bytes(png_rgb(4, 4, [text]))
    return ["texture", "z.png", "-o", "z.dds"]


@case("png_iccp_inflating_to_1g", why="an ICC profile that inflates to 1 GiB is skipped unread", exit=0,
      creates=[r"i\.ctxr"], creates_required=[r"i\.ctxr"])
def _(d):
    icc = png_chunk(b"iCCP", b"evil\0\0" + deflate([1 << 30]))
    (d / "i.png").write_bytes(png_rgb(4, 4, [icc]))
    return ["texture", "i.png", "-o", "i.ctxr"]


@case("png_itxt_20mb_present", why="a 20 MB iTXt chunk that is really there costs at most its own bytes", exit=0,
      creates=[r"t\.dds"], creates_required=[r"t\.dds"])
def _(d):
    text = png_chunk(b"iTXt", b"Comment\0\0\0\0\0" + b"words " * (20 * MB // 6))
    (d / "t.png").write_bytes(png_rgb(4, 4, [text]))
    return ["texture", "t.png", "-o", "t.dds"]


@case("png_50000_text_chunks", why="50000 small tEXt chunks are skipped one by one: linear time, no growing table",
      exit=0, creates=[r"t\.dds"], creates_required=[r"t\.dds"], max_seconds=5)
def _(d):
    texts = [png_chunk(b"tEXt", b"k\0" + str(i).encode()) for i in range(50000)]
    (d / "t.png").write_bytes(png_rgb(4, 4, texts))
    return ["texture", "t.png", "-o", "t.dds"]


# ---------------------------------------------------------------------------------------------
# The ctXr chunk: bounded by the CTXR header it carries


def ctxr_chunk(total, stream, crc=0, prefix=132):
    """boneyard's ctXr chunk: version 1, the CRC of the top level's BGRA pixels, the prefix and
    total lengths it claims, and a zlib stream."""
    return png_chunk(b"ctXr", bytes([1]) + struct.pack(">III", crc, prefix, total) + stream)


# A 4x4 PNG of zeros with RGB 0 is RGBA (0, 0, 0, 255): its BGRA pixels as a CTXR stores them.
BLACK_4X4_BGRA = b"\x00\x00\x00\xff" * 16
BLACK_4X4_CTXR = ctxr(4, 4, pixel=b"\x00\x00\x00\xff")  # one level: header, size, pixels, padding


def rest_of(ctxr_bytes):
    """What a ctXr chunk holds of a one-level 4x4 CTXR: the file without the top level's pixels."""
    return ctxr_bytes[:132] + ctxr_bytes[132 + 64:]


@case("png_ctxr_chunk_inflating_to_1g", why="a 1 MB PNG whose ctXr chunk inflates to 1 GiB (it took 2 GB): the chunk "
      "is not used (one warning), a fresh .ctxr within 4 x input + 64 MB", exit=0, one_line=True,
      stderr=r"ctXr chunk is not used: its data does not start with a CTXR header; the CTXR is made anew",
      creates=[r"c\.ctxr"], creates_required=[r"c\.ctxr"], timeout=60)
def _(d):
    (d / "c.png").write_bytes(png_rgb(4, 4, [ctxr_chunk(1 << 30, deflate([1 << 30]))]))
    return ["texture", "c.png", "-o", "c.ctxr"]


@case("png_ctxr_chunk_claims_more_than_its_header", why="a ctXr chunk for this very image whose claim (1 GiB, "
      "really there) is more than its 4x4 CTXR header describes: not used, nothing allocated for it", exit=0,
      one_line=True, stderr=r"ctXr chunk is not used: it claims 1073741824 bytes, more than the 4x4, 1-level CTXR its "
                            r"header describes takes \(at most 65696\)", creates=[r"c\.ctxr"], timeout=60)
def _(d):
    stream = deflate([BLACK_4X4_CTXR[:132], (1 << 30) - 132])
    chunk = ctxr_chunk(1 << 30, stream, crc=zlib.crc32(BLACK_4X4_BGRA))
    (d / "c.png").write_bytes(png_rgb(4, 4, [chunk]))
    return ["texture", "c.png", "-o", "c.ctxr"]


@case("png_ctxr_chunk_inflates_past_its_claim", why="a ctXr chunk whose data goes on after the bytes it claims: not "
      "used (inflating stops at the claim)", exit=0, one_line=True,
      stderr=r"ctXr chunk is not used: its data inflates past the 160 bytes it claims", creates=[r"c\.ctxr"])
def _(d):
    rest = rest_of(BLACK_4X4_CTXR)
    chunk = ctxr_chunk(len(rest), deflate([rest, 1 << 20]), crc=zlib.crc32(BLACK_4X4_BGRA))
    (d / "c.png").write_bytes(png_rgb(4, 4, [chunk]))
    return ["texture", "c.png", "-o", "c.ctxr"]


@case("png_ctxr_chunk_ends_before_its_claim", why="a ctXr chunk whose data ends before the bytes it claims: not used",
      exit=0, one_line=True, stderr=r"ctXr chunk is not used: its data ends before the 1000 bytes it claims",
      creates=[r"c\.ctxr"])
def _(d):
    rest = rest_of(BLACK_4X4_CTXR)
    chunk = ctxr_chunk(1000, deflate([rest]), crc=zlib.crc32(BLACK_4X4_BGRA))
    (d / "c.png").write_bytes(png_rgb(4, 4, [chunk]))
    return ["texture", "c.png", "-o", "c.ctxr"]


@case("png_ctxr_chunk_exact_round_trip", why="the neighbours' baseline: the same chunk, honest, rebuilds the CTXR byte "
      "for byte", exit=0, stderr=r"rebuilt byte for byte", creates=[r"c\.ctxr"],
      check=lambda d, *_: None if (d / "c.ctxr").read_bytes() == BLACK_4X4_CTXR else "not the original CTXR")
def _(d):
    rest = rest_of(BLACK_4X4_CTXR)
    chunk = ctxr_chunk(len(rest), deflate([rest]), crc=zlib.crc32(BLACK_4X4_BGRA))
    (d / "c.png").write_bytes(png_rgb(4, 4, [chunk]))
    return ["texture", "c.png", "-o", "c.ctxr"]


# ---------------------------------------------------------------------------------------------
# DDS and CTXR: the budget at the limit and one past it; huge headers within it, truncated


@case("dds_8192_square_dxt1_at_the_limit_to_png", why="a complete 8192x8192 DXT1 (32 MiB) decodes, within the bound",
      exit=0, decoded=LIMIT_DECODED, address_space_mb=2048, creates=[r"at\.png"], creates_required=[r"at\.png"],
      timeout=120)
def _(d):
    (d / "at.dds").write_bytes(dxt1(8192, 8192))
    return ["texture", "at.dds", "-o", "at.png"]


@case("dds_8196x8192_dxt1_past_the_limit_to_png", why="a complete DXT1 one block column past 2^26 pixels: refused "
      "before decoding, the file never read past its header", exit=1, one_line=True,
      stderr=r"error at byte 12 \(0xC\) in level 0: " + TOO_MANY.format(r"8196x8192 = 67141632 pixels"))
def _(d):
    (d / "past.dds").write_bytes(dxt1(8196, 8192))
    return ["texture", "past.dds", "-o", "past.png"]


@case("dds_8196x8192_validate_warns", why="validate reads the same file and says it cannot be decoded (a warning: the "
      "file itself is fine)", exit=0,
      stdout=r"warning at byte 12 \(0xC\) in width x height: too many pixels to decode: read, checked and rewritten, "
             r"not converted \(expected at most 67108864 pixels, found 8196x8192\)")
def _(d):
    (d / "past.dds").write_bytes(dxt1(8196, 8192))
    return ["validate", "past.dds"]


@case("dds_8196x8192_level_1_decodes", why="level 1 of a texture past the limit is within it: --mip 1 converts",
      exit=0, decoded=4098 * 4096 * 4, creates=[r"m1\.png"], creates_required=[r"m1\.png"], timeout=60)
def _(d):
    (d / "past.dds").write_bytes(dxt1(8196, 8192, mips=2))
    return ["texture", "past.dds", "--mip", "1", "-o", "m1.png"]


@case("dds_8196x8192_as_model_texture", why="a model's texture past the limit is one warning naming it", exit=0,
      creates=[r"arm\.glb"], stderr=r"act_arm\.dds not used \(material left untextured\): too many pixels to decode at "
                                    r"byte 12 in level 0")
def _(d):
    arm_with_texture(d, dxt1(8196, 8192))
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


@case("dds_8192_square_truncated", why="a header within the budget with 64 bytes of data names its truncated level "
      "and allocates nothing", exit=1, one_line=True,
      stderr=r"error at byte 128 \(0x80\) in level 0: truncated level \(expected 33554432 bytes \(8192x8192 DXT1\), "
             r"found 64 bytes\)")
def _(d):
    (d / "cut.dds").write_bytes(dds(8192, 8192, bytes(64)))
    return ["texture", "cut.dds", "-o", "cut.png"]


@case("dds_8192_square_truncated_as_model_texture", why="the same as a model's texture: one warning", exit=0,
      creates=[r"arm\.glb"], stderr=r"act_arm\.dds not used \(material left untextured\): truncated level")
def _(d):
    arm_with_texture(d, dds(8192, 8192, bytes(64)))
    return ["convert", "arm.ogf", "-o", "arm.glb", "--textures", "tex"]


@case("dds_cube_4096_cross_past_the_limit", why="a cube map of 4096x4096 faces as one cross would be 16384x12288: "
      "refused before any face is decoded", exit=1, one_line=True,
      stderr=r"in cross of level 0: " + TOO_MANY.format(r"16384x12288 = 201326592 pixels"))
def _(d):
    face = bytes(1024 * 1024 * 8)
    (d / "sky.dds").write_bytes(dds(4096, 4096, face * 6, caps2=0xFE00))
    return ["texture", "sky.dds", "-o", "sky.png", "--cross"]


@case("dds_cube_2048_faces_one_at_a_time", why="six faces are decoded one at a time, each written before the next",
      exit=0, decoded=2048 * 2048 * 4, creates=[r"sky_(pos|neg)[xyz]\.png"], creates_required=[r"sky_negz\.png"],
      check=lambda d, *_: None if len(list(d.glob("sky_*.png"))) == 6 else "not six faces")
def _(d):
    face = bytes(512 * 512 * 8)
    (d / "sky.dds").write_bytes(dds(2048, 2048, face * 6, caps2=0xFE00))
    return ["texture", "sky.dds", "-o", "sky.png"]


@case("ctxr_8192_square_truncated", why="a CTXR header within the budget with a few bytes of level: the truncated "
      "level is named, nothing allocated", exit=1, one_line=True,
      stderr=r"error at byte 132 \(0x84\) in level 0: truncated level \(expected 268435456 bytes, found 64 bytes\)")
def _(d):
    head = ctxr(1, 1)[:128]
    head = head[:8] + struct.pack(">2H", 8192, 8192) + head[12:]
    (d / "cut.ctxr").write_bytes(head + struct.pack(">I", 8192 * 8192 * 4) + bytes(64))
    return ["texture", "cut.ctxr", "-o", "cut.png"]


@case("ctxr_16384_square_validate", why="a CTXR past the budget: validate names the truncated level and warns that it "
      "cannot be decoded", exit=1,
      stdout=r"warning at byte 8 \(0x8\) in width x height: too many pixels to decode.*truncated level")
def _(d):
    head = ctxr(1, 1)[:128]
    head = head[:8] + struct.pack(">2H", 16384, 16384) + head[12:]
    (d / "big.ctxr").write_bytes(head + struct.pack(">I", 16384 * 16384 * 4) + bytes(64))
    return ["validate", "big.ctxr"]


# ---------------------------------------------------------------------------------------------
# A batch: its threads decode at most the budget together


def arm_with_own_texture(name):
    """wave_arm.ogf whose texture is act\\<name> (seven characters, as act_arm: no size changes)."""
    data = example("wave_arm.ogf")
    assert len(name) == 7 and data.count(b"act\\act_arm") == 1
    return data.replace(b"act\\act_arm", b"act\\" + name.encode())


@case("batch_four_models_with_textures_at_the_limit", why="four models converted on four threads, each with its own "
      "8192x8192 texture: decoded one at a time (DecodeBudget), so the batch stays within the bound of one",
      exit=0, decoded=LIMIT_DECODED, address_space_mb=2048, timeout=180,
      creates=[r"out", r"out/arm\d\.glb"], creates_required=[r"out/arm3\.glb"])
def _(d):
    (d / "in").mkdir()
    (d / "tex" / "act").mkdir(parents=True)
    for i in range(4):
        (d / "in" / f"arm{i}.ogf").write_bytes(arm_with_own_texture(f"act_ar{i}"))
        (d / "tex" / "act" / f"act_ar{i}.png").write_bytes(png_gray1(8192, 8192))
    return ["convert", "--recursive", "in", "-o", "out", "-j", "4", "--textures", "tex"]
