#!/usr/bin/python3
"""Pillow (python3-pil) as the reference DDS decoder: every pixel `boneyard texture` writes to PNG
must equal Pillow's decoding of the same file within +-2 per channel.

    pillow_reference.py BONEYARD_CLI [SAMPLES_DIR]

1. Fixtures: DDS files of random blocks (every block pattern is a valid block) in each format both
   decoders know: DXT1, DXT3, DXT5, ATI1, ATI2, DX10 BC5 and R8G8B8A8, A8R8G8B8, R8G8B8, A8B8G8R8,
   L8, A8L8, also at sizes that are not multiples of 4.
2. Samples: every .dds under SAMPLES_DIR/xray/textures (skipped, said, when absent).
Exit 0 when all match, 1 on a mismatch, 77 (skipped) without Pillow.
"""
import pathlib
import random
import struct
import subprocess
import sys
import tempfile

try:
    from PIL import Image
except ImportError:
    print("SKIP: Pillow is not installed (apt-get install python3-pil)")
    sys.exit(77)

TOLERANCE = 2
cli = sys.argv[1]
samples = pathlib.Path(sys.argv[2]) / "xray" / "textures" if len(sys.argv) > 2 else None


def dds(width, height, data, fourcc=b"", flags=0x4, bits=0, masks=(0, 0, 0, 0), dxgi=None):
    header = struct.pack("<4sI6I44x", b"DDS ", 124, 0x1007, height, width, 0, 0, 1)
    header += struct.pack("<2I4sI4I", 32, flags, fourcc if flags & 0x4 else b"\0\0\0\0", bits, *masks)
    header += struct.pack("<5I", 0x1000, 0, 0, 0, 0)
    if dxgi is not None:
        header += struct.pack("<5I", dxgi, 3, 0, 1, 0)
    return header + data


def blocks(rng, width, height, size):
    return bytes(rng.getrandbits(8) for _ in range(((width + 3) // 4) * ((height + 3) // 4) * size))


def fixtures(rng):
    out = []
    for w, h in ((64, 32), (30, 18)):
        for name, cc, size in (("DXT1", b"DXT1", 8), ("DXT3", b"DXT3", 16), ("DXT5", b"DXT5", 16),
                               ("ATI1", b"ATI1", 8), ("ATI2", b"ATI2", 16)):
            out.append((f"{name}_{w}x{h}", dds(w, h, blocks(rng, w, h, size), cc)))
        # Pillow 9.4 reads these DX10 formats (not DX10 BC1-BC3, which the FourCC cases cover).
        out.append((f"DX10_BC5_{w}x{h}", dds(w, h, blocks(rng, w, h, 16), b"DX10", dxgi=83)))
    w, h = 17, 9
    pixels = lambda n: bytes(rng.getrandbits(8) for _ in range(w * h * n))
    out.append(("A8R8G8B8", dds(w, h, pixels(4), flags=0x41, bits=32, masks=(0xFF0000, 0xFF00, 0xFF, 0xFF000000))))
    # Not X8R8G8B8: Pillow 9.4 reads an RGB format without alpha as 3 bytes per pixel whatever its
    # bit count says (tests/texture/dds_test.cpp checks that one by hand).
    out.append(("A8B8G8R8", dds(w, h, pixels(4), flags=0x41, bits=32, masks=(0xFF, 0xFF00, 0xFF0000, 0xFF000000))))
    out.append(("R8G8B8", dds(w, h, pixels(3), flags=0x40, bits=24, masks=(0xFF0000, 0xFF00, 0xFF, 0))))
    out.append(("DX10_R8G8B8A8", dds(w, h, pixels(4), b"DX10", dxgi=28)))
    out.append(("L8", dds(w, h, pixels(1), flags=0x20000, bits=8, masks=(0xFF, 0, 0, 0))))
    out.append(("A8L8", dds(w, h, pixels(2), flags=0x20001, bits=16, masks=(0xFF, 0, 0, 0xFF00))))
    return out


def compare(label, dds_path, png_path):
    ref = Image.open(dds_path)
    ref.load()
    ours = Image.open(png_path).convert("RGBA")
    if ref.mode == "RGB" and ref.format == "DDS" and getattr(ref, "pixel_format", "") in ("BC5", "BC5S"):
        channels = 2  # BC5 holds red and green; what a decoder puts in blue is its own convention
    else:
        channels = 4
    ref = ref.convert("RGBA")
    if ref.size != ours.size:
        return f"{label}: size {ours.size}, Pillow {ref.size}"
    a, b = ref.tobytes(), ours.tobytes()
    worst, where = 0, 0
    for i in range(0, len(a), 4):
        for k in range(channels):
            d = abs(a[i + k] - b[i + k])
            if d > worst:
                worst, where = d, i // 4
    if worst > TOLERANCE:
        x, y = where % ref.size[0], where // ref.size[0]
        return (f"{label}: pixel ({x}, {y}) differs by {worst}: boneyard {tuple(b[where * 4:where * 4 + 4])}, "
                f"Pillow {tuple(a[where * 4:where * 4 + 4])}")
    print(f"ok   {label}: {ref.size[0]}x{ref.size[1]}, largest difference {worst}")
    return None


def convert(src, dst):
    r = subprocess.run([cli, "texture", str(src), "-o", str(dst)], capture_output=True, text=True)
    if r.returncode != 0:
        return f"{src}: boneyard texture exit {r.returncode}: {r.stderr.strip()}"
    return None


def main():
    failures = []
    rng = random.Random(15)
    with tempfile.TemporaryDirectory(prefix="boneyard_pillow_") as tmp:
        tmp = pathlib.Path(tmp)
        for name, data in fixtures(rng):
            src = tmp / f"{name}.dds"
            src.write_bytes(data)
            err = convert(src, tmp / f"{name}.png") or compare(name, src, tmp / f"{name}.png")
            if err:
                failures.append(err)
        if samples is None or not samples.is_dir():
            print(f"(real samples not found at {samples}: only the fixtures were compared)")
        else:
            found = sorted(samples.rglob("*.dds"))
            for src in found:
                png = tmp / (src.stem.replace("#", "_") + ".png")
                err = convert(src, png) or compare(str(src.relative_to(samples)), src, png)
                if err:
                    failures.append(err)
            if not found:
                failures.append(f"no .dds under {samples}")
    for f in failures:
        print("FAIL", f)
    print("all pixels within +-2 of Pillow" if not failures else f"{len(failures)} mismatch(es)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
