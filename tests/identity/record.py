#!/usr/bin/env python3
"""Records what a `wumpus` binary decides on the identity batches, in one normalised shape.

    python3 tests/identity/record.py path/to/wumpus > figures.jsonl

Each line names a batch (its `solve` arguments, always with `--threads 1 --json`) and the
figures that follow from the agent's decisions alone: games, wins, the sum of scores, moves and
shots, losses by cause and, where the binary reports them, solver calls and (grid) the worlds
an all-knowing player could win. Timings are left out.

It reads both JSON shapes: the one summary of every rule set (since the one-interface change)
and the older ones (grid keys at the top level; cave and maze ones nested under `summary` and
`totals`), so that `before.jsonl` could be recorded from the commit before that change
(1083410) and compared with any later binary by `tests/cli/identity.rs`.
"""
import json
import subprocess
import sys

BATCHES = [
    "--size 4x4 --agent logic --worlds 3000",
    "--size 4x4 --agent risk --worlds 3000",
    "--size 5x5 --agent logic --worlds 3000",
    "--size 5x5 --agent risk --worlds 3000",
    "--size 5x5 --agent risk --scoring aima --worlds 2000 --seed 7000",
    "--rules cave --worlds 400",
    "--rules cave --map-known --worlds 400",
    "--rules cave --map worlds/cave-mobius.txt --worlds 400 --seed 100",
    "--rules cave --map worlds/cave-mobius.txt --map-known --worlds 400 --seed 100",
    "--rules cave --agent random --worlds 3000",
    # The maze agent of 1083410 was given the map; today that is `--map-known` (the default
    # learns it). Recording from 1083410 itself, drop the flag for this batch.
    "--rules maze --map-known --worlds 200",
]


def normalise(j):
    if "summary" in j:  # the older cave and maze shape
        t = j["totals"]
        losses = {k: v for k, v in t["losses"].items() if v}
        if t.get("unfinished"):
            losses["unfinished"] = t["unfinished"]
        return {
            "games": t["games"],
            "wins": t["wins"],
            "score_sum": t["total_score"],
            "moves_sum": t["moves"],
            "shots_sum": t["shots"],
            "endings": losses,
            "solver_calls_sum": None,
            "winnable": None,
        }
    t = j["totals"]
    if "endings" in t:  # the one shape
        endings = {k: v for k, v in t["endings"].items() if k not in ("won", "climbed_out")}
        if j["rules"] == "grid":  # as the older grid shape counted them
            unfinished = endings.pop("unfinished", 0)
            endings = {"deaths": sum(endings.values()), "unfinished": unfinished}
        return {
            "games": t["games"],
            "wins": t["endings"].get("won", 0),
            "score_sum": t["score_sum"],
            "moves_sum": t["moves_sum"],
            "shots_sum": None if j["rules"] == "grid" else t["shots_sum"],
            "endings": endings,
            "solver_calls_sum": t["solver_calls_sum"] if j["rules"] == "grid" else None,
            "winnable": t["winnable"] if j["rules"] == "grid" else None,
        }
    # the older grid shape: deaths were not split by cause
    return {
        "games": t["games"],
        "wins": t["wins"],
        "score_sum": t["score_sum"],
        "moves_sum": t["moves_sum"],
        "shots_sum": None,
        "endings": {"deaths": t["deaths"], "unfinished": t["cut_off"]},
        "solver_calls_sum": t["solver_calls_sum"],
        "winnable": t["winnable"],
    }


def main():
    binary = sys.argv[1]
    for batch in BATCHES:
        args = ["solve", "--threads", "1", "--json"] + batch.split()
        out = subprocess.run([binary] + args, capture_output=True, text=True, check=True)
        figures = normalise(json.loads(out.stdout))
        print(json.dumps({"batch": batch, **figures}, sort_keys=True))


if __name__ == "__main__":
    main()
