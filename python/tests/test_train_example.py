"""The training example (``python/examples/train_maskable_ppo.py``) keeps its worlds apart: a
short run trains on seeds from ``TRAIN_SEEDS`` up, never on the evaluation's seeds 0 to 999 nor
on the validation worlds the settings were chosen on, and reports both policies. With ``CI``
set, a missing learning library fails the test."""

import importlib.util
import json
import os

import pytest

from conftest import ROOT


def example():
    for module in ("sb3_contrib", "torch"):
        try:
            __import__(module)
        except ImportError:
            message = f"{module} is not installed (.ci/test installs it)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    path = ROOT / "python" / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("deal", [None, "course"])
def test_training_never_plays_an_evaluation_or_validation_world(tmp_path, deal):
    m = example()
    argv = ["--steps", "3000", "--envs", "8", "--eval-worlds", "20", "--out", str(tmp_path)]
    if deal:
        argv += ["--deal", deal]
    result = m.main(argv)
    a = m.parser().parse_args(argv)
    # The seeds of every game the run played in training, as the run recorded them.
    assert result["training_games"] > 0
    assert result["training_games_on_evaluation_worlds"] == 0
    # The games themselves: trained again on the same settings, every seed is a training one.
    _, budget, _ = m.train(a)
    assert budget.seeds, "no training game finished"
    assert min(budget.seeds) >= m.TRAIN_SEEDS
    assert max(budget.seeds) < m.VALIDATION_SEEDS
    assert not budget.seeds & set(range(0, 1000))
    # Both policies are played and written down.
    players = [s["player"] for s in result["summaries"]]
    assert players == ["maskable-ppo-knowledge-sampled", "maskable-ppo-knowledge-deterministic"]
    name = f"knowledge{'-' + deal if deal else ''}-eval.json"
    written = json.loads((tmp_path / name).read_text())
    assert written["training_games_on_evaluation_worlds"] == 0
