#!/usr/bin/env python3
"""Regenerates the "Blender round trip" results table of docs/xray-gltf-import.md.

Every X-Ray sample with motions goes .omf (+ skeleton) -> .glb -> Blender 3.4 (default import,
30 fps scene, whole-action export) -> .omf with and without --template, and is compared with the
source by boneyard's own decoder (tests/blender/xray_compare.py).

usage: scripts/blender_roundtrip_table.py BONEYARD SAMPLES_DIR WORK_DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "blender"))
import xray_compare  # noqa: E402

PAIRS = [  # label, motions (.omf or an .ogf with embedded motions), skeleton or None
    ("zombi_1 + zombi_animation", "soc/zombi_animation.omf", "soc/zombi_1.ogf"),
    ("rat_1 (embedded)", "soc/rat_1.ogf", None),
    ("wpn_binoculars_hud", "soc/wpn_binoculars_hud_animations.omf", "soc/wpn_binoculars_hud.ogf"),
    ("medkit_exo_hud", "cop/medkit_exo_anims.omf", "cop/medkit_exo_hud.ogf"),
    ("headflash_hud", "cop/headflash_hud_anims.omf", "cop/headflash_hud.ogf"),
    ("knife HUD (flat armature)", "cop/wpn_hand_knife_hud_animation.omf", None),
    ("dev_pda HUD (flat)", "cop/dev_pda_hud_animation.omf", None),
    ("CS vintorez HUD (flat)", "cs/wpn_vintorez_hud_animation.omf", None),
    ("CS ak74 HUD (flat)", "cs/wpn_ak74_hud_animation.omf", None),
    ("blender-xray test_fmt (flat)", "tools/test_fmt.omf", None),
]


def run(*command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("%s: exit %d\n%s" % (" ".join(command), result.returncode, result.stderr))
    return result


def cell(counter):
    return "%d / %d / %d" % (counter["identical"], counter["one_step"], counter["worse"])


def main():
    cli, samples, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    reexport = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "blender", "reexport.py")
    env = dict(os.environ, PATH="/usr/bin:/bin")
    print("| sample | motions | rotation keys, `--template` (identical / one step / worse) | translations, `--template` | "
          "fields kept | bytes: source / `--template` (identical?) | rotation keys, no template | translations, no template |")
    print("|---|---|---|---|---|---|---|---|")
    for label, motions, skeleton in PAIRS:
        source = os.path.join(samples, "xray", motions)
        stem = os.path.join(work, os.path.basename(motions).split(".")[0])
        flags = ["--skeleton", os.path.join(samples, "xray", skeleton)] if skeleton else []
        omf = source
        if motions.endswith(".ogf"):
            omf = stem + "_source.omf"
            run(cli, "convert", source, "-o", omf)
        run(cli, "convert", source, *flags, "-o", stem + ".glb")
        subprocess.run(["blender", "-b", "--factory-startup", "--python-exit-code", "3", "--python", reexport, "--",
                        stem + ".glb", stem + "_blender.glb"], env=env, check=True, capture_output=True)
        skeleton_flags = flags or (["--skeleton", source] if motions.endswith(".ogf") else [])
        run(cli, "convert", stem + "_blender.glb", "-o", stem + "_t.omf", *skeleton_flags, "--template", omf)
        run(cli, "convert", stem + "_blender.glb", "-o", stem + "_p.omf", *skeleton_flags)
        before = xray_compare.dump(cli, omf)
        kept = xray_compare.Comparison(before, xray_compare.dump(cli, stem + "_t.omf"), own_steps=True)
        plain = xray_compare.Comparison(before, xray_compare.dump(cli, stem + "_p.omf"))
        same = open(omf, "rb").read() == open(stem + "_t.omf", "rb").read()
        fields = "yes" if kept.order_kept and not kept.field_differences and not kept.missing else \
            "%d differ" % len(kept.field_differences)
        print("| %s | %d | %s | %s | %s | %d / %d (%s) | %s | %s |" % (
            label, len(before["motions"]), cell(kept.rotation), cell(kept.translation), fields,
            os.path.getsize(omf), os.path.getsize(stem + "_t.omf"), "yes" if same else "no",
            cell(plain.rotation), cell(plain.translation)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
