#!/usr/bin/env python3
"""How many keys of real .omf files come back byte-identical through the SDK's source form:
`boneyard convert X.omf -o X.skls`, then `boneyard convert X.skls -o back.omf --parts X.omf`
(an .skls holds no bone parts), compiled with the settings the original shows (--game soc for
params version 3; --hq when its records carry the 16-bit flag without keys, which only the SDK told
to write 16 bits does). Counts come from boneyard's own decoder (`boneyard dump --raw`).

A rotation key is identical when its four stored components are, "sign" when all four are negated
(the same rotation), else the largest component difference is counted. A translation key is
identical when its stored integers, size, init and width are; "same value" when it decodes to the
same metres (every float equal).

Usage: scripts/skls_roundtrip_table.py BONEYARD [--mirror REPO] [PATH...]
  PATH: .omf files or folders searched for them. --mirror REPO: a bare git repository whose
  gamedata/meshes .omf files are extracted into a temporary folder (outside the repository) and
  measured too (e.g. /work/.mirror/TheParaziT+x-ray-monolith-guns-gamedata/repo).
Prints one row per file and the totals (Markdown).
"""
import json
import os
import subprocess
import sys
import tempfile


def dump(cli, path):
    run = subprocess.run([cli, "dump", "--raw", path], capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip().splitlines()[0] if run.stderr.strip() else "exit %d" % run.returncode
    return json.loads(run.stdout), None


def at(values, f):
    return values[min(f, len(values) - 1)]


def measure(cli, path, scratch):
    before, err = dump(cli, path)
    if before is None:
        return None, "not read: " + err
    if not before["motions"]:
        return None, "no motions"
    stem = os.path.join(scratch, "x")
    skls = stem + ".skls"
    back = stem + ".omf"
    for f in (skls, back):
        if os.path.exists(f):
            os.remove(f)
    run = subprocess.run([cli, "convert", path, "-o", skls], capture_output=True, text=True)
    if run.returncode != 0:
        return None, "to .skls: " + run.stderr.strip().splitlines()[0]
    command = [cli, "convert", skls, "-o", back, "--parts", path]
    if before["params_version"] == 3:
        command += ["--game", "soc"]
    elif any(r["flags"] & 4 and not r["flags"] & 1 for m in before["motions"] for r in m["bones"]):
        command += ["--hq"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        return None, "to .omf: " + run.stderr.strip().splitlines()[0]
    after, err = dump(cli, back)
    if after is None:
        return None, "result not read: " + err
    n = {"rot": 0, "rot_same": 0, "rot_sign": 0, "rot_other": 0, "rot_worst": 0,
         "tr": 0, "tr_same": 0, "tr_value": 0, "records": 0, "flags": 0, "motions": 0, "params": 0}
    with open(path, "rb") as f1, open(back, "rb") as f2:
        n["identical_file"] = f1.read() == f2.read()
    for a, b in zip(before["motions"], after["motions"]):
        n["motions"] += 1
        if all(a[k] == b[k] for k in ("name", "frames", "flags", "bone_or_part", "speed", "power", "accrue", "falloff",
                                      "marks")):
            n["params"] += 1
        for ra, rb in zip(a["bones"], b["bones"]):
            n["records"] += 1
            n["flags"] += ra["flags"] == rb["flags"]
            same_encoding = (ra["flags"] & 5 == rb["flags"] & 5 and ra.get("translation_size") == rb.get("translation_size")
                             and ra.get("translation_init") == rb.get("translation_init"))
            for f in range(a["frames"]):
                ka, kb = at(ra["rotation_keys"], f), at(rb["rotation_keys"], f)
                n["rot"] += 1
                if ka == kb:
                    n["rot_same"] += 1
                elif all(x == -y for x, y in zip(ka, kb)):
                    n["rot_sign"] += 1
                else:
                    n["rot_other"] += 1
                    n["rot_worst"] = max(n["rot_worst"], min(max(abs(x - y) for x, y in zip(ka, kb)),
                                                           max(abs(x + y) for x, y in zip(ka, kb))))
                n["tr"] += 1
                ta, tb = at(ra["translation"], f), at(rb["translation"], f)
                n["tr_value"] += ta == tb
                if "translation_keys" in ra:
                    n["tr_same"] += same_encoding and at(ra["translation_keys"], f) == at(rb.get("translation_keys", [None]), f)
                else:
                    n["tr_same"] += ta == tb and not rb["flags"] & 1
    return n, None


def omf_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                for name in sorted(names):
                    if name.lower().endswith(".omf"):
                        yield os.path.join(root, name)
        else:
            yield p


def extract_mirror(repo, into):
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD", "gamedata/meshes"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
    names = [n for n in listing if n.lower().endswith(".omf")]
    archive = subprocess.run(["git", "-C", repo, "archive", "HEAD"] + names, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return into


def main():
    argv = sys.argv[1:]
    if not argv:
        sys.exit(__doc__)
    cli = argv.pop(0)
    mirror = None
    if "--mirror" in argv:
        i = argv.index("--mirror")
        mirror = argv[i + 1]
        del argv[i:i + 2]
    with tempfile.TemporaryDirectory() as scratch:
        paths = list(argv)
        if mirror:
            paths.append(extract_mirror(mirror, os.path.join(scratch, "mirror")))
        total = {}
        print("| file | motions | rotation keys: identical / sign only / other (worst) | translation keys: identical / "
              "same value | records with the same flags | params and marks kept | file identical |")
        print("|---|---|---|---|---|---|---|")
        failed = []
        for path in omf_files(paths):
            n, err = measure(cli, path, scratch)
            name = os.path.relpath(path, scratch) if path.startswith(scratch) else path
            if n is None:
                failed.append((name, err))
                continue
            for k, v in n.items():
                if k == "rot_worst":
                    total[k] = max(total.get(k, 0), v)
                else:
                    total[k] = total.get(k, 0) + (v if not isinstance(v, bool) else int(v))
            print("| %s | %d | %d / %d / %d (%d) | %d / %d of %d | %d of %d | %d of %d | %s |" % (
                name, n["motions"], n["rot_same"], n["rot_sign"], n["rot_other"], n["rot_worst"], n["tr_same"],
                n["tr_value"], n["tr"], n["flags"], n["records"], n["params"], n["motions"],
                "yes" if n["identical_file"] else "no"))
        if total:
            print("| **all** (%d files) | %d | %d / %d / %d (%d) = %.4f%% identical | %d / %d of %d = %.4f%% / %.4f%% | %d of %d |"
                  " %d of %d | %d files |" % (
                      sum(1 for _ in omf_files(paths)) - len(failed), total["motions"], total["rot_same"],
                      total["rot_sign"], total["rot_other"], total["rot_worst"], 100.0 * total["rot_same"] / total["rot"],
                      total["tr_same"], total["tr_value"], total["tr"], 100.0 * total["tr_same"] / total["tr"],
                      100.0 * total["tr_value"] / total["tr"], total["flags"], total["records"], total["params"],
                      total["motions"], total["identical_file"]))
        for name, err in failed:
            print("not measured: %s: %s" % (name, err))


if __name__ == "__main__":
    main()
