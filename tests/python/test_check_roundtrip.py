"""boneyard.check_roundtrip against `boneyard check-roundtrip`, which it mirrors: the same outcome for
every real sample in ../shared/samples (skipped, saying so, when they are absent)."""
import os
import pathlib
import re
import subprocess

import pytest

import boneyard

CLI = os.environ["BONEYARD_CLI"]
SAMPLES = pathlib.Path(os.environ.get("BONEYARD_SAMPLES_DIR", "/nonexistent")) / "xray"


@pytest.mark.skipif(not SAMPLES.is_dir(), reason=f"real sample files not found at {SAMPLES} (../shared/samples)")
def test_same_outcome_as_the_cli():
    result = boneyard.check_roundtrip(SAMPLES, jobs=2)
    out = subprocess.run([CLI, "check-roundtrip", str(SAMPLES), "-j", "2"], capture_output=True, text=True)
    assert out.returncode == (0 if result["all_back"] else 1)
    lines = {}
    for line in out.stdout.splitlines():
        m = re.match(r"\[\d+/\d+\] (.*): with template (\w+), without template (\w+)$", line)
        if m:
            lines[m.group(1)] = (m.group(2), m.group(3))
    assert len(result["items"]) == len(lines) >= 10
    for item in result["items"]:
        without = "converted" if item["without_template"] == "identical" else item["without_template"]
        assert lines[os.fsdecode(item["model"])] == (item["with_template"], without)
    assert result["with_template"]["different"] == 0 and result["with_template"]["failed"] == 0
    assert result["refused"] == 1  # the OGF v3 sample: not read, by design
    assert all(isinstance(w, boneyard.Finding) for item in result["items"] for w in item["warnings"])


def test_not_a_folder(tmp_path):
    with pytest.raises(boneyard.UsageError, match="not a folder"):
        boneyard.check_roundtrip(tmp_path / "missing")
