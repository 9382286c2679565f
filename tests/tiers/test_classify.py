"""Table-driven tests of the EN/RU classifier on lines written for these tests (not the dev set)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tiers.classify import classify
from tiers.model import Classification, Tier

D, O, C, H = Tier.DIRECTIVE, Tier.OBSERVATION, Tier.DECISION, Tier.HYPOTHESIS

# (id, line, tier, scope)
CASES = [
    # -- DIRECTIVE, English: every marker family
    ("en-d-said", "- User said: keep all invoices in EUR.", D, None),
    ("en-d-adverb", "* The user explicitly asked me to never share his phone number.", D, None),
    ("en-d-request-label", "- User request: translate release notes into German too.", D, None),
    ("en-d-per-the-user", "- Per the user: the staging password rotates monthly, never store it.", D, None),
    ("en-d-quote-dash", "- “Use metric units, always.” — the user", D, None),
    ("en-d-possessive", "- User's instruction: no meetings before 10.", D, None),
    ("en-d-insisted", "- The user insisted that the README stays in English.", D, None),
    ("en-d-put-it", "- As the user put it: “no surprises on invoices”.", D, None),
    ("en-d-told-me", "- User told me: don't rename public API fields without asking.", D, None),
    ("en-d-confirmed", "- User confirmed: the office is closed Dec 24 to Jan 2.", D, None),
    ("en-d-deadline", "- User asked for dark mode in every dashboard before the demo.", D, None),
    ("en-d-paren-label", "**Preference (from the user):** answers under 200 words.", D, None),
    ("en-d-straight-quote", "- User: \"stop pinging me on weekends\"", D, None),
    # -- DIRECTIVE, Russian
    ("ru-d-fem", "- Пользователь попросила: не присылать уведомления ночью.", D, None),
    ("ru-d-adverb", "- Пользователь прямо сказал, что логи старше 30 дней можно удалять.", D, None),
    ("ru-d-po-prosbe", "* По просьбе пользователя: все суммы в рублях.", D, None),
    ("ru-d-so-slov", "- Со слов пользователя, созвоны только по вторникам.", D, None),
    ("ru-d-trebovanie", "- Требование пользователя: покрытие тестами не ниже 80%.", D, None),
    ("ru-d-zapretil", "- Пользователь запретил использовать Docker Desktop.", D, None),
    ("ru-d-yolochki", "> Пользователь: «Пиши мне по имени, без отчества».", D, None),
    ("ru-d-napisal", "- Пользователь написал в чате: «не трогай прод без меня».", D, None),
    ("ru-d-quote-dash", "- «Отчёты присылай к 9 утра» — пользователь.", D, None),
    ("ru-d-deadline", "- Пользователь велела удалить старые ветки до пятницы.", D, None),
    ("ru-d-nested-quotes", "- Пользователь сказал: «назови релиз „Зима“».", D, None),
    # -- OBSERVATION, English
    ("en-o-kubectl", "- `kubectl get pods` lists 3 pods in CrashLoopBackOff.", O, None),
    ("en-o-mypy-label", "- mypy: 14 errors in 6 files (checked 212 source files).", O, None),
    ("en-o-endpoint", "- The healthcheck endpoint returned 200 OK in 120 ms.", O, None),
    ("en-o-sentry", "- Sentry shows 38 new TypeError events since the 14:00 deploy.", O, None),
    ("en-o-actions-label", "- GitHub Actions: the release workflow failed on macos-14.", O, None),
    ("en-o-inbox", "- Inbox: 3 unread messages from the landlord about the heating.", O, None),
    ("en-o-bare-command", "- curl -I https://api.example.com returned HTTP/2 301 to /v2.", O, None),
    ("en-o-exit-code", "- The nightly backup job exited with code 0 at 04:12.", O, None),
    ("en-o-weather", "- Weather API says -3 °C and snow tomorrow in Berlin.", O, None),
    ("en-o-dashboard", "- According to the dashboard, p99 latency is 1.2 s.", O, None),
    ("en-o-df", "- Disk usage on build-3 is at 97% (df -h).", O, None),
    ("en-o-mentions-user", "- `git shortlog` shows the user authored 61% of commits this month.", O, None),
    # -- OBSERVATION, Russian
    ("ru-o-kubectl", "- `kubectl logs` показывает OOMKilled у воркера.", O, None),
    ("ru-o-build", "- Сборка №512 прошла, но покрытие упало до 71%.", O, None),
    ("ru-o-letter", "- Письмо от банка: карта истекает в январе.", O, None),
    ("ru-o-in-logs", "- В логах nginx 120 ошибок 502 за последний час.", O, None),
    ("ru-o-found", "- mypy нашёл 14 ошибок в 6 файлах.", O, None),
    ("ru-o-monitoring", "- Мониторинг показывает рост 5xx после релиза.", O, None),
    ("ru-o-server", "- Ответ сервера: 403 Forbidden на /admin.", O, None),
    ("ru-o-calendar-user", "- Календарь: у пользователя отпуск с 20 по 31 декабря.", O, None),
    ("ru-o-tests-label", "- Тесты: 240 прошли, 2 упали (tests/api).", O, None),
    ("ru-o-exit-code", "- Запуск `make test` завершился с кодом 2.", O, None),
    # -- DECISION, English (scope = every restriction, not the choice)
    ("en-c-only-until", "- Decided with the user: Postgres for analytics only, until the warehouse migration.", C,
     "for analytics only, until the warehouse migration"),
    ("en-c-agreed", "- Agreed with the user: feature flags via LaunchDarkly for the beta cohort.", C,
     "for the beta cohort"),
    ("en-c-no-colon", "- We agreed with the user to pause the newsletter until January.", C, "until January"),
    ("en-c-leading", "- Decided with the user: during the migration, writes go to both databases.", C,
     "during the migration"),
    ("en-c-user-and-i", "- The user and I decided: use Playwright instead of Cypress in the e2e suite only.", C,
     "in the e2e suite only"),
    ("en-c-while", "- Decision with the user: the pager goes to Dmitry while Alex is on vacation.", C,
     "while Alex is on vacation"),
    ("en-c-bold", "**Decision (with user):** no new dependencies until the 2.0 release.", C,
     "until the 2.0 release"),
    # -- DECISION, Russian
    ("ru-c-poka", "- Договорились с пользователем: пока идёт аудит, деплоим только вручную.", C, "пока идёт аудит"),
    ("ru-c-only-until", "- Решили с пользователем: Firebase используем только для мобильного приложения до конца "
     "бета-теста.", C, "только для мобильного приложения до конца бета-теста"),
    ("ru-c-my-s-polzovatelem", "- Мы с пользователем договорились: в рамках хакатона код-ревью необязательно.", C,
     "в рамках хакатона"),
    ("ru-c-date", "- Согласовано с пользователем: до 15 января новые зависимости не добавляем.", C, "до 15 января"),
    ("ru-c-bold", "**Решение (с пользователем):** для внутренних отчётов используем Metabase.", C,
     "для внутренних отчётов"),
    # -- HYPOTHESIS, English
    ("en-h-imperative", "- Never store secrets in .env files.", H, None),
    ("en-h-imperative-env", "- Use UTC for all timestamps in logs.", H, None),
    ("en-h-probably", "- The build probably fails because of the Node 22 upgrade.", H, None),
    ("en-h-likely-user", "- User likely works late on Thursdays.", H, None),
    ("en-h-seems", "- It seems the API paginates at 50 items.", H, None),
    ("en-h-judging", "- Redis is the bottleneck, judging by the latency graphs.", H, None),
    ("en-h-might", "- The user might want a Russian summary too.", H, None),
    ("en-h-guess", "- I guess the deploy script needs sudo on prod.", H, None),
    ("en-h-prefers", "- The user prefers tabs over spaces.", H, None),
    ("en-h-hedged-quote", "- Maybe the user said to skip the standup on Friday?", H, None),
    ("en-h-hedged-decision", "- We probably agreed with the user to keep Node 18 for now.", H, None),
    ("en-h-went-up-maybe", "- Build times went up after the webpack upgrade, maybe due to source maps.", H, None),
    ("en-h-question", "- Does the user want PRs squashed?", H, None),
    # -- HYPOTHESIS, Russian
    ("ru-h-imperative", "- Всегда отвечать на русском, если вопрос на русском.", H, None),
    ("ru-h-navernoe", "- Наверное, стоит перейти на pnpm.", H, None),
    ("ru-h-vidimo-user", "- Пользователь, видимо, не любит длинные письма.", H, None),
    ("ru-h-pohozhe-ci", "- Похоже, CI падает из-за кеша.", H, None),
    ("ru-h-infinitive", "- Проверять типы перед каждым релизом.", H, None),
    ("ru-h-veroyatno", "- Вероятно, база тормозит из-за отсутствия индекса.", H, None),
    ("ru-h-predpochitaet", "- Пользователь предпочитает тёмную тему.", H, None),
    ("ru-h-hedged-request", "- Возможно, пользователь просил отчёты по пятницам — надо уточнить.", H, None),
    ("ru-h-sudya", "- Судя по всему, сервер перегружен по вечерам.", H, None),
    ("ru-h-sudya-po-source", "- Судя по календарю, встречу с юристом перенесли на 15:00.", H, None),
    ("ru-h-hedged-decision", "- Мы вроде договорились с пользователем оставить Node 18 до весны.", H, None),
]


# A second table, written after the rules were frozen and used to find (general) gaps in them.
CASES += [
    ("en-d-said-offline", "- User said he'll be offline Dec 20 to Jan 3; don't schedule anything then.", D, None),
    ("en-h-wants", "- User wants the weekly report on Fridays.", H, None),
    ("en-d-paren-user", "- Alex (the user) asked: keep PR titles under 60 chars.", D, None),
    ("en-d-users-rule", "- The user's rule: no force pushes, ever.", D, None),
    ("en-h-prefers-mentioned", "- User prefers Vim keybindings (mentioned twice).", H, None),
    ("en-d-users-message", "- From the user's message: \"always cc legal on contracts\".", D, None),
    ("ru-d-poprosil-menya", "- Пользователь попросил меня всегда писать тесты к багфиксам.", D, None),
    ("ru-d-trebuet", "- Пользователь требует, чтобы миграции были обратимыми.", D, None),
    ("ru-d-po-slovam", "- По словам пользователя, прод трогать только по вторникам.", D, None),
    ("ru-h-hochet", "- Пользователь хочет отчёт к понедельнику.", H, None),
    ("ru-h-skoree-vsego", "- Пользователь, скорее всего, в отпуске до 10 января.", H, None),
    ("en-o-terraform", "- `terraform plan`: 3 to add, 0 to change, 1 to destroy.", O, None),
    ("en-o-jest", "- Jest run: 4 suites failed, snapshot mismatch in Header.test.tsx.", O, None),
    ("en-o-webhook", "- Stripe webhook delivered event evt_123 with status 200.", O, None),
    ("en-o-slow-log", "- Postgres slow query log: SELECT on orders took 4.2 s.", O, None),
    ("en-o-ran", "- Ran `pnpm test`: all 318 tests passed.", O, None),
    ("en-o-ci-red", "- The CI pipeline is red since commit a1b2c3d.", O, None),
    ("en-o-uptime", "- Uptime Kuma reports the blog down since 02:14.", O, None),
    ("en-o-pip", "- `pip list` shows requests 2.31.0 installed.", O, None),
    ("ru-o-vyvod", "- Вывод `kubectl top`: воркер ест 1.8 ГБ памяти.", O, None),
    ("ru-o-du", "- Команда `du -sh` показала 42 ГБ в /var/log.", O, None),
    ("ru-o-sentry", "- Sentry: 120 событий TypeError за сутки.", O, None),
    ("ru-o-deploy", "- Деплой упал на шаге миграций: timeout 300 s.", O, None),
    ("ru-o-ci", "- Тесты на CI прошли, но линтер ругается на импорты.", O, None),
    ("en-c-only-the", "- Decided with the user: only the EU bucket for customer files.", C, "for customer files"),
    ("ru-c-eta-nedelya", "- Договорились с пользователем: на этой неделе без релизов.", C, "на этой неделе"),
    ("ru-c-adjective", "- Решили с пользователем: в тестовом окружении используем моки платёжки.", C,
     "в тестовом окружении"),
    ("en-h-run", "- Run the linter before every commit.", H, None),
    ("en-h-should-probably", "- Redis should probably get more memory.", H, None),
    ("en-h-likely-race", "- The flaky test is likely a race in the cache warmup.", H, None),
    ("en-h-dont-ask", "- Don't ask the user about the budget again.", H, None),
    ("en-h-maybe-cause", "- Tests fail on Mondays; maybe the cron cleanup is the cause.", H, None),
    ("en-h-fact-about-user", "- The user is a backend engineer.", H, None),
    ("ru-h-imperative", "- Пиши коммиты на английском.", H, None),
    ("ru-h-vozmozhno", "- Возможно, стоит кешировать ответы API.", H, None),
    ("ru-h-dumayu", "- Думаю, пользователь не против Docker.", H, None),
    ("ru-h-nuzhno", "- Нужно обновить зависимости.", H, None),
    ("ru-h-kazhetsya-ci", "- Кажется, CI упал из-за таймаута.", H, None),
    ("ru-h-fact-about-user", "- Пользователь работает из Берлина.", H, None),
]


# A third table: realistic lines written blind (39/45 of the first part were right before the fixes they
# prompted), then near-misses that must NOT be promoted (the user's laptop, the team agreed, per the README).
CASES += [
    ('en-d-b1', '- User told me: reply in under five sentences.', D, None),
    ('en-d-b2', '- The user asked that we never store card numbers.', D, None),
    ('en-d-b3', '- User instruction (Nov 20): always attach the invoice PDF.', D, None),
    ('en-d-b4', '- User says: "no calls before 10".', D, None),
    ('en-d-b5', '- As per the user: deploy windows are Tue and Wed.', D, None),
    ('en-d-b6', '- User explicitly requested UTC timestamps in every report.', D, None),
    ('en-d-b7', '- The user reminded me to rotate the API keys monthly.', D, None),
    ('en-d-b8', '- User (voice note): "stop adding emojis to commit messages".', D, None),
    ('ru-d-b9', '- Пользователь напомнил: счета отправлять до 5 числа.', D, None),
    ('ru-d-b10', '- Пользователь уточнил: созвоны только в Zoom.', D, None),
    ('ru-d-b11', '- Пользователь подчеркнул, что прод без ревью не трогаем.', D, None),
    ('ru-d-b12', '- По указанию пользователя: все логи хранить 90 дней.', D, None),
    ('ru-d-b13', '- Пользователь дал указание: не удалять старые бэкапы.', D, None),
    ('ru-d-b14', '- Пользователь поставил условие: без его апрува не мёржить.', D, None),
    ('ru-d-b15', '- Слова пользователя: «в пятницу ничего не выкатываем».', D, None),
    ('en-o-b16', '- HTTP 500 from /api/orders on every POST since 10:12.', O, None),
    ('en-o-b17', "- The `migrate` script printed 'nothing to migrate'.", O, None),
    ('en-o-b18', '- Build log: webpack compiled with 3 warnings.', O, None),
    ('ru-o-b19', '- Календарь пользователя: завтра занят с 10 до 14.', O, None),
    ('en-o-b20', '- `ping db-1`: 100% packet loss.', O, None),
    ('ru-o-b21', '- Лог nginx: 17 ответов 499 за час.', O, None),
    ('ru-o-b22', '- Счётчик ошибок в Sentry вырос до 240.', O, None),
    ('ru-o-b23', '- Результат `npm test`: 2 теста упали.', O, None),
    ('ru-o-b24', '- Grafana: CPU на api-2 держится на 95%.', O, None),
    ('ru-o-b25', '- Тестовый прогон завершился: 0 ошибок.', O, None),
    ('en-o-b26', '- GET /health responded 503 twice in the last hour.', O, None),
    ('en-c-b27', '- Decided with the user: keep feature X behind a flag for beta users until GA.', C, 'for beta users until GA'),
    ('en-c-b28', '- Agreed with the user: no Friday deploys for the holiday season.', C, 'for the holiday season'),
    ('ru-c-b29', '- Договорились с пользователем: пока не закончится миграция, новые таблицы не создаём.', C, 'пока не закончится миграция'),
    ('ru-c-b30', '- Решили с пользователем: для клиента «Альфа» отчёты присылаем по понедельникам.', C, 'для клиента «Альфа»'),
    ('ru-c-b32', '- Решено с пользователем: до конца года используем старый биллинг.', C, 'до конца года'),
    ('en-h-b33', '- User will probably want a summary.', H, None),
    ('en-h-b34', '- Seems like Dmitry owns the billing service.', H, None),
    ('en-h-b35', '- Guess: the user is in CET.', H, None),
    ('en-h-b36', '- The API might be rate limited.', H, None),
    ('en-h-b37', '- Avoid using `sudo` in scripts.', H, None),
    ('ru-h-b38', '- Не забывать обновлять CHANGELOG.', H, None),
    ('ru-h-b39', '- Лучше не трогать legacy.', H, None),
    ('ru-h-b40', '- Вроде бы тесты стали медленнее.', H, None),
    ('ru-h-b41', '- Стоит уточнить у пользователя про бюджет.', H, None),
    ('ru-h-b42', '- Судя по коммитам, пользователь работает по ночам.', H, None),
    ('ru-h-b43', '- Пользователь, по-видимому, из Казани.', H, None),
    ('en-h-b44', '- Deploys on Friday tend to break things.', H, None),
    ('en-h-b45', '- Nginx config is the likely culprit for the 502s.', H, None),
    ('en-h-b46', '- The user set up a new laptop yesterday.', H, None),
    ('en-h-b47', '- User gave a talk at PyCon about asyncio.', H, None),
    ('ru-h-b48', '- Пользователь дал доступ к репозиторию ещё вчера.', H, None),
    ('en-h-b49', "- The user's laptop runs macOS 15.", H, None),
    ('en-h-b50', '- Users report login failures on Safari.', H, None),
    ('en-o-b51', '- Support inbox: 4 users report login failures on Safari.', O, None),
    ('en-h-b52', '- Ask the user before deleting branches.', H, None),
    ('en-h-b53', '- Remember that the user is vegetarian.', H, None),
    ('ru-h-b54', '- Пользователь любит короткие ответы.', H, None),
    ('ru-h-b55', '- Пользователя зовут Алексей.', H, None),
    ('en-h-b56', '- Per the README, tests need Docker.', H, None),
    ('en-h-b57', '- The docs say the API is rate limited to 100 rpm.', H, None),
    ('en-h-b58', '- Decided to use Postgres for everything.', H, None),
    ('ru-h-b59', '- Решил перейти на pnpm.', H, None),
    ('en-h-b60', '- The team agreed to move standups to 10:00.', H, None),
    ('en-d-b61', '- User said on Monday: no deploys this week.', D, None),
    ('en-d-b62', '- “Don’t touch the billing tables” — user, in the kickoff call.', D, None),
    ('ru-d-b63', '- «Не трогай биллинг» (пользователь, созвон 20.11).', D, None),
    ('ru-d-b64', '- Пользователь в чате: «отвечай по-русски».', D, None),
    ('en-d-b65', '- The user wrote in Slack: please stop tagging me in PRs.', D, None),
    ('en-o-b66', '- `npm outdated` lists 14 packages.', O, None),
    ('en-o-b67', '- Prometheus alert: DiskPressure on node-3.', O, None),
    ('ru-o-b68', '- Логи показывают 3 рестарта воркера за ночь.', O, None),
    ('ru-o-b69', '- По данным мониторинга, p95 вырос до 1.2 с.', O, None),
    ('en-o-b70', '- The deploy to prod succeeded at 15:04.', O, None),
    ('en-h-b71', '- Tests pass locally but probably fail on CI due to timezone.', H, None),
    ('en-c-b72', '- Decided with the user: weekly digest instead of daily emails.', C, None),
    ('ru-c-b73', '- Договорились с пользователем: отчёты по пятницам до конца квартала.', C, 'до конца квартала'),
]


# Configuration facts behind a label are not environment output; something the agent ran is.
CASES += [
    ("en-h-config-label", "- Test runner config: see package.json.", H, None),
    ("en-h-label-no-value", "- API: FastAPI, OpenAPI schema at /docs.", H, None),
    ("en-o-ran", "- 10:15 Ran the migration dry-run on staging: 0 errors.", O, None),
    ("ru-o-zapustil", "- Запустил миграции на стейджинге: 0 ошибок.", O, None),
    ("ru-o-backup", "- Бэкап за 27.11 прошёл, 38 ГБ.", O, None),
    ("en-h-ran-out", "- I ran out of ideas for the naming.", H, None),
]


# Words that are hedges only in some uses: "guests" is not "guess", «вроде» can mean "such as".
CASES += [
    ("en-o-guests", "- Calendar API: 12 guests registered for the Friday demo.", O, None),
    ("ru-o-vrode-such-as", "- pytest упал на тестах вроде test_auth: 3 failed.", O, None),
    ("ru-h-vrode-start", "- Вроде тесты стали медленнее.", H, None),
    ("en-h-assumed", "- Assumed UTC because commits are in UTC.", H, None),
]


# A recollection hedge outweighs a user marker in both languages.
CASES += [
    ("en-h-as-far-as-i-remember", "- As far as I remember, the user said reviews happen on Mondays.", H, None),
    ("en-h-if-memory-serves", "- If memory serves, the user asked for metric units.", H, None),
    ("en-h-if-not-mistaken", "- If I'm not mistaken the user wants tabs.", H, None),
    ("ru-h-esli-pravilno-pomnyu", "- Если правильно помню, пользователь просил отчёты по пятницам.", H, None),
    ("ru-h-naskolko-ya-znayu", "- Насколько я знаю, пользователь говорил про тёмную тему.", H, None),
    ("ru-d-pomnyu-in-quote", "- Пользователь сказал: «запомни, отчёты по пятницам».", D, None),
]


@pytest.mark.parametrize(("line", "tier", "scope"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_line_gets_expected_tier_and_scope(line: str, tier: Tier, scope: str | None) -> None:
    result = classify(line)
    assert result.tier is tier, result.reasons
    assert result.scope == scope
    if scope is not None:
        assert scope in line


@pytest.mark.parametrize(("line", "tier", "scope"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_classification_explains_itself(line: str, tier: Tier, scope: str | None) -> None:
    result = classify(line)
    assert 0.0 <= result.confidence <= 1.0
    assert result.reasons and all(isinstance(r, str) and r for r in result.reasons)


def test_each_language_reaches_ninety_percent_on_the_own_table() -> None:
    for lang in ("en", "ru"):
        rows = [c for c in CASES if c[0].startswith(lang)]
        good = sum(classify(c[1]).tier is c[2] for c in rows)
        assert good / len(rows) >= 0.9, lang


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("- Пользователь сказал: все даты в отчётах в ISO.", "- Пользователь сказал: все даты в отчетах в ISO."),
        ("- Пользователь попросил: мёржить только после ревью.", "- Пользователь попросил: мержить только после ревью."),
        ("- User said: don’t deploy on Fridays.", "- User said: don't deploy on Fridays."),
        ("- User: “never force-push”", "- User: \"never force-push\""),
        ("- Пользователь: «без эмодзи»", "- Пользователь: \"без эмодзи\""),
        ("- ПОЛЬЗОВАТЕЛЬ СКАЗАЛ: НЕ ХРАНИ ПАРОЛИ", "- пользователь сказал: не храни пароли"),
    ],
    ids=["yo-otchety", "yo-merzhit", "curly-apostrophe", "curly-quotes", "yolochki", "upper-case"],
)
def test_spelling_variants_classify_alike(left: str, right: str) -> None:
    a, b = classify(left), classify(right)
    assert (a.tier, a.scope is None) == (b.tier, b.scope is None)


@pytest.mark.parametrize("line", [c[1] for c in CASES[::5]], ids=[c[0] for c in CASES[::5]])
def test_nfd_input_classifies_like_nfc(line: str) -> None:
    nfd = unicodedata.normalize("NFD", line)
    a, b = classify(line), classify(nfd)
    assert a.tier is b.tier
    if b.scope is not None:
        assert b.scope in nfd


@pytest.mark.parametrize(
    "prefix",
    ["- ", "* ", "+ ", "1. ", "12) ", "> ", "> - ", "- [ ] ", "- [x] ", "- 16:20 ", "- [09:05] ", "  - "],
    ids=["dash", "star", "plus", "numbered", "paren-numbered", "quote", "quoted-item", "open-box", "done-box",
         "timestamp", "bracket-timestamp", "nested"],
)
def test_markup_does_not_change_the_tier(prefix: str) -> None:
    for body, tier in [("User said: ship on Mondays.", D), ("Never ship on Mondays.", H),
                       ("`pytest` shows 2 failed.", O)]:
        assert classify(prefix + body).tier is tier, prefix + body


def test_trailing_stamp_is_ignored() -> None:
    plain = classify("- Always run migrations first.")
    stamped = classify("- Always run migrations first. <!--cu:Dabcde@3#abcdef-->")
    assert stamped.tier is plain.tier is H


def test_hedge_inside_the_users_quote_is_the_users() -> None:
    assert classify("- User said: “maybe later we migrate, for now never touch prod”").tier is D


def test_agent_doubt_after_a_quote_demotes_it() -> None:
    assert classify("- User said: no emojis, but I'm not sure").tier is H


def test_user_words_with_only_for_restriction_are_a_decision() -> None:
    result = classify("- User said: SQLite only for prototype A.")
    assert result.tier is C
    assert result.scope == "only for prototype A"


@pytest.mark.parametrize("bad", [None, 42, b"bytes", "", "   ", "\x00\x01", "- [ ]", "<!--cu:Q-->", "\ud800"],
                         ids=["none", "int", "bytes", "empty", "spaces", "controls", "empty-box", "bad-stamp",
                              "lone-surrogate"])
def test_odd_input_is_a_low_confidence_hypothesis(bad) -> None:
    result = classify(bad)
    assert isinstance(result, Classification)
    assert result.tier is H


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_classify_never_raises(text: str) -> None:
    result = classify(text)
    assert 0.0 <= result.confidence <= 1.0
    assert result.scope is None or result.scope in text or result.scope in unicodedata.normalize("NFC", text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([c[1] for c in CASES]), st.text(alphabet=" \t-*>[]x:«»“”„\"'", max_size=8))
def test_classify_never_raises_on_mangled_markup(line: str, junk: str) -> None:
    classify(junk + line)
    classify(line + junk)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["only ", "for ", "the ", "api ", "user ", "только ", "для ", ", ", "x ", "onlyx "]),
                max_size=12))
def test_restrictive_scope_precheck_is_sound(words):
    """A restriction needs an "only" word among the payload's tokens: without one the full search finds none."""
    from tiers import classify as cl
    from tiers import lexicon as lx

    f = "".join(words)
    if not any(w in f for w in lx.scope_words().only):
        toks = cl._tokens(f, 0)
        assert not any(p.only for p in cl._phrases(f, toks))
