"""An optional semantic judge for arbitration's grey zone, plugged in through a pluggy hook (docs/judge.md).

The structural rules decide every line on their own. A judge adds a second opinion on lines they let through
although the lines are related to a directive: an installed plugin implementing ``cuticle_judge_conflict``
(tiers.hookspecs, docs/plugins.md), or the built-in backend for a local OpenAI-compatible chat endpoint
(``[judge] url``, tiers.judge.chat). An embedder (the ``cuticle_embed`` hook; ``[judge] embedder = "bundled"`` uses the ``cuticle[semantic]`` extra) ranks which
directives a line is about across wording and language; embeddings never decide a contradiction.

It is **off by default** and **never on the cold path**: ``[tiers] judge = true`` switches it on, and only a
process that called :func:`enable` (the warm server, which hands over the secret masker) builds one; the
in-process hook, `cuticle lint` and `cuticle arbitrate` see no judge. A judge can only add blocks (never lift a
local block, never promote a line), and any error in it is logged and ignored (fail-open).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from urllib.parse import urlsplit

from ..errors import ConfigError
from ..record import dataclass

__all__ = ["DEFAULT_THRESHOLD", "Judge", "JudgeConfig", "Verdict", "enable", "enabled",
           "judge_config", "judge_from_config", "load_judge"]

log = logging.getLogger(__name__)

DEFAULT_THRESHOLD = 0.8
#: the hosts' hook timeouts start at about 5 s (OpenClaw's plugin waits 4.5 s): the judge's budget stays inside
MAX_TIMEOUT_MS = 4000
EMBEDDERS = ("none", "bundled", "plugin")

#: (candidate line, constraint line, context) -> {"conflict": bool, "confidence": float, "reason": str} | None
Verdict = dict


@dataclass(frozen=True, slots=True)
class JudgeConfig:
    """The validated ``[tiers] judge*`` and ``[judge]`` settings of a workspace."""

    on: bool = False
    threshold: float = DEFAULT_THRESHOLD
    url: str | None = None
    model: str | None = None
    timeout_ms: int = 1500
    allow_remote: bool = False
    failures: int = 3
    cooldown_s: float = 60.0
    embedder: str = "none"
    related_min: float = 0.35


_lock = threading.Lock()
#: the secret masker handed over by enable(); None while the process may not build a judge
_redact: Callable[[str], str] | None = None
#: judges built in this process, by (workspace root, config): their breaker and cache outlive one request
_built: dict[tuple, Judge | None] = {}


def enable(redact: Callable[[str], str]) -> None:
    """Let this process build judges (the warm server calls it once). ``redact`` masks secrets in every text
    before it is sent to a backend (the gate passes ``tiers.secrets.mask_secrets``)."""
    global _redact
    if not callable(redact):
        raise TypeError("enable() needs the secret masker")
    with _lock:
        _redact = redact
        _built.clear()


def enabled() -> bool:
    """Whether this process may consult a judge (True only in the warm server)."""
    return _redact is not None


def _disable() -> None:
    """Back to the cold default (tests)."""
    global _redact
    with _lock:
        _redact = None
        _built.clear()


def _number(where: str, value, lo: float, hi: float, *, integer: bool = False):
    ok = not isinstance(value, bool) and isinstance(value, int if integer else (int, float)) and lo <= value <= hi
    if not ok:
        kind = "a whole number" if integer else "a number"
        raise ConfigError(f"{where} must be {kind} from {lo:g} to {hi:g}, not {value!r}")
    return value


def is_loopback(host: str | None) -> bool:
    """``localhost`` or a loopback address literal. Names other than ``localhost`` are not resolved: a DNS answer
    is not evidence that a host is this machine."""
    if not host:
        return False
    if host.lower().rstrip(".") == "localhost":
        return True
    import ipaddress  # only when a URL is configured: ~1 ms of the cold hook's start-up otherwise

    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def judge_config(ws) -> JudgeConfig:
    """The workspace's judge settings, validated (raises ConfigError naming the file, the key and the fix)."""
    where = str(ws.config_path)
    tiers = ws.section("tiers")
    sect = ws.section("judge")
    on = tiers.get("judge", False)
    if not isinstance(on, bool):
        raise ConfigError(f"{where}: [tiers] judge must be true or false, not {on!r}")
    threshold = tiers.get("judge_threshold", DEFAULT_THRESHOLD)
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0 < threshold <= 1:
        raise ConfigError(f"{where}: [tiers] judge_threshold must be a number in (0, 1], not {threshold!r}")
    known = {f for f in JudgeConfig.__slots__ if f not in ("on", "threshold")}
    unknown = sorted(set(sect) - known)
    if unknown:
        raise ConfigError(f"{where}: [judge] has unknown key {unknown[0]!r}; known: {', '.join(sorted(known))}")
    url, model = sect.get("url"), sect.get("model")
    allow_remote = sect.get("allow_remote", False)
    if not isinstance(allow_remote, bool):
        raise ConfigError(f"{where}: [judge] allow_remote must be true or false, not {allow_remote!r}")
    if url is not None:
        if not isinstance(url, str):
            raise ConfigError(f"{where}: [judge] url must be a string, not {url!r}")
        parts = urlsplit(url)
        try:
            parts.port
        except ValueError:
            raise ConfigError(f"{where}: [judge] url {url!r} has a bad port") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"{where}: [judge] url must be an http:// or https:// URL, not {url!r}")
        if parts.username or parts.password:
            raise ConfigError(f"{where}: [judge] url must not carry a user name or password")
        if not is_loopback(parts.hostname) and not allow_remote:
            raise ConfigError(f"{where}: [judge] url {url!r} is not on this machine (loopback); memory lines would "
                              "leave it. Use a local server, or set allow_remote = true if you mean it")
        if not isinstance(model, str) or not model.strip():
            raise ConfigError(f"{where}: [judge] model must name the model the server runs (e.g. \"qwen2.5:1.5b\")")
    elif model is not None:
        raise ConfigError(f"{where}: [judge] model is set but url is not; add url = \"http://127.0.0.1:11434/v1\"")
    embedder = sect.get("embedder", "none")
    if embedder not in EMBEDDERS:
        raise ConfigError(f"{where}: [judge] embedder must be one of {', '.join(EMBEDDERS)}, not {embedder!r}")
    return JudgeConfig(
        on=on, threshold=float(threshold), url=url, model=model.strip() if isinstance(model, str) else None,
        timeout_ms=_number(f"{where}: [judge] timeout_ms", sect.get("timeout_ms", 1500), 50, MAX_TIMEOUT_MS,
                           integer=True),
        allow_remote=allow_remote,
        failures=_number(f"{where}: [judge] failures", sect.get("failures", 3), 1, 100, integer=True),
        cooldown_s=float(_number(f"{where}: [judge] cooldown_s", sect.get("cooldown_s", 60), 0, 86400)),
        embedder=embedder,
        related_min=float(_number(f"{where}: [judge] related_min", sect.get("related_min", 0.35), 0, 1)),
    )


class Judge:
    """``judge(candidate, constraint, context) -> Verdict | None`` over the registered plugins, and
    :meth:`related`, the embedding ranking of the directives a line is about (when an embedder is registered)."""

    def __init__(self, pm, *, related_min: float = 0.35) -> None:
        self._pm = pm
        self.related_min = related_min
        self._vectors = None  # embed.Vectors, made on first use
        self._has_embedder = bool(pm.hook.cuticle_embed.get_hookimpls())

    def __call__(self, candidate: str, constraint: str, context: dict) -> Verdict | None:
        verdict = self._pm.hook.cuticle_judge_conflict(candidate=candidate, constraint=constraint, context=context)
        return _never_promote(verdict, context.get("tier"))

    def related(self, content: str, grey: list, constraints: list) -> list:
        """``grey`` ((relatedness, constraint) the structural rules let through) plus the constraints whose
        embedding is at least ``related_min`` similar to ``content``, best first. Without an embedder, ``grey``."""
        if not self._has_embedder:
            return grey
        from .embed import rank

        try:
            ranked = rank(self.vectors, content, [c for c in constraints if c.content != content],
                          self.related_min)
        except Exception:  # noqa: BLE001 - a broken embedder leaves the lexical grey zone as it was
            log.exception("embedding provider failed; ranking lexically only")
            return grey
        best: dict[str, tuple[float, object]] = {c.id: (r, c) for r, c in grey}
        for r, c in ranked:
            if c.id not in best or best[c.id][0] < r:
                best[c.id] = (r, c)
        return sorted(best.values(), key=lambda g: -g[0])

    @property
    def vectors(self):
        """The embedding cache (embed.Vectors) over this judge's ``cuticle_embed`` hook."""
        if self._vectors is None:
            from .embed import Vectors

            self._vectors = Vectors(lambda texts: self._pm.hook.cuticle_embed(texts=texts))
        return self._vectors


_TIER_RANK = {"HYPOTHESIS": 0, "OBSERVATION": 1, "DECISION": 2, "DIRECTIVE": 3}


def _never_promote(verdict, tier) -> Verdict | None:
    """``verdict`` without a ``tier`` that is not lower than the candidate's own: a judge may demote a line,
    never promote it (only the user's own words do that)."""
    if not isinstance(verdict, dict) or "tier" not in verdict:
        return verdict
    got, own = _TIER_RANK.get(str(verdict["tier"]).upper()), _TIER_RANK.get(str(tier).upper())
    verdict = dict(verdict)
    if got is None or own is None or got >= own:
        del verdict["tier"]
    else:
        verdict["tier"] = str(verdict["tier"]).upper()
    return verdict


def load_judge(plugins: list | None = None, *, entry_points: bool = True, related_min: float = 0.35) -> Judge | None:
    """A :class:`Judge` over ``plugins`` (and the installed ``cuticle`` plugins), or None when no plugin judges."""
    from ..plugins import new_plugin_manager

    pm, failures = new_plugin_manager(plugins or (), entry_points=None if entry_points else ())
    for f in failures:
        log.warning("judge: %s", f.to_error())
    if not pm.hook.cuticle_judge_conflict.get_hookimpls():
        return None
    return Judge(pm, related_min=related_min)


def judge_from_config(ws) -> tuple[Judge | None, float]:
    """The judge the workspace enables and its confidence threshold; (None, threshold) when it is off or this
    process is not the warm server. Built once per process and configuration, so its breaker and cache last."""
    cfg = judge_config(ws)
    redact = _redact
    if not cfg.on or redact is None:
        return None, cfg.threshold
    key = (str(ws.root), cfg)
    with _lock:
        if key in _built:
            return _built[key], cfg.threshold
    plugins: list = []
    if cfg.url:
        from .chat import ChatJudge

        plugins.append(ChatJudge(cfg, redact))
    if cfg.embedder == "bundled":
        from .embed import BundledEmbedder

        plugins.append(BundledEmbedder())
    judge = load_judge(plugins, related_min=cfg.related_min)
    if judge is not None and cfg.embedder == "none":
        judge._has_embedder = False  # a plugin's embedder ranks only when the config asks for one
    elif judge is not None and judge._has_embedder:
        judge.vectors.warm([])  # load the model now, in the background, not on the first write
    with _lock:
        return _built.setdefault(key, judge), cfg.threshold
