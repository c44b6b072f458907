"""Byte builders for crafted files. They reuse the example generator's encoders
(examples/make_examples.py) so that a crafted file differs from a valid one only where a case says."""
import pathlib
import struct
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples"))

from make_examples import chunk, motion, quat_axis, record  # noqa: E402,F401

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def example(name):
    """The bytes of a shipped example (wave.omf, wave_arm.ogf)."""
    return (EXAMPLES / name).read_bytes()


def params_v4(bones, motions, part="default"):
    """Chunk 0xF payload: one part holding `bones` (names, index = position); `motions` is a list of
    (name, flags, bone_or_part, motion_id, speed, power, accrue, falloff, marks) where marks is a list
    of (name, [(start, end), ...])."""
    p = struct.pack("<HH", 4, 1) + part.encode() + b"\0" + struct.pack("<H", len(bones))
    for i, b in enumerate(bones):
        p += b.encode() + b"\0" + struct.pack("<I", i)
    p += struct.pack("<H", len(motions))
    for name, flags, bone_or_part, motion_id, speed, power, accrue, falloff, marks in motions:
        p += (name if isinstance(name, bytes) else name.encode()) + b"\0"
        p += struct.pack("<IHH4f", flags, bone_or_part, motion_id, speed, power, accrue, falloff)
        p += struct.pack("<I", len(marks))
        for mark_name, intervals in marks:
            p += (mark_name if isinstance(mark_name, bytes) else mark_name.encode()) + b"\r\n"
            p += struct.pack("<I", len(intervals)) + b"".join(struct.pack("<2f", s, e) for s, e in intervals)
    return p


def static_record():
    """A bone record with a static rotation (identity) and a constant zero translation."""
    return record([[0, 0, 0, 32767]], const=(0.0, 0.0, 0.0))


def omf(keysets, params):
    """An .omf from [(name, frames, [record bytes per bone])] and a 0xF payload."""
    keys = chunk(0, struct.pack("<I", len(keysets)))
    for i, (name, frames, records) in enumerate(keysets, start=1):
        keys += chunk(i, motion(name, frames, records))
    return chunk(0xE, keys) + chunk(0xF, params)


def omf_one_bone(frames=30, name="m", speed=1.0, power=1.0, accrue=2.0, falloff=1.0, marks=()):
    """The smallest playable .omf: one bone "root", one cycle motion with static keys."""
    params = params_v4(["root"], [(name, 0, 0xFFFF, 0, speed, power, accrue, falloff, list(marks))])
    return omf([(name, frames, [static_record()])], params)
