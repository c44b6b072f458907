"""The @case decorator and the Run spec used by cases_*.py (see hostile.py)."""
import dataclasses
import typing

CASES = []


@dataclasses.dataclass
class Run:
    argv: list
    stdin: typing.Optional[bytes] = None
    env: dict = dataclasses.field(default_factory=dict)
    # (signal number, regex): the runner reads the command's stderr until a line matches the regex,
    # sends the signal, and only then reads on. Until it is sent the command can write no more than
    # the stderr pipe holds (the runner shrinks it to one page), so it blocks rather than racing
    # ahead of the signal: a point to be interrupted at that does not depend on the machine's speed.
    signal: typing.Optional[tuple] = None


@dataclasses.dataclass
class Case:
    name: str
    fn: typing.Callable
    why: str
    exit: int
    stderr: typing.Optional[str]
    stdout: typing.Optional[str]
    one_line: bool
    not_in_stderr: typing.Optional[str]
    creates: list
    creates_required: list
    modifies: list
    timeout: float
    max_seconds: typing.Optional[float]
    address_space_mb: int
    rss_bound: bool
    decoded: int
    output: int
    check: typing.Optional[typing.Callable]


def case(name, why, exit, stderr=None, stdout=None, one_line=False, not_in_stderr=None, creates=(),
         creates_required=(), modifies=(), timeout=20, max_seconds=None, address_space_mb=1024, rss_bound=True,
         decoded=0, output=0, check=None):
    """Registers a case. `fn(d)` writes inputs into the empty folder `d` (the working directory of
    the run) and returns the argv after `boneyard` (or a Run). `creates`: regexes of paths
    (relative to d) that the run may create; everything else new is a leftover. `creates_required`:
    regexes of which each must match a created path. `modifies`: inputs the run may change.
    `decoded`: bytes of pixels the command may decode (width x height x 4 of its largest image, at
    most 256 MiB): the RSS bound grows by 3x that (docs/safety.md "Memory"). `output`: bytes of an
    output that legitimately outgrows the input (motions sampled at 30 fps): likewise 3x that.
    `check(d, code, stdout, stderr)` returns an error message or None."""
    def register(fn):
        CASES.append(Case(name, fn, why, exit, stderr, stdout, one_line, not_in_stderr, list(creates),
                          list(creates_required), list(modifies), timeout, max_seconds, address_space_mb,
                          rss_bound, decoded, output, check))
        return fn
    return register
