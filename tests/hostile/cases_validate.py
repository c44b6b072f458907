"""Scopes 5, 7 and 9 of the hostile-input issue: linear-time validation and conversion with parent
cycles reported, safe `omf set` edits (values, marks, --in-place modes, symlinks and backups), and
PS2 -> Master Collection layout conversion of KMS files whose header pads hold values."""
import os
import re
import stat
import struct

from craft import kms_ps2, ogf_bone_chain, ogf_skeleton, omf_one_bone
from hostile_case import case

def chain(n):
    """Parents of an n-unit chain: unit i's parent is unit i - 1."""
    return [-1] + list(range(n - 1))


# ---- Scope 5: linear time, cycles reported -----------------------------------------------------

CHAIN = 100_000


@case("kms_100k_chain_validate", why="validating a KMS with a 100k-unit parent chain must take linear time",
      exit=0, max_seconds=1)
def _(d):
    (d / "chain.kms").write_bytes(kms_ps2(chain(CHAIN)))
    return ["validate", "chain.kms"]


@case("kms_100k_chain_info", why="info on a KMS with a 100k-unit parent chain must take linear time",
      exit=0, stdout=r"kms", max_seconds=1)
def _(d):
    (d / "chain.kms").write_bytes(kms_ps2(chain(CHAIN)))
    return ["info", "chain.kms"]


@case("kms_100k_chain_to_glb", why="converting a KMS with a 100k-unit chain to glTF is refused at once: glTF joint "
      "indices are 16-bit", exit=1, stderr=r"n_x_models: too many units for glTF joints", max_seconds=1)
def _(d):
    (d / "chain.kms").write_bytes(kms_ps2(chain(CHAIN), packet_unit=CHAIN - 1))
    return ["convert", "chain.kms", "-o", "chain.glb"]


# A chain that converts: 16k units (the glTF export keeps a JSON object per joint, about 3 KB, so
# the largest exportable chain, 65535 units, is linear in time but over this suite's RSS bound).
CONVERTIBLE_CHAIN = 16_384


@case("kms_16k_chain_to_glb", why="converting a KMS with a 16k-unit parent chain (the deepest unit has a mesh) "
      "takes linear time and does not overflow the stack", exit=0, creates=[r"chain\.glb"],
      creates_required=[r"chain\.glb"], max_seconds=1)
def _(d):
    (d / "chain.kms").write_bytes(kms_ps2(chain(CONVERTIBLE_CHAIN), packet_unit=CONVERTIBLE_CHAIN - 1))
    return ["convert", "chain.kms", "-o", "chain.glb"]


# dump writes 10 MB of JSON for this file (0.1 s of CPU); 2 s leaves room for a loaded machine
# while still failing the quadratic walk (tens of seconds).
@case("kms_100k_chain_dump", why="dump of a KMS with a 100k-unit parent chain must take linear time",
      exit=0, stdout=r"units", max_seconds=2)
def _(d):
    (d / "chain.kms").write_bytes(kms_ps2(chain(CHAIN)))
    return ["dump", "chain.kms"]


@case("kms_unit_own_parent", why="a unit that is its own parent is an error naming it, not a hang",
      exit=1, stdout=r"unit 1 parent: parent cycle", timeout=10)
def _(d):
    (d / "self.kms").write_bytes(kms_ps2([-1, 1, 0]))
    return ["validate", "self.kms"]


@case("kms_two_cycle", why="two units that are each other's parent are an error, not a hang",
      exit=1, stdout=r"unit [12] parent: parent cycle", timeout=10)
def _(d):
    (d / "cycle.kms").write_bytes(kms_ps2([-1, 2, 1]))
    return ["validate", "cycle.kms"]


@case("kms_two_cycle_info", why="info and the unit table of a KMS with a parent cycle end (no endless walk)",
      exit=0, stdout=r"kms", timeout=10)
def _(d):
    (d / "cycle.kms").write_bytes(kms_ps2([-1, 2, 1], packet_unit=2))
    return ["info", "cycle.kms"]


BONES = 20_000


# The engine holds at most 64 bones, so such a file is an error; the point is that every check of
# the bone tree (names, parents, duplicates, cycles) still runs over all 20k bones in linear time.
@case("ogf_20k_bones_validate", why="validating an OGF with 20k bones takes linear time", exit=1,
      stdout=r"too many bones for the engine", max_seconds=1)
def _(d):
    (d / "bones.ogf").write_bytes(ogf_skeleton(ogf_bone_chain(BONES)))
    return ["validate", "bones.ogf"]


@case("ogf_20k_bones_to_glb", why="converting an OGF with 20k bones is refused in linear time", exit=1,
      stderr=r"too many bones for the engine.*not converted: 1 validation error", max_seconds=1)
def _(d):
    (d / "bones.ogf").write_bytes(ogf_skeleton(ogf_bone_chain(BONES)))
    return ["convert", "bones.ogf", "-o", "bones.glb"]


@case("ogf_bone_cycle", why="two OGF bones that are each other's parent are an error naming a bone, not a hang",
      exit=1, stdout=r"0xD bone [12] parent: bone is part of a parent cycle", timeout=10)
def _(d):
    (d / "cycle.ogf").write_bytes(ogf_skeleton([("root", ""), ("a", "b"), ("b", "a")]))
    return ["validate", "cycle.ogf"]


@case("ogf_bone_own_parent", why="an OGF bone that is its own parent is an error naming it", exit=1,
      stdout=r"0xD bone 1 parent: bone is its own parent", timeout=10)
def _(d):
    (d / "self.ogf").write_bytes(ogf_skeleton([("root", ""), ("a", "a")]))
    return ["validate", "self.ogf"]


@case("ogf_20k_bones_info", why="info on an OGF with 20k bones must take linear time", exit=0, max_seconds=1)
def _(d):
    (d / "bones.ogf").write_bytes(ogf_skeleton(ogf_bone_chain(BONES)))
    return ["info", "bones.ogf"]


# ---- Scope 7: edits ------------------------------------------------------------------------------

def one_second_omf():
    """wave-like .omf: motion "m" of 31 frames, i.e. (31 - 1) / 30 = 1 s long."""
    return omf_one_bone(frames=31, name="m")


def no_change_message(d, code, out, err):
    """Changes ("speed 1 -> 2") may only be reported once the file was written."""
    return f"a change was reported although nothing was written: {out.strip()!r}" if "->" in out else None


@case("omf_set_speed_nan", why="omf set --speed nan is refused (usage error naming the option), nothing written",
      exit=2, stderr=r"--speed.*nan", one_line=True, check=no_change_message)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    return ["omf", "set", "m.omf", "m", "--speed", "nan", "-o", "out.omf"]


@case("omf_set_falloff_inf", why="omf set --falloff inf is refused, nothing written",
      exit=2, stderr=r"--falloff.*inf", one_line=True, check=no_change_message)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    return ["omf", "set", "m.omf", "m", "--falloff", "inf", "-o", "out.omf"]


@case("omf_set_power_negative_in_place", why="omf set --power -1 --in-place is refused; the input and its folder "
      "stay as they were (no .bak)", exit=2, stderr=r"--power.*-1", one_line=True, check=no_change_message)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    return ["omf", "set", "m.omf", "m", "--speed", "2", "--power", "-1", "--in-place"]


@case("omf_set_mark_outside_motion", why="--add-mark M -5 500 on a 1 s motion is an error naming the mark and the "
      "motion's length; the speed change asked alongside is neither written nor reported",
      exit=1, stderr=r'mark "M" lies outside motion "m".*\[0, 1\]', one_line=True, check=no_change_message)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    return ["omf", "set", "m.omf", "m", "--speed", "2", "--add-mark", "M", "-5", "500", "-o", "out.omf"]


@case("omf_set_mark_end_past_length", why="a mark ending after the motion's last frame is refused",
      exit=1, stderr=r"outside motion", one_line=True)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    return ["omf", "set", "m.omf", "m", "--add-mark", "M", "0.5", "1.5", "-o", "out.omf"]


@case("omf_set_failed_write_reports_nothing", why="when the output cannot be written, no change is reported",
      exit=2, stderr=r"cannot", one_line=True, check=no_change_message)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    return ["omf", "set", "m.omf", "m", "--speed", "2", "-o", "missing_dir/out.omf"]


def mode_of(p):
    return stat.S_IMODE(os.lstat(p).st_mode)


def check_in_place_0600(d, code, out, err):
    if mode_of(d / "m.omf") != 0o600:
        return f"m.omf mode became {oct(mode_of(d / 'm.omf'))}, expected 0o600"
    if (d / "m.omf.bak").read_bytes() != one_second_omf():
        return "m.omf.bak does not hold the original bytes"
    if (d / "m.omf").read_bytes() == one_second_omf():
        return "m.omf was not edited"
    if not re.search(r"speed 1 -> 2.*wrote", out, re.S):
        return "the change is not reported (before the 'wrote' line)"
    return None


@case("omf_in_place_keeps_mode", why="--in-place on a 0600 file keeps 0600 and saves the original as FILE.bak",
      exit=0, modifies=[r"m\.omf"], creates=[r"m\.omf\.bak"], creates_required=[r"m\.omf\.bak"],
      check=check_in_place_0600)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    os.chmod(d / "m.omf", 0o600)
    return ["omf", "set", "m.omf", "m", "--speed", "2", "--in-place"]


@case("omf_in_place_read_only", why="--in-place on a 0444 file is refused in one line (exit 2), even for root: a "
      "file without any write permission bit is never replaced", exit=2, stderr=r"read-only", one_line=True,
      check=no_change_message)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    os.chmod(d / "m.omf", 0o444)
    return ["omf", "set", "m.omf", "m", "--speed", "2", "--in-place"]


def check_through_link(d, code, out, err):
    if not os.path.islink(d / "link.omf") or os.readlink(d / "link.omf") != "real.omf":
        return "link.omf is no longer a symlink to real.omf"
    if (d / "real.omf").read_bytes() == one_second_omf():
        return "the link's target was not edited"
    if mode_of(d / "real.omf") != 0o640:
        return f"real.omf mode became {oct(mode_of(d / 'real.omf'))}, expected 0o640"
    if (d / "link.omf.bak").read_bytes() != one_second_omf():
        return "link.omf.bak does not hold the original bytes"
    return None


@case("omf_in_place_through_symlink", why="--in-place through a symlink edits the target and keeps the link",
      exit=0, modifies=[r"real\.omf"], creates=[r"link\.omf\.bak"], creates_required=[r"link\.omf\.bak"],
      check=check_through_link)
def _(d):
    (d / "real.omf").write_bytes(one_second_omf())
    os.chmod(d / "real.omf", 0o640)
    os.symlink("real.omf", d / "link.omf")
    return ["omf", "set", "link.omf", "m", "--speed", "2", "--in-place"]


OLDER_BACKUP = b"the backup of an earlier edit"


def check_second_backup(d, code, out, err):
    if (d / "m.omf.bak.1").read_bytes() != one_second_omf():
        return "m.omf.bak.1 does not hold the bytes before this edit"
    if "m.omf.bak.1" not in out:
        return "the report does not name the backup m.omf.bak.1"
    return None


@case("omf_in_place_keeps_older_backup", why="a second --in-place edit keeps FILE.bak and writes FILE.bak.1",
      exit=0, modifies=[r"m\.omf"], creates=[r"m\.omf\.bak\.1"], creates_required=[r"m\.omf\.bak\.1"],
      check=check_second_backup)
def _(d):
    (d / "m.omf").write_bytes(one_second_omf())
    (d / "m.omf.bak").write_bytes(OLDER_BACKUP)  # unchanged: checked as an input
    return ["omf", "set", "m.omf", "m", "--speed", "2", "--in-place"]


# ---- Scope 9: PS2 -> Master Collection with header pads holding values --------------------------

PADS = (0x3FC00000, 0x12345678, 0xDEADBEEF)


def check_mc_pads(d, code, out, err):
    b = (d / "mc.kms").read_bytes()
    at = lambda off: struct.unpack_from("<I", b, off)[0]  # noqa: E731
    if at(0x0C) != 0:
        return f"MC header dword 0x0C is {at(0x0C):#x}, expected 0 (else the file reads as PS2)"
    if at(0x10) != 0x88D878:
        return f"MC texture at 0x10 is {at(0x10):#x}"
    if (at(0x14), at(0x18)) != PADS[:2]:
        return f"the pads that have a place in MC (0x14, 0x18) were not kept: {at(0x14):#x} {at(0x18):#x}"
    return None


@case("kms_ps2_pads_to_mc", why="a PS2 KMS whose header pad at 0x18 holds a value converts to MC: the pad is "
      "zeroed with a warning that shows its value (and the MC model gets its .cmdl)", exit=0,
      stderr=r"(?i)warning.*0x18.*header pad.*0xDEADBEEF", creates=[r"mc\.kms", r"_win", r"_win/mc\.cmdl"],
      creates_required=[r"mc\.kms", r"_win/mc\.cmdl"], check=check_mc_pads)
def _(d):
    (d / "ps2.kms").write_bytes(kms_ps2([-1, 0], pads=PADS, packet_unit=1))
    return ["convert", "ps2.kms", "-o", "mc.kms", "--layout", "mc"]
