#!/usr/bin/env bash
# Writes the seeds of tests/fuzz_seeds that are derived from other files of the repository (the
# crafted ones were written by hand or by the tests; see README.md). Usage, from the repository:
#   tests/fuzz_seeds/make_seeds.sh BUILD_DIR      (a build with the CLI, write_gltf_fixtures and sdk_probe)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: tests/fuzz_seeds/make_seeds.sh BUILD_DIR}
cli="$build/boneyard"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fuzz_ogf: the example skeleton with the example motions embedded (chunks 0xE and 0xF of wave.omf
# instead of its motion reference 0x13): the embedded-motion path (params, keys, glTF animations).
python3 - <<'PY'
import struct
ogf = open("examples/wave_arm.ogf", "rb").read()
out, at = b"", 0
while at < len(ogf):
    cid, n = struct.unpack_from("<II", ogf, at)
    if cid != 0x13:
        out += ogf[at:at + 8 + n]
    at += 8 + n
open("tests/fuzz_seeds/fuzz_ogf/wave_arm_embedded_motions.ogf", "wb").write(out + open("examples/wave.omf", "rb").read())
PY

# fuzz_lzhuf, fuzz_skl, fuzz_anm: small files of every version and container (tests/xray/sdk_fixtures.h).
"$build/tests/xray/sdk_probe" seeds tests/fuzz_seeds

# fuzz_kms, fuzz_evm: the models of the fuzz_cmdl pairs (the bytes before the last "MODL"), the
# models the glTF checks convert (write_gltf_fixtures), and each of them in the other layout.
mkdir -p tests/fuzz_seeds/fuzz_kms tests/fuzz_seeds/fuzz_evm
"$build/tests/mgs2/write_gltf_fixtures" "$tmp" >/dev/null
python3 - "$tmp" <<'PY'
import sys
for name, ext in (("evm_pair", "evm"), ("evm_ps2src_pair", "evm"), ("kms_pair", "kms")):
    data = open("tests/fuzz_seeds/fuzz_cmdl/" + name, "rb").read()
    open(f"{sys.argv[1]}/{name}_model.{ext}", "wb").write(data[:data.rfind(b"MODL")])
PY
for f in "$tmp"/*.kms "$tmp"/*.evm; do
  ext=${f##*.}
  base=$(basename "${f%.*}")
  cp "$f" "tests/fuzz_seeds/fuzz_$ext/$base.$ext"
  if "$cli" info "$f" | grep -q "layout mc"; then other=ps2; else other=mc; fi
  [ "$base" = evm_ps2src_pair_model ] && continue  # its PS2 form is evm_pair_model's
  if [ $other = mc ]; then
    "$cli" convert "$f" -o "tests/fuzz_seeds/fuzz_$ext/${base}_mc.$ext" --layout mc --no-cmdl
  else
    "$cli" convert "$f" -o "tests/fuzz_seeds/fuzz_$ext/${base}_ps2.$ext" --layout ps2
  fi
done

# fuzz_cmdl: each Master Collection model above followed by the .cmdl a rewrite derives for it.
for f in tests/fuzz_seeds/fuzz_kms/*.kms tests/fuzz_seeds/fuzz_evm/*.evm; do
  "$cli" info "$f" | grep -q "layout mc" || continue
  case $(basename "$f") in evm_pair_model.evm | evm_ps2src_pair_model.evm | kms_pair_model.kms) continue ;; esac  # pairs already
  name=$(basename "$f" | tr '.' '_')
  rm -rf "$tmp/pair" && mkdir "$tmp/pair"
  "$cli" convert "$f" -o "$tmp/pair/m.${f##*.}"
  cat "$tmp/pair/m.${f##*.}" "$tmp/pair/_win/m.cmdl" > "tests/fuzz_seeds/fuzz_cmdl/${name}_pair"
done
