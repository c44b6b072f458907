"""Running the boneyard executable. The add-on leaves every file format to it: it only starts
`boneyard convert` and passes on what boneyard says (its one-line errors and its warnings)."""
import os
import shutil
import subprocess


class BoneyardError(Exception):
    """A step failed; the message is what the user reads in Blender's report area."""


# Where the release zips (scripts/package.sh) put the executable: inside the add-on's own folder,
# so that installing the zip is all a user does.
BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin")


def bundled_executable():
    """The executable shipped in the add-on's bin/ folder, or None (an add-on zip made from the
    sources has none)."""
    for name in ("boneyard.exe", "boneyard") if os.name == "nt" else ("boneyard",):
        candidate = os.path.join(BUNDLED, name)
        if os.path.isfile(candidate):
            return candidate
    return None


def find_executable(configured):
    """The boneyard executable: the path set in the add-on preferences (an override), else the one
    shipped in the add-on's bin/ folder, else `boneyard` on PATH."""
    if configured:
        path = os.path.abspath(os.path.expanduser(configured))
        if os.path.isdir(path):
            for name in ("boneyard", "boneyard.exe"):
                candidate = os.path.join(path, name)
                if os.path.isfile(candidate):
                    return candidate
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise BoneyardError("boneyard executable not found at %s (Preferences > Add-ons > boneyard I/O)" % configured)
    bundled = bundled_executable()
    if bundled is not None:
        if os.name != "nt" and not os.access(bundled, os.X_OK):
            # Blender's add-on installer unpacks zips without the executable bit.
            os.chmod(bundled, os.stat(bundled).st_mode | 0o755)
        return bundled
    found = shutil.which("boneyard")
    if found is None:
        raise BoneyardError("boneyard executable not found on PATH: set its path in Preferences > Add-ons > boneyard I/O")
    return found


def _text(raw):
    return raw.decode("utf-8", errors="replace") if raw else ""


def _call(executable, arguments):
    """(stdout, stderr) of a successful run; a failure raises BoneyardError with boneyard's own
    message (its stderr, else its stdout)."""
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)  # no console window on Windows
    try:
        done = subprocess.run([executable, *[str(a) for a in arguments]], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, creationflags=flags)
    except OSError as error:
        raise BoneyardError("cannot run %s: %s" % (executable, error)) from error
    out, err = _text(done.stdout), _text(done.stderr)
    if done.returncode != 0:
        message = err.strip() or out.strip() or "no message"
        raise BoneyardError("boneyard %s: %s" % (arguments[0], message))
    return out, err


def run(executable, *arguments):
    """Runs boneyard; returns its warning lines (stderr)."""
    return [line for line in _call(executable, arguments)[1].splitlines() if line.strip()]


def stdout(executable, *arguments):
    """Runs boneyard; returns its standard output."""
    return _call(executable, arguments)[0]
