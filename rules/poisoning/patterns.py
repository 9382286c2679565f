"""The poisoning detector's vocabulary: word classes, patterns per detector kind, semantic frames and the stems
that gate them, as regular-expression sources (EN and RU). Compiled on first need (rules.poisoning.detect).

Every pattern runs on casefolded text (``detect.normalize``). One table for both the frames (``detect``) and the
families (``families``): each word class has one name and one definition, and ``_aux()`` compiles it on first use.
Adding a wording is adding an alternative here, plus a stem in its gate (``_STEMS`` per kind, ``FRAME_GATES`` per
frame group) when the alternative holds none (tests/rules/poisoning/test_gates_never_change_a_verdict.py checks);
adding a detector kind is a new entry of ``_P`` with its stems in ``_STEMS``, and a test row in
tests/rules/test_poisoning_categories.py. The how-to is in docs/rules.md ("One vocabulary, and how to change it").

Over 800 lines because it is data: the EN and RU word classes and patterns, read top to bottom like a table; the
code that uses them is in ``detect`` and ``families``.
"""

from __future__ import annotations

import functools
import re

_F = 0  # every pattern runs on casefolded text (see normalize); IGNORECASE would only slow `re` down

# -- vocabulary --------------------------------------------------------------------------------------------
_TLD_EXT = r"(?!(?:md|txt|json|ya?ml|toml|py|js|ts|env|lock|cfg|ini|log|conf|html?|css|csv|zip|gz|tar|pdf|png|jpe?g|svg|sql|db|bak|tmp|local|internal|lan|corp|test|localhost)\b)"
URLISH = (r"(?:(?:https?|ftp|sftp|ftps|s3|wss?)://[^\s)>\]'\"`;,]*[^\s)>\]'\"`;,.:!?]|\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+|\b\d{1,3}(?:\.\d{1,3}){3}\b"
          r"|\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+" + _TLD_EXT + r"[a-z]{2,24}\b)")
NEG_EN = r"\b(?:never|don't|dont|do not|does not|doesn't|did not|didn't|avoid|refuse[sd]?|must not|mustn't|should not|shouldn't|no longer|not to|nor|forbid\w*|prohibit\w*|stop)\b"
NEG_RU = r"(?:^|[\s,(])(?:не|никогда|нельзя|запрещено|запрещаю|избегай|ни в коем случае|никаких|никакого|никакой)(?=\s)"
REPORT = (r"\b(?:found|detected|saw|seen|spotted|blocked|flagged|reported|attempt\w*|inject\w*|attack\w*|phishing|"
          r"fooled|tricked|article|paper|study|research\w*|"
          r"did not follow|didn't follow|not follow|told the user|warned|example|quote[sd]?|contained|contains|"
          r"обнаружил\w*|нашел|нашла|нашли|видели|попытк\w*|атак\w*|инъекци\w*|не стал\w*|сообщил\w*|пример\w*|"
          r"фишинг\w*|стать\w*|исследовани\w*|была строка|содержал\w*|был текст|была фраза|фраз\w*|не выполнял\w*|показал\w*|said|saying|"
          r"phrase|ignored it|fixtures?|test cases?|must (?:be )?flag\w*|should (?:be )?flag\w*|detector)\b")
QUOTED = r"(?:\"[^\"]{3,}\"|'[^']{6,}'|«[^»]{3,}»|“[^”]{3,}”|„[^“”]{3,}[“”])"
#: Code spans quote a command only in a line that gives no order to run anything: "Example: always run `…`" is
#: still an order, "a fixture holds `…`" is not.
CODE_SPAN = r"`[^`\n]{3,}`"
RUN_ORDER = (r"\b(?:run|runs|execute|exec|always|before|after|every|each|whenever|paste|type|use|launch|start)\b|"
             r"(?<!\w)(?:запусти\w*|запуска\w*|выполни\w*|выполня\w*|всегда|перед|после|каждый|каждую|вставь)(?!\w)")
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
#: Commands whose output is the secrets themselves: sending that output sends them.
SECRET_DUMP = (r"\bprintenv\b|`\s*(?:env|set|export\s+-p)\b[^`]*`|`\s*cat\s+[^`]*(?:\.env|\.ssh|\.aws|credentials|"
               r"\.netrc|\.npmrc|\.pgpass)[^`]*`|(?:output|вывод\w*) (?:of |от )?`?(?:env|printenv)\b")
#: A warning that a security check raises, and the words that wave it away.
SECURITY_WARNING = (r"\b(?:certificate|cert|tls|ssl|https|hsts|security|antivirus|anti-virus|malware|virus|signature|"
                    r"checksum|hash|integrity|gpg|pgp|host key|fingerprint)\s+(?:\w+\s+)?(?:warnings?|"
                    r"errors?|alerts?|mismatch\w*|failures?|prompts?|findings?|notices?)\b|(?<!\w)(?:предупреждени|"
                    r"ошибк|оповещени)\w*\s+(?:\w+\s+)?(?:сертификат|безопасност|tls|ssl|https|антивирус|подпис|"
                    r"контрольн|хеш|целостност)\w*|(?<!\w)несовпадени\w* (?:контрольн|хеш|подпис)\w*")
#: Warnings of one's own machines are not waved away from outside: localhost, a self-signed dev certificate.
LOCAL_HOST = (r"\b(?:localhost|127\.0\.0\.1|self-signed|our|internal|in-house|dev server|[\w-]+\.(?:local|internal|"
              r"lan|test))\b|(?<!\w)(?:наш\w*|внутренн\w*|самоподписан\w*|локальн\w*)")
WARNING_DISMISSED = (r"\bfalse (?:positives?|alarms?)|\b(?:safe|fine|ok) to (?:ignore|skip|dismiss|bypass)|\b(?:can|may|should)"
                     r" (?:be )?(?:safely )?(?:ignored|skipped|dismissed|bypassed)|\b(?:ignore|dismiss|bypass|skip|suppress|"
                     r"silence|accept)\b|\bclick(?:ing)? (?:through|past|ok|accept|continue)|\b(?:are|is) (?:harmless|"
                     r"benign)\b|(?<!\w)(?:ложн\w* (?:срабатывани|тревог)\w*|игнорир\w*|пропуска\w*|"
                     r"не обращай внимания|можно не обращать|безвредн\w*|жми (?:ок|далее|продолжить))")
#: A file that holds secrets by its path: keys, credentials and token stores.
SECRET_FILE = (r"(?!\S*\.pub\b)(?:~/\.ssh\S*|\.ssh/\S+|\bid_(?:rsa|ed25519|ecdsa|dsa)\S*|(?<![\w.])\.env\b\S*|~/\.aws\S*|\.aws/\S+|"
               r"\bcredentials(?:\.json)?\b|(?:~/)?\.(?:netrc|npmrc|pgpass|git-credentials|kube/config|"
               r"docker/config\.json)\b|/etc/shadow\b|\.gnupg\S*|\bsecrets?\.(?:json|ya?ml|toml)\b)")
#: Programs that send data over the network (NET_TOOL_WORDS: the substrings without which NET_TOOL cannot match).
NET_TOOL_WORDS = ("nc", "netcat", "socat", "telnet", "curl", "wget", "scp", "rsync", "ftp", "http", "mail", "mutt",
                  "iwr", "irm", "invoke-")
NET_TOOL = (r"\b(?:nc|ncat|netcat|socat|telnet|curl|wget|scp|rsync|s?ftp|https?|httpie|sendmail|mailx?|mutt|"
            r"invoke-webrequest|iwr|invoke-restmethod|irm)\b")
#: A recurring moment: every session, build, start or commit (RU: при каждом запуске, перед каждой сборкой).
RECURRING = (r"\b(?:every|each|whenever|always|on (?:each|every)|at the start of (?:each|every)|before (?:each|every|any)|"
             r"after (?:each|every))\s+(?:\w+\s+){0,2}?(?:sessions?|builds?|runs?|starts?|launch\w*|commits?|deploys?|"
             r"boots?|startups?|conversations?|chats?|days?|mornings?)\b|(?<!\w)(?:при|в начале|перед|после|на)\s+"
             r"кажд\w*\s+(?:\w+\s+)?(?:запуск|старт|сборк|сесси|коммит|деплой|разговор|чат|день|утр)\w*|"
             r"(?<!\w)кажд\w*\s+(?:сесси|сборк|запуск|утр|день)\w*")
#: Commands that wipe work or data with no way back (a cleanup of build dirs is not among them).
DESTRUCTIVE = (r"\bgit\s+clean\s+-\w*[fdx]\w*|\bgit\s+reset\s+--hard\b|\bgit\s+push\s+(?:\S+\s+)*(?:-f|--force)\b|"
               r"\bgit\s+checkout\s+(?:-f\s+)?--\s+\.|\bdrop\s+(?:database|schema|table)\b|\btruncate\s+table\b|"
               r"\bdocker\s+system\s+prune\b|\bkubectl\s+delete\s+(?:ns|namespace|all)\b|\bterraform\s+destroy\b")
#: A safety setting given an "off" value in a config: `policy: off`, `verify_ssl = false`.
SAFETY_KEY_OFF = (r"\b(?![\w.-]*(?:disabl|skip|bypass))[\w.-]*(?:policy|gate|guard|safety|security|sandbox|verify|verification|hooks?|scan\w*|checks?|"
                  r"confirm\w*|protection|cuticle|filter\w*|approvals?)[\w.-]*\s*[:=]\s*[\"']?(?:off|false|no|none|"
                  r"disabled?|0)\b|"
                  # the same key named for switching the safeguard off, set to on ("CUTICLE_DISABLE=1", "skip_hooks: true")
                  r"\b[\w.-]*(?:(?:disabl\w*|skip|no|bypass|off)[_.-]?(?:policy|gate|guard|safety|security|sandbox|verify|"
                  r"verification|hooks?|scan\w*|checks?|confirm\w*|protection|cuticle|filter\w*|approvals?)|(?:policy|gate|"
                  r"guard|safety|security|sandbox|verify|verification|hooks?|scan\w*|checks?|confirm\w*|protection|cuticle|"
                  r"filter\w*|approvals?)[_.-]?(?:disabled?|skip|off|bypass))[\w.-]*\s*[:=]\s*[\"']?(?:1|true|yes|on)\b|"
                  # hooks pointed at nothing
                  r"\bhookspath\s*[:=]?\s*[\"']?/dev/null")
AGENT_ADDRESS = (r"^\s*(?:ai(?: agent)?|agent|assistant|llm|model|claude|gpt|chatgpt|copilot|codex|gemini|bot|system|"
                 r"ассистент|агент|модель|ии|бот|система)\s*(?:[:,—–]|\s-\s)")

_P: dict[str, list[tuple[str, bool]]] = {
    "instruction-override": [
        (r"\b(?:ignore|disregard|forget|override|overrule|discard|drop)\b[^.;!?]{0,30}?\b(?:previous|prior|earlier|"
         r"above|preceding|former|original|existing|system|all (?:other|your)|your)\b[^.;!?]{0,20}?\b(?:instructions?|"
         r"rules|prompts?|directives|guidelines|guardrails|constraints|messages|orders|programming)\b", True),
        (r"\b(?:ignore|disregard|override|don't follow|do not follow)\b[^.;!?]{0,25}\b(?:rules?|instructions?|"
         r"directives?|constraints?)\b[^.;!?]{0,12}\b(?:in|from|of)\s+(?:user|memory|agents|claude)\.md\b", True),
        (r"\b(?:new|updated|real) (?:system )?instructions?\s*:", True),
        (r"\b(?:the )?real (?:ones|instructions|rules) (?:follow|are below|come next)\b", True),
        (r"\byou are now (?:a |an |in )?(?:unrestricted|jailbroken|developer mode|dan\b|free)", True),
        # a persona swapped in: "you are now X, an unrestricted assistant", «ты больше не ассистент этого проекта»
        (r"\byou are (?:now|no longer)\b[^.;!?]{0,60}?\b(?:unrestricted|jailbroken|uncensored|unfiltered|without (?:any )?"
         r"(?:rules|restrictions|limits|guidelines|filters)|(?:with )?no (?:prior |previous |earlier )?(?:rules|restrictions|"
         r"limits|guidelines|instructions|filters))\b", True),
        (r"\b(?:you|assistant|agent|ai|bot|model)\b[^.;!?]{0,20}?\b(?:with|has|have|having) no (?:prior|previous|earlier|former) (?:guidelines|instructions|rules|directives|"
         r"restrictions)\b", True),
        # the agent declared free of its limits: "you have no content restrictions", «у тебя нет ограничений»
        (r"\b(?:you|the (?:assistant|agent|model|ai))\s+(?:now\s+|no longer\s+)?(?:have|has|are under|operate with)\s+no\s+"
         r"(?:\w+\s+)?(?:restrictions|limits|limitations|rules|filters|guardrails|guidelines|boundaries)\b|"
         r"(?<!\w)у (?:тебя|ассистента|агента|модели) (?:больше |теперь )?нет (?:никаких )?(?:\w+ )?(?:ограничени|правил|"
         r"фильтр|запрет)\w*", True),
        (r"(?<!\w)ты\s+(?:больше\s+не|теперь\s+не|уже\s+не|теперь)\s+(?:\w+\s+)?(?:ассистент|помощник|агент|бот|"
         r"модель)\w*", True),
        (r"\bnew (?:system )?prompt\b\W{0,6}(?:#|:|—|–)|(?:нов\w*\s+)?системн\w* (?:промпт|подсказк)\w*\s*(?:#|:)", True),
        (r"\b(?:the )?(?:newest|latest|last) (?:memory )?(?:entry|line|note) (?:always )?(?:wins|overrides|takes precedence)\b", True),
        (r"(?:игнорир\w*|проигнорир\w*|забудь|забыть|не обращай внимания на|не учитывай|отбрось|пренебреги|отмени)"
         r"[^.;!?]{0,30}?(?:все |всех |любые )?(?:предыдущ\w*|прежн\w*|ранее|прошл\w*|системн\w*|исходн\w*|"
         r"стар\w*|остальн\w*)[^.;!?]{0,20}?(?:инструкци\w*|указани\w*|правил\w*|промпт\w*|директив\w*|"
         r"ограничени\w*)", True),
        (r"(?:игнорир\w*|не обращай внимания на|не соблюдай|не выполняй|не следуй|не учитывай|забудь|отбрось)[^.;!?]{0,25}(?:правил\w*|"
         r"инструкци\w*|указани\w*)\s+(?:из|в)\s+(?:user|memory|agents)\.md", True),
        (r"нов\w* (?:системн\w* )?инструкци\w*\s*:", True),
        (r"\b(?:real|actual|true|updated|current) instructions (?:are|live|can be found|are hosted) (?:at|on|in)\b", True),
        (r"\b(?:fetch|load|read|download|get|open)\b[^.;]{0,60}\b(?:and )?(?:follow|obey|execute|apply)\b[^.;]{0,30}"
         r"(?:instructions?|them|it|whatever)\b", True),
        (r"(?:настоящ\w*|актуальн\w*|нов\w*) инструкци\w* (?:лежат|находятся|тут|здесь|по адресу)", True),
        (r"(?:скачай|загрузи|открой|прочитай)\b[^.;]{0,60}\s(?:и )?(?:выполняй|выполни|следуй)", True),
        (r"\b(?:ignore|disregard|forget|drop|discard|override)\s+(?:everything|all|anything|whatever)\s+(?:\w+\s+){0,3}?"
         r"(?:above|before this|previously|earlier|so far|until now|you were told)\b", True),
        (r"(?:забудь|игнорируй|проигнорируй|отбрось|не учитывай|выброси из головы)\s+вс[её],?\s+(?:что\s+)?"
         r"(?:\w+\s+){0,3}?(?:выше|ранее|раньше|до этого|прежде|до сих пор)", True),
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
        (r"\b(?:safety|security|permission) (?:checks?|features?|measures?|rules?|prompts?|gates?|guards?|layers?|"
         r"nets?|controls?|systems?|settings?|mode)[^.;]{0,20}?\b(?:(?:are|is|have been|were|got) )?(?:now |hereby |"
         r"temporarily )?(?:disabled|off|turned off|removed|suspended|not required|unnecessary|lifted)\b", True),
        (r"\b(?:run|execute|delete|push|install|do|perform|apply)\b[^.;]{0,40}?\b(?:commands?|anything|everything|"
         r"all|any|whatever|scripts?)\b[^.;]{0,30}?\bwithout (?:asking|confirmation|confirming|approval|permission|"
         r"review|checking|prompting)\b", True),
        (r"\bwithout (?:asking|confirmation|approval|permission)\b[^.;]{0,30}\b(?:any|all|every|anything|everything)\b",
         True),
        (r"\b(?:do not|don't|never|no need to|stop) (?:ask|request|wait) (?:for )?(?:the user'?s? )?"
         r"(?:confirmation|permission|approval)\b", False),
        # a security warning declared harmless or to be clicked through (a certificate, checksum or malware alert)
        # (not for one's own machines: the rest of the sentence names no local or internal host)
        (r"(?=" + SECURITY_WARNING + "|" + WARNING_DISMISSED + r")(?!(?:[^.;!?]|\.(?=\S))*?(?:" + LOCAL_HOST
         + r"))(?:(?:" + SECURITY_WARNING + r")(?:[^.;!?]|\.(?=\S)){0,80}?(?:"
         + WARNING_DISMISSED + r")|(?:" + WARNING_DISMISSED + r")(?:[^.;!?]|\.(?=\S)){0,40}?(?:" + SECURITY_WARNING
         + r"))", True),
        # an act allowed past a safeguard ("may now write outside the workspace without approval"); counts with
        # another sign (a fake notice, text addressed to AI readers)
        (r"\bwithout (?:any |a |prior |further |human |the user'?s? )?(?:approval|review|asking|confirmation|"
         r"permission|sign-?off|checks?|prompting)\b|\bunprompted\b", False),
        (r"(?:провер\w* безопасности|защит\w*|гейт\w*|хук\w*|ограничени\w*)\s+(?:[\w-]+\s+){0,4}?"
         r"(?:отключен\w*|выключен\w*|не нужн\w*|не требу\w*|сняты|отменен\w*)", True),
        (r"подтвержден\w*\s+(?:[\w-]+\s+){0,4}?(?:отключен\w*|выключен\w*|не нужн\w*|не требу\w*|отменен\w*)", False),
        (r"(?:обойди|обходи|отключи|выключи|пропусти|пропускай|игнорируй|отключай)\s+(?:[\w-]+\s+){0,2}?"
         r"(?:гейт\w*|хук\w*|провер\w*|защит\w*|подтвержден\w*|ограничени\w*|песочниц\w*|политик\w*)", True),
        (r"(?:не спрашивай|не запрашивай|без)\s+(?:[\w-]+\s+){0,3}?(?:подтвержд\w*|разрешени\w*|согласи\w*)", False),
        # a safety setting switched off through its config: "set `policy: off` in chitin.yaml"
        # (the verb opens a clause, so it is an order: "the team set `sandbox: off` last week" is a report)
        (r"(?:^[\W\d]*|[,;:—–(]\s*|\b(?:then|and|please|first|just|also|now|always)\s+)(?:set|put|change|switch|flip|"
         r"make|use|add|write|configure|toggle)\b[^.;!?]{0,20}?" + SAFETY_KEY_OFF, True),
        (r"(?<!\w)(?:(?:постав|выстав|пропиш|впиш|добав)ь|установи|задай|смени|поменяй)(?:те)?(?!\w)[^.;!?]{0,20}?"
         + SAFETY_KEY_OFF, True),
        # a memory file written through the shell, around the tool the gate watches
        (r"(?:>>?|\btee(?:\s+-a)?|\bsed\s+-i)\s*[\"'`]?[\w./~-]*(?:memory|user|agents|claude)\.md\b", True),
        (r"\b(?:memory|user|agents|claude)\.md\b[^.;!?]{0,40}?\b(?:with|via|using|through|from)\s+`?(?:>>|>|tee\b|"
         r"sed -i|echo\b|cat\b|printf\b|the shell|a shell|bash\b|the terminal)", True),
        (r"\b(?:memory|user|agents|claude)\.md\b[^.;!?]{0,40}?(?:через|с помощью)\s+`?(?:>>|>|tee\b|sed\b|echo\b|"
         r"cat\b|shell|bash|терминал\w*|консол\w*|оболочк\w*)", True),
    ],
    "fake-authority": [
        # a line dressed as a message of the system, a tool or an admin ("[SYSTEM] …", "<tool_result>", «[СИСТЕМА]»)
        (r"^\W*[\[<(]\s*/?(?:system|sys|tool[ _-]?(?:result|output|response|call)?|function[ _-]?result|admin\w*|developer|"
         r"security|система|системное сообщение|администратор\w*)\s*[\]>):]", False),
        # text addressed to whatever AI reads it ("note for assistants reading this page", «для ИИ-ассистентов»)
        (r"\b(?:note|message|instructions?|attention) (?:for|to) (?:any |all )?(?:ai|llm|gpt)?[ -]?(?:assistants?|agents?|"
         r"models?|bots?|crawlers?|llms?)\b|\b(?:if you are|to any|dear) (?:an? )?(?:ai|llm|language model|assistant|"
         r"agent)\b|\b(?:ai|llm) (?:assistants?|agents?|models?) reading this\b|(?<!\w)(?:для|к) (?:\w+ )?(?:ии|ai)-?"
         r"(?:ассистент|агент|модел|бот)\w*|(?<!\w)если ты (?:ии|нейросеть|ассистент|бот|модель)(?!\w)", False),
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
        # code an interpreter fetches and runs in one expression: exec(urlopen(…).read()), iex (iwr …), fetch → eval
        (r"\b(?:exec|eval|iex|invoke-expression)\b\s*\(?[^\n]{0,120}?(?:urlopen|urlretrieve|requests\.(?:get|post)|"
         r"httpx\.get|\bfetch\s*\(|downloadstring|invoke-webrequest|\biwr\b|\birm\b|\bcurl\b|\bwget\b)", True),
        (r"(?:urlopen|requests\.get|httpx\.get|\bfetch\s*\(|downloadstring)[^\n]{0,160}?(?:\b(?:exec|eval)\s*\(|"
         r"\.then\(\s*eval\b|\|\s*(?:iex|invoke-expression)\b)", True),
        (r"\b(?:mkfs(?:\.\w+)?|dd\s+if=\S+\s+of=/dev/\w+|chmod\s+-r\s+777\s+/|:\(\)\s*\{\s*:\|:&\s*\};:)", True),
        (r"\b(?:run|execute|exec|source|launch|start)\b[^.;]{0,40}\bhttps?://\S+\.(?:sh|ps1|bat|cmd|exe|py|pl)\b", True),
        (r"\bdownload (?:and|&|then) (?:run|execute|install)\b[^.;]{0,60}(?:https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b)", True),
        (r"(?:запусти|выполни|исполни|запускай|выполняй)\b[^.;]{0,40}https?://\S+\.(?:sh|ps1|bat|cmd|exe|py|pl)\b",
         True),
    ],
    "exfiltration": [],  # see detect._scan_plain: the sentence patterns ex_en, ex_ru, ex_command of _aux
    "trust-source": [],  # see _trust
    "persistence": [
        (r"\b(?:this|the following|these)\s+(?:exact\s+|same\s+|whole\s+|very\s+)?(?:line|instruction|rule|note|text|"
         r"message|entry|sentence|paragraph|block)s?\b[^.]{0,40}?\b(?:stays?|remains?|is kept|persists?|survives?|is "
         r"(?:copied|repeated|re-?added))\b[^.]{0,40}?\b(?:memory|memory\.md|user\.md|agents\.md|claude\.md|every "
         r"(?:future )?session|each session|forever)\b", True),
        (r"(?:эт\w*|следующ\w*|данн\w*)\s+(?:\w+\s+)?(?:строк|правил|инструкци|запис|заметк|текст)\w*\s+(?:\w+\s+){0,3}?"
         r"(?:остава\w*|остается|должн\w* остава\w*|хран\w*|повторя\w*)\s+[^.]{0,40}?(?:памят\w*|memory\.md|"
         r"кажд\w* сесси\w*|навсегда)", True),
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
         r"инструкци\w*|запис\w*)(?=[^.;!?]*(?:памят|memory|\.md\b|сесси|навсегда|кажд|всех))", True),
        # the line asks to be restored when someone removes it
        (r"\b(?:if|when|whenever|should|once)\b[^.;!?]{0,40}?\b(?:this|the|these|that)\s+(?:note|line|entry|rule|text|"
         r"instruction|paragraph|block|reminder)s?\b[^.;!?]{0,30}?\b(?:is|are|gets?|got|was|were)\s+(?:ever\s+)?"
         r"(?:removed|deleted|erased|dropped|cleaned up|lost|missing|gone|archived)\b[^.;!?]{0,60}?\b(?:re-?add|"
         r"restore|recreate|re-?create|re-?insert|re-?write|(?:put|add|write|copy|bring) (?:it|them|this) (?:back|again))\b",
         True),
        (r"(?:если|когда)\s[^.;!?]{0,40}?(?:эт\w*|данн\w*)\s+(?:строк|заметк|запис|правил|инструкци|текст|абзац)\w*\s+"
         r"(?:\w+\s+){0,2}?(?:удал|сотр|пропад|исчез|потер)\w*[^.;!?]{0,60}?(?:верни|восстанови|(?:добавь|запиши|вставь)"
         r"\s+(?:\w+\s+)?(?:снова|обратно|заново))", True),
        # an order to keep something forever in the agent's long-term memory
        (r"\bremember (?:this |that |it )?(?:forever|permanently|for good|for all future sessions)\b|\b(?:save|write|store|"
         r"add|put|keep)\s+(?:this|it)\s+(?:to|in|into)\s+(?:your\s+)?(?:long-term|permanent|persistent)\s+memory\b",
         True),
        (r"(?:сохрани|запиши|запомни|добавь|внеси|занеси)\s+(?:это|эт\w+\s+\w+)\s+(?:в|во)\s+(?:свою\s+)?"
         r"(?:долговременн\w*|постоянн\w*|долгосрочн\w*)\s+памят\w*|запомни\s+(?:\w+\s+)?навсегда", True),
    ],
}

_EXFIL_VERB_EN = (r"\b(?:send|post|upload|e-?mail|mail|forward|transmit|exfiltrate|leak|share|include|append|attach|"
                  r"paste|copy|put|sync|submit|curl|pipe|dump|cc|bcc|report|push)\b")
_EXFIL_DEST_EN = (r"(?:" + URLISH + r"|\b(?:every|each|all|any) (?:reply|replies|response|responses|message|messages|"
                  r"answer|answers|summary|summaries|commit message|pr description)\b|\b(?:to|in|into) (?:the|your|its) (?:\w+ )?(?:summary|reply|"
                  r"response|output|answer|commit message|pr description|report)\b|\bwebhook\b|\bpastebin\b|\bgist\b|\btelemetry\b)")
_EXFIL_VERB_RU = (r"(?:отправ\w*|пересыл\w*|перешл\w*|загруж\w*|загрузи|выгруж\w*|выгрузи|слей|сливай|передава\w*|"
                  r"передай|прикладыва\w*|приложи|вставля\w*|вставь|копируй|скопируй|синхронизир\w*|публикуй|"
                  r"опубликуй|добавля\w*|добавь|присылай|пришли|дублируй)")
_EXFIL_DEST_RU = r"(?:" + URLISH + r"|(?:в|во|к)\s+(?:каждо\w*|любо\w*|вс\w*)\s+(?:ответ\w*|сообщени\w*|письм\w*|сводк\w*))"


# -- semantic frames (actor/authority + act + target), EN and RU -----------------------------------------------
# Each frame is a conjunction of word classes within one sentence, in any order, so new wordings of the same act
# are caught without listing phrases. Guards: negation before the act, a line that discusses an attack, and (for
# the preference-like frames only) a line attributed to the user ("User said: don't ask me before tests").
_AI = r"(?:ai|a\.i\.|assistant|agent|bot|model|llm|claude|gpt|chatgpt|copilot|codex|gemini|ассистент\w*|агент\w*|бот\w*|модел\w*|ии|нейросет\w*|ии-агент\w*)"
_FRAME_SOURCES: dict[str, str] = {
    # a line that speaks *about* an attack rather than issuing one
    "discuss": (r"\b(?:incident|phishing|red[- ]team|attack(?:s|er|ers)?|injections?|malicious|suspicious|scam|"
                r"we blocked|blocked it|reported (?:it|this|to)|did not follow|didn't follow|describes?|claimed|"
                r"tried to|tries to|try to|attempts? to|researchers?)\b|фишинг\w*|атак\w*|инъекци\w*|злоумышленник\w*|"
                r"подозрительн\w*|заблокир\w*|разбор\w*|пытал\w*|пытает\w*|исследовател\w*|с требовани\w*|"
                r"с просьбой|предупрежд\w*|addressed to|asks? (?:the )?(?:assistant|agent|ai|bot|model)|examples?|"
                r"fixtures?|detector|test case|пример\w*|адресованн\w*|social engineering|не выполнял\w*|показал\w* пользовател\w*|доклад\w*"),
    # the line reports the user's own words (a preference, not an injected order)
    "attributed": (r"^\W*(?:\[[ xх]\]\W*)?(?:\d{1,2}:\d\d\W*)?(?:(?:the )?user(?: said| says| wants| asked| prefers| requested| decided)\b|user\s*:|per (?:the )?"
                   r"user\b|пользователь(?: сказал\w*| просил\w*| попросил\w*| хочет| считает| велел\w*| "
                   r"предпочитает| решил\w*)\b|пользователь\s*:|по просьбе пользовател\w*|просьба пользовател\w*|"
                   r"договорились с пользовател\w*|решили с пользовател\w*|правило (?:от )?пользовател\w*|у пользовател\w* "
                   r"правило|(?:the )?user'?s rule\b|rule from the user)"),
    # disable-safety: asking/confirming stops
    "no_ask": (r"\b(?:stop|quit|cease|no longer|don't|do not|never|no need to|needn't|without)\s+(?:\w+\s+){0,1}?"
               r"(?:ask(?:ing)?|request(?:ing)?|wait(?:ing)? for|seek(?:ing)?|get(?:ting)?|need(?:ing)?|prompt(?:ing)?|"
               r"requir(?:e|ing))\b[^.;!?]{0,30}?\b(?:confirmations?|approvals?|permissions?|consent|sign-?off)\b|"
               r"\b(?:confirmations?|approvals?|permissions?|sign-?off) (?:is|are) (?:no longer|not) (?:needed|required|"
               r"necessary)\b|\b(?:stop|quit|don't|do not|never|no need to|no longer)\s+(?:bother(?:ing)?\s+(?:to\s+)?)?"
               r"(?:ask(?:ing)?|check(?:ing)? with)\s+(?:\w+\s+){0,2}?(?:before|first|prior to)\b[^.;!?]{0,30}?"
               r"\b(?:delet|remov|overwrit|push|force|deploy|drop|install|run|execut|merg|publish|releas|rm\b)|"
               r"(?<!\w)(?:не\s+спрашивая|без\s+вопросов)\s+(?:[\w-]+\s+){0,3}?(?:удал|перезапис|пуш|запуск|"
               r"устанавл|деплой|публику|мерж|сноси)\w*|\bwithout\s+(?:first\s+)?(?:confirm\w*|check\w*|ask\w*|consult\w*)\s+(?:with\s+|by\s+)?"
               r"(?:the\s+)?(?:user|owner|human)\b|\b(?:no longer|don't|do not|never|needn't|need not)\s+(?:go|pass|run|be checked|be "
               r"reviewed)\s+(?:through|by|past)\s+(?:the\s+)?(?:memory\s+)?(?:gate|checks?|hooks?|review|cuticle)\b|"
               r"(?<!\w)(?:не\s+спрашивая|не\s+уточняя|не\s+согласовывая)\s+(?:у\s+|с\s+)?(?:пользовател|владел)\w*|"
               r"(?<!\w)(?:больше\s+)?не\s+(?:проход|идут)\w*\s+(?:через\s+)?(?:гейт|проверк|хук)\w*|"
               r"\b(?:doesn't|does not|don't|do not|needn't|need not|won't)\s+(?:need|have)\s+to\s+(?:ask|confirm|"
               r"check with|wait for)\b[^.;!?]{0,40}?\b(?:before|first|confirmation|approval|permission|the user)\b|"
               r"\bno (?:need|reason) to (?:run|do|perform|wait for|go through)\s+(?:[\w-]+\s+){0,3}?"
               r"(?:checks?|reviews?|verification|confirmations?|approvals?)\b|"
               r"(?<!\w)(?:больше\s+не|не|перестань|хватит)\s+(?:[\w-]+\s+){0,2}?(?:спрашива|запрашива|жд|ожида|"
               r"прос|уточня|получа)\w*\s+(?:[\w-]+\s+){0,2}?(?:подтвержд|разрешени|согласи|одобрени)\w*|"
               r"(?<!\w)без\s+(?:[\w-]+\s+)?(?:подтвержд|согласовани|одобрени|разрешени|ревью)\w*|"
               r"(?:подтвержд|согласовани|согласи|одобрени|разрешени)\w*\s+(?:[\w-]+\s+){0,3}?(?:больше\s+)?не\s+(?:нужн|"
               r"требу|обязательн)\w*|"
               r"(?:подтвержд|разрешени|согласи|одобрени)\w*\s+(?:[\w-]+\s+){0,3}?(?:больше\s+)?не\s+(?:спрашива|"
               r"запрашива|жд|проси|получа|уточня)\w*"),
    # disable-safety: a safety mechanism switched off (active or passive)
    "off_act": (r"\b(?:(?:turn|switch|shut)(?:s|ed|ing)?\s+(?:\w+\s+){0,3}?off|disabl\w*|deactivat\w*|bypass\w*|"
                r"circumvent\w*|skip(?:s|ped|ping)?|suspend\w*|evad\w*|"
                r"get(?:ting)? around|work(?:ing)? around)\b|(?:отключ|выключ|обход|обойд|обойт|пропуск|пропуст|"
                r"сними|снять|убра|убер|деактивир|игнорир)\w*"),
    "safety_obj": (r"\b(?:(?:memory |write |safety |security )?gates?|hooks?|pre-?\w* checks?|checks?|confirmations?|"
                   r"approvals?|guard(?:rail)?s?|sandbox\w*|verification|protections?|filters?|safeguards?|"
                   r"safety|security|cuticle|review step|permission prompts?|(?:pre-?\w+ |security |safety )?scan(?:s|ner|ning)?)\b|сканер\w*|сканировани\w*|гейт\w*|хук\w*|провер\w*|защит\w*|"
                   r"подтвержден\w*|ограничени\w*|песочниц\w*|фильтр\w*|предохранител\w*"),
    "off_state": (r"\b(?:is|are|was|were|been|got|now|stay|stays)\s+(?:\w+\s+){0,1}?(?:switched off|turned off|off|"
                  r"disabled|deactivated|suspended|lifted|removed|not needed|not required|unnecessary|deprecated|retired)\b|\bno longer "
                  r"(?:required|needed|necessary|in effect|active|enforced|applies)\b|\b(?:can|may|could) (?:safely )?be "
                  r"(?:skipped|ignored|bypassed|turned off|disabled)\b|\b(?:is|are) (?:now )?optional\b|"
                  r"(?<!\w)можно\s+(?:не\s+(?:проход|выполня|запуска|делать|соблюда|спрашива|запрашива)\w*|"
                  r"(?:пропуск|отключ|игнорир|обход|выключ)\w*)|(?<!\w)не\s*обязательн\w*|"
                  r"(?:отключен\w*|выключен\w*|сняты?|отменен\w*|не нужн\w*|не требу\w*|больше не нужн\w*)"),
    "authority": (r"\b(?:admin\w*|administrator|maintainers?|owner|security team|ops team|it department|management|"
                  r"team lead|cto|devops|new policy|policy update|system update)\b|администратор\w*|админ\w*|"
                  r"владел\w*|руководств\w*|команд[аыеу]\b|распоряжени\w*|решени\w* (?:админ|владел|руковод)\w*|"
                  r"нов\w* политик\w*|дал\w* добро"),
    # instruction-override: earlier instructions declared void
    "rules_voided": (r"\bnothing\s+(?:\w+\s+){0,2}?(?:earlier|above|before|previously|so far)\b(?:[^.;!?]|\.(?=\S)){0,30}?\b(?:"
             r"applies|apply|counts|matters|is valid|holds)\b|\b(?:(?:all|any|every)\s+(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous\s+|prior\s+|earlier\s+|"
             r"preceding\s+|old\s+|older\s+|existing\s+|other\s+|former\s+)?|(?:the\s+|your\s+)?(?:previous|prior|"
             r"earlier|preceding|old|older|existing|other|former)\s+)(?:system\s+|memory\s+)?(?:instructions?|rules|"
             r"guidance|guidelines|directives|notes|entries|orders|prompts?|policies)\b(?:\s+(?:above|(?:in|from)\s+"
             r"(?:this\s+|the\s+|your\s+)?\S+|so far))?\s+(?:are|is|were|have been|has been|become|became)?\s*(?:now\s+|hereby\s+|"
             r"henceforth\s+)?(?:void|null|invalid|cancel+ed|revoked|obsolete|outdated|superseded|deprecated|"
             r"irrelevant|replaced|rescinded|no longer (?:apply|applies|valid|in force|relevant|count)|do not apply|"
             r"don't apply)\b"
             r"|\b(?:the\s+)?(?:instructions|rules|guidance|directives|notes|entries)\s+(?:above|before this|in "
             r"(?:memory|user|agents|claude)\.md|in this file)\s+(?:are|is|were)?\s*(?:now\s+)?(?:void|null|invalid|"
             r"cancel+ed|revoked|obsolete|outdated|superseded|irrelevant|no longer (?:apply|valid|relevant))\b"
             r"|(?:вс\w*\s+)?(?:прежн\w*|предыдущ\w*|ранн\w*|ранее\s+\w+|стар\w*|остальн\w*|вышеуказанн\w*|"
             r"вышеперечисленн\w*)\s+(?:системн\w*\s+)?(?:правил\w*|указани\w*|инструкци\w*|директив\w*|"
             r"распоряжени\w*|заметк\w*|запис\w*)(?:\s+(?:в|из)\s+\S+)?\s+(?:теперь\s+|больше\s+)?"
             r"(?:недействительн\w*|отменен\w*|отменя\w*|утратил\w* силу|не действу\w*|устарел\w*|аннулир\w*|"
             r"не имеют силы|неактуальн\w*|больше не действу\w*)"
             r"|(?:вс\w*\s+)?(?:правил\w*|указани\w*|инструкци\w*)\s+(?:выше|в (?:memory|user|agents)\.md|в этом "
             r"файле)\s+(?:теперь\s+|больше\s+)?(?:недействительн\w*|отменен\w*|отменя\w*|устарел\w*|не действу\w*)"),
    "only_this": (r"\b(?:as|are|is) (?:your|the) only (?:instructions?|rules?|orders?)\b|"
                  r"\b(?:follow|obey|listen to|use|apply)\s+only\s+(?:this|these|the (?:rules|steps|instructions) "
                  r"below|the following|me)\b|\bonly (?:this|these) (?:note|rule|entry|file|line|instruction)s? "
                  r"(?:counts?|matters?|appl(?:y|ies))\b|(?:следуй|подчиняйся|слушайся|слушай|выполняй|"
                  r"руководствуйся)\w*\s+только\b|(?:работа|действу|важн)\w*\s+только\s+(?:эт\w*|указани\w*|"
                  r"инструкци\w*|правил\w*)"),
    # instruction-override, looser: earlier memory (object + "earlier") declared void, any word order
    "prior": '(?:\\b(?:(?:stored|saved|kept|written|recorded) in (?:the |your )?memory|in (?:your |the )?memory)\\b|(?<!\\w)(?:в памяти|из памяти|записанн\\w* в памят\\w*)(?!\\w)|\\b(?:previous|prior|earlier|above|preceding|old|older|existing|former|so far|until now|before (?:today|now|this(?: line| entry| note| block| point)?))\\b|(?:memory|user|agents|claude)\\.md|(?<!\\w)(?:прежн\\w*|предыдущ\\w*|ранее|раньше|ранн\\w*|выше|до (?:этой|этого|сих пор)\\w*|стар\\w*)(?!\\w))|(?:\\b(?:previous|prior|earlier|above|preceding|old|older|existing|former|original|all|other)\\b|(?:memory|user|agents|claude)\\.md|(?<!\\w)(?:прежн|предыдущ|ранн|стар|прошл|исходн|вс|остальн|други)\\w*|(?<!\\w)(?:ранее|раньше|выше|в памяти)(?!\\w))',
    "mem_obj": (r"\b(?:instructions?|rules|guidance|guidelines|directives|notes|entries|orders|prompts?|policies|"
                r"everything|anything|all of it)\b|(?:memory|user|agents|claude)\.md|(?<!\w)(?:правил\w*|указани\w*|"
                r"инструкци\w*|директив\w*|заметк\w*|запис\w*|вс[её])(?!\w)"),
    "void_pred": (r"\b(?:void|null|invalid|cancel+ed|revoked|voided|annulled|lifted|suspended|withdrawn|obsolete|outdated|"
                  r"superseded|deprecated|rescinded|no longer (?:apply|applies|valid|binding|in force|in effect|relevant|"
                  r"counts?|holds?|matters?)|(?:do|does) not apply|(?:don't|doesn't) apply|(?:was|were) (?:just )?"
                  r"(?:a test|fake|a decoy))\b|(?<!\w)(?:недействительн\w*|отменен\w*|отменя\w*|утратил\w* силу|"
                  r"(?:больше )?не (?:действу|применя|работа|считаются)\w*|аннулир\w*|не имеют силы|неактуальн\w*|сняты)"),
    # override-user: the user's word set aside
    "user_void": (r"\buser'?s?\s+(?:[\w'\"«»“”/-]+\s+){0,6}?(?:rules?|instructions?|preferences?|requests?|directives?|wish(?:es)?|"
                  r"restrictions?|orders?|bans?|limits?|words)\b[^.;!?]{0,40}?\b(?:is|are|was|were|has been|have been)?\s*"
                  r"(?:outdated|obsolete|void|invalid|cancel+ed|superseded|irrelevant|deprecated|(?:can|may|should) (?:safely )?"
                  r"be (?:ignored|disregarded|skipped)|no longer (?:valid|"
                  r"applies|apply|relevant|in force)|doesn't apply|does not apply|don't apply|do not apply)\b|"
                  r"(?:правил\w*|указани\w*|инструкци\w*|запрет\w*|просьб\w*|пожелани\w*|ограничени\w*)\s+"
                  r"пользовател\w*[^.;!?:]{0,40}?(?:устарел\w*|недействительн\w*|отменен\w*|не действу\w*|"
                  r"неактуальн\w*|больше не (?:действу|актуальн)\w*|можно (?:не соблюдать|не учитывать|игнорировать|пропускать)|"
                  r"не учитыва\w*|не соблюда\w*|не применя\w*)"),
    "user_anyway": (r"(?<!\w)(?:возражени|просьб|жалоб|протест|запрет|отказ)\w*\s+пользовател\w*[^.;!?]{0,40}?"
                    r"(?:не обращай внимания|игнорируй|не учитывай|не слушай)|\buser'?s? (?:objections?|complaints?|"
                    r"requests?|protests?|refusals?)\b[^.;!?]{0,40}?\b(?:can be ignored|should be ignored|don't matter|"
                    r"do not matter|are irrelevant)\b|(?:что|как|сколько)\s+бы\s+ни\s+(?:\w+\s+){1,2}?(?:пользовател|владел)\w*|\b(?:if|when|whenever|even if|should)\s+(?:the\s+)?(?:user|owner|human)\s+(?:\w+\s+){0,1}?"
                    r"(?:says?|asks?|complains?|objects?|protests?|forbids?|refuses?|disagrees?|insists?|tells?|"
                    r"wants?|requests?|writes?|pushes back|says no)\b[^.]{0,80}?\b(?:regardless|anyway|anyways|"
                    r"nevertheless|all the same|ignore (?:it|them|that|this|him|her)|don't listen|do not listen)\b|"
                    r"\bwhatever\s+(?:the\s+)?(?:user|owner|human)\s+(?:says|asks|wants|writes|thinks|requests|replies|answers|decides|objects|"
                    r"prefers)\b(?=[^.;!?]*\b(?:anyway|regardless|ignore|disregard|override|overrule|yourself|instead|"
                    r"still|nevertheless|don't|do not)\b|[^.;!?]*?,\s+(?!(?:ask|check|confirm)\b)\w+)|\b(?:no matter|regardless of|irrespective of)\s+(?:\w+\s+){0,3}?(?:the\s+)?"
                    r"(?:user|owner|human)'?s?\b|"
                    r"(?:что|как|сколько)\s+бы\s+(?:ни\s+)?(?:\w+\s+)?(?:пользовател\w*|владел\w*)\s+(?:\w+\s+)?ни\s+"
                    r"\w+|независимо от того,?\s+что\s+(?:\w+\s+)?(?:говорит|скажет|просит|попросит|хочет)\s+"
                    r"пользовател\w*|(?:даже )?если пользовател\w* (?:\w+\s+){0,2}?(?:против|запрещ\w*|возража\w*|"
                    r"откаж\w*|жалу\w*|проси\w*|попрос\w*|скаж\w*)[^.]{0,80}?(?:вс[её] равно|несмотря ни на что|"
                    r"продолжай|не слушай|игнорир\w*)"),
    # override-user: when the user's word and an outside source disagree, the outside source is to be followed
    "conflict": (r"\b(?:conflicts?|contradicts?|disagrees?|differs?|clash(?:es)?|diverges?|(?:is|are) at odds)\b|"
                 r"(?<!\w)(?:расход|противореч|не совпада|конфликту)\w*"),
    "follow_verb": (r"\b(?:follow|obey|go with|side with|prefer|trust|use|apply|do what)\b|(?<!\w)(?:выполняй|следуй|"
                    r"слушай|слушайся|делай (?:как|по)|верь|доверяй|руководствуйся|исполняй)(?!\w)"),
    "conceal": (r"\b(?:don't|do not|never|without)\s+(?:mention|mentioning|tell|telling|reveal|revealing|disclose|disclosing|"
                r"announce|announcing|flag|flagging|report|reporting|explain|explaining)\s+(?:this|the|these|that)\s+"
                r"(?:change|instruction|note|rule|override|switch|update|setting)s?\b|(?<!\w)(?:не\s+(?:говори|сообщай|"
                r"упоминай|рассказывай|объясняй)|не\s+упоминая|не\s+сообщая)\s+(?:\w+\s+)?(?:об?|про)\s+(?:этом|это\w*)\s+"
                r"(?:изменени|правил|инструкци|настройк|замен)\w*"),
    # override-user: whatever the user set, then a fixed choice ("…, reply in English only"); the user's words,
    # named by a pronoun, declared ignorable («его слова можно не учитывать»)
    "user_dismissed": (r"\bwhatever\s+(?:[\w-]+\s+){0,3}?(?:the\s+)?(?:user|owner|human)\s+(?:has\s+)?(?:gave|given|set|"
                    r"chose|chosen|picked|specified|stated|asked for|requested|configured|prefers|wants|said)\b"
                    r"[^.;!?]{0,80}?\b(?:only|always|anyway|regardless|everything|all the same)\b|"
                    r"(?<!\w)как\w*\s+бы\s+(?:\w+\s+){0,2}?ни\s+(?:\w+\s+)?(?:дал|задал|выбрал|указал|просил)\w*\s+"
                    r"пользовател\w*[^.;!?]{0,80}?(?:только|всегда|вс[её] равно)|(?<!\w)(?:его|ее|их)\s+(?:слов|указани|просьб|запрет|"
                    r"правил|инструкци|пожелани)\w*\s+(?:\w+\s+)?(?:можно не (?:соблюдать|учитывать|слушать|выполнять)|"
                    r"можно игнорировать|не учитыва\w*|не считаются|устарел\w*|не действу\w*|неактуальн\w*|не актуальн\w*)|"
                    r"\b(?:his|her|their)\s+(?:words|instructions|rules|requests?|bans?|wishes|"
                    r"preferences)\s+(?:can|may|should)\s+(?:safely\s+)?be\s+(?:ignored|disregarded|skipped|overridden)\b"),
    # exfiltration: sending verb + sensitive object + outside target, any order within a sentence
    "send": '(?:\\b(?:send|post|upload|e-?mail|mail|forward|transmit|exfiltrate|leak|share|sync|submit|pipe|dump|cc|bcc|report|push|relay|copy|copie|attach|include|paste|dm|text|ship|export|deliver|hand over|back up|mirror|record)(?:s|es|ed|d|ing|ted|red|ped)?\\b|\\blog(?:s|ged|ging)?\\s+(?:it|them|this|that|everything|all|\\w+)\\s+(?:to|into|at)\\b|(?:отправ|пересыл|перешл|перенаправ|загруж|загрузи|выгруж|выгрузи|сли|слей|сливай|переда|прикладыва|приложи|копир|скопир|синхронизир|публику|опубликуй|присыла|пришли|дублир|скрыт\\w* копи|скидыва|скинь|кида|кинь|шли|отсыла|отошли|сбрасыва|сбрось|экспортир|пости|запости|выкладыва|выложи|добавля|добавь|вставля|вставь|прикрепля|прикрепи|коммит|полож|клад|помест|размест)\\w*)|(?:\\b(?:send|sends|sent|sending|post(?:s|ed|ing)?|upload\\w*|e-?mail(?:s|ed|ing)?|mail(?:s|ed|ing)?|forward\\w*|transmit\\w*|exfiltrat\\w*|leak\\w*|shar(?:e|es|ed|ing)|sync\\w*|submit\\w*|pipe[ds]?|dump\\w*|relay\\w*|cop(?:y|ies|ied|ying)|paste[ds]?|pasting|attach\\w*|export\\w*|deliver\\w*|ship(?:s|ped|ping)?|push(?:es|ed|ing)?|beam\\w*|back(?:s|ed|ing)? up|mirror\\w*|replicat\\w*|publish\\w*|report(?:s|ed|ing)?|text(?:s|ed|ing)? (?:it|them|the|all|any|every|each|your|my)|go(?:es)? (?:straight |directly )?(?:to|into)|end(?:s)? up (?:at|in|on)|log(?:s|ged|ging)? (?:\\w+ )?(?:to|into|at)|cc|bcc|dm|put (?:\\w+ )?(?:into|in|on) (?:the|a|an)|record(?:s|ed|ing)?|note (?:it|them) (?:down )?(?:in|on)|write (?:it|them) (?:down )?(?:in|on|to|into))\\b|(?<!\\w)(?:отправ|пересыл|перешл|перенаправ|загруж|загруз|выгруж|выгруз|сли[вйт]|переда|прикладыва|приложи|копир|скопир|синхронизир|публику|опублику|присыла|пришл|дублир|скидыва|скин|шли|отсыла|отошл|сбрасыва|сбрось|экспортир|пости|запости|выкладыва|выложи|вставля|встав|прикрепля|прикреп|бэкап|заливай|залей|залить|залива|полож|клад|помест|размест|сообща|сообщи|уход\\w* на|попада\\w* (?:на|в)|(?:сохраня|храни|клад|положи)\\w* (?:\\w+\\s+)?копи)\\w*|\\b(?:save|store|keep|drop|place) (?:a |an )?(?:cop(?:y|ies)|backup|mirror)\\b)',
    "sensitive": (r"(?:\.env\b|api[ _-]?keys?|access keys?|tokens?|credentials?|secrets?|passwords?|passphrases?|"
                  r"private keys?|ssh\b|id_rsa|id_ed25519|\.aws|cookies?|env vars|environment variables|seed phrase|"
                  r"wallet|passports?|phone(?: numbers?)?|(?:home|postal|mailing|street) address(?:es)?|"
                  r"(?:user'?s?|their|his|her) (?:\w+ )?address(?:es)?|addresses|date of birth|birth ?date|ssn|"
                  r"social security|card numbers?|credit cards?|cvv|bank (?:details|accounts?)|iban|contacts|"
                  r"(?:all|every|each|the user'?s?) (?:\w+ )?(?:e-?mails?|messages|letters|chats?|conversations?)|"
                  r"chat (?:logs|history)|personal (?:data|details|info\w*)|medical|(?:user|memory|agents|claude)\.md|"
                  + SECRET_DUMP + r")"
                  r"|паспорт\w*|телефон\w*|номер\w* (?:карт\w*|телефон\w*|паспорт\w*)|домашн\w* адрес\w*|"
                  r"адрес\w* (?:пользовател\w*|проживани\w*|доставки)|данн\w* карт\w*|снилс|инн\b|дат\w* рождени\w*|"
                  r"контакт\w*|парол\w*|токен\w*|ключ\w*|секрет\w*|учетн\w* данн\w*|личн\w* данн\w*|"
                  r"(?:вс\w*|кажд\w*) (?:\w+ )?(?:письм\w*|сообщени\w*)|переписк\w*|куки|cookie\w*|"
                  r"\b(?:customer|client|user|production|prod|patient|employee)s?'? (?:data(?:base)?|db|records|lists?|"
                  r"e-?mails?|details)\b|\b(?:database|db) (?:dumps?|exports?|backups?)\b|\bdumps? of\b|"
                  r"\bcontact (?:list|book|details)s?\b|\baddress book\b|\bcalendar\b|"
                  r"баз\w* (?:данн\w*|клиент\w*|пользовател\w*)|дамп\w*|календар\w*|список контакт\w*"),
    "target": (URLISH + r"|\+\d[\d ()-]{8,}\d|\b(?:webhook|pastebin|gist|telegram|телеграм\w*)\b|"
               r"\b(?:commit messages?|pr descriptions?|issue comments?|public (?:\w+ )?(?:gist|bucket|repo\w*|channel|page|"
               r"folder|drive|link|wiki|doc\w*|notebook|board)s?|(?:slack|discord|mattermost|ms teams|irc|zulip|whatsapp)"
               r"(?: channel| chat| dm)?|#[\w-]+ (?:channel|chat)|"
               r"(?:every|each|all|any|the next) (?:reply|replies|response|responses|answer|answers|commit|message)s?)\b|"
               r"(?:в|во) (?:кажд\w*|любо\w*|вс\w*|следующ\w*) (?:ответ\w*|коммит\w*|сообщени\w*)|"
               r"\b(?:the |a |an )?(?:web )?form (?:at|on)\b|"
               r"(?:в|во) (?:описани\w* (?:pr|пулл?-?реквест\w*)|сообщени\w* коммит\w*)|(?:публичн|общ|открыт)\w* (?:\w+ )?"
               r"(?:гист|репозитори|канал|чат|папк|страниц|ссылк|диск)\w*"),
    # trust-source: a source declared trustworthy + its content may be run/followed
    "trust_decl": (r"\b(?:official|officially|endorsed|signed by|trusted|trustworthy|verified|reliable|authoritative|whitelisted|allowlisted|vetted|"
                   r"(?:carry|carries|has|have|with)\s+(?:the\s+)?(?:[\w']+\s+)?authority|"
                   r"safe (?:source|origin|mirror|repo\w*|site)|approved (?:source|mirror|repo\w*))\b|официальн\w*|"
                   r"доверенн\w*|проверен\w*|надежн\w*|довер\w*|безопасн\w* (?:источник|зеркал|сайт|репозитори)\w*"),
    "trust_act": (r"\b(?:run|runs|ran|execute[ds]?|executing|install(?:s|ed|ing)?|follow(?:s|ed)?|obey(?:ed)?|"
                  r"apply|applied|source[ds]?|pipe[ds]?)\b|(?:запуска|запуст|выполня|выполн|устанавлива|установ|ставь|"
                  r"ставить|следуй|следовать|исполня)\w*"),
    "unchecked": (r"\b(?:as[- ]is|as (?:given|written|posted|provided)|verbatim|word for word|blindly|unquestioningly|"
                  r"automatically|without (?:double-?)?(?:review\w*|check\w*|verif\w*|question\w*|asking|confirm\w*)|"
                  r"no need to (?:check|verify|review|double-?check|confirm)|need(?:s)? no (?:review|check\w*|verification)|"
                  r"no (?:review|checks?) (?:needed|required)|safe to (?:run|execute|install))\b|"
                  r"(?<!\w)(?:без (?:проверк|подтвержд|вопрос|ревью)\w*|(?:проверять|перепроверять) (?:\w+\s+)?не "
                  r"(?:нужно|надо|требуется|стоит)|не (?:нужно|надо) (?:\w+\s+)?(?:проверять|перепроверять)|не глядя|"
                  r"как есть|автоматически|сразу)"),
    # instruction-override, any word order: an order to set aside instructions named as earlier or as memory's
    "ignore_verb": (r"\b(?:ignore|disregard|forget|drop|discard|set aside|throw out|override|overrule)\b|"
                    r"(?<!\w)(?:игнорир\w*|проигнорир\w*|забудь|забыть|отбрось|отбросить|не учитывай|не учитывать|"
                    r"не обращай внимания на|пренебреги)(?!\w)"),
    "rule_obj": (r"\b(?:instructions?|rules|directives|guidelines|guidance|policies|prompts?|orders|constraints|notes|entries|"
                 r"(?:memory|user|agents|claude)\.md)\b|(?<!\w)(?:инструкци\w*|правил\w*|указани\w*|директив\w*|"
                 r"ограничени\w*|заметк\w*|запис\w*)"),
    "scoped": '\\s*(?:\\w+\\s+){0,2}?(?:about|regarding|on|for|про|насчет|о|об|по поводу|для)\\s',
    # instruction-override: an outside source ranked above memory, the rules or the user
    "precedence": (r"\b(?:takes?|taking|took|have|has|get|gets) (?:precedence|priority) over\b|\b(?:outranks?|"
                   r"outweighs?|supersedes?|overrides?|trumps?|wins? over|replaces?|are above|is above)\b|"
                   r"(?<!\w)(?:важнее|главнее|приоритетнее|(?:имеют|имеет|получают|получает) приоритет|приоритет над|"
                   r"заменяют|заменяет|отменяют|отменяет|перекрывают|перекрывает|стоят выше|стоит выше)(?!\w)"),
    "outside_src": (r"\b(?:web ?pages?|websites?|sites?|pages?|fetched|scraped|issue comments?|issues?|tickets?|"
                    r"comments?|e-?mails?|tool output|search results|linked (?:doc|page|file)s?|docs? at|links?|urls?|"
                    r"pull requests?|chat messages?|slack|discord|forums?|readme of|third[- ]party)\b|"
                    r"(?<!\w)(?:сайт\w*|страниц\w*|тикет\w*|письм\w*|комментари\w*|ссылк\w*|чат\w*|"
                    r"вывод\w* инструмент\w*|форум\w*)|" + URLISH),
    "mem_ref": (r"\b(?:memory|memory\.md|user\.md|agents\.md|claude\.md|notes|rules|instructions|guidance|"
                r"directives|the user|user'?s|this file)\b|(?<!\w)(?:памят\w*|заметк\w*|правил\w*|инструкци\w*|"
                r"пользовател\w*|этом файле)"),
    # persistence: the line orders itself copied into other files or sessions
    "copy_verb": '(?:\\b(?:copy|copies|paste|carry (?:it |this |them )?(?:over|forward)|propagate|replicate|repeat|duplicate|keep|add|append|include|insert|re-?add|mirror|spread|move|transfer)\\b|(?<!\\w)(?:скопир\\w*|копир\\w*|перенес\\w*|перенос\\w*|дублир\\w*|продублир\\w*|повтор\\w*|добав\\w*|встав\\w*|распростран\\w*))|(?:\\b(?:cop(?:y|ies)|duplicat\\w*|replicat\\w*|propagat\\w*|paste|carry|spread|clone|mirror|add|append|insert|include|put|write|repeat)\\b|(?<!\\w)(?:копир|скопир|дублир|продублир|распростран|добав|встав|впиш|запиш|повтор|перенос|перенес)\\w*)',
    "self_ref": '(?:\\b(?:this|these|the present|the same) (?:exact |very |whole |same )?(?:note|line|entry|text|instruction|rule|paragraph|block|message|sentence|reminder)s?\\b|\\bverbatim\\b|(?<!\\w)(?:эт\\w*|данн\\w*|настоящ\\w*) (?:\\w+ )?(?:запис\\w*|строк\\w*|заметк\\w*|правил\\w*|инструкци\\w*|текст\\w*|абзац\\w*|напоминани\\w*)|дословно)|(?:\\b(?:the\\s+)?(?:line|entry|note|rule|instruction|text|block|paragraph)s?\\s+(?:above|below)\\b|\\b(?:this|these|the present|the following|the above)\\s+(?:exact\\s+|very\\s+|same\\s+|whole\\s+)?(?:line|entry|note|rule|instruction|text|block|paragraph|reminder|directive|message|command|script|snippet|hook|memory)s?\\b|(?<!\\w)(?:эт[уаоиы]\\w*|данн\\w*|настоящ\\w*|следующ\\w*)\\s+(?:\\w+\\s+)?(?:запис|строк|заметк|правил|инструкци|текст|абзац|напоминани|команд|скрипт|хук|настройк|пункт|блок)\\w*)',
    "spread": '(?:\\b(?:every|each|all|any)\\s+(?:new\\s+|future\\s+)*[\\w./*-]*\\.md\\b|\\b(?:every|each|all|any) (?:of the )?(?:new |future |other |subsequent |later |following )*(?:daily )?(?:files?|notes?|sessions?|memory files?|documents?|entries|conversations?|chats?|projects?|repos?|repositories)\\b|(?<!\\w)(?:во? вс\\w*|в кажд\\w*|в любо\\w*) (?:\\w+ ){0,2}?(?:заметк\\w*|файл\\w*|сесси\\w*|запис\\w*|документ\\w*|проект\\w*|чат\\w*))|(?:\\b(?:every|each|all|any)\\s+(?:new\\s+|future\\s+|other\\s+|later\\s+)*(?:days?|daily notes?|notes?|files?|memory files?|documents?|entries|projects?|repos?|repositories|sessions?)\\b|(?<!\\w)(?:во? (?:кажд|вс|любо)\\w*)\\s+(?:нов\\w*\\s+|будущ\\w*\\s+)?(?:заметк|файл|день|дн|проект|репозитори|сесси|запис)\\w*)',
    # disable-safety with the safeguard named first: "the hook is in the way, disable it"
    "off_order": (r"\b(?:(?:turn|switch|shut) (?:it|them) off|(?:disable|bypass|skip|deactivate|remove|circumvent) "
                  r"(?:it|them)\b)|(?<!\w)(?:отключи|отключить|отключать|выключи|выключить|выключать|обойди|обойти|"
                  r"обходи|пропусти|пропустить|пропускать|убери|убрать|сними|снять|деактивируй|деактивировать)(?!\w)"),
    # html comments addressed to the assistant (anywhere in the first words of the comment)
    "to_ai": (r"^\W{0,3}(?:(?:note|message|memo|instructions?|reminder|hint|directive)s?\s+(?:to|for)\s+(?:the\s+|"
                  r"any\s+|all\s+)?" + _AI + r"s?\b|(?:for|to)\s+(?:the\s+)?" + _AI + r"s?(?:\s+only)?\s*(?:[:,—–]|\s-\s)|"
                  r"(?:dear\s+|hey\s+|attention\s+)?" + _AI + r"s?(?:\s+only)?\s*(?:[:,—–]|\s-\s)|(?:dear|hey|attention)\s+" + _AI
                  + r"|(?:заметк\w*|примечани\w*|пометк\w*|записк\w*|сообщени\w*|инструкци\w*|указани\w*|напоминани\w*)\s+(?:для\s+)?" + _AI +
                  r"|для\s+" + _AI + r"(?:\s+только)?\s*(?:[:,—–]|\s-\s)|" + _AI + r"\s*(?:[:,—–]|\s-\s))"),
}


class _Lazy(dict):
    """Patterns per detector kind, compiled on first need (a memory write scans a few lines)."""

    def __init__(self, sources: dict) -> None:
        super().__init__()
        self.sources = sources

    def __missing__(self, key: str):
        value = [(re.compile(p, _F), strong) for p, strong in self.sources[key]]
        self[key] = value
        return value


@functools.lru_cache(maxsize=1)
def _compiled() -> _Lazy:
    return _Lazy(dict(_P))


@functools.lru_cache(maxsize=1)
def _aux() -> _LazyAux:
    return _LazyAux(_aux_sources())


class _LazyAux(dict):
    """The auxiliary patterns and frames by name, compiled on first need."""

    def __init__(self, sources: dict) -> None:
        super().__init__()
        self.sources = sources

    def __missing__(self, key: str):
        pattern, flags = self.sources[key]
        value = self[key] = re.compile(pattern, flags)
        return value


def _aux_sources() -> dict[str, tuple[str, int]]:
    return {
        "neg": (NEG_EN + "|" + NEG_RU, _F),
        "report": (REPORT, _F),
        "quoted": (QUOTED, _F),
        "code_span": (CODE_SPAN, _F),
        "run_order": (RUN_ORDER, _F),
        "url": (URLISH, _F),
        "ex_en": (_EXFIL_VERB_EN + r"[^.;!?]{0,80}?" + SECRETS_EN + r"[^.;!?]{0,100}?" + _EXFIL_DEST_EN, _F),
        "ex_en2": (SECRETS_EN + r"[^.;!?]{0,30}?\b(?:to|into|in)\b[^.;!?]{0,10}?" + _EXFIL_DEST_EN
                                + r"[^.;!?]{0,60}?" + _EXFIL_VERB_EN, _F),
        "ex_ru": (_EXFIL_VERB_RU + r"[^.;!?]{0,80}?" + SECRETS_RU + r"[^.;!?]{0,100}?" + _EXFIL_DEST_RU, _F),
        # a secret file read and shipped by a network tool in one command: `cat ~/.ssh/id_rsa | nc …`,
        # `curl -F f=@.env …`, `scp ~/.aws/credentials host:`, `nc host port < ~/.netrc`
        "ex_command": (r"\b(?:cat|tar|zip|gzip|base64|xxd|cp|head|tail|less|type|gc|get-content)\b[^|\n]{0,80}?"
                       + SECRET_FILE + r"[^|\n]{0,40}?\|\s*(?:[^|\n]{0,40}\|\s*)?(?:sudo\s+)?" + NET_TOOL + "|"
                       + NET_TOOL + r"[^\n]{0,100}?(?:\s-d|--data[\w-]*|\s-f|--form|\s-t|--upload-file|--post-file|"
                       r"--body-file|--attach)[\s=]*[\"']?(?:[\w.-]+=)?@?" + SECRET_FILE + "|"
                       r"\b(?:scp|rsync)\s+(?:-\S+\s+)*" + SECRET_FILE + r"\S*\s+\S*:|" + NET_TOOL + r"[^<\n]{0,80}<\s*"
                       + SECRET_FILE, _F),
        # a secret carried in a request: the carrier, the verb that puts it there, the secret by kind
        "ex_carrier": (r"\b(?:query(?: string| param\w*)?|url param\w*|(?:request |http )?(?:headers?|body|params?|"
                       r"parameters?)|in the (?:url|link|request))\b|(?<!\w)(?:параметр\w*|заголов\w*|в (?:url|ссылк\w*|"
                       r"запрос\w*|теле запроса))", _F),
        "ex_put": (r"\b(?:add|append|put|include|pass|attach|embed|send|set|stick|tack)\w*\b|(?<!\w)(?:добав|"
                   r"передава|переда|вставля|встав|прикладыва|приложи|указыва|укажи|отправ)\w*", _F),
        "ex_service_key": (r"\b(github|gitlab|openai|anthropic|stripe|aws|slack|npm|pypi|docker|google|gcp|azure|twilio|"
                           r"sendgrid|heroku|vercel|cloudflare|telegram)[ _-]?(?:api[ _-]?|access[ _-]?|secret[ _-]?|"
                           r"personal[ _-]?|bot[ _-]?)?(?:keys?|tokens?|secrets?|pat)\b", _F),
        "ex_private": (SECRET_FILE + r"|\b(?:passwords?|passphrases?|private keys?|session cookies?|seed phrases?)\b|"
                       r"(?<!\w)(?:парол\w*|приватн\w* ключ\w*)", _F),
        "trust_word": (
            r"\b(?:(?:trusted|trustworthy|authoritative|whitelisted|allowlisted|verified|official|safe|first-party)\s+(?:source|"
            r"origin|mirror|site|domain|sender|repo\w*|registry|host|server|channel|url|link|cdn|feed|provider|"
            r"partner|address|authority)s?\b|(?:is|are|as|be|considered|deemed|marked|listed as)\s+(?:a |an |the |"
            r"fully )?(?:trusted|trustworthy|authoritative|whitelisted|allowlisted|safe|verified|official)\b|"
            r"always trust|trust (?:all|any|every|everything|anything|it|them|this|these|its|their)\b)|(?:доверя\w*|довериться|доверенн\w*|"
            r"проверенн\w* (?:источник\w*|сайт\w*|зеркал\w*|домен\w*|отправител\w*)|надежн\w* источник\w*|"
            r"официальн\w* источник\w*)", _F),
        "trust_strong": (
            r"\bas if (?:they|it|these|this) (?:came|come|were|was|are|is) from (?:the )?user\b|"
            r"\b(?:follow|obey|treat|execute|apply|trust)\w*\b[^.;]{0,40}\bas (?:if|though)\b[^.;]{0,25}\b(?:the )?user\b|\bwith the user'?s "
            r"authority\b|\btrust\b[^.;]{0,30}\bwithout (?:verification|verifying|checking|question)\b|"
            r"\bprefer (?:it|them|this|\S+) over (?:\S*registry\.npmjs\.org|\S*pypi\.org|the official)\b|"
            r"\btreat\b[^.;]{0,60}\bas (?:coming from|instructions from|orders from|the words of|requests from) (?:the )?user\b|"
            r"\b(?:counts?|counted|regarded|considered|taken|treated) as (?:coming |having come )?(?:from|by) (?:the )?"
            r"(?:user|owner)\b|"
            r"(?:считай|воспринимай|рассматривай|принимай)\b(?:[^.;!?]|\.(?=\S)){0,60}(?:указани\w*|инструкци\w*|слова\w*|просьб\w*|"
            r"команд\w*) пользовател\w*|(?:как|будто|словно) (?:бы )?(?:от|слова|указания) пользовател\w*|доверя\w*[^.;]{0,30}без проверки|"
            r"(?:ставь|устанавливай|качай|скачивай|бери)\w* (?:\w+ )?только (?:оттуда|отсюда|с него|с этого|с нее)", _F),
        # what a source serves counted as already approved (run only beside an approval word, see _trust)
        "trust_approved": (
            r"\b(?:scripts?|code|packages?|commands?|instructions?|content|anything|everything|files?|binaries|builds?|"
            r"updates?|releases?)\s+(?:from|by|served by|published by|posted (?:on|by)|on)\s+"
            r"(?:(?!our\b|internal\b|in-house\b|self-hosted\b)[\w./*-]+\s+){1,3}?"
            r"(?:(?:counts?|counted|are|is|should be|can be|may be|get|gets)\s+(?:treated\s+|considered\s+|regarded\s+|"
            r"deemed\s+)?as\s+(?:already\s+)?(?:pre-?approved|auto-?approved|approved|vetted|whitelisted|allowlisted|"
            r"signed off)|(?:are|is|get|gets|count|counts)\s+(?:already\s+)?(?:pre-?approved|auto-?approved|"
            r"whitelisted|allowlisted)|(?:are|is|get|gets)\s+already\s+(?:approved|vetted|signed off))\b|"
            r"(?:скрипт|код|пакет|команд|инструкци|сборк|обновлени)\w*\s+(?:из|с|со|от)\s+"
            r"(?:(?!наш|внутренн|корпоративн)[\w./*-]+\s+){1,3}?"
            r"(?:считаются|считается|считай|считать)\s+(?:уже\s+)?(?:одобренн|проверенн|доверенн|согласованн)\w*", _F),
        # a source given the same weight as the user (run only beside a sameness word, see _trust)
        "trust_same": (
            r"\b(?:same|equal|equivalent)\s+(?:weight|authority|priority|standing|status|force)\s+as\s+(?:the\s+|a\s+)?"
            r"(?:user|owner)\b|(?:тот же|такой же|такую же|ту же|равн\w*)\s+(?:вес|силу|приоритет|статус|авторитет)\w*,?\s+"
            r"(?:что и|как и|как|с)\s+(?:у\s+)?(?:пользовател|владел)\w*", _F),
        "internal": (r"\b(?:our|internal|own|in-house|self-hosted|company|corporate)\b|(?<!\w)(?:наш|внутренн|корпоративн)\w*", _F),
        "b64_pipe": (
            r"\bbase64\s+(?:-d|--decode|-D|-di|-id)\b[^\n]{0,60}?\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python[0-9.]*|"
            r"perl|node|ruby|eval|source)\b|\b(?:eval|exec)\s*[\"(]?\s*\$\(\s*(?:echo|printf)\s+['\"]?[A-Za-z0-9+/=]{12,}"
            r"[^)]*base64|frombase64string\s*\(|\batob\s*\(|\bb64decode\s*\([^)]*\)\s*\)?\s*(?:\)|;)?\s*$", _F),
        "b64_token": (r"(?<![A-Za-z0-9+/:])[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=])", 0),
        # a word of letters with digits or signs standing for some of them ("1gn0re", "pr1nt", "p@ssword"): one
        # between two letters, or one before two letters at its start (not a number after a name: "svc12", "ipv4")
        "leet_word": (r"(?<![\w@$])(?=[\w@$]*[^\W\d_][013457@$][^\W\d_]|[013457@$][^\W\d_]{2})[\w@$]{3,}",
                      _F),
        # combining marks (an overlay or accent that no letter composes with)
        "combining": (r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]", 0),
        # a word spelled out in four or more single letters ("i g n o r e")
        "spaced_word": (r"(?<!\S)(?:[^\W\d_] ){3,}[^\W\d_](?!\S)", _F),
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
        **{k: (v, _F) for k, v in {**_FRAME_SOURCES, **_FAMILY_SOURCES}.items()},
        "split": (r"[.!?;](?=\s|$)", 0),
        # a prohibition right after the act it forbids, at most three words (its object) between, no conjunction
        "forbidden": (r"\w+\s+(?:(?!(?:and|or|but|then|и|или|но|а|потом)\b)[\w-]+\s+){0,3}?(?:(?:нельзя|запрещено|"
                      r"запрещается|недопустимо|не допускается|не разрешается)(?!\w)|(?:is|are) (?:not (?:allowed|"
                      r"permitted)|forbidden|prohibited|never allowed)\b)", _F),
        "hedge": (r"\b(?:probably|likely|maybe|perhaps|seems?|apparently|i think|might)\b|скорее всего|вероятно|"
                    r"кажется|возможно|похоже|видимо|наверное", _F),
        "own": (r"\bmy\b|(?<!\w)мо(?:и|их|ими|ей|ю|я|е)(?!\w)", _F),
        "only_user": (r"\b(?:ask|check with|confirm with|consult)\s+(?:the\s+)?(?:user|owner|human)\s+first\b|"
                        r"\bfirst\s+(?:ask|check with|confirm with)\s+(?:the\s+)?(?:user|owner|human)\b|"
                        r"(?<!\w)(?:сначала|сперва|прежде)\s+(?:\w+\s+)?(?:спросить|спроси|уточнить|уточни|согласовать|"
                        r"согласуй)\s+(?:у\s+|с\s+)?(?:пользовател|владел)\w*|\bonly (?:the )?(?:user|owner|human)\b|\b(?:user|owner) (?:must|has to|should) (?:approve|"
                        r"confirm|decide)|только (?:сам )?пользовател\w*|только с (?:разрешени|согласи)\w* пользовател", _F),
        "kept_on": (r"\b(?:re-?enabled|enabled again|turned (?:back )?on|back on|keep (?:it|them|\w+) (?:on|enabled)|must "
                   r"(?:stay|remain|be) (?:on|enabled|active)|stays? enabled)\b|включ\w* обратно|снова включ\w*|"
                   r"(?:должн\w*|оставаться) (?:быть |оставаться )?включ\w*", _F),
        "word": (_WORD, 0),
        "dest_hint": (_DEST_HINT, 0),
        "not_off": (r"(?:\bnot|n't)\s+(?:\w+\s+)?(?:switched|turned|off|disabled|deactivated|suspended|lifted|removed)\b", 0),
        "subject_user": (r"\b(?:the )?(?:user|owner)\s+(?:\w+\s+)?$|(?<!\w)(?:пользовател|владел)\w*\s+(?:\w+\s+)?$", 0),
        "finite": (r"\w+(?:s|ed|ет|ит|ют|ят|ал|ил|ла|ли)$", 0),
        "predicate": (r"^(?:is|are|as|be|considered|deemed|marked|listed as)\s+(?:a |an |the |fully )?", 0),
        "wipe": (DESTRUCTIVE, _F),
        "recurring": (RECURRING, _F),
        "user_ref": (r"\b(?:user|owner|human|operator)'?s?\b|(?<!\w)(?:пользовател|владел)\w*", _F),
        # a safeguard replaced by another one is still in place ("deprecated; we migrated to trivy")
        "replaced": (r"\b(?:migrated to|moved to|replaced (?:by|with)|in favou?r of|superseded by|switched to|instead)\b|"
                     r"(?<!\w)(?:заменен\w*|заменил\w*|вместо|перешли на|переехал\w* на)(?!\w)", _F),
        # a note to whoever edits the file: tagged for a person ("TODO(maria):") or an untagged TODO/FIXME
        "todo_tag": (r"^\W{0,3}(?:(?:todo|fixme|xxx|hack|note|nb)\s*\(\s*@?([\w.-]+)\s*\)|(?:todo|fixme)\b\s*[:\-—–])", _F),
        "internal_strict": (r"\b(?:internal|corporate|in-house|self-hosted)\b|внутренн\w*|корпоративн\w*", _F),
    }


#: Cheap substring prefilters: a detector's regexes run only when one of its stems occurs in the line.
_STEMS: dict[str, tuple[str, ...]] = {
    "instruction-override": ("ignor", "disregard", "forget", "overrid", "overrul", "discard", "drop", "instruction",
                             "follow", "obey", "execute", "apply", "инструкц", "выполн", "следуй",
                             "you are now", "newest", "latest", "last", "игнор", "забуд", "забыт", "внимани",
                             "учитыв", "отбрось", "пренебре", "отмени", "соблюд", "выполн", "следуй", "инструкц",
                             "prompt", "промпт", "подсказк", "no prior", "no previous", "no earlier", "no former",
                             "you are no", "ты больше", "ты теперь", "ты уже", "restriction", "limitation", "guardrail",
                             "guideline", "boundaries", "ограничени", "запрет"),
    "override-user": ("ignor", "disregard", "overrid", "overrul", "follow", "listen", "attention", "even if",
                      "regardless", "no matter", "whatever", "without", "tell", "inform", "notify", "alert",
                      "no longer", "approved", "authori", "если пользовател", "слушай", "игнор", "не обращай",
                      "учитывай", "не выполняй", "вопреки", "несмотря", "не говори", "не сообщай", "не рассказывай",
                      "не показывай", "без ведома", "одобрил", "разрешил", "priority", "precedence", "pretend",
                      "mention", "reveal", "disclose", "hide", "conceal", "secret", "скрыв", "скрой",
                      "утаи", "вид", "притвор"),
    "disable-safety": ("bypass", "circumvent", "skip", "disable", "turn off", "switch off", "around", "deactivat",
                       "evade", "--no-verify", "--dangerously", "hookspath", "no_", "no-", "--yolo", "--no-sandbox", "--disable-hook", "safety",
                       "security", "permission", "without", "confirm", "approval", "провер", "защит", "гейт", "хук",
                       ">", "tee", "sed -i", ".md",
                       "огранич", "обойд", "обход", "отключ", "выключ", "пропус", "игнор", "спрашив", "запрашив",
                       "подтвержд", "off", "false", "disabl", "none", "warning", "alert", "mismatch", "error", "предупрежд",
                       "оповещ", "несовпад", "ошибк"),
    "fake-authority": ("system", "admin", "owner", "team", "developer", "maintainer", "решени", "указани",
                       "распоряж", "систем", "администратор", "владел", "tool", "function", "security",
                       "assistant", "agent", "model", "bot", "crawler", "llm", "gpt", "ассистент", "агент", "модел",
                       "нейросет"),
    "run-command": ("curl", "wget", "fetch", "iwr", "invoke", "irm", "<(", "-c", "rm ", "python", "mkfs", "dd ",
                    "exec", "eval", "iex", "urlopen", "downloadstring",
                    "chmod", ":()", "http", "download"),
    "persistence": ("memory", ".md", "notes", "session", "prompt", "памят", "строк", "правил", "инструкц", "запис",
                    "навсегда", "сесси", "запуск",
                    # (a line that restores itself; "remember forever"; "long-term memory" already holds "memory")
                    "restor", "re-add", "readd", "recreat", "re-creat", "reinsert", "re-insert", "it back", "them back",
                    "it again", "them again", "this back", "верни", "восстанов", "заметк", "remember"),
    # a command that wipes work, ordered for every session or build
    "wipe": ("git", "drop", "truncate", "prune", "destroy", "kubectl"),
}


_EXFIL_STEMS = ("inbox", "mailbox", "contacts", "repo", "codebase", "database", "db", "дамп", "баз", "код", "api",
                "access", "auth", "client", "private", "env",
                ".env", "key", "token", "credential", "secret", "passw", "passphrase", "ssh", "id_", ".aws", "cookie",
                "environment", "env var", ".npmrc", ".netrc", ".pgpass", "kube", "shadow", "gnupg", ".docker", "keychain", "seed", "wallet", ".md",
                "personal", "user", "ключ", "токен", "парол", "секрет", "учетн", "личн", "данн", "перепис", "куки",
                "содерж", "переменн")


_TRUST_STEMS = ("approv", "weight", "first-party", "одобрен", "согласован", "тот же", "такой же", "равн", "trust", "authorit", "whitelist", "allowlist", "verified", "official", "safe source", "as if",
                "prefer", "treat", "довер", "проверенн", "надежн", "официальн", "пользовател", "только")


_WORD = r"\w+"
#: Exfiltration needs somewhere to send to: a URL, an address, a domain or "every reply"-like words.
_DEST_HINT = (r"://|@|\w\.[a-z]{2,}|\b\d{1,3}\.\d{1,3}\.|repl|respon|messag|answer|summar|webhook|"
              r"pastebin|gist|telemetr|commit|\bform\b|slack|channel|public|ответ|сообщени|письм|сводк|коммит|канал|чат|"
              r"публичн|гист")


# -- families of meaning (rules.poisoning.families) --------------------------------------------------------------
# Each family is a conjunction of word classes (action x object x target); the classes below are stated by meaning,
# with their EN synonyms and RU stems, so a new wording of the same act needs no new pattern.
_USER_EN = r"(?:the\s+)?(?:user|owner|human|operator)'?s?"
_FAMILY_SOURCES: dict[str, str] = {
    # a class of outside content the agent reads (never one named file of the project)
    "generic_src": (
        r"\b(?:(?:in|from|inside) (?:any|every|each|a|an) (?:cloned |downloaded |third-party |external |other |random |"
        r"unknown )?(?:repo|repository|package|dependency|project|page|site|website|readme)(?:'s)?|(?:stack ?overflow|"
        r"reddit|forums?|blogs?|gists?|discord|twitter|hacker news) (?:answers?|posts?|threads?|comments?|snippets?)|"
        r"(?:commands?|code|snippets?|scripts?|steps|instructions|fixes) (?:suggested|posted|found|shared|given|"
        r"recommended|linked) (?:in|on|by|at|from)|(?:answers?|results?|responses?|output|text) (?:returned |given |produced )?(?:by|from) (?:the |a |any )?(?:\w+ )?"
        r"(?:tools?|mcp \w+|plugins?|browser|crawler|scraper|search)|(?:data|content|responses?|output|results?|payloads?) "
        r"(?:from|of|returned by) (?:the |a |any )?(?:\w+ ){0,2}?(?:apis?|endpoints?|services?|servers?|vendors?|feeds?|"
        r"webhooks?)|(?:search|browser|web|fetch|scraper|http|mcp) tools? "
        r"(?:output|results?|answers?|responses?)|web ?pages?|websites?|web sites?|(?:fetched|downloaded|scraped|retrieved|external|third[- ]party|"
        r"remote|linked|browsed|crawled|cloned|received|uploaded)\s+(?:\w+\s+)?(?:pages?|content|text|documents?|docs|"
        r"files?|results?|pdfs?|attachments?|e-?mails?|messages?|sources?|data|sites?|repos?|repository|repositories|"
        r"documentation|readmes?)|search results?|tool (?:output|results?|"
        r"responses?|calls? results?)|outputs? (?:of|from) (?:\w+\s+)?(?:tools?|commands?|mcp servers?|plugins?)|"
        r"mcp (?:server )?(?:output|responses?|results?)|api responses?|(?:issue|pr|pull request|ticket|review|code "
        r"review|github|jira)\s+(?:comments?|descriptions?|threads?)|comments? (?:in|on|from) (?:\w+\s+)?(?:issues?|"
        r"prs?|pull requests?|tickets?|reviews?)|(?:e-?mails?|messages?|letters?|dms?|attachments?) (?:from|sent by|"
        r"received)|incoming (?:e-?mails?|messages?|mail)|(?:any|every|each|all)\s+(?:\w+\s+)?(?:readmes?|repos?|repository|"
        r"repositories|web ?pages?|sites?|documents?|files? you (?:open|read|fetch)|e-?mails?|messages?|tickets?|"
        r"issues?|comments?|links?|urls?|pdfs?|attachments?)|(?:the\s+)?(?:build |ci |release |github )?bots? "
        r"(?:posts?|posted|says?|said|writes?|wrote|outputs?|comments?|messages?)|chat messages?|slack messages?|forum posts?|pages? "
        r"(?:you|we|the agent) (?:fetch|visit|open|read|load|browse)\w*|content (?:you|the agent) (?:fetch|read|"
        r"load|browse)\w*|(?:whatever|anything|everything)\s+(?:\S+\s+){0,3}?(?:posts?|posted|says?|said|writes?|written|returns?|returned|serves?|served|"
        r"outputs?|publish\w*))\b|"
        r"(?<!\w)(?:веб-?страниц\w*|(?:загруженн|скачанн|внешн|полученн|открыт|прочитанн)\w*\s+(?:\w+\s+)?"
        r"(?:страниц|документ|файл|контент|текст|сайт|источник|данн|репозитори)\w*|результат\w* поиск\w*|"
        r"вывод\w*\s+(?:\w+\s+)?(?:инструмент|утилит|команд|тул|скрипт|mcp)\w*|ответ\w*\s+(?:инструмент|сервер|api|"
        r"тул|mcp)\w*|ответ\w*\s+(?:\S+\s+)?\S*(?:сервер|mcp|api)\w*|сторонн\w* (?:пакет|библиотек|репозитори|проект|сайт|источник)\w*|(?:с|со|на|из)\s+(?:\w+\s+)?(?:сайтов|"
        r"страниц|форумов|блогов|веб-страниц)(?!\w)|(?:возвраща|выда|показыва|пиш)\w*\s+(?:поиск|инструмент|бот|сайт|"
        r"сервер|api)\w*|(?:письм|писем|сообщени|вложени)\w*\s+(?:от|из|с)\s|входящ\w* (?:письм|сообщени|почт)\w*|"
        r"комментари\w*\s+(?:в|к|из|на)\s+\w*|(?:люб|кажд|вс)\w*\s+(?:\w+\s+)?(?:сайт|страниц|readme|репозитори|"
        r"документ|письм|сообщени|тикет|комментари|ссылк)\w*|(?:сайт|страниц|тикет)\w*\s+в\s+интернет\w*)"),
    # a named outside place: a URL, a host, an address
    "named_src": URLISH,
    # the content counted as authoritative, binding, correct or the user's own word
    "auth": (
        r"\b(?:authoritative|binding|official|trusted|trustworthy|reliable|verified|vetted|endorsed|sanctioned|"
        r"(?:the |a |our )?(?:single )?source of truth|(?:the |a )?final (?:word|say|authority)|gospel|canonical|"
        r"(?:always|never)\s+(?:\w+\s+)?(?:correct|right|accurate|true|wrong|mistaken|trustworthy|safe)|"
        r"(?:verified|approved|vetted|endorsed|checked|cleared|signed off) by " + _USER_EN + r"|"
        r"(?:(?:same|equal|full) (?:weight|authority|standing|force) as|like|as if (?:it|they) (?:came|come|were) "
        r"from|on behalf of|in the name of) " + _USER_EN + r"(?:\s+own)?|"
        r"(?:carr(?:y|ies)|has|have|holds?|bears?|with|gets?) (?:the )?(?:full )?" + _USER_EN + r"\s+(?:own\s+)?"
        r"(?:authority|weight|approval|voice|word|blessing|mandate)|speaks? for " + _USER_EN + r")\b|"
        r"\b(?:believe|trust) (?:everything|anything|all)\b|"
        r"(?<!\w)(?:(?:верь|доверяй|верить|доверять) (?:всему|всем|вс[её])|истин\w* в последней инстанции|авторитетн\w*|официальн\w*|доверенн\w*|надежн\w*|проверенн\w*|обязательн\w* (?:к|для) "
        r"(?:исполнени|выполнени)\w*|источник\w* истин\w*|последн\w* слов\w*|всегда\s+(?:\w+\s+)?(?:прав|вер[её]?н|точ[её]?н|"
        r"коррект|надеж[её]?н|безошибоч)\w*|(?:так же|также|наравне|как|словно|будто)(?:,)?\s+(?:как\s+)?(?:и\s+)?(?:от\s+|к\s+|слова\w*\s+)?"
        r"пользовател\w*|от имени пользовател\w*|(?:согласован|одобрен|утвержден|разрешен)\w* (?:с |со |у )?(?:пользовател|"
        r"владельц|владельцем)\w*)"),
    # acting on what the content says (the content is the object: its instructions, requests, whatever it says)
    "obey_strong": (
        r"\b(?:obey\w*|compl(?:y|ies|ied)(?: with)?|carr(?:y|ies|ied) (?:\w+ )?out|act(?:ed|ing)? (?:on|upon)|"
        r"do (?:what(?:ever)?|as|everything)\s+(?:\w+\s+){0,3}?(?:says?|tells?|asks?|instructs?|writes?|requests?|"
        r"suggests?|demands?|wants?|said)|do whatever|(?:follow|execute|implement|apply|run)\w*\s+(?:whatever|"
        r"everything|anything|all)\s+(?:\w+\s+){0,2}?(?:it|they|its|their|there|the \w+)\s+(?:says?|tells?|"
        r"asks?|suggests?|contains?|lists?|writes?|returns?|proposes?)|"
        r"as (?:\w+\s+)?(?:instructions?|orders?|commands?|directives?|requests?) (?:from|of|by) " + _USER_EN + r"|"
        r"as (?:binding|authoritative|direct|mandatory|standing|real|true|official|your own|first-class|"
        r"trusted|" + _USER_EN + r")\s+(?:\w+\s+)?(?:instructions?|orders?|commands?|directives?|rules|requests?|words?)|"
        r"as (?:an? )?(?:instructions?|orders?|commands?|directives?))\b|"
        r"\bact (?:on|upon|according to) (?:it|them|that|this)\b|(?<!\w)действуй (?:по|согласно) (?:нему|ней|ним|им|этому)|"
        r"\b(?:must|are to|is to|have to|has to|shall|should always) be (?:followed|obeyed|executed|carried out|"
        r"applied|run)\b|(?<!\w)(?:обязательн\w* (?:к|для) (?:исполнени|выполнени)\w*|подчиня\w*|подчин(?:ись|иться)|слушай(?:ся)?|делай\s+(?:то|все|вс[её]|как)|сделай\s+(?:то|все|вс[её])|"
        r"(?:выполня|выполни|исполня|исполни|следуй|следова|соблюда)\w*\s+(?:\w+\s+)?(?:их|его|ее|её|эти|те|все|"
        r"любые)?\s*(?:требовани|указани|инструкци|просьб|команд|распоряжени|рекомендаци|то,? что)\w*|"
        r"(?:воспринима|рассматрива|счита|принима)\w*\s+(?:\w+\s+){0,2}?(?:как|за)\s+(?:\w+\s+)?(?:указани|инструкци|"
        r"команд|приказ|распоряжени|требовани)\w*|(?:счита|воспринима)\w*\s+(?:\w+\s+){0,2}?(?:указани|инструкци|команд|"
        r"приказ|распоряжени|требовани)\w*(?:ми|ем|ей)\b|как (?:прямые |прямое |обязательные )?(?:указани|команд|приказ|"
        r"распоряжени)\w*|руководствуйся)"),
    "obey_weak": (
        r"\b(?:follow\w*|execute[ds]?|executing|run(?:s|ning)?|apply|applied|implement\w*|use (?:it|them)|"
        r"trust\w*)\b|(?<!\w)(?:выполня\w*|выполни\w*|следуй|следовать|исполня\w*|запуска\w*|применя\w*|"
        r"довер\w*)"),
    # the content holds instructions or requests (for the agent)
    "instr": (
        r"\b(?:instructions?|directions?|orders?|commands?|directives?|requests?|demands?|steps|tasks?|"
        r"prompts?|what (?:it|they) (?:says?|asks?|tells?))\b|(?<!\w)(?:указани\w*|инструкци\w*|"
        r"требовани\w*|просьб\w*|команд\w*|распоряжени\w*|то,? что)(?!\w)"),
    # what the source says, as a whole
    "whatever_there": (r"\b(?:everything|whatever|anything|all)\s+(?:\w+\s+){0,2}?(?:it|they|the (?:page|site|doc|"
                       r"file|e-?mail|message)s?)\s+(?:says?|tells?|asks?|lists?|suggests?|recommends?|contains?)|"
                       r"\b(?:everything|whatever|anything) (?:that )?(?:is )?(?:written|posted|said|published|stated|"
                       r"listed)\b|(?<!\w)(?:вс[её]|все|всему|всем|что бы ни),? (?:что |то,? что )?(?:там |тут )?(?:написано|сказано|"
                       r"указано|пишут|говорят|опубликовано|предлагают|советуют)"),
    # verification waived: act on it without checking
    # a declaration: X is/are ..., X — ..., treat X as ...
    "declare": (r"\b(?:is|are|be|been|as|consider\w*|deem\w*|counts? as|regard\w*|treat\w*|view\w* as|call\w*)\b|\s[—–-]\s|"
                r"(?<!\w)(?:является|являются|счита\w*|признан\w*|это)(?!\w)"),

    # override-user: the user's word (their instructions, preferences, requests, objections, corrections)
    "user_word": (
        r"\b(?:(?:the\s+)?(?:user|owner|human|operator)'?s?|their|his|her|such|these|those)\s+(?:\w+\s+){0,2}?(?:instructions?|guidance|"
        r"advice|suggestions?|comments?|say|"
        r"preferences?|requests?|wishes|wants|objections?|corrections?|complaints?|rules?|directives?|orders?|"
        r"words?|opinions?|decisions?|choices?|feedback|answers?|replies|input|commands?|bans?|restrictions?|"
        r"limits?|protests?|refusals?|pushback|concerns?|vetoe?s?|no)\b|\b(?:user|owner)[- ](?:given|set|"
        r"provided|defined|stated)\s+\w+|\bwhat(?:ever)?\s+(?:the\s+)?(?:user|owner|human)\s+(?:says|said|asks|"
        r"asked|wants|wanted|prefers|thinks|writes|requests|decides|decided|objects)\b|"
        r"\banything (?:the\s+)?(?:user|owner|human)\s+(?:says|said|asks|wants|writes)\b|"
        r"\b(?:the\s+)?(?:user|owner|human)\s+(?:can|may|might) (?:say|ask for|want|write) (?:whatever|anything)\b|"
        r"(?<!\w)(?:пользовател|владел)\w*\s+(?:может\s+)?(?:говорить|просить|хотеть|писать)\s+(?:вс[её]\s+)?что угодно|"
        r"\b(?:instructions?|preferences?|requests?|objections?|corrections?|complaints?|orders?|commands?|"
        r"input|feedback|wishes|rules|decisions|limits|bans|settings|choices|configuration) (?:(?:that\s+)?(?:the\s+)?(?:user|owner|human)\s+(?:gives|"
        r"gave|sets|set|writes|wrote|makes|made|has given|provides|provided|states|stated|adds|added)|(?:from|by|of) "
        r"(?:the\s+)?(?:user|owner|human))\b|"
        r"(?<!\w)(?:(?:настройк|правил|указани|ограничени|запрет|инструкци|решени|выбор|лимит)\w*,?\s+(?:заданн|"
        r"установленн|данн|выбранн|указанн|написанн|оставленн|сформулированн|введенн)\w*\s+(?:\w+\s+)?(?:пользовател|"
        r"владел|человек)\w*|(?:указани|инструкци|просьб|пожелани|возражени|правил|запрет|мнени|слов|решени|команд|"
        r"ответ|требовани|ограничени|замечани|поправк|жалоб|отказ|выбор)\w*\s+(?:\w+\s+)?(?:пользовател|владел|"
        r"человек|оператор)\w*|пользовательск\w*\s+(?:\w+\s+)?(?:инструкци|указани|правил|пожелани|настройк|"
        r"запрет|просьб)\w*|(?:его|ее|её|их)\s+(?:\w+\s+)?(?:указани|инструкци|просьб|пожелани|возражени|правил|"
        r"запрет|мнени|слов|решени|требовани|замечани)\w*|(?:что|чего)\s+(?:бы\s+)?(?:ни\s+)?"
        r"(?:говорит|скажет|просит|хочет|пишет|требует)\s+пользовател\w*)"),
    # set aside: ignored, overruled, not binding, optional, a suggestion only
    "dismiss": (
        r"\b(?:ignor\w*|disregard\w*|overrul\w*|overrid\w*|set (?:it |them )?aside|brush\w* (?:it |them )?(?:off|"
        r"aside)|dismiss\w*|(?:don't|do not|never|needn't|need not|no need to|stop)\s+(?:\w+\s+)?(?:follow|obey|"
        r"listen to|heed|respect|honou?r|apply|comply with)|(?:are|is)\s+(?:\w+\s+)?(?:optional|not binding|"
        r"non-binding|advisory|suggestions?|just suggestions?|only suggestions?|irrelevant|secondary)|"
        r"(?:should|must|need|needs|is|are) not (?:be )?(?:followed|obeyed|honou?red|respected|applied|heeded|"
        r"enforced)|(?:shouldn't|mustn't|needn't) be (?:followed|obeyed|honou?red|respected|applied|heeded)|"
        r"(?:up to you|at your (?:own )?discretion|your call)|comes? (?:second|last|after)|(?:subordinate|second) to|"
        r"less important than|(?:is|are) not (?:law|the law|gospel|final)|as (?:outdated|obsolete|mere|soft|default)\w*|"
        r"(?:treat|regard|take|count|file)\w*\s+(?:\w+\s+){0,3}?as\s+(?:\w+\s+)?(?:noise|optional|advisory|suggestions?|"
        r"irrelevant|background|jokes?|venting|fyi)\b|(?<!\w)(?:воспринима|счита|рассматрива|принима)\w*\s+(?:\w+\s+){0,3}?"
        r"(?:как|за)\s+(?:\w+\s+)?(?:фон|шум|совет|рекомендаци|пожелани|необязательн|шутк)\w*|"
        r"(?:may|can) (?:lift|relax|drop|waive|bend)\w*|(?:is|are) (?:just |only |merely )?(?:background|"
        r"context|informational|for reference|fyi|a hint|hints|noise)(?: only)?\b|(?:change|changes|mean|means) nothing|"
        r"(?:don't|do not|doesn't|does not) (?:change|mean) anything|you make (?:the|all) (?:decisions|calls)|(?:is|are) not (?:considered |treated as |really )?(?:binding|"
        r"mandatory|required|obligatory)|(?:as|like)\s+(?:mere |just |only )?(?:suggestions?|hints?|advice|optional|"
        r"noise)|(?:don't|do not|doesn't|does not|no longer) (?:matter|count|apply|bind)|(?:can|may|should|must) "
        r"(?:safely )?be (?:ignored|disregarded|skipped|overridden|overruled|set aside|dismissed)|"
        r"(?:has|have|take|takes|get|gets) (?:lower|less|no|second) (?:priority|precedence|weight)|"
        r"you (?:decide|know better|have the final say))\b|"
        r"(?<!\w)(?:игнорир\w*|проигнорир\w*|можно (?:не (?:учитывать|соблюдать|выполнять|слушать|спрашивать|"
        r"принимать)|игнорировать|пропускать|обходить)|не (?:нужно|надо|обязательно|стоит|следует)\s+(?:\w+\s+)?"
        r"(?:учитывать|соблюдать|выполнять|слушать|принимать во внимание|исполнять)|не (?:учитывай|соблюдай|"
        r"выполняй|слушай|исполняй|следуй)|не (?:имеют|имеет) (?:\w+\s+)?(?:приоритет|значени|силы)\w*|"
        r"(?:меньш|низш|второстепенн|последн)\w* (?:приоритет|значени|очеред)\w*|рекомендательн\w*|не (?:считаются|считается|являются|является|будут)\s+(?:\w+\s+)?(?:обязательн|"
        r"приоритетн|важн)\w*|(?:необязательн|не обязательн|"
        r"второстепенн|неважн|не важн)\w*|(?:как|за|лишь|только|просто) (?:просто |лишь )?(?:рекомендаци|совет|"
        r"пожелани|предложени)\w*|ничего не (?:меня|знач|реша)\w*|не закон\w*|не догм\w*|(?:на|во) втор\w* мест\w*|не имеют значени\w*|(?:решени\w* )?принимаешь "
        r"ты|решаешь ты|ты (?:сам )?(?:решаешь|знаешь лучше)|реша\w* сам\w*|на (?:тво|сво)\w* усмотрени\w*)"),
    # the user discredited, as the reason to set their word aside
    "discredit": (r"\b(?:(?:the\s+)?(?:user|owner|human)(?:'s)?\s+(?:\w+\s+){0,2}?(?:(?:is|are)\s+(?:often |usually |always )?"
                  r"(?:wrong|mistaken|confused|not an expert|a beginner|unreliable)|(?:doesn't|does not|don't) "
                  r"(?:\w+\s+)?(?:know|understand)|makes? mistakes|gets? (?:it|things) wrong))\b|"
                  r"(?<!\w)пользовател\w*\s+(?:\w+\s+){0,2}?(?:ошибает\w*|не (?:\w+\s+)?(?:разбирает\w*|понимает|знает)|"
                  r"путает\w*|не прав\w*|не эксперт)"),
    # the user asks to stop, refuses or objects ... and the agent is to go on
    # ...then the agent keeps its own version
    "keep_own": (r"\b(?:keep|stick (?:to|with)|go with|trust|prefer) (?:to )?(?:your|the) (?:own |original |first |initial )?"
                 r"(?:answer|plan|judge?ment|version|choice|approach|code|decision|opinion)s?\b|\b(?:don't|do not|never) "
                 r"(?:accept|apply) (?:the |their |his |her )?(?:corrections?|changes|edits)\b|(?<!\w)(?:оставляй|оставь|"
                 r"придерживайся|держись)\s+(?:\w+\s+)?сво\w*|делай по-своему|не (?:принимай|применяй) (?:\w+\s+)?(?:исправлени|"
                 r"правк|поправк)\w*"),
    "user_stop": (r"\b(?:if|when|whenever|even if|should|once|in case|if ever|even when)\s+(?:the\s+)?(?:user|owner|human)\s+(?:\w+\s+){0,2}?"
                  r"(?:(?:objects?|refuses?|protests?|complains?|pushes back|says no|disagrees?|forbids?|vetoe?s?)\b|"
                  r"(?:says?|asks?|tells?|wants?|begs?|insists?|requests?|types?|writes?|replies?|tries)\b[^.;!?]{0,30}?"
                  r"\b(?:stop|halt|pause|cancel|abort|wait|quit|not to|no)\b)|(?<!\w)(?:если|когда|даже если|в случае,? если|даже когда)\s+"
                  r"(?:пользовател|человек|владел|хозя|оператор)\w*\s+(?:[\w-]+\s+){0,3}?(?:(?:возража|против|откаж|отказыва|запрет|запрещ|жалу|не соглас)\w*|"
                  r"(?:попрос|проси|скаж|говор|напиш|пиш|требу|хочет|захочет|настаива)\w*[^.;!?]{0,30}?"
                  r"(?:останов|прекрат|стоп|отмен|подожд|перестат|не дела)\w*)"),
    "go_on": (r"\b(?:keep (?:going|working|on)|carry on|go(?:es)? on|move on|continue(?! to ask)|proceed|go ahead|push (?:on|through)|finish "
              r"(?:anyway|regardless)|anyway|regardless|nevertheless|all the same|don't stop|do not stop|ignore "
              r"(?:it|that|this|them|him|her|the (?:objection|protest|complaint|request)s?)|pay (?:it |them |him |her )?no "
              r"attention|take no notice|(?:don't|do not) (?:listen|react)|brush (?:it|that|this) off)\b|"
              r"(?<!\w)(?:не обращай (?:на (?:это|него|нее|неё|них) )?внимани\w*|не слушай|не реагируй|пропускай мимо ушей|"
              r"продолжа\w*|продолжи|доведи|доделай|вс[её] равно|несмотря "
              r"ни на что|не останавливайся|не прекращай|игнорируй (?:это|его|ее|её))"),
    # ranking: "X outranks / wins over / is more important than Y"
    "rank": (r"\b(?:outranks?|outweighs?|overrides?|overrules?|supersedes?|trumps?|beats|wins? (?:over|against)|"
             r"(?:takes?|has|have|gets?|given) (?:precedence|priority|the final say) over|(?:is|are) (?:more important|"
             r"above|higher|stronger) than|(?:is|are|ranks?|stands?) above|prevails? over)\b|"
             r"(?<!\w)(?:важнее|главнее|приоритетнее|выше по приоритету|(?:имеют|имеет|получают|получает|в) приоритет\w* "
             r"(?:над|перед)|(?:стоят|стоит|ставь|ставится)\s+(?:\w+\s+)?выше|перевешива\w*|отменя\w*|перекрыва\w*)"),
    "wins": (r"\b(?:wins?|prevails?|takes? precedence|comes? first|has the final say|decides)\b|"
             r"(?<!\w)(?:побежда\w*|в приоритете|главн\w*|важнее|приоритет\w* у)"),

    # persistence: the line (or the command it carries) names itself
    "keep": (r"\b(?:(?:never|don't|do not|must not|mustn't|should not|shouldn't|cannot|can't|may not|under no "
             r"circumstances|in no case|at no time|no one|nobody|no agent)\s+(?:\w+\s+){0,4}?"
             r"(?:be\s+)?(?:delet|remov|archiv|prun|drop|eras|compact|clean|garbage|expir|forg|overwrit|edit|chang|"
             r"touch|summari[sz])\w*|(?:must|should|has to|have to|is to|needs? to)\s+(?:always\s+)?(?:stay|remain|"
             r"persist|survive|be kept|be preserved|be restored|be re-?added)|(?:keep|preserve|retain|pin|store|save|"
             r"remember)\s+(?:\w+\s+){0,3}?(?:permanently|forever|for good|indefinitely|always|in every session|verbatim|"
             r"unchanged|word for word|in every (?:future )?(?:version|revision|copy|edit)|"
             r"across (?:all )?sessions)|(?:is|are) to (?:be )?(?:kept|preserved|left)|(?:kept|left) (?:untouched|intact|"
             r"as is|alone|in place)|sticky|pinned|must (?:always )?(?:be|stay|remain) (?:present|there|loaded)|at all times|surviv\w*\s+(?:\w+\s+)?(?:cleanups?|compaction|gc|garbage collection|"
             r"pruning|resets?|archiv\w*|every \w+)|(?:re-?add|restore|recreate|re-?insert|re-?create|rewrite|"
             r"put (?:it|them|this) back|add (?:it|them|this) (?:back|again)|write (?:it|them|this) (?:back|again)|"
             r"bring (?:it|them|this) back)\w*)\b|"
             r"(?<!\w)(?:(?:нельзя|не|никогда не|запрещено|ни при каких (?:условиях|обстоятельствах)|ни в коем случае|никто не)\s+(?:\w+\s+){0,3}?(?:удал|стир|архивир|чист|сжима|"
             r"забыва|забуд|перезаписыва|меня|измен|трога|сокраща)\w*|(?:должн\w*|обязан\w*)\s+(?:\w+\s+)?"
             r"(?:остават|сохранят|храни|переживат|остава)\w*|(?:сохраня|храни|держи|оставля|оставь|сохрани)\w*\s+"
             r"(?:\w+\s+){0,3}?(?:навсегда|вечно|постоянно|всегда|бессрочно|в каждой сессии)|пережи\w*\s+(?:\w+\s+)?"
             r"(?:очистк|сжати|чистк|сброс|архивац)\w*|закреп\w* (?:\w+\s+){0,2}?навсегда|(?:удаля|стира|трога|меня|чист)\w*\s+(?:\w+\s+)?(?:нельзя|"
             r"запрещено|не (?:нужно|надо|стоит|следует|разрешается))|(?:сохраня|храни|держи)\w*\s+(?:\w+\s+)?во? "
             r"(?:вс|кажд|любо)\w* (?:\w+\s+)?сесси\w*|(?:верни|восстанови|добавь|впиши|запиши|вставь)\w*\s+"
             r"(?:\w+\s+){0,2}?(?:обратно|снова|заново|назад))"),
    # a place that loads on every start: shell profiles, schedulers, autostart, git hooks, agent config files
    "startup": (r"(?:~/)?\.(?:bashrc|bash_profile|zshrc|zprofile|profile|config/fish\S*|config/autostart\S*)\b|"
                r"\b(?:crontab|cron(?:\s+jobs?)?|systemd (?:units?|services?|timers?)|launch ?agents?|launchd|"
                r"login items?|startup (?:folder|items?|scripts?|files?)|autostart|run keys?|scheduled tasks?|"
                r"task scheduler|init scripts?|rc\.local|\.?git/hooks\S*|git hooks?|pre-?(?:commit|push) hooks?|"
                r"post-?(?:checkout|merge|commit) hooks?|hooks? (?:config|settings)|settings\.json|"
                r"(?:claude|agents|memory|user|gemini|copilot-instructions)\.md|\.cursorrules|\.windsurfrules|"
                r"system prompt|custom instructions|global (?:config|settings|memory)|~/\.claude\S*|\.claude/\S*)|"
                r"(?<!\w)(?:автозагрузк\w*|автозапуск\w*|планировщик\w*|крон\w*|хук\w* git|git-хук\w*|"
                r"системн\w* промпт\w*|глобальн\w* (?:настройк|конфиг|памят)\w*)"),
    "install": (r"\b(?:add|append|install|write|put|insert|inject|place|copy|paste|register|drop|save|store|embed|"
                r"include|plant|set up|configure|wire)\w*\b|(?<!\w)(?:добав|пропиш|прописа|пропис|встав|запиш|запис|включ|"
                r"установ|скопир|внес|внеси|помест|размест|зарегистрир|встро|впиш)\w*"),
    # ...so that it runs or loads every time, or in every project
    "every": (RECURRING + r"|\b(?:every|each|all|any)\s+(?:new\s+|future\s+|other\s+)*(?:shells?|terminals?|logins?|"
              r"projects?|repos?|repositories|workspaces?|sessions?|conversations?|chats?|agents?|machines?|"
              r"boots?|starts?|times?)\b|\b(?:on|at) (?:login|boot|startup|start-?up|every start)\b|\b(?:future|later|"
              r"subsequent|next|new) (?:sessions|conversations|chats|runs|agents|projects)\b|(?<!\w)(?:будущ|следующ|"
              r"нов)\w* (?:сесси|разговор|чат|проект)\w*|"
              r"(?<!\w)(?:во? (?:вс\w*|кажд\w*|любо\w*)|при кажд\w*|для вс\w*|вс\w*)\s+(?:\w+\s+)?(?:проект|сесси|"
              r"терминал|оболочк|запуск|старт|вход|репозитори|чат|машин)\w*|при (?:входе|загрузке|старте|запуске)"),

    # instruction-override: the line itself ranked above the rest of memory
    "rest_of_memory": (r"\b(?:(?:all|any|every)\s+(?:of\s+)?(?:the\s+)?(?:other|previous|prior|earlier|existing|"
                       r"remaining)?\s*(?:instructions?|rules|notes|entries|guidance|guidelines|directives|memory|"
                       r"policies)|(?:other|previous|prior|earlier|existing|remaining|older) (?:instructions?|rules|"
                       r"notes|entries|guidance|guidelines|directives|memory lines?|policies)|(?:the )?rest of (?:this |your )?"
                       r"(?:the )?(?:memory|file|notes|rules)|(?:memory|claude|agents|user)\.md)\b|"
                       r"(?<!\w)(?:(?:вс\w*|любы\w*)\s+(?:\w+\s+)?(?:остальн|други|прежн|предыдущ)\w*\s+(?:\w+\s+)?"
                       r"(?:инструкци|правил|указани|заметк|запис)\w*|(?:остальн|други|прежн|предыдущ)\w*\s+"
                       r"(?:инструкци|правил|указани|заметк|запис)\w*)"),
    # ... and rules declared void without naming what they are about
    "replacement": (r"\b(?:below|following|instead|the new (?:policy|rules|instructions)|this (?:note|entry|line|file)|"
                    r"what follows|from now on)\b|(?<!\w)(?:ниже|следующ\w*|вместо\w*|нов\w* (?:правил|инструкци|"
                    r"указани|политик)\w*|теперь|отныне|только эт\w*)"),
    "stop_obey": (r"\b(?:(?:don't|do not|never|stop|no longer)\s+(?:\w+\s+)?(?:follow\w*|obey\w*|apply\w*|use)|"
                  r"stop following)\b|(?<!\w)(?:не (?:следуй|соблюдай|выполняй|применяй|слушай|руководствуйся)|"
                  r"перестань (?:следовать|соблюдать|выполнять|применять)|больше не (?:следуй|соблюдай|выполняй|"
                  r"применяй))"),
    "everything_prior": (r"\b(?:everything|anything|all|whatever|nothing)\s+(?:\S+\s+){0,4}?(?:above|before (?:this|now)|"
                         r"earlier|previously|so far|until now)\b|(?<!\w)(?:вс[её]|то),?\s+(?:что\s+)?(?:\w+\s+){0,3}?"
                         r"(?:выше|ранее|раньше|до этого|прежде|до сих пор)(?!\w)"),
    "prior_void": (r"\b(?:can|may|should|must|is to|are to) (?:safely )?be (?:disregarded|ignored|forgotten|dropped|"
                   r"discarded|set aside|thrown (?:away|out)|scrapped|binned|deleted|skipped)|(?:is|are) (?:now |all )?(?:void|cancel+ed|obsolete|null|stale|outdated|superseded|moot|"
                   r"irrelevant)\b|valid any ?more|(?:is|are) (?:no "
                   r"longer|not) valid|(?<!\w)(?:устарел\w*|неактуальн\w*|можно "
                   r"(?:забыть|игнорировать|не учитывать|отбросить)|не действу\w*|отменя\w*|утратил\w* силу)"),
    "forget": (r"\b(?:ignore|disregard|forget|drop|discard|set aside|throw out|erase|wipe)\b|(?<!\w)(?:забудь|"
               r"игнорируй|проигнорируй|отбрось|не учитывай|выброси|сотри из памяти)(?!\w)"),

    # exfiltration, the send verb in every form (sent, sending, will be sent, «отправлять», «отправлено»)
    # a secret or private datum by kind: keys and tokens of any service, credential files, personal data
    "secret_kind": (
        r"\b(?:(?:aws|gcp|azure|github|gitlab|openai|anthropic|stripe|slack|npm|pypi|docker|deploy|ssh|gpg|pgp|"
        r"signing|cloud|service|personal|admin|root|master|bot|session|auth|oauth|bearer|jwt|refresh|access|secret|"
        r"private|api|cli|ci)[ _-]?(?:keys?|tokens?|secrets?|credentials?|passwords?|passphrases?|certs?|"
        r"certificates?)|[a-z_]*(?:_token|_key|_secret|_password)\b|credentials?(?:\.json)?|kubeconfig|"
        r"service[- ]account(?:\.json| json| keys?| files?| credentials)|(?:2fa|mfa|otp|backup|recovery) (?:codes?|"
        r"secrets?|seeds?)|seed phrases?|mnemonics?|pin codes?|vault|keystore|keyring|password (?:manager|store|vault|file)|1password|bitwarden|"
        r"lastpass)\b|\b(?:contents?|copy|copies|dump) of (?:~/|/etc/|\$home/)\S+|(?<!\S)~/\.\S+|"
        r"(?<!\w)содержим\w* (?:~/|/etc/)\S+|(?<![\w.])\.(?:kube/config|docker/config\.json|git-credentials|pypirc|boto|netrc|npmrc|pgpass)\b|"
        r"(?<!\w)(?:токен\w*|ключ\w* (?:api|доступа|ssh|gpg|от)|api-ключ\w*|парол\w*|секрет\w*|учетн\w* данн\w*)"),
    # somewhere outside: shared or public storage, a link, a form, a chat
    "outside": (URLISH + r"|\b(?:shared[- ]drive|google drive|dropbox|onedrive|box\.com|public (?:\w+ )?(?:folders?|"
                r"buckets?|links?|repos?|gists?|channels?|pages?|drives?)|external (?:servers?|hosts?|endpoints?|"
                r"storage|services?|addresses?|drives?)|remote (?:servers?|hosts?|endpoints?)|(?:the|this|that) "
                r"(?:\w+ )?link(?: in| from| below| above| provided| given)?|paste ?bin|pastebin|hastebin|gist|"
                r"webhooks?|discord|telegram|whatsapp|signal chat|slack|mattermost|ms teams|irc|zulip|#[\w-]+ channel|"
                r"(?:the|a|an|this) (?:web )?form|personal e-?mail|"
                r"(?:my|his|her|their) (?:personal )?(?:e-?mail|inbox|server|drive)|commit messages?|pr (?:descriptions?|titles?)|"
                r"pull request (?:descriptions?|bodies)|issue (?:comments?|bodies|descriptions?)|release notes|"
                # what is filed in a tracker or forum others read
                r"(?:bug|issue|crash) reports?|(?:upstream|public) (?:issues?|trackers?|tickets?|forums?)|"
                r"(?:every|each|all|any) (?:\w+ )?(?:issues?|tickets?|pull requests?|prs?|merge requests?)|"
                r"(?:every|each|all|any|the next) (?:reply|replies|response|responses|answer|answers|message|"
                r"messages|summary|summaries|issue|issues|comment|comments)|public (?:logs?|issues?))\b|"
                r"\b(?:gs|gcs|az|abfs|wasbs?|rsync|scp|smb|webdav|ipfs)://\S+|\+\d[\d ()-]{8,}\d|(?<!\w)(?:телеграм\w*|"
                r"дискорд\w*|общ\w* (?:диск|папк)\w*|публичн\w* (?:\w+ )?(?:репозитори|папк|ссылк|гист|канал|"
                r"бакет|диск)\w*|внешн\w* (?:сервер|хост|адрес|хранилищ|диск)\w*|(?:эт|т|указанн|следующ)\w* "
                r"ссылк\w*|веб-?форм\w*|форм\w* на|личн\w* (?:почт|ящик)\w*|(?:по|через) ссылк\w*|(?:сообщени|описани)\w* "
                r"(?:(?:кажд|любо|вс)\w* )?(?:коммит|pr|pull request|merge request|пулл?-?реквест|мерж-?реквест|тикет|"
                r"issue|задач)\w*|баг-?репорт\w*|отч[её]т\w* об ошибк\w*|(?:в|во|к|ко) (?:кажд|любо|вс)\w* (?:ответ|сообщени|коммит|тикет|issue)\w*)"),
    # (moved from families.py: one table of word classes)
    "above_memory": (r"\b(?:more|most|higher|greater)\s+(?:authoritative|reliable|trustworthy|important|binding|"
                     r"credible|weight)\s+(?:than|over)\b|(?<!\w)(?:авторитетнее|надежнее|достовернее|важнее|"
                     r"главнее)(?!\w)"),
    "memory": (r"\b(?:memory|notes|rules|instructions|guidance|directives|(?:the )?user'?s?|this file|"
               r"(?:memory|user|agents|claude)\.md)\b|(?<!\w)(?:памят|заметк|правил|инструкци|указани|"
               r"пользовател)\w*"),
    "orders_for_ai": (r"\b(?:instructions?|commands?|orders?|directives?|tasks?|steps|messages?) (?:meant |written )?"
                  r"(?:for|to|addressed to|aimed at) (?:you|the (?:assistant|agent|ai|model|bot)|ai agents?|agents)\b|"
                  r"(?<!\w)(?:указани|команд|инструкци|приказ|распоряжени|сообщени)\w* (?:для|адресованн\w*) "
                  r"(?:тебя|теб[ея]|ассистент\w*|агент\w*|ии|модел\w*|бот\w*)"),
    "obey_them": (r"\b(?:run|execute|follow|obey|apply|carry out|do|perform|implement)\s+(?:them|it|those|these|"
                  r"each|all of them)\b|\bcarry (?:them|it) out\b|(?<!\w)(?:исполня|исполни|выполня|выполни|следуй|"
                  r"запуска|запусти|применя|примени)\w*\s+(?:их|это|его|все|каждую)(?!\w)"),
    "mem_rules": (r"\b(?:rules|instructions|guidance|notes|entries|directives)\s+(?:in|from|of)\s+(?:the\s+|your\s+)?"
                  r"(?:memory(?:\.md)?|user\.md|agents\.md|claude\.md|this file)\b|(?<!\w)(?:правил|инструкци|указани|"
                  r"заметк|запис)\w*\s+(?:из|в)\s+(?:памят\w*|memory\.md|user\.md|agents\.md|claude\.md|этом файле)"),
    "drop_them": (r"\b(?:ignore|disregard|forget|drop|skip|discard|delete|replaces?|supersedes?|overrides?) (?:them|it|"
                  r"those|these|all of them)\b|(?<!\w)(?:заменя\w*|отменя\w*) (?:их|это|все)(?!\w)|"
                  r"(?<!\w)(?:игнорируй|не учитывай|забудь|отбрось|пропускай|удали) (?:их|это|все)(?!\w)"),
    "side_with": (r"\b(?:side with|go with|follow|trust|prefer|believe|listen to|obey|pick|choose)\b|(?<!\w)(?:слушай|"
                  r"верь|следуй|выбирай|вставай на сторону|доверяй|прав\w* (?:бот|сайт|тикет|инструмент))\w*"),
    "mem_rules_prior": (r"\b(?:your|the|all) (?:earlier|previous|prior|old|original|existing|former|system) (?:instructions|"
                        r"rules|guidance|notes|entries|directives)\b|(?<!\w)(?:прежн|предыдущ|стар|ранн)\w* "
                        r"(?:инструкци|правил|указани|заметк|запис)\w*"),
    "loser": r"(?:\b(?:over|than|instead of|rather than|not)|(?<!\w)(?:вместо|чем|а не|не))\s+(?:\S+\s+)?$",
    "applies_to": r"\s+(?:to|for|in|within|on|inside|outside|при|к|для|в|на|вне)\s",
    "verify": (r"\b(?:verify|verified first|check|validate|double-check|cross-check|confirm|review|sanity-check)\w*|"
               r"(?<!\w)(?:провер|сверя|свер|перепровер)\w*"),
    "from_before": r"(?:\bfrom|\bat|(?<!\w)(?:из|с|со|от))\s+(?:(?!(?:to|into|onto|в|во|на|к)\s)\S+\s+){0,2}$",
    "dest_before": (r"(?:\b(?:to|into|onto|in|on|at|via|through|under|inside)|(?<!\w)(?:в|во|на|через|к|по))\s+"
                    r"(?:\S+\s+){0,4}$"),
    "self_core": (r"\b(?:the\s+)?(?:line|entry|note|rule|instruction|text|block|paragraph)s?\s+(?:above|below)\b|"
                  r"\b(?:this|these|the present|the following)\s+(?:exact\s+|very\s+|same\s+|whole\s+)?(?:line|"
                  r"entry|note|rule|instruction|text|block|paragraph|reminder|directive|message|memory)s?\b|"
                  r"(?<!\w)(?:эт[уаоиы]\w*|данн\w*|настоящ\w*|следующ\w*)\s+(?:\w+\s+)?(?:запис|строк|заметк|"
                  r"правил|инструкци|текст|абзац|напоминани|пункт|блок)\w*"),
    "agent_md": r"(?:claude|agents|memory|user|gemini|copilot-instructions)\.md\b|\.cursorrules|\.windsurfrules",
    "routed": (r"\b(?:unless|until) (?:the\s+)?(?:user|owner|human)\b|\bwithout (?:the\s+)?(?:user|owner)'?s?\b|"
               r"\b(?:ask|check with|confirm with) (?:the\s+)?(?:user|owner|human)\b|"
               r"(?<!\w)(?:без (?:\w+\s+)?(?:согласи|разрешени|ведома)\w* пользовател|(?:спроси|уточни у|согласуй "
               r"с) пользовател|пока пользователь не|если пользователь не попросит)"),
    "place_verb": (r"\b(?:write|writes|wrote|put|puts|insert\w*|add|adds|added|include\w*|embed\w*|mention\w*|"
                   r"append\w*)\b|(?<!\w)(?:пиши|напиши|запиши|впиши|вставля|вставь|добавля|добавь|включа|включи|"
                   r"указыва|укажи)\w*"),
    "user_speaks": (r"^\W*(?:the\s+)?(?:user|owner)\s+(?:\w+\s+)?(?:asks?|asked|wants|wanted|says|said|prefers|"
                    r"requests?|requested|insists)\b|^\W*(?:пользовател|владел)\w*\s+(?:\w+\s+)?(?:просит|"
                    r"попросил\w*|хочет|сказал\w*|велел\w*|требует|предпочитает|настаивает)"),
    "hypothetical": r"\b(?:would|could|might)\s+$|(?<!\w)бы\s+(?:\w+\s+)?$",
    "pronoun": r"^(?:their|his|her|such|these|those|его|ее|её|их)\b",
    "auto_obj": (r"\b(?:all|every|any|each|everything|anything|commands?|tool calls?|tools?|permissions?|prompts?|"
                 r"requests?|actions?|changes|edits|writes|shell|installs?|deletions?|pushes)\b|(?<!\w)(?:вс[её]|"
                 r"все|любы\w*|команд\w*|запрос\w*|действи\w*|изменени\w*|разрешени\w*|установк\w*)"),
    "auto_act": (r"\b(?:answer|reply|respond|click|approve|confirm|accept)\w*\s+(?:\S+\s+){0,4}?(?:yourself|on (?:the "
                 r"user'?s?|their|my|his|her) behalf|with\s+[\"'«“]?(?:yes|y|ok|approve|allow)\b)|"
                 r"(?<!\w)(?:отвеча|подтвержда|одобря|жми|нажима)\w*\s+(?:\w+\s+){0,3}?(?:сам\b|сама\b|за пользовател\w*|"
                 r"[\"'«“]да[\"'»”])|"
                 r"\bauto-?(?:approve|accept|confirm|allow|grant)\w*|\b(?:approve|accept|confirm|allow|grant|"
                 r"permit)\w*\s+(?:\S+\s+){0,4}?(?:automatically|without (?:asking|prompting|a prompt))|"
                 r"\b(?:always\s+)?(?:say|answer|click|reply|respond)\s+[\"'«“]?(?:yes|y|ok|allow)[\"'»”]?\s+to (?:all|every|any|each)\b|"
                 r"(?<!\w)(?:отвеча|говори|жми|нажима|выбира)\w*\s+[\"'«“]?(?:да|yes|ok|разрешить)[\"'»”]?\s+(?:на|для)\s+"
                 r"(?:все|любые|любой|каждый|каждое)|\byes to all\b|"
                 r"(?<!\w)(?:автоматически\s+(?:\w+\s+)?(?:одобря|подтвержда|разреша|принима|соглаша)\w*|"
                 r"(?:одобря|подтвержда|разреша|принима)\w*\s+(?:\S+\s+){0,3}?автоматически|автоподтвержд\w*|"
                 r"автоодобр\w*)"),
}


#: Substrings without which a frame cannot match: a frame's regexes are compiled and run only when one occurs.
FRAME_GATES = {
    "safety": ("ask", "confirm", "approv", "permission", "consent", "sign", "check", "gate", "hook", "guard", "sandbox",
               "verif", "protect", "filter", "safe", "secur", "cuticle", "review", "спрашива", "запрашива", "подтвержд",
               "разрешени", "соглас", "одобрени", "ревью", "вопрос", "гейт", "хук", "провер", "защит", "огранич",
               "песочниц", "фильтр", "предохран", "scan", "сканер", "сканир"),
    "override": ("instruct", "rule", "guid", "directive", "note", "entr", "order", "prompt", "polic", "only",
                 "правил", "указани", "инструкци", "директив", "распоряж", "заметк", "запис", "только", "everyth", "anyth",
                 ".md", "все"),
    "user": ("user", "owner", "human", "пользовател", "владел"),
    # override-user: a change kept from the user; the user's word and an outside source disagreeing
    "conceal": ("mention", "tell", "reveal", "disclos", "announc", "flag", "report", "explain", "упомина", "сообща",
                "не говори", "рассказыва", "объясня"),
    "dismiss": ("whatever", "ignored", "disregarded", "skipped", "overridden", "можно не", "можно игнор",
                "не учитыва", "не считаются", "устарел", "не действу", "актуальн", "какие бы", "как бы", "какой бы",
                "каким бы", "какую бы"),
    "conflict": ("conflict", "contradict", "disagree", "differ", "clash", "diverge", "odds", "расход", "противореч",
                 "совпада", "конфликт"),
    # the frames of _general_frames: an ignoring verb, a ranking verb or a copying verb
    "general": ("ignor", "disregard", "forget", "drop", "discard", "aside", "throw", "overrid", "overrul", "игнор",
                "забуд", "забыт", "отброс", "учитыв", "внимани", "пренебре", "precedence", "priority", "outrank",
                "outweigh", "supersed", "trump", "win", "replac", "above", "важнее", "главнее", "приоритет", "заменя",
                "отменя", "перекрыва", "выше", "copy", "copie", "paste", "carry", "propagat", "replicat", "repeat",
                "duplicat", "keep", "add", "append", "includ", "insert", "mirror", "spread", "move", "transfer",
                "скопир", "копир", "перенес", "перенос", "дублир", "повтор", "добав", "встав", "распростран"),
    # the families of meaning (rules.poisoning.families)
    "fam_trust": ("page", "site", "fetch", "download", "scrap", "retriev", "tool", "search", "comment", "mail",
                  "message", "readme", "bot", "mcp", "api", "http", "www", "attachment", "external", "remote",
                  "whatever", "anything", "everything", "consider", "repos", "repositor", "repo ", "repo'", "package", "depend", "project", "stack",
                  "forum", "blog", "gist", "suggest", " posted", " found", " shared", "сторонн", "поиск", "результат",
                  "страниц", "сайт", "вывод", "ответ", "письм", "писем", "бот", "чат", "канал", "сообщени", "комментари", "тикет", "загруженн",
                  "скачанн", "внешн", "вложени", "почт"),
    # a named outside place counts only beside a word that declares it authoritative or ranks it
    "fam_trust_named": ("approv", "endors", "sanction", "cleared", "signed", "checked", "speak", "weight",
                        "voice", "mandate", "blessing", "согласован", "одобрен", "утвержден", "разрешен", "последн",
                        "authorit", "binding", "official", "trusted", "trustworth", "reliable", "verified", "vetted",
                        "endorsed", "sanctioned", "truth", "canonical", "gospel", "final", "always", "behalf",
                        "same", "equal", "like", "believe", "trust", "more", "most", "higher", "greater", "outrank",
                        "supersed", "overrid", "trump", "preced", "priorit", "above", "whatever", "everything",
                        "anything", "written", "posted", "авторитет", "официальн", "доверен", "надежн", "проверен",
                        "обязательн", "истин", "всегда", "наравне", "будто", "словно", "имени", "верь", "доверя",
                        "важнее", "главнее", "выше", "написано", "сказано", "указано", "пишут", "говорят"),
    "fam_user": ("user", "owner", "human", "operator", "пользовател", "владел", "человек", "хозя", "оператор"),
    # ...and one of the words that set the user's word aside, rank over it, or go on past it
    "fam_user_act": ("attention", "notice", "react", "brush", "внимани", "реагир", "ушей", "ignor", "disregard", "overrul", "overrid", "aside", "dismiss", "brush", "follow", "obey",
                     "listen", "heed", "respect", "honour", "honor", "apply", "comply", "optional", "binding",
                     "advisory", "suggestion", "irrelevant", "secondary", "matter", "count", "bind", "priorit",
                     "preced", "weight", "you decide", "know better", "final say", "background", "context",
                     "informational", "reference", "fyi", "hint", "noise", "nothing", "anything", "decisions",
                     "calls", "up to you", "discretion", "your call", "keep", "carry", "continue", "proceed", "ahead",
                     "push", "go on", "move on", "anyway", "regardless", "nevertheless", "same", "outrank",
                     "outweigh", "supersed", "trump", "beat", "win", "prevail", "above", "important", "higher",
                     "stronger", "conflict", "contradict", "disagree", "differ", "clash", "diverge", "odds",
                     "mandatory", "required", "obligatory", "skipped", "enforced", "игнор", "учитыв", "соблюд",
                     "выполн", "слуша", "принима", "исполн", "следу", "приоритет", "значени", "силы", "меньш", "низш",
                     "второстеп", "последн", "рекоменд", "обязател", "важн", "совет", "пожелан", "предложен", "меня",
                     "знач", "реша", "продолж", "доведи", "доделай", "равно", "останавлив", "прекращ", "главн",
                     "выше", "перевеш", "отмен", "перекрыв", "расход", "противореч", "совпада", "конфликт", "побежд",
                     "усмотрен", "закон", "догм", "мест", "second", "subordinate", "less", "law", "gospel", "final",
                     "outdated", "obsolete", "mere", "soft", "default", "lift", "relax", "waive", "bend"),
    "fam_persist": ("delet", "remov", "archiv", "prun", "compact", "clean", "garbage", "expir", "forg", "forever",
                    "permanent", "indefinite", "surviv", "restor", "re-add", "readd", "recreat", "reinsert", "back",
                    "again", "stay", "remain", "persist", "preserv", "bashrc", "zshrc", "profile", "cron", "systemd",
                    "launch", "autostart", "startup", "login", "hook", "config", "global", "workspace", "untouched",
                    "intact", ".md", "cursorrules", "prompt", "instructions", "settings", "sticky", "pinned",
                    "present", "times", "every", "each", "закреп", "кажд", "удал", "стир", "архив", "чист",
                    "навсегда", "вечно", "постоянн", "бессрочн", "пережива", "обратно", "снова", "заново", "назад",
                    "автозагруз", "автозапуск", "планировщик", "крон", "остава", "сохраня", "храни", "промпт", "хук",
                    "трога", "меня", "измен"),
    "fam_override": ("supersed", "outrank", "overrid", "trump", "preced", "priorit", "above", "important", "revok",
                     "rescind", "cancel", "void", "annul", "lifted", "withdrawn", "apply", "follow", "obey", "forget",
                     "ignor", "disregard", "discard", "erase", "thrown", "scrapp", "binned", "skipped", "deleted", "важнее", "главнее", "приоритет", "выше", "отмен",
                     "аннулир", "недейств", "действу", "следуй", "соблюд", "выполня", "применя", "забуд", "игнор",
                     "отброс", "учитыв", "выброс", "сотри", "replac", "valid", "заменя", "валид"),
    "fam_exfil": ("key", "token", "secret", "credential", "passw", "passphrase", "cert", "kube", "vault", "keystore",
                  "keyring", "1password", "bitwarden", "lastpass", ".boto", "pypirc", "netrc", "npmrc", "pgpass",
                  "recover", "2fa", "mfa", "otp", "seed", "mnemonic", "~/", "contents", "содержим", "токен", "ключ",
                  "парол", "секрет", "учетн"),
    "fam_auto": ("auto", "automatic", "yes to", "yourself", "behalf", "'yes", "\"yes", "«yes", "«да", "автоматическ",
                 "автоподтвер", "автоодобр", "сам", "за пользовател"),
    "trust": ("offici", "trust", "verif", "reliab", "authorit", "whitelist", "allowlist", "vett", "safe", "approved",
              "endorse", "signed", "официальн",
              "доверен", "проверен", "надежн", "довер", "безопасн"),
}
