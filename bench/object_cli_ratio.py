#!/usr/bin/env python3
"""The SDK's .object against an .ogf as a modder runs them: one `boneyard convert` per run, both
pairs of bench_object.cpp, each direction. Runs are interleaved (object, ogf, object, ogf, ...) so
that the load of a shared machine hits both sides alike; each figure is the median CPU time (user +
sys of the process, start-up included) and the ratio of the medians. Textures are left out of
both sides (an empty --textures folder).

Usage: bench/object_cli_ratio.py BONEYARD SAMPLES_DIR [RUNS]   (SAMPLES_DIR holds xray/)
"""
import os
import statistics
import subprocess
import sys
import tempfile

PAIRS = [("sdk/mod/wpn_colt1911_hud.object", "cop/flush_dead.ogf"),
         ("sdk/mod/handflash_hud.object", "cop/handflash_hud.ogf")]


def cpu_seconds(argv):
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{err}")
    return usage.ru_utime + usage.ru_stime


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cli, samples = sys.argv[1], os.path.join(sys.argv[2], "xray")
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 21
    with tempfile.TemporaryDirectory() as tmp:
        notex = os.path.join(tmp, "no_textures")
        os.mkdir(notex)

        def convert(src, out, *extra):
            textures = ["--textures", notex] if src.endswith((".object", ".ogf")) else []
            return [cli, "convert", src, "-o", os.path.join(tmp, out), *textures, "--force", *extra]

        for obj_rel, ogf_rel in PAIRS:
            obj, ogf = os.path.join(samples, obj_rel), os.path.join(samples, ogf_rel)
            if not (os.path.isfile(obj) and os.path.isfile(ogf)):
                print(f"SKIP {obj_rel} / {ogf_rel}: samples not found under {samples}")
                continue
            # The .glb files the way back reads, made once.
            for argv in (convert(obj, "o.glb"), convert(ogf, "g.glb")):
                cpu_seconds(argv)
            o_glb, g_glb = os.path.join(tmp, "o.glb"), os.path.join(tmp, "g.glb")
            cases = {
                "to .glb": (convert(obj, "x.glb"), convert(ogf, "y.glb")),
                "back, --template": (convert(o_glb, "x.object", "--template", obj), convert(g_glb, "y.ogf", "--template", ogf)),
                "back, new": (convert(o_glb, "x2.object"), convert(g_glb, "y2.ogf")),
                "validate": ([cli, "validate", obj], [cli, "validate", ogf]),
            }
            print(f"{obj_rel} against {ogf_rel} ({runs} interleaved runs, median CPU ms)")
            for name, (a, b) in cases.items():
                ta, tb = [], []
                for _ in range(runs):
                    ta.append(cpu_seconds(a))
                    tb.append(cpu_seconds(b))
                ma, mb = statistics.median(ta) * 1000, statistics.median(tb) * 1000
                print(f"  {name:17s} .object {ma:6.1f}   .ogf {mb:6.1f}   ratio {ma / mb:4.2f}")


if __name__ == "__main__":
    main()
