"""Hostile .cmdl files (the Master Collection's model companion, docs/mgs2-cmdl.md) and pairs of a
model with its .cmdl: counts checked against the bytes before anything is allocated, offsets and
sizes past the end reported (not followed), memory bounded when a model's packets share their
arrays, and a Master Collection conversion that fails leaves neither its .cmdl nor the `_win/`
folder made for it."""
import pathlib
import struct

from craft import KMS_SQUARE, kms_ps2
from hostile_case import case

# ---- builders ---------------------------------------------------------------------------------

POS0_SQUARE = b"".join(struct.pack("<4f", x, y, z, 1.0) for (x, y, z), _ in KMS_SQUARE)


def cmdl(sections=None, indices=(0, 1, 2, 1, 3, 2), meshes=None, n_sections=None, n_indices=None, n_meshes=None,
         tail_offset=None):
    """A .cmdl: "MODL", big-endian version 1 and tail offset, the little-endian section count, the
    0x20-byte entries (tag reversed), each section's data at its offset + 0x0C (offsets 16-aligned
    from 0x10 + 0x20 * n, 0xFF between), then the big-endian tail. `sections` is [(tag, code,
    data)] (default: a square's POS0, NRM0 and OIDX); `meshes` [(start vertex, count, start index,
    count, bones)]. The n_* and tail_offset arguments override what is stored."""
    if sections is None:
        sections = [("POS0", 2, POS0_SQUARE), ("NRM0", 9, struct.pack("<I", 511 << 22) * 4),
                    ("OIDX", 10, struct.pack("<4I", 0, 1, 2, 3))]
    if meshes is None:
        meshes = [(0, 4, 0, len(indices), [])]
    offsets, at = [], 0x10 + 0x20 * len(sections)
    for _, _, data in sections:
        offsets.append(at)
        at = (at + len(data) + 15) // 16 * 16
    out = bytearray(b"MODL" + struct.pack(">II", 1, at if tail_offset is None else tail_offset))
    out += struct.pack("<I", len(sections) if n_sections is None else n_sections)
    for (tag, code, data), off in zip(sections, offsets):
        out += tag.encode()[::-1] + struct.pack("<HHIIIIII", code, 2, off, 0, len(data), 0, 0, 0)
    out += b"\xff" * (at + 0x0C - len(out))
    for (_, _, data), off in zip(sections, offsets):
        out[off + 0x0C:off + 0x0C + len(data)] = data
    out += struct.pack(">I", len(indices) if n_indices is None else n_indices)
    out += b"".join(struct.pack(">I", i) for i in indices)
    out += struct.pack(">II", 0, len(meshes) if n_meshes is None else n_meshes)
    for k, (sv, vc, si, ic, bones) in enumerate(meshes):
        out += struct.pack(">6f", 0, 0, 0, 1, 1, 0) + struct.pack(">hB", -1, 0)
        out += struct.pack(">5I", sv, vc, si, ic, len(bones)) + b"".join(struct.pack(">I", b) for b in bones)
        out += b"\x80" * 8 + struct.pack(">III", 0, 0, k)
    return bytes(out)


ONE_LINE = dict(exit=1, one_line=True)

# ---- counts and offsets -----------------------------------------------------------------------


@case("cmdl_section_count_bomb", why="4 billion section entries in a small .cmdl fail before any allocation",
      stderr=r"section table \(section count\): count past the data", **ONE_LINE)
def _(d):
    (d / "x.cmdl").write_bytes(cmdl(n_sections=0xFFFFFFFF))
    return ["info", "x.cmdl"]


@case("cmdl_index_count_bomb", why="a tail declaring a billion indices fails before any allocation",
      stderr=r"tail indices: count past the data", **ONE_LINE)
def _(d):
    (d / "x.cmdl").write_bytes(cmdl(n_indices=0x40000000))
    return ["validate", "x.cmdl"]


@case("cmdl_mesh_count_bomb", why="a tail declaring 4 billion records fails before any allocation",
      stderr=r"tail meshes: count past the data", **ONE_LINE)
def _(d):
    (d / "x.cmdl").write_bytes(cmdl(n_meshes=0xFFFFFFFF))
    return ["dump", "x.cmdl"]


@case("cmdl_bone_count_bomb", why="a record declaring 4 billion bones fails before any allocation",
      stderr=r"tail mesh 0 bones: count past the data", **ONE_LINE)
def _(d):
    data = bytearray(cmdl(meshes=[(0, 4, 0, 6, [7])]))
    at = len(data) - (0x43 + 4) + 0x2B  # the record's bone count
    data[at:at + 4] = struct.pack(">I", 0xFFFFFFFF)
    (d / "x.cmdl").write_bytes(bytes(data))
    return ["info", "x.cmdl"]


@case("cmdl_tail_offset_past_end", why="a tail offset past the end of the file is one clear error",
      stderr=r"in tail header tail offset: tail past the end of the file", **ONE_LINE)
def _(d):
    (d / "x.cmdl").write_bytes(cmdl(tail_offset=0x7FFFFFF0))
    return ["info", "x.cmdl"]


@case("cmdl_truncated_header", why="a .cmdl cut inside its header is one clear error",
      stderr=r"header tail offset: truncated", **ONE_LINE)
def _(d):
    (d / "x.cmdl").write_bytes(b"MODL\0\0\0\1\0\0")
    return ["dump", "x.cmdl"]


@case("cmdl_section_data_past_end", why="section offsets and sizes past the end are reported, never followed "
      "(a 4 GB size allocates nothing)", exit=1,
      stdout=r"section 1 NRM0 offset: section data past the end.*section 2 OIDX offset: section data past the end.*FAIL \(cmdl\)")
def _(d):
    sections = [("POS0", 2, POS0_SQUARE), ("NRM0", 9, b"\0" * 16), ("OIDX", 10, b"\0" * 16)]
    data = bytearray(cmdl(sections=sections))
    data[0x30 + 0x08:0x30 + 0x0C] = struct.pack("<I", 0x7FFFFF00)  # NRM0 offset
    data[0x50 + 0x10:0x50 + 0x14] = struct.pack("<I", 0xFFFFFFF0)  # OIDX size
    (d / "x.cmdl").write_bytes(bytes(data))
    return ["validate", "x.cmdl"]


@case("cmdl_indices_past_vertices_not_converted", why="a .cmdl whose indices leave its vertices is refused by "
      "convert like by validate (the glTF would index past its accessors)", exit=1,
      stderr=r"indices past the vertex count.*not converted: \d+ validation errors")
def _(d):
    (d / "m.kms").write_bytes(kms_ps2(packet_unit=0))
    (d / "_win").mkdir()
    (d / "_win" / "m.cmdl").write_bytes(cmdl(indices=(0, 1, 2, 1, 3, 99)))
    return ["convert", "_win/m.cmdl", "-o", "m.glb"]


@case("cmdl_glb_without_its_model", why="a .cmdl alone cannot be drawn: exit 2 naming where the model was looked for",
      exit=2, one_line=True, stderr=r"no model for lone\.cmdl: a \.cmdl is drawn on its \.kms or \.evm \(looked for")
def _(d):
    (d / "lone.cmdl").write_bytes(cmdl())
    return ["convert", "lone.cmdl", "-o", "lone.glb"]


# ---- pairs ------------------------------------------------------------------------------------


@case("cmdl_pair_shared_arrays_bounded", why="a model whose 20000 packets share one 64-vertex strip is not "
      "decoded 20000 times for the pair check: memory stays bounded, the check says why it stops", exit=1,
      stdout=r"packets share vertex arrays so much.*FAIL \(cmdl with m\.kms\)", max_seconds=20)
def _(d):
    strip = [((i % 8, i // 8, 0), (0, 0)) for i in range(64)]
    (d / "m.kms").write_bytes(kms_ps2(packet_unit=0, packets=20000, strip=strip))
    (d / "m.cmdl").write_bytes(cmdl())
    return ["validate", "m.kms", "--cmdl", "m.cmdl"]


@case("cmdl_mc_output_failing_leaves_no_win_folder", why="a Master Collection conversion whose model's name is "
      "taken by a folder is refused before anything is written: no .cmdl, no _win/ folder (the output plan)",
      exit=2, one_line=True, stderr=r"out\.kms: refusing to write over a folder")
def _(d):
    (d / "a.kms").write_bytes(kms_ps2(packet_unit=0))
    (d / "out.kms").mkdir()  # the output's name is taken by a folder: the final rename fails
    return ["convert", "a.kms", "--layout", "mc", "-o", "out.kms"]


@case("cmdl_option_for_ps2_output", why="--cmdl for a PS2 output is a usage error naming it; nothing is written",
      exit=2, one_line=True, stderr=r"--cmdl does not apply: out\.kms is written in the PS2 layout")
def _(d):
    (d / "a.kms").write_bytes(kms_ps2(packet_unit=0))
    return ["convert", "a.kms", "-o", "out.kms", "--cmdl", "out.cmdl"]


# ---- a template .cmdl that does not fit its model -----------------------------------------------

FUZZ_SEEDS = pathlib.Path(__file__).resolve().parents[1] / "fuzz_seeds"


def cmdl_tags(data):
    """The section tags of a .cmdl (readable order) with their sizes."""
    n = struct.unpack_from("<I", data, 12)[0]
    return [(data[16 + 32 * i:20 + 32 * i][::-1], struct.unpack_from("<I", data, 16 + 32 * i + 0x10)[0]) for i in range(n)]


def empty_unknown_section_kept(d, _code, _out, _err):
    out = d / "_win" / "out.cmdl"
    if not out.is_file():
        return "no _win/out.cmdl written"
    tags = cmdl_tags(out.read_bytes())
    if (b"\0\0\0\0", 0) not in tags or any(t == b"TEX2" for t, _ in tags):
        return f"the derived .cmdl should keep the empty unknown section and leave TEX2 out, has {tags}"
    return None


@case("cmdl_template_unknown_section_and_missing_uv_set", why="a rewrite whose own .cmdl (the template) has an "
      "empty section with a NUL tag and a TEX2 the model has no UV set for (found by fuzz_cmdl: the unknown section "
      "was compared as a UV set past the model's three, out of bounds): the .cmdl is derived, the unknown section "
      "kept as it is, TEX2 left out with one warning naming it",
      exit=0, one_line=True, stderr=r"a section of the template left out: the model has no values for it .*found TEX2",
      creates=[r"out\.evm", r"_win/out\.cmdl"], creates_required=[r"out\.evm", r"_win/out\.cmdl"],
      check=empty_unknown_section_kept)
def _(d):
    data = (FUZZ_SEEDS / "fuzz_cmdl" / "evm_pair_template_empty_unknown_section").read_bytes()
    at = data.rfind(b"MODL")  # a Master Collection .evm followed by its .cmdl, as fuzz_cmdl reads it
    (d / "orig.evm").write_bytes(data[:at])
    (d / "_win").mkdir()
    (d / "_win" / "orig.cmdl").write_bytes(data[at:])
    return ["convert", "orig.evm", "-o", "out.evm"]
