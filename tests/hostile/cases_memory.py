"""Scope 1 of the hostile-input issue: memory bounded by the data."""
from craft import omf_one_bone
from hostile_case import case


@case("omf_2g_static_frames_to_glb", why="a 118-byte .omf declaring 2^31-1 frames of static keys must not allocate per frame",
      exit=1, stderr=r"frames", one_line=True)
def _(d):
    (d / "big.omf").write_bytes(omf_one_bone(frames=2**31 - 1))
    return ["convert", "big.omf", "-o", "big.glb"]
