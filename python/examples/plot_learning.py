"""Draws the learning curves ``train_maskable_ppo.py`` wrote (``runs/OBSERVATION-curve.csv``,
the mean score of the last 500 training games against minutes trained) beside the package's
own agents on the same evaluation worlds, seeds 0 to 999 of ``Aima-v0``.

    python python/examples/plot_learning.py --runs runs --out docs/img/python-learning.png
"""

import argparse
import csv
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import wumpus_logic  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", default="runs")
    p.add_argument("--out", default="runs/learning.png")
    p.add_argument("--worlds", type=int, default=1000)
    a = p.parse_args()
    runs = Path(a.runs)
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    for observation in ("percepts", "memory", "knowledge"):
        path = runs / f"{observation}-curve.csv"
        if not path.exists():
            continue
        rows = [r for r in csv.DictReader(path.open()) if r["mean_score"] not in ("", "None")]
        label = f"MaskablePPO, {observation} (training games)"
        evaluated = runs / f"{observation}-eval.json"
        if evaluated.exists():
            sampled = json.loads(evaluated.read_text())["summaries"][-1]
            label += f"; evaluated {sampled['mean_score']:.0f}"
        ax.plot([float(r["minutes"]) for r in rows], [float(r["mean_score"]) for r in rows], label=label)
    for agent, style in (("logic", "--"), ("risk", ":")):
        s = wumpus_logic.solve("aima", a.worlds, 0, agent=agent)
        ax.axhline(s["mean_score"], linestyle=style, color="grey", label=f"{agent} agent: {s['mean_score']:.0f}")
    ax.set_xlabel("minutes of training (2 cores)")
    ax.set_ylabel("mean score")
    ax.set_title("Aima-v0 (4x4, pits 0.2): what a learner learns from each observation")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, frameon=False)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
