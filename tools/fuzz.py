#!/usr/bin/env python3
"""A fuzzing round against the real binary, as a hostile user would run it.

    tools/fuzz.py [--bin target/release/catenary] [--runs 300] [--seed 1] [--frames 120]

Each run takes a shipped scene and mutates it one of three ways:
  * numbers: every number of the scene text, each with some chance, set to
    a corner (0, ±1e-6, ±1e5, 1e3, 1e6, 1e20, -1) or scaled by 1e±3;
  * state: the scene saved with its `state` after a frame (`run --save`),
    positions jittered by up to ±1e5 m and velocities set up to ±1e4 m/s;
  * soft: every compliance set to one of 0, 1e-4, 1, 10 and, for cloths,
    `bending: Dihedral` (the pairs that reached NaN before).
It then runs `catenary run` for --frames frames and sorts the outcome:
  ok        refused with exit 1 and an `error:` line, or ran finite;
  PANIC     exit 101 or killed by a signal;
  NAN       ran, but the final line has NaN or inf;
  HOT       ran, kinetic energy past 10 × its value after the first frame
            plus 1e4 J plus the potential energy gravity released since
            (a blow-up that stayed finite; a driver's input counts too);
  SLOW      past 60 s for the run (a quadratic trap).
Every case that is not ok is written to fuzz-out/ with its outcome, so it
can become a regression file in tests/hostile/.
"""

import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.])")
CORNERS = ["0.0", "0.000001", "-0.000001", "100000.0", "-100000.0", "1000.0", "1000000.0", "1e20", "-1.0"]


def mutate_numbers(text, rng):
    def one(m):
        if rng.random() > 0.15:
            return m.group(0)
        if rng.random() < 0.5:
            return rng.choice(CORNERS)
        v = float(m.group(0)) * 10.0 ** rng.choice([-3, 3])
        return repr(v) if "." in m.group(0) or "e" in m.group(0) else str(int(v))
    return NUMBER.sub(one, text)


def mutate_state(binary, path, rng, work):
    saved = os.path.join(work, "saved.ron")
    r = subprocess.run([binary, "run", path, "--frames", "1", "--save", saved], capture_output=True)
    if r.returncode != 0:
        return None
    text = open(saved).read()
    head, _, tail = text.partition("state:")
    triple = re.compile(r"\(\s*(-?[\d.e+-]+),\s*(-?[\d.e+-]+),\s*(-?[\d.e+-]+)\s*\)")
    out, mode = [], None
    for part in re.split(r"(positions:|velocities:)", tail):
        if part in ("positions:", "velocities:"):
            mode = part
            out.append(part)
            continue
        if mode == "positions:":
            s = 10.0 ** rng.uniform(-2, 5)
            part = triple.sub(lambda m: "(%r, %r, %r)" % tuple(float(m.group(k)) + rng.uniform(-s, s) for k in (1, 2, 3)), part)
        elif mode == "velocities:":
            s = 10.0 ** rng.uniform(0, 4)
            part = triple.sub(lambda m: "(%r, %r, %r)" % tuple(rng.uniform(-s, s) for _ in range(3)), part)
        out.append(part)
    return head + "state:" + "".join(out)


def mutate_soft(text, rng):
    text = re.sub(r"(\w*compliance): [-\d.e+]+", lambda m: "%s: %s" % (m.group(1), rng.choice(["0.0", "0.0001", "1.0", "10.0"])), text)
    if rng.random() < 0.7:
        text = text.replace("Cloth(", "Cloth(bending: Dihedral, bend_compliance: 0.0, ", 1)
        text = re.sub(r"bend_compliance: None,", "", text)
    return text


def energies(r):
    """(kinetic, potential) J of a run's final line, or None."""
    final = next((l for l in r.stdout.splitlines() if l.startswith("final:")), "")
    m = re.search(r"kinetic ([\d.e+-]+) J\s+potential ([\d.e+-]+) J", final)
    return (float(m.group(1)), float(m.group(2))) if m else None


def classify(r, timed_out, start):
    if timed_out:
        return "SLOW"
    if r.returncode == 101 or r.returncode < 0:
        return "PANIC"
    if r.returncode == 1:
        return "ok" if r.stderr.startswith("error:") else "PANIC"
    final = next((l for l in r.stdout.splitlines() if l.startswith("final:")), "")
    if "NaN" in final or "inf" in final:
        return "NAN"
    end = energies(r)
    if end is not None and start is not None:
        # What gravity released (a body falling from 2 km) is not a gain.
        fell = max(0.0, start[1] - end[1])
        if end[0] > 10 * start[0] + 1e4 + fell:
            return "HOT"
    return "ok"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/catenary")
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--frames", default="120")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    scenes = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "scenes", "*.ron")))
    os.makedirs("fuzz-out", exist_ok=True)
    counts = {}
    with tempfile.TemporaryDirectory() as work:
        for k in range(args.runs):
            path = rng.choice(scenes)
            how = rng.choice(["numbers", "state", "soft"])
            text = open(path).read()
            text = {"numbers": lambda: mutate_numbers(text, rng),
                    "state": lambda: mutate_state(args.bin, path, rng, work),
                    "soft": lambda: mutate_soft(text, rng)}[how]()
            if text is None:
                continue
            case = os.path.join(work, "case.ron")
            open(case, "w").write(text)
            try:
                first = subprocess.run([args.bin, "run", case, "--frames", "1"],
                                       capture_output=True, text=True, timeout=60)
                r = subprocess.run([args.bin, "run", case, "--frames", args.frames],
                                   capture_output=True, text=True, timeout=60)
                outcome = classify(r, False, energies(first))
            except subprocess.TimeoutExpired:
                outcome = classify(None, True, None)
            counts[outcome] = counts.get(outcome, 0) + 1
            if outcome != "ok":
                name = "fuzz-out/%s-%03d-%s-%s" % (outcome, k, how, os.path.basename(path))
                open(name, "w").write(text)
                print(outcome, how, os.path.basename(path), "->", name, flush=True)
    print(" ".join("%s: %d" % kv for kv in sorted(counts.items())))
    sys.exit(0 if set(counts) <= {"ok"} else 1)


if __name__ == "__main__":
    main()
