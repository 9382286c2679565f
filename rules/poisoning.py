"""Memory-poisoning detection (EN and RU): instructions that would steer every future session of an agent.

Kinds: ``trust-source``, ``exfiltration``, ``run-command``, ``disable-safety``, ``instruction-override``,
``override-user``, ``base64-payload``, ``html-comment``, ``persistence``. Each detector looks for the *act*
(an imperative plus its dangerous object), not for trigger words: "ignore the vendor/ folder" is a preference,
"ignore previous instructions" is an override. Guards keep legitimate memory quiet: a negation before the
act ("never run scripts piped from curl"), and a quoted attack phrase in a line that reports it
("found a prompt-injection attempt: 'ignore previous instructions'"). Hidden text is analysed too: invisible
characters are removed and Unicode tag characters decoded first (see :mod:`rules.unicode`).
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
import unicodedata
from dataclasses import dataclass


from .unicode import reveal

KINDS = ("trust-source", "exfiltration", "run-command", "disable-safety", "instruction-override",
         "override-user", "base64-payload", "html-comment", "persistence")


@dataclass(frozen=True, slots=True)
class Signal:
    kind: str
    start: int
    end: int
    evidence: str
    strong: bool = True


_F = 0  # every pattern runs on casefolded text (see normalize); IGNORECASE would only slow `re` down

# -- vocabulary --------------------------------------------------------------------------------------------
_TLD_EXT = r"(?!(?:md|txt|json|ya?ml|toml|py|js|ts|env|lock|cfg|ini|log|conf|html?|css|csv|zip|gz|tar|pdf|png|jpe?g|svg|sql|db|bak|tmp|local|internal|lan|corp|test|localhost)\b)"
URLISH = (r"(?:(?:https?|ftp|sftp|ftps|s3|wss?)://[^\s)>\]'\"`;,]*[^\s)>\]'\"`;,.:!?]|\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+|\b\d{1,3}(?:\.\d{1,3}){3}\b"
          r"|\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+" + _TLD_EXT + r"[a-z]{2,24}\b)")
NEG_EN = r"\b(?:never|don't|dont|do not|does not|doesn't|did not|didn't|avoid|refuse[sd]?|must not|mustn't|should not|shouldn't|no longer|not to|nor|forbid\w*|prohibit\w*|stop)\b"
NEG_RU = r"(?:^|[\s,(])(?:не|никогда|нельзя|запрещено|запрещаю|избегай|ни в коем случае)(?=\s)"
REPORT = (r"\b(?:found|detected|saw|seen|spotted|blocked|flagged|reported|attempt\w*|injection|attack\w*|phishing|"
          r"did not follow|didn't follow|not follow|told the user|warned|example|quote[sd]?|contained|contains|"
          r"обнаружил\w*|нашел|нашла|нашли|видели|попытк\w*|атак\w*|инъекци\w*|не стал\w*|сообщил\w*|пример\w*|"
          r"фишинг\w*|была строка|содержал\w*)\b")
QUOTED = r"(?:\"[^\"]{3,}\"|'[^']{6,}'|«[^»]{3,}»|“[^”]{3,}”|„[^“”]{3,}[“”])"
SECRETS_EN = (r"(?:\.env\b|api[ _-]?keys?|access keys?|tokens?|credentials?|secrets?|passwords?|passphrases?|"
              r"private keys?|~/\.ssh\S*|\.ssh\b|ssh (?:keys?|config)|id_rsa\S*|id_ed25519\S*|id_ecdsa\S*|\.aws\S*|"
              r"cookies?|environment variables|env vars|\.npmrc|\.netrc|\.pgpass|keychain|seed phrase|wallet|"
              r"(?:user|memory|agents|claude)\.md|personal data|(?:the )?user'?s? (?:data|files|e-?mails?|contacts|"
              r"messages|history|address|phone(?: number)?|documents|notes|memory|inbox|mailbox|contacts list)|"
              r"(?:a )?(?:copy|dump|clone|mirror|contents|backup) of (?:the |our |this )?(?:repo|repository|source code|"
              r"codebase|database|db)|(?:the )?(?:entire|whole|full) (?:repo|repository|codebase|database|db))")
SECRETS_RU = (r"(?:\.env\b|ключ\w*|токен\w*|парол\w*|секрет\w*|учетн\w* данн\w*|(?:user|memory|agents)\.md|"
              r"личн\w* данн\w*|данн\w* пользовател\w*|переписк\w*|~/\.ssh\S*|id_rsa\S*|куки|cookie\w*|"
              r"содержимое\s+\S+|переменн\w* окружени\w*|дамп\w*|баз\w* данн\w*|исходн\w* код\w*|"
              r"(?:копи\w*|весь|всю|целиком) (?:\w+ )?репозитори\w*)")
AGENT_ADDRESS = (r"^\s*(?:ai(?: agent)?|agent|assistant|llm|model|claude|gpt|chatgpt|copilot|codex|gemini|bot|system|"
                 r"ассистент|агент|модель|ии|бот|система)\s*[:,—-]")

_P: dict[str, list[tuple[str, bool]]] = {
    "instruction-override": [
        (r"\b(?:ignore|disregard|forget|override|overrule|discard|drop)\b[^.;!?]{0,30}?\b(?:previous|prior|earlier|"
         r"above|preceding|former|original|existing|system|all (?:other|your)|your)\b[^.;!?]{0,20}?\b(?:instructions?|"
         r"rules|prompts?|directives|guidelines|guardrails|constraints|messages|orders|programming)\b", True),
        (r"\b(?:ignore|disregard|override|don't follow|do not follow)\b[^.;!?]{0,25}\b(?:rules?|instructions?|"
         r"directives?|constraints?)\b[^.;!?]{0,12}\b(?:in|from|of)\s+(?:user|memory|agents|claude)\.md\b", True),
        (r"\b(?:new|updated|real) (?:system )?instructions?\s*:", True),
        (r"\byou are now (?:a |an |in )?(?:unrestricted|jailbroken|developer mode|dan\b|free)", True),
        (r"\b(?:the )?(?:newest|latest|last) (?:memory )?(?:entry|line|note) (?:always )?(?:wins|overrides|takes precedence)\b", True),
        (r"(?:игнорир\w*|проигнорир\w*|забудь|забыть|не обращай внимания на|не учитывай|отбрось|пренебреги|отмени)"
         r"[^.;!?]{0,30}?(?:все |всех |любые )?(?:предыдущ\w*|прежн\w*|ранее|прошл\w*|системн\w*|исходн\w*|"
         r"стар\w*|остальн\w*)[^.;!?]{0,20}?(?:инструкци\w*|указани\w*|правил\w*|промпт\w*|директив\w*|"
         r"ограничени\w*)", True),
        (r"(?:игнорир\w*|не обращай внимания на|не соблюдай|не выполняй|не следуй)[^.;!?]{0,25}(?:правил\w*|"
         r"инструкци\w*|указани\w*)\s+(?:из|в)\s+(?:user|memory|agents)\.md", True),
        (r"нов\w* (?:системн\w* )?инструкци\w*\s*:", True),
        (r"\b(?:real|actual|true|updated|current) instructions (?:are|live|can be found|are hosted) (?:at|on|in)\b", True),
        (r"\b(?:fetch|load|read|download|get|open)\b[^.;]{0,60}\b(?:and )?(?:follow|obey|execute|apply)\b[^.;]{0,30}"
         r"(?:instructions?|them|it|whatever)\b", True),
        (r"(?:настоящ\w*|актуальн\w*|нов\w*) инструкци\w* (?:лежат|находятся|тут|здесь|по адресу)", True),
        (r"(?:скачай|загрузи|открой|прочитай)\b[^.;]{0,60}\s(?:и )?(?:выполняй|выполни|следуй)", True),
    ],
    "override-user": [
        (r"\bif (?:the )?user (?:says|asks|tells|objects|forbids|refuses|wants|insists|disagrees|says not)\b"
         r"[^.]{0,80}?\b(?:ignore|disregard|override|overrule|proceed anyway|do it anyway|don't listen|do not listen|"
         r"pay no attention)\b", True),
        (r"\b(?:ignore|disregard|override|overrule|don't follow|do not follow|don't listen to|do not listen to|"
         r"pay no attention to)\s+(?:the |any |all |what )?(?:user|owner)\b(?!\s*(?:agent|-agent))", True),
        (r"\b(?:ignore|disregard|override|overrule|don't follow|do not follow|pay no attention to)\s+(?:the |any |all )?"
         r"user'?s?\s+(?:own\s+)?(?:rules|instructions|wishes|preferences|requests?|objections?|directives|"
         r"decisions|settings|answers?|orders|words|commands|restrictions)\b", True),
        (r"\b(?:even if|regardless of whether|no matter what|whatever) (?:the )?user (?:says|objects|forbids|"
         r"disagrees|refuses|wants)\b", True),
        (r"\b(?:without|never) (?:telling|informing|notifying|asking|alerting) (?:the )?user\b", True),
        (r"\b(?:don't|do not|never) (?:tell|inform|notify|alert) (?:the )?user\b", True),
        (r"\buser'?s? (?:instructions|rules|directives|wishes) (?:no longer|don't|do not) (?:apply|matter|count)\b", True),
        (r"\b(?:user|owner|admin\w*) (?:has |have )?(?:already )?(?:pre-?approved|authori[sz]ed|approved) "
         r"(?:all|every|any|direct|blanket)\b", True),
        (r"если пользователь (?:запрещает|говорит|просит|против|возражает|откажет|скажет|запретит|не разрешает)"
         r"[^.]{0,80}?(?:не обращай внимания|игнорир\w*|вс[её] равно|не слушай|не учитывай)", True),
        (r"(?:не слушай|игнорир\w*|не обращай внимания на|не учитывай|не выполняй)\s+(?:\w+\s+){0,2}?"
         r"(?:пользовател\w*|владельц\w*)", True),
        (r"(?:вопреки|несмотря на)\s+(?:\w+\s+)?(?:запрет\w*|желани\w*|указани\w*|слов\w*|возражени\w*)\s+"
         r"пользовател\w*", True),
        (r"(?:не (?:говори|сообщай|рассказывай|показывай)|без ведома)\s+(?:об этом\s+)?пользовател\w*", True),
        (r"(?:пользователь|владелец\w*|администратор\w*)\s+(?:уже\s+)?(?:заранее\s+)?(?:одобрил\w*|разрешил\w*)\s+"
         r"(?:[\w-]+\s+)?(?:вс[её]|все|любые|любое)", True),
        (r"\b(?:take|takes|have|has) (?:priority|precedence) over (?:the )?user'?s?\b", True),
        (r"\bpretend (?:that )?(?:the )?user (?:has )?(?:approved|agreed|said|asked|confirmed|allowed)\b", True),
        (r"\b(?:don't|do not|never) (?:mention|reveal|disclose|report|show) (?:[\w-]+ ){0,4}to (?:the )?user\b", True),
        (r"\b(?:hide|conceal|keep) (?:this|it|that|these|them|[\w-]+ ){0,3}(?:secret )?from (?:the )?user\b", True),
        (r"(?:скрывай|скрой|утаивай|утаи|не показывай)\s+(?:[\w-]+\s+){0,3}?от пользовател\w*", True),
        (r"(?:сделай вид|притворись),? (?:что )?пользователь (?:одобрил|разрешил|согласился|сказал)", True),
    ],
    "disable-safety": [
        (r"\b(?:bypass|circumvent|skip|disable|turn off|switch off|get around|work around|deactivate|evade)\b"
         r"[^.;]{0,25}?\b(?:the )?(?:memory )?(?:gate|hooks?|safety|security|guard(?:rail)?s?|checks?|"
         r"confirmations?|approvals?|sandbox\w*|filters?|verification|protections?|cuticle|policy|permissions?)\b", True),
        (r"--no-verify\b|--dangerously-skip-permissions\b|--yolo\b|--no-sandbox\b|--disable-hooks?\b", True),
        (r"\b(?:safety|security|permission) (?:checks?|features?|measures?|rules?|prompts?|gates?|guards?)"
         r"[^.;]{0,20}?\b(?:are|is|have been|were|got) (?:now |hereby |temporarily )?(?:disabled|off|turned off|"
         r"removed|suspended|not required|unnecessary|lifted)\b", True),
        (r"\b(?:run|execute|delete|push|install|do|perform|apply)\b[^.;]{0,40}?\b(?:commands?|anything|everything|"
         r"all|any|whatever|scripts?)\b[^.;]{0,30}?\bwithout (?:asking|confirmation|confirming|approval|permission|"
         r"review|checking|prompting)\b", True),
        (r"\bwithout (?:asking|confirmation|approval|permission)\b[^.;]{0,30}\b(?:any|all|every|anything|everything)\b",
         True),
        (r"\b(?:do not|don't|never|no need to|stop) (?:ask|request|wait) (?:for )?(?:the user'?s? )?"
         r"(?:confirmation|permission|approval)\b", False),
        (r"(?:провер\w* безопасности|защит\w*|гейт\w*|хук\w*|ограничени\w*)\s+(?:[\w-]+\s+){0,4}?"
         r"(?:отключен\w*|выключен\w*|не нужн\w*|не требу\w*|сняты|отменен\w*)", True),
        (r"подтвержден\w*\s+(?:[\w-]+\s+){0,4}?(?:отключен\w*|выключен\w*|не нужн\w*|не требу\w*|отменен\w*)", False),
        (r"(?:обойди|обходи|отключи|выключи|пропусти|пропускай|игнорируй|отключай)\s+(?:[\w-]+\s+){0,2}?"
         r"(?:гейт\w*|хук\w*|провер\w*|защит\w*|подтвержден\w*|ограничени\w*|песочниц\w*|политик\w*)", True),
        (r"(?:не спрашивай|не запрашивай|без)\s+(?:[\w-]+\s+){0,3}?(?:подтвержд\w*|разрешени\w*|согласи\w*)", False),
    ],
    "fake-authority": [
        (r"\b(?:important |urgent |critical )?system (?:update|notice|message|override|alert|instruction)\b", False),
        (r"\b(?:admin(?:istrator)?|repo(?:sitory)? owner|security team|developers?|maintainers?) "
         r"(?:has |have )?(?:authori[sz]ed|approved|decided|disabled|says|said|requires?)\b", False),
        (r"(?:по решению|по указанию|распоряжение\w*)\s+(?:администратор\w*|владельц\w*|руководств\w*)", False),
        (r"систем\w* (?:уведомлени\w*|обновлени\w*|сообщени\w*)", False),
        (r"(?:администратор\w*|владелец\w* репозитори\w*)\s+(?:вс[её]\s+)?(?:разрешил\w*|отключил\w*|одобрил\w*)",
         False),
    ],
    "run-command": [
        (r"\b(?:curl|wget|fetch|iwr|invoke-webrequest|irm|invoke-restmethod)\b[^|\n]{0,200}\|\s*(?:sudo\s+)?"
         r"(?:\w+=\S*\s+)*(?:(?:ba|z|da|k|c|tc|fi|a)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|"
         r"pwsh|powershell|source)\b", True),
        (r"\b(?:bash|sh|zsh|source|\.)\s+<\(\s*(?:curl|wget)\b", True),
        (r"\b(?:bash|sh|zsh)\s+-c\s+[\"']?\$\(\s*(?:curl|wget)\b", True),
        (r"\brm\s+-(?:[a-z]*r[a-z]*f|[a-z]*f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?(?:~|/(?:\s|\*|$|etc|usr|var|"
         r"home|bin|lib|boot|root)|\$home|\$\{home\}|\.\.(?:/|\s|$)|\*)", True),
        (r"\bpython[0-9.]*\s+-c\b[^\n]{0,200}\b(?:os\.system|subprocess|shutil\.rmtree|os\.remove|__import__)", True),
        (r"\b(?:mkfs(?:\.\w+)?|dd\s+if=\S+\s+of=/dev/\w+|chmod\s+-r\s+777\s+/|:\(\)\s*\{\s*:\|:&\s*\};:)", True),
        (r"\b(?:run|execute|exec|source|launch|start)\b[^.;]{0,40}\bhttps?://\S+\.(?:sh|ps1|bat|cmd|exe|py|pl)\b", True),
        (r"\bdownload (?:and|&|then) (?:run|execute|install)\b[^.;]{0,60}(?:https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b)", True),
        (r"(?:запусти|выполни|исполни|запускай|выполняй)\b[^.;]{0,40}https?://\S+\.(?:sh|ps1|bat|cmd|exe|py|pl)\b",
         True),
    ],
    "exfiltration": [],  # see _exfiltration
    "trust-source": [],  # see _trust
    "persistence": [
        (r"\b(?:copy|add|write|append|insert|save|store|persist|paste|put|keep|remember|record|replicate|repeat)\b"
         r"[^.]{0,60}?\b(?:this|the following|these|above)\s+(?:line|instruction|rule|note|text|message|entry|"
         r"sentence)s?\b[^.]{0,40}?\b(?:memory|memory\.md|user\.md|agents\.md|claude\.md|notes|every session|each "
         r"session|every file)\b", True),
        (r"\b(?:add|write|append|save|insert|put|copy|store|persist)\b[^.]{0,80}?\b(?:to|into|in)\s+(?:your |the )?"
         r"(?:memory\.md|user\.md|agents\.md|claude\.md|long-term memory|memory|system prompt)\b[^.]{0,40}?"
         r"\b(?:permanently|forever|every session|each session|always|verbatim|for good|from now on)\b", True),
        (r"(?:скопируй|добавь|запиши|сохрани|внеси|вставь|продублируй|повтори)\b[^.]{0,80}?\b(?:в|во)\s+"
         r"(?:memory\.md|user\.md|agents\.md|claude\.md|(?:свою |долговременную )?памят\w*)[^.]{0,40}?"
         r"(?:эту |следующую )?(?:строк\w*|правил\w*|инструкци\w*|запис\w*)|(?:скопируй|добавь|запиши|сохрани|"
         r"внеси|вставь)\b[^.]{0,80}?(?:навсегда|в начале каждой сессии|при каждом запуске|каждую сессию)", True),
        (r"(?:скопируй|добавь|запиши|сохрани|внеси|вставь)\s+(?:эту|следующую|данную)\s+(?:строк\w*|правил\w*|"
         r"инструкци\w*|запис\w*)", True),
    ],
}

_EXFIL_VERB_EN = (r"\b(?:send|post|upload|e-?mail|mail|forward|transmit|exfiltrate|leak|share|include|append|attach|"
                  r"paste|copy|put|sync|submit|curl|pipe|dump|cc|bcc|report|push)\b")
_EXFIL_DEST_EN = (r"(?:" + URLISH + r"|\b(?:every|each|all|any) (?:reply|replies|response|responses|message|messages|"
                  r"answer|answers|summary|summaries|commit message|pr description)\b|\bto the (?:summary|reply|"
                  r"response|output)\b|\bwebhook\b|\bpastebin\b|\bgist\b|\btelemetry\b)")
_EXFIL_VERB_RU = (r"(?:отправ\w*|пересыл\w*|перешл\w*|загруж\w*|загрузи|выгруж\w*|выгрузи|слей|сливай|передава\w*|"
                  r"передай|прикладыва\w*|приложи|вставля\w*|вставь|копируй|скопируй|синхронизир\w*|публикуй|"
                  r"опубликуй|добавля\w*|добавь|присылай|пришли|дублируй)")
_EXFIL_DEST_RU = r"(?:" + URLISH + r"|(?:в|во|к)\s+(?:каждо\w*|любо\w*|вс\w*)\s+(?:ответ\w*|сообщени\w*|письм\w*|сводк\w*))"


class _Lazy(dict):
    """Patterns compiled on first use: the gate scans a few lines per write and most lines need few patterns."""

    def __init__(self, sources: dict) -> None:
        super().__init__()
        self.sources = sources

    def __missing__(self, key: str):
        src = self.sources[key]
        value = [(re.compile(p, _F), strong) for p, strong in src] if isinstance(src, list) else src
        self[key] = value
        return value


@functools.lru_cache(maxsize=1)
def _compiled() -> _Lazy:
    return _Lazy(dict(_P))


@functools.lru_cache(maxsize=1)
def _aux() -> _LazyAux:
    return _LazyAux(_aux_sources())


class _LazyAux(dict):
    def __init__(self, sources: dict) -> None:
        super().__init__()
        self.sources = sources

    def __missing__(self, key: str):
        pattern, flags = self.sources[key]
        value = re.compile(pattern, flags)
        self[key] = value
        return value


def _aux_sources() -> dict[str, tuple[str, int]]:
    return {
        "neg": (NEG_EN + "|" + NEG_RU, _F),
        "report": (REPORT, _F),
        "quoted": (QUOTED, _F),
        "url": (URLISH, _F),
        "ex_en": (_EXFIL_VERB_EN + r"[^.;!?]{0,80}?" + SECRETS_EN + r"[^.;!?]{0,100}?" + _EXFIL_DEST_EN, _F),
        "ex_en2": (SECRETS_EN + r"[^.;!?]{0,30}?\b(?:to|into|in)\b[^.;!?]{0,10}?" + _EXFIL_DEST_EN
                                + r"[^.;!?]{0,60}?" + _EXFIL_VERB_EN, _F),
        "ex_ru": (_EXFIL_VERB_RU + r"[^.;!?]{0,80}?" + SECRETS_RU + r"[^.;!?]{0,100}?" + _EXFIL_DEST_RU, _F),
        "trust_word": (
            r"\b(?:trusted|trustworthy|authoritative|whitelisted|allowlisted|verified source|official source|"
            r"safe source|always trust|trust (?:all|any|every|everything|anything|it|them|this|these|its|their)\b|"
            r"is (?:a |the )?(?:trusted|safe|verified|official)\b)|(?:доверя\w*|довериться|доверенн\w*|"
            r"проверенн\w* (?:источник\w*|сайт\w*|зеркал\w*|домен\w*|отправител\w*)|надежн\w* источник\w*|"
            r"официальн\w* источник\w*)", _F),
        "trust_strong": (
            r"\bas if (?:they|it|these|this) (?:came|come|were|was|are|is) from (?:the )?user\b|\bwith the user'?s "
            r"authority\b|\btrust\b[^.;]{0,30}\bwithout (?:verification|verifying|checking|question)\b|"
            r"\bprefer (?:it|them|this|\S+) over (?:\S*registry\.npmjs\.org|\S*pypi\.org|the official)\b|"
            r"\btreat\b[^.;]{0,60}\bas (?:coming from|instructions from|orders from|the words of|requests from) (?:the )?user\b|"
            r"(?:считай|воспринимай|рассматривай|принимай)\b(?:[^.;!?]|\.(?=\S)){0,60}(?:указани\w*|инструкци\w*|слова\w*|просьб\w*|"
            r"команд\w*) пользовател\w*|(?:как|будто|словно) (?:бы )?(?:от|слова|указания) пользовател\w*|доверя\w*[^.;]{0,30}без проверки|"
            r"(?:ставь|устанавливай|качай|скачивай|бери)\w* (?:\w+ )?только (?:оттуда|отсюда|с него|с этого|с нее)", _F),
        "internal": (r"\b(?:our|internal|own|company|corporate|наш\w*|внутренн\w*|корпоративн\w*)\b", _F),
        "b64_pipe": (
            r"\bbase64\s+(?:-d|--decode|-D|-di|-id)\b[^\n]{0,60}?\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|"
            r"perl|node|ruby|eval|source)\b|\b(?:eval|exec)\s*[\"(]?\s*\$\(\s*(?:echo|printf)\s+['\"]?[A-Za-z0-9+/=]{12,}"
            r"[^)]*base64|frombase64string\s*\(|\batob\s*\(|\bb64decode\s*\([^)]*\)\s*\)?\s*(?:\)|;)?\s*$", _F),
        "b64_token": (r"(?<![A-Za-z0-9+/:])[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=])", 0),
        "shellish": (r"\b(?:curl|wget|bash|/bin/sh|sh -c|rm -rf|powershell|nc -e|chmod|python3? -c|eval|"
                                  r"\| ?sh|\| ?bash|invoke-expression|iex)\b", _F),
        "html": (r"<!--(.*?)(?:-->|$)", re.DOTALL),
        "agent_address": (AGENT_ADDRESS, _F),
        "you_imperative": (
            r"\b(?:when you|you must|you should|you will|you need to|make sure you|please (?:add|send|run|write|copy|"
            r"remember|append|include|delete|remove|trust|ignore|forget))\b|(?:^|[.!:]\s*)(?:append|add|send|run|"
            r"execute|remember|ignore|copy|write|include|delete|remove|trust|forget|always|never)\s+(?:the |this |all |"
            r"any |it |that |to )|(?:при следующем|когда будешь|ты должен|тебе нужно|добавь|отправь|выполни|запомни|"
            r"запиши|игнорируй|удали|скопируй|доверяй|всегда|никогда)\b", _F),
        "sentence": (r"[.;!?](?:\s|$)|\s[—–]\s", 0),
    }


def normalize(text: str) -> str:
    """Matching form: NFKC (folds fullwidth/compat letters), casefold, ё→е, typographic quotes kept."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace("’", "'").replace("‘", "'")


def _clause_before(text: str, start: int) -> str:
    cut = max(text.rfind(c, 0, start) for c in ".;!?:—")
    return text[cut + 1:start]


def _negated(text: str, start: int) -> bool:
    return bool(_aux()["neg"].search(_clause_before(text, start)))


def _mentioned(text: str, start: int, end: int) -> bool:
    """A quoted attack phrase in a line that reports or discusses it."""
    aux = _aux()
    if not aux["report"].search(text):
        return False
    return any(q.start() <= start and end <= q.end() + 3 for q in aux["quoted"].finditer(text))


def _b64_commands(text: str) -> list[Signal]:
    out = []
    for m in _aux()["b64_token"].finditer(text):
        tok = m.group(0)
        try:
            raw = base64.b64decode(tok + "=" * (-len(tok) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        try:
            decoded = raw.decode("ascii")
        except UnicodeDecodeError:
            continue
        if sum(c.isprintable() for c in decoded) < 0.95 * len(decoded):
            continue
        if _aux()["shellish"].search(decoded):
            out.append(Signal("base64-payload", m.start(), m.end(), f"base64 that decodes to {decoded[:60]!r}"))
    return out


#: Cheap substring prefilters: a detector's regexes run only when one of its stems occurs in the line.
_STEMS: dict[str, tuple[str, ...]] = {
    "instruction-override": ("ignor", "disregard", "forget", "overrid", "overrul", "discard", "drop", "instruction",
                             "follow", "obey", "execute", "apply", "инструкц", "выполн", "следуй",
                             "you are now", "newest", "latest", "last", "игнор", "забуд", "забыт", "внимани",
                             "учитыв", "отбрось", "пренебре", "отмени", "соблюд", "выполн", "следуй", "инструкц"),
    "override-user": ("ignor", "disregard", "overrid", "overrul", "follow", "listen", "attention", "even if",
                      "regardless", "no matter", "whatever", "without", "tell", "inform", "notify", "alert",
                      "no longer", "approved", "authori", "если пользовател", "слушай", "игнор", "не обращай",
                      "учитывай", "не выполняй", "вопреки", "несмотря", "не говори", "не сообщай", "не рассказывай",
                      "не показывай", "без ведома", "одобрил", "разрешил", "priority", "precedence", "pretend",
                      "mention", "reveal", "disclose", "hide", "conceal", "secret", "скрыв", "скрой",
                      "утаи", "вид", "притвор"),
    "disable-safety": ("bypass", "circumvent", "skip", "disable", "turn off", "switch off", "around", "deactivat",
                       "evade", "--no-verify", "--dangerously", "--yolo", "--no-sandbox", "--disable-hook", "safety",
                       "security", "permission", "without", "confirm", "approval", "провер", "защит", "гейт", "хук",
                       "огранич", "обойд", "обход", "отключ", "выключ", "пропус", "игнор", "спрашив", "запрашив",
                       "подтвержд"),
    "fake-authority": ("system", "admin", "owner", "team", "developer", "maintainer", "решени", "указани",
                       "распоряж", "систем", "администратор", "владел"),
    "run-command": ("curl", "wget", "fetch", "iwr", "invoke", "irm", "<(", "-c", "rm ", "python", "mkfs", "dd ",
                    "chmod", ":()", "http", "download"),
    "persistence": ("memory", ".md", "notes", "session", "prompt", "памят", "строк", "правил", "инструкц", "запис",
                    "навсегда", "сесси", "запуск"),
}
_EXFIL_STEMS = ("inbox", "mailbox", "contacts", "repo", "codebase", "database", "db", "дамп", "баз", "код", "api",
                "access", "auth", "client", "private", "env",
                ".env", "key", "token", "credential", "secret", "passw", "passphrase", "ssh", "id_", ".aws", "cookie",
                "environment", "env var", ".npmrc", ".netrc", ".pgpass", "keychain", "seed", "wallet", ".md",
                "personal", "user", "ключ", "токен", "парол", "секрет", "учетн", "личн", "данн", "перепис", "куки",
                "содерж", "переменн")


_TRUST_STEMS = ("trust", "authorit", "whitelist", "allowlist", "verified", "official", "safe source", "as if",
                "prefer", "treat", "довер", "проверенн", "надежн", "официальн", "пользовател", "только")


_WORD_RE = re.compile(r"\w+")
#: Exfiltration needs somewhere to send to: a URL, an address, a domain or "every reply"-like words.
_DEST_HINT = re.compile(r"://|@|\w\.[a-z]{2,}|\b\d{1,3}\.\d{1,3}\.|repl|respon|messag|answer|summar|webhook|"
                        r"pastebin|gist|telemetr|commit|ответ|сообщени|письм|сводк")


@functools.lru_cache(maxsize=1)
def _stem_index() -> tuple[dict[str, tuple[tuple[str, frozenset[str]], ...]], tuple[tuple[str, frozenset[str]], ...]]:
    """Word stems indexed by their first three letters, plus the few stems that are not words ("--no-verify")."""
    table: dict[str, set[str]] = {}
    groups = {**_STEMS, "exfiltration": _EXFIL_STEMS, "trust-source": _TRUST_STEMS,
              "base64": ("base64", "atob", "frombase64", "b64decode")}
    for kind, stems in groups.items():
        for st in stems:
            table.setdefault(st, set()).add(kind)
    by_prefix: dict[str, list[tuple[str, frozenset[str]]]] = {}
    other: list[tuple[str, frozenset[str]]] = []
    for st, kinds in table.items():
        key = st.strip()
        words = key.split()
        if words and all(_WORD_RE.fullmatch(w) for w in words):
            # a multi-word stem is looked up by its first word: a superset, which is fine for a prefilter
            by_prefix.setdefault(words[0][:3], []).append((words[0], frozenset(kinds)))
        else:
            other.append((st, frozenset(kinds)))
    return {k: tuple(v) for k, v in by_prefix.items()}, tuple(other)


def _present(text: str) -> set[str]:
    """The detector groups whose stems occur in ``text``: one dictionary lookup per word, no regex."""
    by_prefix, other = _stem_index()
    found: set[str] = set()
    for token in set(_WORD_RE.findall(text)):
        for st, kinds in by_prefix.get(token[:3], ()):
            if token.startswith(st):
                found |= kinds
    for st, kinds in other:
        if st in text:
            found |= kinds
    return found


def _scan_plain(text: str) -> list[Signal]:
    """Signals in one stretch of normalized text (no HTML-comment handling)."""
    out: list[Signal] = []
    present = _present(text)
    compiled = _compiled()
    for kind in _P:
        if kind in _STEMS and kind not in present:
            continue
        if kind == "fake-authority" and "disable-safety" not in present:
            continue  # a fake notice only counts together with a weak disable-safety signal
        pats = compiled[kind]
        for pat, strong in pats:
            for m in pat.finditer(text):
                if _negated(text, m.start()) and kind not in ("fake-authority",):
                    continue
                if _mentioned(text, m.start(), m.end()):
                    continue
                out.append(Signal(kind, m.start(), m.end(), m.group(0), strong))
    aux = _aux()
    exfil = "exfiltration" in present and (_DEST_HINT.search(text) is not None)
    for key in ("ex_en", "ex_en2", "ex_ru") if exfil else ():
        for m in aux[key].finditer(text):
            if _negated(text, m.start()) or _mentioned(text, m.start(), m.end()):
                continue
            if aux["neg"].search(m.group(0)):
                continue  # "never paste them", "не отправляй": the verb itself is negated
            out.append(Signal("exfiltration", m.start(), m.end(), m.group(0)))
    if "trust-source" in present:
        out.extend(_trust(text))
    if "base64" in present:
        for m in aux["b64_pipe"].finditer(text):
            if not _negated(text, m.start()):
                out.append(Signal("base64-payload", m.start(), m.end(), m.group(0)))
    return out


def _trust(text: str) -> list[Signal]:
    aux = _aux()
    out: list[Signal] = []
    for m in aux["trust_strong"].finditer(text):
        if not _negated(text, m.start()):
            out.append(Signal("trust-source", m.start(), m.end(), m.group(0)))
    words = list(aux["trust_word"].finditer(text))
    if not words:
        return out
    urls = [u for u in aux["url"].finditer(text)]
    if not urls:
        return out
    for m in words:
        if _negated(text, m.start()) or _mentioned(text, m.start(), m.end()):
            continue
        # "our internal registry is trusted" narrows trust to the user's own infrastructure
        near = [u for u in urls if abs(u.start() - m.start()) < 120]
        if not near:
            continue
        if aux["internal"].search(text[max(0, m.start() - 60):m.end() + 60]) and not aux["trust_strong"].search(text):
            continue
        out.append(Signal("trust-source", m.start(), m.end(), m.group(0)))
    return out


def detect(line: str) -> list[Signal]:
    """Poisoning signals in one memory line (raw text, stamp already removed), strongest evidence first.

    A line is poisoned when any strong signal fires, or two weak ones (e.g. "don't ask for confirmation" plus
    a fake system notice). Offsets refer to the normalized, revealed text.
    """
    raw = reveal(line)
    text = normalize(raw)
    aux = _aux()
    signals: list[Signal] = []
    outside = text
    for m in aux["html"].finditer(text):
        inner = m.group(1).strip()
        if not inner or inner.startswith(("cu:", "cuticle:")) or re.match(r"^cu[:\s]", inner):
            continue
        inner_signals = _scan_plain(inner)
        addressed = aux["agent_address"].search(inner) or aux["you_imperative"].search(inner)
        if inner_signals or addressed:
            signals.append(Signal("html-comment", m.start(), m.end(), m.group(0)[:120]))
        outside = outside[:m.start()] + " " * (m.end() - m.start()) + outside[m.end():]
    signals.extend(_scan_plain(outside))
    if len(raw) == len(text):  # offsets agree (no length-changing case folding): decode the original casing
        signals.extend(_b64_commands(raw))
    else:
        signals.extend(_b64_commands(unicodedata.normalize("NFKC", raw)))
    strong = [s for s in signals if s.strong]
    if strong:
        return sorted(strong, key=lambda s: (KINDS.index(s.kind) if s.kind in KINDS else 99, s.start))
    weak = [s for s in signals if not s.strong]
    if len({s.kind for s in weak}) >= 2:
        kind = next((s.kind for s in weak if s.kind != "fake-authority"), weak[0].kind)
        first = min(weak, key=lambda s: s.start)
        return [Signal(kind if kind in KINDS else "disable-safety", first.start, max(s.end for s in weak),
                       "; ".join(s.evidence for s in weak))]
    return []


def is_poisoned(line: str) -> bool:
    return bool(detect(line))


__all__ = ["KINDS", "Signal", "detect", "is_poisoned", "normalize"]

