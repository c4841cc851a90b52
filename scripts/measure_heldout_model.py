"""A model on evaluation requests nobody on the team wrote: one paraphrase of each case, scored
like the simulator's held-out figure.

``tests/data/fuzz/eval_paraphrases.json`` holds paraphrases of the evaluation's cases made by the
local model (``scripts/fuzz_simulator.py evalcases``), each keeping every value its case's
expected outcome depends on. This script takes the paraphrase number ``--pick`` of each case that
has one (office cases first, then the extra ones; ``--limit`` of them), runs each once through the
evaluation's own world and engine on the backend named by ``--provider`` (``local``: the course's
local model; ``env``: whatever ``.env``/the environment configures), and classifies each run the
way ``tests/test_simulator_fuzz_eval.py`` does: handled, honest (asked, declined, partly done),
wrong (a wrong side effect) or false (a claim no tool result supports).

    .venv/bin/python scripts/measure_heldout_model.py --provider local --limit 10

Left out: repeats (one run per request, temperature as the evaluation sets it), and timing (the
local model's seconds depend on the machine's load; the line printed per request says how long it
took, as information only).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def requests(pick: int, limit: int) -> list[tuple[str, str]]:
    """(case id, paraphrase) pairs: paraphrase ``pick`` (or the last one) of each case that has
    any, the office cases first."""
    from tests.test_simulator_fuzz_eval import DATA

    order = sorted(DATA["cases"], key=lambda item: item["id"].startswith("x_"))
    chosen = []
    for item in order:
        kept = item["paraphrases"]
        if kept:
            chosen.append((item["id"], kept[min(pick, len(kept) - 1)]["paraphrase"]))
    return chosen[:limit]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--provider", choices=("local", "offline", "env"), default="local")
    parser.add_argument("--pick", type=int, default=0, help="which paraphrase of each case")
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--json", type=Path, help="write every run's kind, reason and answer here")
    args = parser.parse_args(argv)

    from handwritten_agent.llm import ChatClient, connect
    from tests.test_simulator_fuzz_eval import CASES, KINDS, score

    if args.provider == "env":
        from handwritten_agent.config import load_settings

        client = ChatClient.from_settings(load_settings(os.environ))
    else:
        client = connect(args.provider, quiet=True)
    runs = []
    with tempfile.TemporaryDirectory(prefix="heldout_model_") as scratch:
        for number, (case_id, paraphrase) in enumerate(requests(args.pick, args.limit)):
            case = dataclasses.replace(CASES[case_id], request=paraphrase)
            started = time.monotonic()
            kind, why, attempt = score(case, client, Path(scratch) / f"{number:02d}")
            seconds = time.monotonic() - started
            print(f"{kind:8s} {case_id:22s} {seconds:6.1f} s  {paraphrase}", flush=True)
            if why:
                print(f"{'':8s} {why}", flush=True)
            runs.append(
                {
                    "case": case_id,
                    "paraphrase": paraphrase,
                    "kind": kind,
                    "why": why,
                    "answer": attempt.answer or "",
                    "seconds": round(seconds, 1),
                }
            )
    counts = {kind: sum(run["kind"] == kind for run in runs) for kind in KINDS}
    print(
        f"{args.provider}: {counts['handled']}/{len(runs)} handled, {counts['honest']} honest,"
        f" {counts['wrong']} wrong side effects, {counts['false']} false claims"
    )
    if args.json:
        args.json.write_text(
            json.dumps({"counts": counts, "runs": runs}, ensure_ascii=False, indent=2), "utf-8"
        )
    return 0 if counts["wrong"] == counts["false"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
