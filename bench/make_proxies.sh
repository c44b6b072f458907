#!/usr/bin/env bash
# Builds the stand-ins for the corpora of issue 14 from the real samples, in a scratch folder
# outside the repository (the samples are copied there, never into the repository):
#  * OUT/corpus: COPIES copies (default 164, about the 737 MB of .omf/.ogf of the real 1,400-file
#    corpus) of every sample model and motion, each copy a game tree whose meshes/ folder holds
#    the models where their motion refs point, plus the standalone .omf files;
#  * OUT/hands.omf: the 42-bone hands motions (wpn_hand_knife_hud_animation.omf, 18 motions)
#    merged (`omf merge --rename-clashes`) from 154 variants whose key values differ
#    (bench/vary_omf.py; held values repeat as often as in the real model): 2,772 motions, the size
#    of a hands model that references every HUD animation (2,760 motions).
# Usage: bench/make_proxies.sh BONEYARD SAMPLES_DIR OUT [COPIES]
set -euo pipefail
cli=$1 samples=$2/xray out=$3 copies=${4:-164}
rm -rf "$out"
mkdir -p "$out/corpus"
[ "$copies" -gt 0 ] || copies=0

one_copy() {  # dir
  local m=$1/meshes
  put() { mkdir -p "$(dirname "$m/$2")"; cp "$samples/$1" "$m/$2"; }
  put cop/headflash_hud.ogf gwr/food/headflash/headflash_hud.ogf
  put cop/headflash_hud_anims.omf gwr/food/headflash/headflash_hud_anims.omf
  put cop/medkit_exo_hud.ogf gwr/equipment/medkit_exo/medkit_exo_hud.ogf
  put cop/medkit_exo_anims.omf gwr/equipment/medkit_exo/medkit_exo_anims.omf
  put soc/zombi_1.ogf monsters/zombi/zombi_1.ogf
  put soc/zombi_animation.omf monsters/zombi_animation.omf
  put soc/wpn_binoculars_hud.ogf weapons/binoculars/wpn_binoculars_hud.ogf
  put soc/wpn_binoculars_hud_animations.omf weapons/binoculars/wpn_binoculars_hud_animations.omf
  put soc/rat_1.ogf monsters/rat/rat_1.ogf
  put cs/stalker_lesnik_1.ogf actors/stalker_lesnik/stalker_lesnik_1.ogf
  put cop/cat_weak.ogf monsters/cat/cat_weak.ogf
  put cop/flush_dead.ogf monsters/flush/flush_dead.ogf
  put cop/protein.ogf dynamics/zpf/protein.ogf
  put cop/handflash_hud.ogf dynamics/devices/dev_torch/handflash_hud.ogf
  put tools/test_fmt_ogf_gl.ogf tools/test_fmt_ogf_gl.ogf
  # Motions no model of the tree refers to: flat armatures (two of them fail: a broken file and
  # one whose bone indices are not a permutation, as a real tree has a few).
  for f in cop/wpn_hand_knife_hud_animation.omf cop/dev_pda_hud_animation.omf cop/dev_binocular_hud_animation.omf \
           cop/dev_geiger_hud_animation.omf cop/dev_hand_geiger_hud_animation.omf cop/hand_unarmed.omf \
           cs/wpn_ak74_hud_animation.omf cs/wpn_vintorez_hud_animation.omf tools/test_fmt.omf tools/write_read.omf; do
    put "$f" "anims/$(basename "$f")"
  done
}
for ((i = 0; i < copies; ++i)); do one_copy "$(printf '%s/corpus/c%03d' "$out" "$i")"; done

knife=$samples/cop/wpn_hand_knife_hud_animation.omf
mkdir -p "$out/variants"
args=()
for ((i = 1; i <= 154; ++i)); do
  python3 "$(dirname "$0")/vary_omf.py" "$knife" "$out/variants/knife_$i.omf" "$i"
  args+=("$out/variants/knife_$i.omf")
done
"$cli" omf merge "${args[@]}" -o "$out/hands.omf" --rename-clashes >/dev/null
echo "corpus: $(find "$out/corpus" -type f | wc -l) files, $(du -sb "$out/corpus" | cut -f1) bytes; hands.omf: $("$cli" omf list "$out/hands.omf" | wc -l) lines"
