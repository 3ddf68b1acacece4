"""Every Python snippet of the docs runs as written: each ```python block of README.md and
docs/*.md, on its own, in a fresh namespace and an empty folder. A snippet that raises fails
here, so a change to the package that breaks one breaks the tests."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def snippets():
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text()
        for m in FENCE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            yield pytest.param(m.group(1), id=f"{doc.relative_to(ROOT)}:{line}")


SNIPPETS = list(snippets())


def test_the_docs_have_python_snippets():
    assert len(SNIPPETS) >= 4


@pytest.mark.parametrize("code", SNIPPETS)
def test_a_snippet_runs_as_written(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # Snippets that sample actions draw from unseeded generators: a few runs each catch one
    # that fails only on some draws (a sampled climb ending the game before a hint).
    for _ in range(5):
        exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})
