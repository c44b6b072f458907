#!/usr/bin/env python3
"""Small fuzz seeds cut at test time from real samples too large to seed a fuzzer whole. They are
written into the run's seed folder only: the samples are never copied into the repository
(../shared/samples/xray/SOURCES.md).

    from_samples.py SAMPLES_DIR OUT_DIR TARGET

fuzz_lzhuf: the LZHuf payload of sdk/blender-xray/test_fmt_old.object's body (chunk 0x80007777,
782 bytes): a stream the SDK's own encoder wrote.

fuzz_ogf: soc/rat_1.ogf (305 KB, the only sample with embedded motions: params version
3, 29 bones, 45 motions, one of them with 0 frames) without its mesh (0x9) and with 6 of its
motions (0xE and 0xF cut to the same ones, stored motion ids kept): 48 KB. fuzz_ogf took 1.1 s
on the whole file, 47 ms on the cut one, which reaches all but 9 of the edges the whole one does.
"""
import pathlib
import struct
import sys


def chunks(data):
    """(id, payload) of each chunk of `data`."""
    at = 0
    while at + 8 <= len(data):
        cid, n = struct.unpack_from("<II", data, at)
        yield cid, data[at + 8:at + 8 + n]
        at += 8 + n


def chunk(cid, payload):
    return struct.pack("<II", cid, len(payload)) + payload


def cstr_end(data, at):
    return data.index(b"\0", at) + 1


def cut_params(params, keep):
    """0xF with only the motions at the indices `keep` (params version 3 or 4)."""
    version = struct.unpack_from("<H", params, 0)[0]
    at = 2
    parts = struct.unpack_from("<H", params, at)[0]
    at += 2
    for _ in range(parts):
        at = cstr_end(params, at)
        bones = struct.unpack_from("<H", params, at)[0]
        at += 2
        for _ in range(bones):
            at = cstr_end(params, at) + 4
    head = params[:at]
    count = struct.unpack_from("<H", params, at)[0]
    at += 2
    records = []
    for _ in range(count):
        start = at
        at = cstr_end(params, at) + 4 + 2 + 2 + 16
        if version >= 4:
            marks = struct.unpack_from("<I", params, at)[0]
            at += 4
            for _ in range(marks):
                at = params.index(b"\r\n", at) + 2
                at += 4 + 8 * struct.unpack_from("<I", params, at)[0]
        records.append(params[start:at])
    return head + struct.pack("<H", len(keep)) + b"".join(records[i] for i in keep) + params[at:]


def cut_embedded(ogf, keep):
    """An .ogf with embedded motions, without children and with the motions `keep` only."""
    out = b""
    for cid, payload in chunks(ogf):
        if cid == 0x9:
            continue
        if cid == 0xE:
            motions = {sub: body for sub, body in chunks(payload) if sub != 0}
            payload = chunk(0, struct.pack("<I", len(keep)))
            payload += b"".join(chunk(k + 1, motions[i + 1]) for k, i in enumerate(keep))
        elif cid == 0xF:
            payload = cut_params(payload, keep)
        out += chunk(cid, payload)
    return out


def main():
    samples, out, target = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
    old = samples / "sdk" / "blender-xray" / "test_fmt_old.object"
    if target == "fuzz_lzhuf" and old.is_file():
        (out / "sdk_test_fmt_old_body.lzh").write_bytes(next(payload for cid, payload in chunks(old.read_bytes())))
    rat = samples / "soc" / "rat_1.ogf"
    if target == "fuzz_ogf" and rat.is_file():
        # attack_3 (11 frames), norm_death (45), norm_idle_1 (17), stand_attack_2 (10),
        # sleep_stand_up_0 (FX, 30), norm_death_2_ (0 frames in 0xE)
        (out / "soc_rat_1_cut.ogf").write_bytes(cut_embedded(rat.read_bytes(), [2, 4, 6, 15, 16, 18]))


if __name__ == "__main__":
    main()
