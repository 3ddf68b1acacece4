"""Shared fixtures: the release binary of the same checkout (for parity with the command line)
and the rule sets. The tests import the installed wheel, never the source tree; with ``CI`` set
a missing binary fails the test instead of skipping it."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ["aima", "grid", "cave", "maze"]


@pytest.fixture(scope="session")
def wumpus_bin():
    path = Path(os.environ.get("WUMPUS_BIN", ROOT / "target" / "release" / "wumpus"))
    if not path.is_file():
        message = f"the release binary {path} is missing: run `cargo build --release` first"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return str(path)


@pytest.fixture(scope="session")
def run_cli(wumpus_bin):
    def run(*args, stdin=None):
        done = subprocess.run([wumpus_bin, *args], input=stdin, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run
