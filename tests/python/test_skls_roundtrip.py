""".omf -> .skls -> .omf on the real samples (issue 38 scope 5): how many keys come back identical,
as docs/xray-sdk.md "Conversions" states, counted by scripts/skls_roundtrip_table.py. The counts are
exact: a change to the conversions that loses one key, a sign or a stored translation fails here
(and, if it is an improvement, updates the table in the docs)."""
import importlib.util
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ["BONEYARD_SOURCE_DIR"])
CLI = os.environ["BONEYARD_CLI"]
SAMPLES = pathlib.Path(os.environ.get("BONEYARD_SAMPLES_DIR", "/nonexistent")) / "xray"

spec = importlib.util.spec_from_file_location("skls_roundtrip_table", SOURCE / "scripts" / "skls_roundtrip_table.py")
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)

# file: (motions, rotation keys, translation keys with the same stored integers/size/init,
#        records keeping their flags, records, whole file identical); every rotation key and every
#        translation value comes back identical, params and marks of every motion too.
EXPECTED = {
    "cs/wpn_ak74_hud_animation.omf": (10, 9372, 9311, 120, 120, False),
    "cs/wpn_vintorez_hud_animation.omf": (3, 744, 744, 18, 18, True),
    "cop/dev_binocular_hud_animation.omf": (1, 6, 6, 3, 3, False),
    "cop/dev_geiger_hud_animation.omf": (1, 10, 8, 5, 5, False),
    "cop/dev_pda_hud_animation.omf": (11, 336, 292, 33, 33, False),
    "cop/headflash_hud_anims.omf": (1, 2, 2, 1, 1, True),
    "cop/medkit_exo_anims.omf": (5, 1872, 1408, 40, 40, False),
    "cop/wpn_hand_knife_hud_animation.omf": (18, 39228, 38932, 756, 756, False),
    "soc/wpn_binoculars_hud_animations.omf": (5, 12628, 12628, 220, 220, True),
    "soc/zombi_animation.omf": (69, 239153, 237932, 2829, 2829, False),
    "tools/test_fmt.omf": (4, 40, 34, 4, 8, False),
}
# Not measured, with the reason the script gives.
NOT_MEASURED = {
    "cop/hand_unarmed.omf": "no motions",
    "cop/dev_hand_geiger_hud_animation.omf": "to .skls",  # broken part indices: refused by name
    "tools/write_read.omf": "to .skls",  # records run past the motion: refused by name
}


@pytest.mark.skipif(not SAMPLES.is_dir(), reason=f"no real samples at {SAMPLES} (../shared/samples)")
@pytest.mark.parametrize("name", sorted(EXPECTED) + sorted(NOT_MEASURED))
def test_keys_come_back_identical(name, tmp_path):
    path = SAMPLES / name
    if not path.is_file():
        pytest.skip(f"sample {path} absent")
    n, err = table.measure(CLI, str(path), str(tmp_path))
    if name in NOT_MEASURED:
        assert n is None and err.startswith(NOT_MEASURED[name]), err
        return
    assert n is not None, err
    motions, rotations, tr_same, flags, records, identical = EXPECTED[name]
    assert (n["motions"], n["params"], n["records"]) == (motions, motions, records)
    assert (n["rot"], n["rot_same"], n["rot_sign"], n["rot_other"]) == (rotations, rotations, 0, 0)
    assert (n["tr"], n["tr_value"], n["tr_same"]) == (rotations, rotations, tr_same)
    assert n["flags"] == flags
    assert n["identical_file"] == identical


@pytest.mark.skipif(not SAMPLES.is_dir(), reason=f"no real samples at {SAMPLES} (../shared/samples)")
def test_every_sample_omf_is_counted():
    found = {p.relative_to(SAMPLES).as_posix() for p in SAMPLES.rglob("*") if p.suffix.lower() == ".omf"}
    assert found == set(EXPECTED) | set(NOT_MEASURED)
