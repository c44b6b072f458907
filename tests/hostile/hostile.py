#!/usr/bin/env python3
"""The hostile-input suite: one small crafted file (or folder) per case, the `boneyard` CLI run on
it under a memory cap and a time limit, and the outcome checked: exit code, the one-line message,
no output or temporary file left behind, inputs unchanged, peak RSS within 4x the input + 64 MB
(plus 3x the pixels a texture case decodes). BONEYARD_HOSTILE_SHOW_RSS=1 prints each peak,
BONEYARD_HOSTILE_SHOW_TIME=1 each case's wall and CPU seconds beside its limits.

    hostile.py list                       case names, one per line (ctest registers each)
    hostile.py run --cli BIN NAME...      run cases; exit 0 when all pass
    hostile.py run --cli BIN --all

Cases live in cases_*.py beside this file; each is a function decorated with @case (see
hostile_case.py) that writes its inputs into an empty folder and returns the command line.
Under a sanitizer build (BONEYARD_HOSTILE_SANITIZER=1) the address-space cap and the RSS bound are
not applied (the sanitizer reserves terabytes of address space) and time limits are multiplied.
A case that sends a signal sends it at a point in the command's output, never after a delay
(hostile_case.Run.signal).
"""
import argparse
import ctypes
import fcntl
import hashlib
import importlib
import os
import pathlib
import re
import resource
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from hostile_case import CASES, Run  # noqa: E402

MB = 1 << 20
PEAKS = {}  # case name -> (peak RSS, its bound), in bytes
TIMES = {}  # case name -> (wall seconds, timeout, CPU seconds, CPU limit or None)


def load_cases():
    for path in sorted(HERE.glob("cases_*.py")):
        importlib.import_module(path.stem)
    names = [c.name for c in CASES]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit("duplicate case names: " + ", ".join(sorted(dup)))
    return {c.name: c for c in CASES}


def snapshot(root):
    """path -> (kind, mode, content) of everything under root (symlinks not followed); a file's
    content is its size and SHA-256, so that the runner does not hold the inputs (a forked child's
    peak RSS counts what the runner holds when it forks)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = pathlib.Path(dirpath) / name
            rel = str(p.relative_to(root))
            st = os.lstat(p)
            if os.path.islink(p):
                out[rel] = ("link", st.st_mode, os.readlink(p))
            elif p.is_dir():
                out[rel] = ("dir", st.st_mode, None)
            elif p.is_file():
                digest = hashlib.sha256()
                with open(p, "rb") as f:
                    for block in iter(lambda: f.read(1 << 20), b""):
                        digest.update(block)
                out[rel] = ("file", st.st_mode, (st.st_size, digest.hexdigest()))
            else:
                out[rel] = ("special", st.st_mode, None)
    return out


def input_bytes(snap):
    return sum(c[0] for kind, _, c in snap.values() if kind == "file")


def release_memory():
    """Gives the runner's freed memory back to the system before a child is forked: the child's
    peak RSS starts at what the runner holds (a case's builder may have held hundreds of MB)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def small_pipe():
    """A pipe (read end, write end) holding one page, the least Linux allows: a command writing to
    it blocks once a page of its output is unread."""
    r, w = os.pipe()
    fcntl.fcntl(r, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    return r, w


def read_until(fd, pattern, deadline):
    """Reads the pipe `fd` until a line of what it gave matches `pattern` (True), or until it ends or
    `deadline` passes (False). Returns (bytes read, matched). Reads nothing after the match."""
    got = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        block = os.read(fd, 65536)
        if not block:
            break
        got += block
        complete = got[:got.rfind(b"\n") + 1].decode("utf-8", "replace")
        if any(re.search(pattern, line) for line in complete.splitlines()):
            return got, True
    return got, False


def communicate(proc, stdin, timeout):
    """proc.communicate(stdin), reaping the child with wait4 to get its own resource usage
    (RUSAGE_CHILDREN keeps the largest peak RSS of every child the runner has had, so a case run
    after a larger one would inherit its peak). Returns (stdout, stderr, rusage); rusage is None
    when the child was killed after `timeout` seconds."""
    out, err = [], []
    threads = [threading.Thread(target=lambda: out.append(proc.stdout.read())),
               threading.Thread(target=lambda: err.append(proc.stderr.read()))]
    if stdin is not None:
        def feed():
            try:
                proc.stdin.write(stdin)
                proc.stdin.close()
            except BrokenPipeError:
                pass
        threads.append(threading.Thread(target=feed))
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    usage = None
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            usage = ru
            break
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pid, status, ru = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005)
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: Popen must not wait again
    for t in threads:
        t.join()
    return out[0], err[0], usage


def run_case(case, cli, sanitizer):
    errors = []
    with tempfile.TemporaryDirectory(prefix="boneyard_hostile_") as tmp:
        d = pathlib.Path(tmp) / "work"
        d.mkdir()
        spec = case.fn(d)
        if not isinstance(spec, Run):
            spec = Run(argv=list(spec))
        before = snapshot(d)
        # A command that decodes a texture may hold 3x its decoded pixels more, one whose output
        # legitimately outgrows its input (motions sampled at 30 fps) 3x that output (docs/safety.md).
        budget = 4 * input_bytes(before) + 64 * MB + 3 * case.decoded + 3 * case.output
        timeout = case.timeout * (10 if sanitizer else 1)
        env = dict(os.environ)
        env.update(spec.env)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:allocator_may_return_null=0")

        def limits():
            if not sanitizer and case.address_space_mb:
                cap = case.address_space_mb * MB
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            os.setsid()

        argv = [str(cli)] + [str(a) for a in spec.argv]
        release_memory()
        started = time.monotonic()
        # A case that sends a signal reads stderr itself until the point the signal belongs to.
        err_pipe = small_pipe() if spec.signal is not None else None
        proc = subprocess.Popen(argv, cwd=d, env=env, stdin=subprocess.PIPE if spec.stdin is not None else subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=err_pipe[1] if err_pipe else subprocess.PIPE,
                                preexec_fn=limits)
        err_before = b""
        if err_pipe is not None:
            os.close(err_pipe[1])
            proc.stderr = open(err_pipe[0], "rb")
            sig, pattern = spec.signal
            err_before, reached = read_until(err_pipe[0], pattern, time.monotonic() + timeout)
            if reached:
                os.kill(proc.pid, sig)
            else:
                errors.append(f"the signal was not sent: no stderr line matched /{pattern}/")
        out, err, usage = communicate(proc, spec.stdin, timeout)
        err = err_before + err
        if usage is None:
            return [f"timed out after {timeout:.0f} s (the command must end by itself)"], out, err
        # CPU seconds of this child, not wall time: a linear walk stays far under the limit however
        # loaded the machine is, and a quadratic one (tens of seconds of CPU) still fails it.
        cpu_seconds = usage.ru_utime + usage.ru_stime
        cpu_limit = case.max_seconds * (10 if sanitizer else 1) if case.max_seconds is not None else None
        TIMES[case.name] = (time.monotonic() - started, timeout, cpu_seconds, cpu_limit)
        out_s = out.decode("utf-8", "replace")
        err_s = err.decode("utf-8", "replace")

        code = proc.returncode
        if code < 0:
            errors.append(f"killed by signal {-code}")
        elif code != case.exit:
            errors.append(f"exit code {code}, expected {case.exit}")
        if case.stderr is not None and not re.search(case.stderr, err_s, re.S):
            errors.append(f"stderr does not match /{case.stderr}/")
        if case.stdout is not None and not re.search(case.stdout, out_s, re.S):
            errors.append(f"stdout does not match /{case.stdout}/")
        if case.one_line and code != 0:
            lines = [ln for ln in err_s.splitlines() if ln.strip()]
            if len(lines) != 1:
                errors.append(f"expected one line on stderr, found {len(lines)}")
        if case.not_in_stderr and re.search(case.not_in_stderr, err_s, re.S):
            errors.append(f"stderr must not match /{case.not_in_stderr}/")
        if "AddressSanitizer" in err_s or "runtime error:" in err_s or "LeakSanitizer" in err_s:
            errors.append("sanitizer report on stderr")

        after = snapshot(d)
        created = sorted(set(after) - set(before))
        unexpected = [p for p in created if not any(re.fullmatch(pat, p) for pat in case.creates)]
        if unexpected:
            errors.append("left behind: " + ", ".join(unexpected))
        for pat in case.creates_required:
            if not any(re.fullmatch(pat, p) for p in created):
                errors.append(f"expected a new file matching {pat}")
        for p, v in before.items():
            if any(re.fullmatch(pat, p) for pat in case.modifies):
                continue
            if p not in after:
                errors.append(f"input removed: {p}")
            elif after[p] != v:
                errors.append(f"input changed: {p}")
        if not sanitizer and case.rss_bound:
            # ru_maxrss is in KiB on Linux; wait4 gives this child's own.
            rss = usage.ru_maxrss * 1024
            if rss > budget:
                errors.append(f"peak RSS {rss // MB} MB over the bound {budget // MB} MB (4 x input + 64 MB"
                              + (f" + 3 x {case.decoded // MB} MB decoded" if case.decoded else "")
                              + (f" + 3 x {case.output // MB} MB of output" if case.output else "") + ")")
            PEAKS[case.name] = (rss, budget)
        if case.check is not None:
            msg = case.check(d, code, out_s, err_s)
            if msg:
                errors.append(msg)
        if cpu_limit is not None and cpu_seconds > cpu_limit:
            errors.append(f"took {cpu_seconds:.1f} s of CPU, limit {cpu_limit:g} s")
        return errors, out, err


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    r = sub.add_parser("run")
    r.add_argument("--cli", required=True)
    r.add_argument("--all", action="store_true")
    r.add_argument("names", nargs="*")
    a = ap.parse_args()
    cases = load_cases()
    if a.cmd == "list":
        for n in cases:
            print(n)
        return 0
    sanitizer = os.environ.get("BONEYARD_HOSTILE_SANITIZER") == "1"
    names = list(cases) if a.all else a.names
    failed = 0
    for n in names:
        if n not in cases:
            print(f"{n}: no such case")
            failed += 1
            continue
        errors, out, err = run_case(cases[n], pathlib.Path(a.cli).resolve(), sanitizer)
        if errors:
            failed += 1
            print(f"FAIL {n}: {cases[n].why}")
            for e in errors:
                print("   ", e)
            print("    stdout:", out.decode("utf-8", "replace")[-2000:])
            print("    stderr:", err.decode("utf-8", "replace")[-2000:])
        else:
            print(f"ok   {n}")
        if n in PEAKS and os.environ.get("BONEYARD_HOSTILE_SHOW_RSS") == "1":
            print(f"     peak RSS {PEAKS[n][0] / MB:.1f} MB (bound {PEAKS[n][1] // MB} MB)")
        if n in TIMES and os.environ.get("BONEYARD_HOSTILE_SHOW_TIME") == "1":
            wall, limit, cpu, cpu_limit = TIMES[n]
            print(f"     {wall:.2f} s wall (timeout {limit:g} s), {cpu:.2f} s CPU"
                  + (f" (limit {cpu_limit:g} s)" if cpu_limit is not None else ""))
    print(f"{len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
