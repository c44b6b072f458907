"""Compares two X-Ray motion sets as boneyard's own decoder sees them (`boneyard dump --raw`).

Used by the Blender round-trip tests (inside Blender's Python) and by
scripts/blender_roundtrip_table.py (plain python3), so it imports nothing of Blender.

A rotation key is "identical" when its four stored 16-bit components are equal (or all four
negated, the same rotation), "within one step" when no component differs by more than 1. A
translation is within one step when every axis differs by at most the larger quantisation step of
the two tracks (init + key * size), or of the first one with own_steps; constant tracks get a
float-noise tolerance instead.
"""
import json
import math
import subprocess

CONSTANT_TRANSLATION_TOLERANCE = 2e-5  # metres: Blender writes constants with ~6e-7 m of noise
# metres added to one step: the SDK rule truncates (error just under one step of the new grid), and
# Blender's float noise (up to ~6e-7 m seen) may push a truncated key a hair past it.
FLOAT_NOISE = 1e-6


def dump(cli, path):
    run = subprocess.run([cli, "dump", "--raw", path], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError("boneyard dump --raw %s: exit %d\n%s" % (path, run.returncode, run.stderr))
    return json.loads(run.stdout)


def _key(keys, frame):
    return keys[min(frame, len(keys) - 1)]


def rotation_step_distance(a, b):
    """Largest component difference of two stored keys, the sign of the quaternion ignored."""
    same = max(abs(x - y) for x, y in zip(a, b))
    negated = max(abs(x + y) for x, y in zip(a, b))
    return min(same, negated)


def rotation_angle_degrees(a, b):
    """Angle between two decoded unit quaternions (x, y, z, w), in degrees."""
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return math.degrees(2.0 * math.acos(min(1.0, dot)))


def _translation_step(bone):
    size = bone.get("translation_size")
    return max(size) if size else 0.0


MOTION_FIELDS = ("frames", "flags", "bone_or_part", "speed", "power", "accrue", "falloff", "marks")


class Comparison:
    """Per-key statistics of `after` against `before`, and every field that differs."""

    def __init__(self, before, after, own_steps=False):
        """own_steps: measure translations in `before`'s steps only (the template's encoding)."""
        self.own_steps = own_steps
        self.rotation = {"identical": 0, "one_step": 0, "worse": 0}
        self.translation = {"identical": 0, "one_step": 0, "worse": 0}
        self.worst_rotation_steps = 0
        self.worst_translation_m = 0.0
        self.field_differences = []  # "motion.field: before -> after"
        self.changed_bones = {}      # motion name -> bone indices whose rotation keys changed
        self.order_kept = [m["name"] for m in before["motions"]] == [m["name"] for m in after["motions"]]
        self.missing = sorted({m["name"] for m in before["motions"]} - {m["name"] for m in after["motions"]})
        after_by_name = {m["name"]: m for m in after["motions"]}
        for old in before["motions"]:
            new = after_by_name.get(old["name"])
            if new is not None:
                self._compare_motion(old, new)

    def _compare_motion(self, old, new):
        for field in MOTION_FIELDS:
            if old.get(field) != new.get(field):
                self.field_differences.append("%s.%s: %r -> %r" % (old["name"], field, old.get(field), new.get(field)))
        frames = min(old["frames"], new["frames"])
        for index, (ob, nb) in enumerate(zip(old["bones"], new["bones"])):
            changed = False
            for frame in range(frames):
                steps = rotation_step_distance(_key(ob["rotation_keys"], frame), _key(nb["rotation_keys"], frame))
                self.worst_rotation_steps = max(self.worst_rotation_steps, steps)
                self._count(self.rotation, steps == 0, steps <= 1)
                changed = changed or steps != 0
                self._compare_translation(ob, nb, frame)
            if changed:
                self.changed_bones.setdefault(old["name"], []).append(index)

    def _compare_translation(self, ob, nb, frame):
        a, b = _key(ob["translation"], frame), _key(nb["translation"], frame)
        error = max(abs(x - y) for x, y in zip(a, b))
        self.worst_translation_m = max(self.worst_translation_m, error)
        step = _translation_step(ob) if self.own_steps else max(_translation_step(ob), _translation_step(nb))
        tolerance = step * 1.0001 + FLOAT_NOISE if step > 0 else CONSTANT_TRANSLATION_TOLERANCE
        self._count(self.translation, error == 0.0, error <= tolerance)

    @staticmethod
    def _count(counter, identical, within_one_step):
        if identical:
            counter["identical"] += 1
        elif within_one_step:
            counter["one_step"] += 1
        else:
            counter["worse"] += 1

    def summary(self):
        r, t = self.rotation, self.translation
        return ("rotation keys %d identical / %d within one step / %d worse (worst %d steps); "
                "translations %d identical / %d within one step / %d worse (worst %.3g m); "
                "%d field differences; order %s; missing %s"
                % (r["identical"], r["one_step"], r["worse"], self.worst_rotation_steps,
                   t["identical"], t["one_step"], t["worse"], self.worst_translation_m,
                   len(self.field_differences), "kept" if self.order_kept else "changed", self.missing or "none"))
