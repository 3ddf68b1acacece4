"""Draws the learning curves ``train_maskable_ppo.py`` wrote (``OBSERVATION-curve.csv``, the
mean score of the last 500 training games against minutes trained) beside the package's own
agents on the same evaluation worlds, seeds 0 to 999: ``Aima-v0`` from ``--runs``, and the
course tournament's deal from ``--course-runs`` when given (a second panel).

    python python/examples/plot_learning.py --runs runs --course-runs runs-course \\
        --out docs/img/python-learning.png
"""

import argparse
import csv
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import wumpus_logic  # noqa: E402


def panel(ax, runs, deal, worlds):
    """One panel: the curves of the runs in folder ``runs`` (``deal``: None or "course")."""
    suffix = f"-{deal}" if deal else ""
    for observation in ("percepts", "memory", "knowledge"):
        path = runs / f"{observation}-curve.csv"
        if not path.exists():
            continue
        rows = [r for r in csv.DictReader(path.open()) if r["mean_score"] not in ("", "None")]
        label = f"{observation} (training games)"
        evaluated = runs / f"{observation}{suffix}-eval.json"
        if evaluated.exists():
            sampled, deterministic = json.loads(evaluated.read_text())["summaries"]
            label += (f"; evaluated {sampled['mean_score']:.0f} sampled, "
                      f"{deterministic['mean_score']:.0f} deterministic")
        ax.plot([float(r["minutes"]) for r in rows], [float(r["mean_score"]) for r in rows], label=label)
    options = {"deal": deal} if deal else {}
    for agent, style in (("logic", "--"), ("risk", ":")):
        s = wumpus_logic.solve("aima", worlds, 0, agent=agent, **options)
        ax.axhline(s["mean_score"], linestyle=style, color="grey", label=f"{agent} agent: {s['mean_score']:.0f}")
    ax.set_xlabel("minutes of training (2 cores)")
    ax.set_ylabel("mean score")
    ax.set_title("Aima-v0 (4x4, pits 0.2)" if deal is None else "the course's deal (4x4 to 7x7, size hidden)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=1, frameon=False)
    ax.grid(alpha=0.3)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", default="runs")
    p.add_argument("--course-runs", help="the runs of --deal course, for a second panel")
    p.add_argument("--out", default="runs/learning.png")
    p.add_argument("--worlds", type=int, default=1000)
    a = p.parse_args()
    folders = [(Path(a.runs), None)] + ([(Path(a.course_runs), "course")] if a.course_runs else [])
    fig, axes = plt.subplots(1, len(folders), figsize=(7 * len(folders), 6), dpi=110, squeeze=False)
    for ax, (runs, deal) in zip(axes[0], folders):
        panel(ax, runs, deal, a.worlds)
    fig.suptitle("MaskablePPO from each observation (the three runs of a panel started together)")
    fig.tight_layout()
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
