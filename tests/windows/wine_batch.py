"""Many boneyard.exe runs in one wine start: each wine64 start costs about a second (more on a
busy machine), boneyard.exe itself a few milliseconds. A batch is a .bat file that wine's cmd runs:
for each case it changes to the case folder, runs boneyard.exe with stdout and stderr redirected to
files outside the case folder, and writes the exit code (%ERRORLEVEL%) to a third file. Cases that
a .bat cannot spell exactly (stdin, environment, quotes, non-ASCII or cmd's special characters in
an argument) run one wine start each, as before.
"""
import pathlib
import re
import subprocess
import time

# cmd reads a .bat in the OEM code page and gives meaning to these even inside quotes (% expands,
# ! with delayed expansion); an argument holding one is not batched.
_UNSAFE = re.compile(r'[^\x20-\x7e]|["%!^&|<>]')


def batchable(case, argv):
    # A backslash before the closing quote would escape it (CommandLineToArgvW's rule).
    return case.stdin is None and not case.env and not any(
        _UNSAFE.search(str(a)) or str(a).endswith("\\") for a in argv)


def _quote(arg):
    return '"%s"' % arg


def run_batches(runner, jobs, batch_dir, pool):
    """jobs: [(key, windows_folder, argv)]. Returns key -> (code, stdout, stderr, seconds), the
    seconds being the batch's time shared out evenly."""
    batch_dir = pathlib.Path(batch_dir)
    batch_dir.mkdir(parents=True, exist_ok=True)
    exe = runner.windows_path(runner.exe)
    n = max(1, min(pool._max_workers, len(jobs)))
    chunks = [jobs[i::n] for i in range(n)]

    def run_chunk(k, chunk):
        lines = ["@echo off"]
        for key, folder, argv in chunk:
            io = runner.windows_path(batch_dir / key)
            lines.append("cd /d %s" % _quote(runner.windows_path(folder)))
            lines.append("%s %s >%s 2>%s <NUL" % (_quote(exe), " ".join(_quote(a) for a in argv),
                                                  _quote(io + ".out"), _quote(io + ".err")))
            # The redirection first: "echo 2>file" would redirect stderr.
            lines.append(">%s echo %%ERRORLEVEL%%" % _quote(io + ".code"))
        bat = batch_dir / ("batch%d.bat" % k)
        bat.write_bytes(("\r\n".join(lines) + "\r\n").encode("ascii"))
        t0 = time.monotonic()
        subprocess.run([str(runner.wine), "cmd", "/c", runner.windows_path(bat)], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
        return chunk, (time.monotonic() - t0) / max(1, len(chunk))

    out = {}
    for chunk, share in pool.map(lambda kc: run_chunk(*kc), enumerate(chunks)):
        for key, _, _ in chunk:
            io = batch_dir / key
            try:
                code = int((io.with_suffix(".code")).read_text().strip())
                stdout, stderr = io.with_suffix(".out").read_bytes(), io.with_suffix(".err").read_bytes()
            except (OSError, ValueError) as e:
                code, stdout, stderr = -1, b"", ("the batch did not run this case: %s" % e).encode()
            out[key] = (code, stdout, stderr, share)
    return out
