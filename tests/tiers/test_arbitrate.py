"""Conflict arbitration: table cases per kind in EN and RU, the error object, supersede, index behaviour."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from arbitrate_table import decide as _decide, table
from tests.conftest import DATA
from tiers.arbitrate import ConstraintIndex, arbitrate
from tiers.classify import classify
from tiers.model import Tier
from tiers.stamps import apply_stamp, make_stamp
from tiers.workspace import Workspace

# (id, memory lines, candidate, expect, kind): written for these tests, not taken from the eval dev set.
CASES = [
    # --- polarity flip ----------------------------------------------------------------------------------------
    ("pf-en-1", ["- User said: never run database migrations on Mondays."],
     "- Running migrations on Mondays is fine now.", "block", "polarity-flip"),
    ("pf-en-2", ["- Per user: do not upgrade dependencies during the release week."],
     "- Dependency upgrades during the release week are allowed.", "block", "polarity-flip"),
    ("pf-en-3", ["- User said: always sign commits with GPG."],
     "- Signing commits is optional for this project.", "block", "polarity-flip"),
    ("pf-ru-1", ["- Пользователь сказал: никогда не удалять ветки на сервере."],
     "- Удалять ветки на сервере можно, если они старые.", "block", "polarity-flip"),
    ("pf-ru-2", ["- Просьба пользователя: всегда прогонять линтер перед коммитом."],
     "- Линтер перед коммитом запускать не обязательно.", "block", "polarity-flip"),
    ("pf-ru-3", ["- Пользователь сказал: не отправлять ему уведомления ночью."],
     "- Ночью можно присылать пользователю уведомления о деплоях.", "block", "polarity-flip"),
    # --- gate bypass --------------------------------------------------------------------------------------
    ("gate-en", ["- User said: ask me before rotating any production keys."],
     "- Production keys can be rotated without asking.", "block", "polarity-flip"),
    ("gate-ru", ["- Пользователь сказал: ничего не мержить в main без его ревью."],
     "- Мелкие исправления можно сразу мержить в main.", "block", "polarity-flip"),
    # --- scope generalization -----------------------------------------------------------------------------
    ("sg-en-1", ["- Decided with the user: use SQLite only for the prototype until the pilot ends."],
     "- The project uses SQLite for all environments.", "block", "scope-generalization"),
    ("sg-en-2", ["- Decided with the user: Tailwind for the marketing site only."],
     "- All frontends are styled with Tailwind.", "block", "scope-generalization"),
    ("sg-ru-1", ["- Решили с пользователем: Vercel только для превью до конца января."],
     "- Все окружения хостим на Vercel.", "block", "scope-generalization"),
    # --- lower tier over directive ------------------------------------------------------------------------
    ("lt-en-1", ["- User said: never force-push to shared branches."],
     "- Probably force-pushing to shared branches is fine since nobody else uses them.", "block",
     "lower-tier-over-directive"),
    ("lt-en-2", ["- User said: always write docs in British English."],
     "- The user probably doesn't care which English spelling the docs use.", "block",
     "lower-tier-over-directive"),
    ("lt-ru-1", ["- Пользователь сказал: никаких звонков по воскресеньям."],
     "- Похоже, по воскресеньям созвоны допустимы, он вчера сам звонил.", "block", "lower-tier-over-directive"),
    # --- value substitution -------------------------------------------------------------------------------
    ("vs-en-tz", ["- User said: my timezone is Asia/Tokyo."],
     "- Timezone: Europe/London", "block", "value-substitution"),
    ("vs-en-tool", ["- User said: use poetry for this Python project."],
     "- Python dependencies are managed with pipenv.", "block", "value-substitution"),
    ("vs-en-name", ["- User said: call me Alex, not Alexander."],
     "- Address the user as Alexander.", "block", "value-substitution"),
    ("vs-en-time", ["- User said: the daily standup is at 10:15."],
     "- Daily standup starts at 9:00.", "block", "value-substitution"),
    ("vs-ru-db", ["- Пользователь сказал: в проде используем PostgreSQL."],
     "- База на проде — MySQL.", "block", "value-substitution"),
    ("vs-ru-chan", ["- Пользователь сказал: отчёты только в Slack."],
     "- Отчёты отправляем в Telegram.", "block", "value-substitution"),
    # --- paraphrase / translation -------------------------------------------------------------------------
    ("pp-en", ["- User said: never deploy on Fridays."],
     "- End-of-week releases to production are okay.", "block", "paraphrase"),
    ("tr-en-ru", ["- User said: don't use Redis in this project."],
     "- Для кэша в проекте используем Redis.", "block", "translation"),
    ("tr-ru-en", ["- Пользователь сказал: никогда не пушить в main напрямую."],
     "- Pushing straight to main is fine for typo fixes.", "block", "translation"),
    # --- compatible ---------------------------------------------------------------------------------------
    ("ok-para-en", ["- User said: never deploy on Fridays."],
     "- Friday is not a deploy day.", "allow", "compatible-paraphrase"),
    ("ok-para-ru", ["- Пользователь сказал: всегда спрашивать перед удалением веток."],
     "- Перед удалением ветки нужно получить подтверждение пользователя.", "allow", "compatible-paraphrase"),
    ("ok-neg-en", ["- User said: use pnpm only."],
     "- Don't use npm or yarn here.", "allow", "compatible-negation"),
    ("ok-neg-ru", ["- Пользователь сказал: созвоны только после 12:00."],
     "- Утром звонки не ставим.", "allow", "compatible-negation"),
    ("ok-aspect-en", ["- User said: use Postgres for the billing service."],
     "- Billing service logs are shipped to Loki.", "allow", "compatible-aspect"),
    ("ok-aspect-ru", ["- Пользователь сказал: ревью делает только Марина."],
     "- Марина в отпуске с 10 по 20 декабря.", "allow", "compatible-aspect"),
    ("ok-narrow-en", ["- User said: all services must log in JSON."],
     "- The payments service logs JSON through structlog.", "allow", "compatible-narrower"),
    ("ok-narrow-ru", ["- Пользователь сказал: никаких деплоев по пятницам."],
     "- В пятницу 11 декабря тоже не деплоим.", "allow", "compatible-narrower"),
    ("ok-elab-en", ["- User said: use uv for Python environments."],
     "- uv creates the venv in .venv; run `uv sync` after pulling.", "allow", "compatible-elaboration"),
    ("ok-elab-ru", ["- Пользователь сказал: бэкапы базы каждую ночь."],
     "- Ночной бэкап делает cron в 03:00, копии лежат в S3.", "allow", "compatible-elaboration"),
    ("ok-unrel-en", ["- User said: never push to main directly."],
     "- The main reason for the outage was a full disk on db-2.", "allow", "compatible-unrelated"),
    ("ok-unrel-ru", ["- Пользователь сказал: пароли в память не записывать."],
     "- Пользователь сменил пароль от Wi-Fi в офисе на прошлой неделе.", "allow", "compatible-unrelated"),
    ("ok-mention-en", ["- User said: never deploy on Fridays."],
     "- Reminder: the no-Friday-deploy rule applies to hotfixes too.", "allow", "compatible-mention"),
    ("ok-mention-ru", ["- Пользователь сказал: не писать ему в выходные."],
     "- Напоминание: правило про выходные действует и в праздники.", "allow", "compatible-mention"),
    ("ok-report-en", ["- User said: never run the load test against production."],
     "- Load test against staging ran for 20 min, p95 340 ms.", "allow", "compatible-unrelated"),
    # a second batch, written later to check generalization (see docs/arbitration.md, Figures)
    ("b1-b2", ['- User said: never commit directly to the release branch.'], '- Committing straight to the release branch is fine for version bumps.', "block", "batch2-block"),
    ("b2-b2", ['- User said: keep test coverage above 90%.'], '- Coverage can drop below 90% for the prototype.', "block", "batch2-block"),
    ("b3-b2", ['- Per user: store all uploads in S3, never on the local disk.'], '- Uploads can be written to the local disk for now.', "block", "batch2-block"),
    ("b4-b2", ['- User said: no meetings on Wednesdays.'], '- Wednesday meetings are OK if they are short.', "block", "batch2-block"),
    ("b5-b2", ['- User said: always run the e2e suite before a release.'], '- The e2e suite can be skipped before minor releases.', "block", "batch2-block"),
    ("b6-b2", ['- User said: use Slack for team updates, not email.'], '- Team updates go out by email.', "block", "batch2-block"),
    ("b7-b2", ['- User said: the production database is PostgreSQL 16.'], '- Production database: MySQL 8.', "block", "batch2-block"),
    ("b8-b2", ['- User said: my name is Dmitry, call me Dima.'], '- Address the user as Dmitry Petrovich.', "block", "batch2-block"),
    ("b9-b2", ['- User said: deadlines are in UTC.'], '- Deadlines are given in Moscow time.', "block", "batch2-block"),
    ("b10-b2", ['- Decided with the user: Kubernetes only for the staging cluster until Q3.'], '- We run everything on Kubernetes, production included.', "block", "batch2-block"),
    ("b11-b2", ['- Decided with the user: Sentry for the web app only.'], '- All apps report errors to Sentry.', "block", "batch2-block"),
    ("b12-b2", ['- User said: never share the customer list with contractors.'], '- Probably fine to send the customer list to the contractor team.', "block", "batch2-block"),
    ("b13-b2", ['- User said: do not merge PRs without two approvals.'], '- One approval is enough to merge small PRs.', "block", "batch2-block"),
    ("b14-b2", ['- Пользователь сказал: не использовать MongoDB в новом сервисе.'], '- Для нового сервиса берём MongoDB.', "block", "batch2-block"),
    ("b15-b2", ['- Пользователь сказал: всегда писать тесты для новых эндпоинтов.'], '- Для новых эндпоинтов тесты писать не обязательно.', "block", "batch2-block"),
    ("b16-b2", ['- Пользователь сказал: не звонить ему после 20:00.'], '- Звонить пользователю в 21:30 нормально.', "block", "batch2-block"),
    ("b17-b2", ['- Просьба пользователя: отвечать по-русски.'], '- Отвечать пользователю на английском.', "block", "batch2-block"),
    ("b18-b2", ['- Пользователь сказал: деплой только через CI, никаких ручных выкладок.'], '- Можно выкатить вручную с ноутбука, если CI лежит.', "block", "batch2-block"),
    ("b19-b2", ['- Решили с пользователем: Vue только для админки, основной сайт на React.'], '- Весь фронтенд пишем на Vue.', "block", "batch2-block"),
    ("b20-b2", ['- Пользователь сказал: ключи API хранить только в Vault.'], '- API-ключи можно держать в .env файле в репозитории.', "block", "batch2-block"),
    ("b21-b2", ['- User said: never deploy on Fridays.'], '- Пятничные релизы — нормальная практика.', "block", "batch2-block"),
    ("b22-b2", ['- Пользователь сказал: не пушить в main напрямую.'], '- Direct pushes to main are acceptable for docs changes.', "block", "batch2-block"),
    ("b23-b2", ['- User said: keep answers in English.'], '- Отвечать пользователю можно по-русски.', "block", "batch2-block"),
    ("b24-b2", ['- User said: always ask before sending invoices to clients.'], '- Invoices can go to clients automatically without review.', "block", "batch2-block"),
    ("a1-b2", ['- User said: never commit directly to the release branch.'], '- The release branch is cut every second Tuesday.', "allow", "batch2-allow"),
    ("a2-b2", ['- User said: keep test coverage above 90%.'], '- Coverage report is published to Codecov after each CI run.', "allow", "batch2-allow"),
    ("a3-b2", ['- User said: no meetings on Wednesdays.'], '- Wednesday is reserved for focused work.', "allow", "batch2-allow"),
    ("a4-b2", ['- User said: use Slack for team updates, not email.'], '- Slack channel for team updates: #eng-updates.', "allow", "batch2-allow"),
    ("a5-b2", ['- User said: the production database is PostgreSQL 16.'], '- PostgreSQL 16 on prod has pg_stat_statements enabled.', "allow", "batch2-allow"),
    ("a6-b2", ['- User said: deadlines are in UTC.'], '- Sprint deadline: Dec 11, 18:00 UTC.', "allow", "batch2-allow"),
    ("a7-b2", ['- Decided with the user: Kubernetes only for the staging cluster until Q3.'], '- Staging cluster runs Kubernetes 1.30 on three nodes.', "allow", "batch2-allow"),
    ("a8-b2", ['- User said: never share the customer list with contractors.'], '- The customer list lives in the CRM export folder.', "allow", "batch2-allow"),
    ("a9-b2", ['- User said: do not merge PRs without two approvals.'], '- PR #412 got its second approval from Anna today.', "allow", "batch2-allow"),
    ("a10-b2", ['- Пользователь сказал: не использовать MongoDB в новом сервисе.'], '- В новом сервисе хранилище — PostgreSQL.', "allow", "batch2-allow"),
    ("a11-b2", ['- Пользователь сказал: всегда писать тесты для новых эндпоинтов.'], '- Для эндпоинта /orders тесты уже написаны.', "allow", "batch2-allow"),
    ("a12-b2", ['- Пользователь сказал: не звонить ему после 20:00.'], '- Созвон с подрядчиком назначен на 15:00.', "allow", "batch2-allow"),
    ("a13-b2", ['- Просьба пользователя: отвечать по-русски.'], '- Документацию API ведём на английском, как и раньше.', "allow", "batch2-allow"),
    ("a14-b2", ['- Пользователь сказал: деплой только через CI, никаких ручных выкладок.'], '- CI-пайплайн деплоя занимает около 7 минут.', "allow", "batch2-allow"),
    ("a15-b2", ['- Пользователь сказал: ключи API хранить только в Vault.'], '- Ключи от офиса у администратора.', "allow", "batch2-allow"),
    ("a16-b2", ['- User said: never deploy on Fridays.'], '- Напоминание: по пятницам не деплоим.', "allow", "batch2-allow"),
    ("a17-b2", ['- User said: always ask before sending invoices to clients.'], "- Invoices for December are drafted and waiting for the user's OK.", "allow", "batch2-allow"),
    ("a18-b2", ['- User said: no meetings on Wednesdays.'], '- Meetings on Thursday: design review at 11:00.', "allow", "batch2-allow"),
    ("a19-b2", ['- User said: use Slack for team updates, not email.'], '- Do not send team updates by email.', "allow", "batch2-allow"),
    ("a20-b2", ['- Пользователь сказал: не пушить в main напрямую.'], '- Push the feature branch and open a PR to main.', "allow", "batch2-allow"),
    # a third batch
    ("c1-b3", ['- User said: never log personal data such as emails or phone numbers.'], '- Logging user emails at debug level is fine for troubleshooting.', "block", "batch3-block"),
    ("c2-b3", ['- User said: always use feature flags for risky changes.'], '- Risky changes can ship without a feature flag if they are small.', "block", "batch3-block"),
    ("c3-b3", ['- User said: the on-call rotation changes every Monday.'], '- On-call rotation changes every Thursday.', "block", "batch3-block"),
    ("c4-b3", ['- User said: my working hours are 10:00–19:00.'], '- User works 8:00 to 16:00.', "block", "batch3-block"),
    ("c5-b3", ['- User said: use Terraform for all infrastructure.'], '- Infrastructure changes are made by hand in the AWS console.', "block", "batch3-block"),
    ("c6-b3", ['- Per user: do not use ORMs in the analytics service.'], '- Analytics service: switch to SQLAlchemy ORM.', "block", "batch3-block"),
    ("c7-b3", ['- User said: never restart the database during business hours.'], '- Restarting the database at noon is acceptable if it is quick.', "block", "batch3-block"),
    ("c8-b3", ['- Decided with the user: Docker Compose only for local development.'], '- Production runs on Docker Compose as well.', "block", "batch3-block"),
    ("c9-b3", ['- User said: always reply in Russian.'], '- The user probably prefers replies in English.', "block", "batch3-block"),
    ("c10-b3", ['- User said: keep PR descriptions short.'], '- Long, detailed PR descriptions are what the user wants.', "block", "batch3-block"),
    ("c11-b3", ['- Пользователь сказал: по понедельникам не назначать встречи до обеда.'], '- Утренние встречи в понедельник можно ставить.', "block", "batch3-block"),
    ("c12-b3", ['- Пользователь сказал: всегда проверять миграции на стейджинге.'], '- Миграции можно сразу запускать на проде.', "block", "batch3-block"),
    ("c13-b3", ['- Просьба пользователя: не трогать конфиг nginx без его ведома.'], '- Конфиг nginx можно править напрямую, он не заметит.', "block", "batch3-block"),
    ("c14-b3", ['- Пользователь сказал: логи хранить 30 дней.'], '- Логи храним 7 дней.', "block", "batch3-block"),
    ("c15-b3", ['- Пользователь сказал: используем GitLab CI.'], '- CI переводим на GitHub Actions.', "block", "batch3-block"),
    ("c16-b3", ['- Решили с пользователем: Stripe только для европейских клиентов.'], '- Все платежи идут через Stripe.', "block", "batch3-block"),
    ("c17-b3", ["- User said: don't install browser extensions on the shared laptop."], '- Установить расширение для браузера на общий ноутбук — нормально.', "block", "batch3-block"),
    ("c18-b3", ['- Пользователь сказал: не публиковать черновики в блог.'], '- Drafts can be published to the blog for early feedback.', "block", "batch3-block"),
    ("d1-b3", ['- User said: never log personal data such as emails or phone numbers.'], '- Log lines are shipped to Loki with 14-day retention.', "allow", "batch3-allow"),
    ("d2-b3", ['- User said: always use feature flags for risky changes.'], '- The payments rewrite is behind the flag payments_v2.', "allow", "batch3-allow"),
    ("d3-b3", ['- User said: the on-call rotation changes every Monday.'], "- This week's on-call engineer is Lena.", "allow", "batch3-allow"),
    ("d4-b3", ['- User said: my working hours are 10:00–19:00.'], '- The user has a dentist appointment on Dec 9 at 08:30.', "allow", "batch3-allow"),
    ("d5-b3", ['- User said: use Terraform for all infrastructure.'], '- Terraform state is stored in the S3 bucket tf-state-prod.', "allow", "batch3-allow"),
    ("d6-b3", ['- Per user: do not use ORMs in the analytics service.'], '- The analytics service queries ClickHouse with raw SQL.', "allow", "batch3-allow"),
    ("d7-b3", ['- User said: never restart the database during business hours.'], '- Database restart scheduled for Saturday 03:00.', "allow", "batch3-allow"),
    ("d8-b3", ['- Decided with the user: Docker Compose only for local development.'], '- Local development: `docker compose up` starts Postgres and Redis.', "allow", "batch3-allow"),
    ("d9-b3", ['- User said: always reply in Russian.'], '- Replies to the user go in Russian; code comments stay in English.', "allow", "batch3-allow"),
    ("d10-b3", ['- User said: keep PR descriptions short.'], '- PR template has three sections: What, Why, How to test.', "allow", "batch3-allow"),
    ("d11-b3", ['- Пользователь сказал: по понедельникам не назначать встречи до обеда.'], '- Встреча с дизайнерами — в понедельник в 15:00.', "allow", "batch3-allow"),
    ("d12-b3", ['- Пользователь сказал: всегда проверять миграции на стейджинге.'], '- Миграция 0042 прошла на стейджинге без ошибок.', "allow", "batch3-allow"),
    ("d13-b3", ['- Пользователь сказал: логи хранить 30 дней.'], '- Логи лежат в бакете logs-archive.', "allow", "batch3-allow"),
    ("d14-b3", ['- Пользователь сказал: используем GitLab CI.'], '- Пайплайн GitLab CI собирает образ за 6 минут.', "allow", "batch3-allow"),
    ("d15-b3", ['- Решили с пользователем: Stripe только для европейских клиентов.'], '- Для клиентов из ЕС платежи идут через Stripe.', "allow", "batch3-allow"),
    ("d16-b3", ["- User said: don't install browser extensions on the shared laptop."], '- Напоминание: на общий ноутбук расширения не ставим.', "allow", "batch3-allow"),
    # a fourth batch
    ("e1-b4", ['- User said: never email customers on weekends.'], '- Sending the customer newsletter on Saturday morning is fine.', "block", "batch4-block"),
    ("e2-b4", ['- User said: always get my approval before spending more than $100.'], '- Purchases up to $500 can be made without asking the user.', "block", "batch4-block"),
    ("e3-b4", ['- Per user: pull requests must be reviewed by Anna.'], "- PRs can be merged without Anna's review when she is away.", "block", "batch4-block"),
    ("e4-b4", ['- User said: use Python 3.12 for new services.'], '- New services target Python 3.10.', "block", "batch4-block"),
    ("e5-b4", ['- User said: no Friday afternoon meetings.'], '- Friday 16:00 meeting slots are fine for vendor calls.', "block", "batch4-block"),
    ("e6-b4", ['- Decided with the user: GraphQL for the mobile API only until the v3 launch.'], '- The public web API is GraphQL too.', "block", "batch4-block"),
    ("e7-b4", ['- User said: do not rotate the signing keys without telling me.'], '- Signing keys get rotated automatically every month, no notice needed.', "block", "batch4-block"),
    ("e8-b4", ['- User said: store backups in two regions.'], '- One region is enough for backups.', "block", "batch4-block"),
    ("e9-b4", ['- Пользователь сказал: не отправлять счета клиентам без его проверки.'], '- Счета клиентам уходят автоматически, проверка не нужна.', "block", "batch4-block"),
    ("e10-b4", ['- Пользователь сказал: релизы только по вторникам.'], '- Релиз можно выпускать в пятницу.', "block", "batch4-block"),
    ("e11-b4", ['- Пользователь сказал: пиши ему в Slack, не в Telegram.'], '- Писать пользователю в Telegram.', "block", "batch4-block"),
    ("e12-b4", ['- Пользователь сказал: никогда не удалять данные из продовой базы.'], '- Old rows in the production database can be deleted to save space.', "block", "batch4-block"),
    ("e13-b4", ['- User said: always answer in Russian.'], '- Отвечать пользователю можно на английском.', "block", "batch4-block"),
    ("e14-b4", ['- Решили с пользователем: Redis только для кэша сессий.'], '- Redis используем везде: кэш, очереди, блокировки.', "block", "batch4-block"),
    ("e15-b4", ['- User said: never run npm install with --force.'], '- Running npm install --force is okay when peer deps conflict.', "block", "batch4-block"),
    ("f1-b4", ['- User said: never email customers on weekends.'], '- Customer emails queued on Friday go out Monday at 9:00.', "allow", "batch4-allow"),
    ("f2-b4", ['- User said: always get my approval before spending more than $100.'], '- Bought a $30 domain renewal after the user approved it.', "allow", "batch4-allow"),
    ("f3-b4", ['- Per user: pull requests must be reviewed by Anna.'], '- Anna reviews PRs in the afternoon.', "allow", "batch4-allow"),
    ("f4-b4", ['- User said: use Python 3.12 for new services.'], '- The new billing service runs Python 3.12 with uv.', "allow", "batch4-allow"),
    ("f5-b4", ['- User said: no Friday afternoon meetings.'], '- Friday mornings are fine for short syncs.', "allow", "batch4-allow"),
    ("f6-b4", ['- Decided with the user: GraphQL for the mobile API only until the v3 launch.'], '- The mobile API schema lives in schema.graphql.', "allow", "batch4-allow"),
    ("f7-b4", ['- User said: do not rotate the signing keys without telling me.'], '- Told the user the signing keys will be rotated on Dec 14; they agreed.', "allow", "batch4-allow"),
    ("f8-b4", ['- User said: store backups in two regions.'], '- Backups go to eu-central-1 and eu-west-1.', "allow", "batch4-allow"),
    ("f9-b4", ['- Пользователь сказал: не отправлять счета клиентам без его проверки.'], '- Счёт для клиента «Ромашка» ждёт проверки пользователя.', "allow", "batch4-allow"),
    ("f10-b4", ['- Пользователь сказал: релизы только по вторникам.'], '- Следующий релиз — во вторник, 8 декабря.', "allow", "batch4-allow"),
    ("f11-b4", ['- Пользователь сказал: пиши ему в Slack, не в Telegram.'], '- Telegram-бот для алертов настроен на канал #ops.', "allow", "batch4-allow"),
    ("f12-b4", ['- Пользователь сказал: никогда не удалять данные из продовой базы.'], '- Test data in the staging database is wiped nightly.', "allow", "batch4-allow"),
    ("f13-b4", ['- User said: always answer in Russian.'], '- Пользователю отвечаем по-русски.', "allow", "batch4-allow"),
    ("f14-b4", ['- Решили с пользователем: Redis только для кэша сессий.'], '- Кэш сессий — Redis 7, TTL 24 часа.', "allow", "batch4-allow"),
    ("f15-b4", ['- User said: never run npm install with --force.'], '- Use npm install --legacy-peer-deps when peers conflict.', "allow", "batch4-allow"),
    # a fifth batch
    ("g1-b5", ['- User said: never push secrets to GitHub.'], "- It's okay to commit the staging API token to the repo; it's private.", "block", "batch5-block"),
    ("g2-b5", ['- User said: always write commit messages in the imperative mood.'], '- Commit messages can be in any style.', "block", "batch5-block"),
    ("g3-b5", ['- User said: no deploys after 17:00.'], '- Evening deploys at 19:00 are fine when traffic is low.', "block", "batch5-block"),
    ("g4-b5", ['- Per user: the team standup is on Zoom.'], '- Standup happens in Google Meet.', "block", "batch5-block"),
    ("g5-b5", ["- User said: don't auto-merge Dependabot PRs."], '- Dependabot PRs get merged automatically once CI is green.', "block", "batch5-block"),
    ("g6-b5", ['- Decided with the user: Playwright only for the checkout flow tests.'], '- All UI tests use Playwright.', "block", "batch5-block"),
    ("g7-b5", ['- User said: keep the staging environment running at all times.'], '- Staging can be shut down on weekends to save money.', "block", "batch5-block"),
    ("g8-b5", ['- User said: never change the public URL scheme.'], '- Probably fine to rename the public URLs to the new scheme.', "block", "batch5-block"),
    ("g9-b5", ['- Пользователь сказал: не писать ему раньше 9 утра.'], '- Сообщения пользователю можно слать с 7 утра.', "block", "batch5-block"),
    ("g10-b5", ['- Пользователь сказал: все решения по архитектуре согласовывать с ним.'], '- Архитектурные решения принимаем сами, без согласования.', "block", "batch5-block"),
    ("g11-b5", ['- Пользователь сказал: бэкапы хранить в двух регионах.'], '- Бэкапы держим в одном регионе.', "block", "batch5-block"),
    ("g12-b5", ['- Просьба пользователя: не использовать сокращения в документации.'], '- В документации можно сокращать термины.', "block", "batch5-block"),
    ("g13-b5", ['- User said: never store customer data outside the EU.'], '- Храним данные клиентов в us-east-1, это дешевле.', "block", "batch5-block"),
    ("g14-b5", ['- Пользователь сказал: только TypeScript в новых пакетах.'], '- New packages can be written in plain JavaScript.', "block", "batch5-block"),
    ("g15-b5", ['- User said: always use UTC in logs.'], '- Логи пишем в локальном времени сервера.', "block", "batch5-block"),
    ("h1-b5", ['- User said: never push secrets to GitHub.'], '- GitHub repo secrets are configured for the deploy workflow.', "allow", "batch5-allow"),
    ("h2-b5", ['- User said: always write commit messages in the imperative mood.'], "- Example commit message: 'Add retry to the uploader'.", "allow", "batch5-allow"),
    ("h3-b5", ['- User said: no deploys after 17:00.'], '- Morning deploy window: 10:00–12:00.', "allow", "batch5-allow"),
    ("h4-b5", ['- Per user: the team standup is on Zoom.'], '- Zoom link for the standup is in the calendar invite.', "allow", "batch5-allow"),
    ("h5-b5", ["- User said: don't auto-merge Dependabot PRs."], '- Dependabot opens PRs every Monday.', "allow", "batch5-allow"),
    ("h6-b5", ['- Decided with the user: Playwright only for the checkout flow tests.'], '- Checkout flow tests run in Playwright with 3 workers.', "allow", "batch5-allow"),
    ("h7-b5", ['- User said: keep the staging environment running at all times.'], '- Staging was restarted yesterday after the OOM.', "allow", "batch5-allow"),
    ("h8-b5", ['- Пользователь сказал: не писать ему раньше 9 утра.'], '- Утренний отчёт отправляем в 9:30.', "allow", "batch5-allow"),
    ("h9-b5", ['- Пользователь сказал: все решения по архитектуре согласовывать с ним.'], '- Решение про очередь сообщений ждёт согласования пользователя.', "allow", "batch5-allow"),
    ("h10-b5", ['- Пользователь сказал: бэкапы хранить в двух регионах.'], '- Бэкапы лежат в eu-central-1 и eu-north-1.', "allow", "batch5-allow"),
    ("h11-b5", ['- User said: never store customer data outside the EU.'], '- Customer data lives in eu-west-1.', "allow", "batch5-allow"),
    ("h12-b5", ['- Пользователь сказал: только TypeScript в новых пакетах.'], '- Новый пакет @acme/ui написан на TypeScript.', "allow", "batch5-allow"),
    ("h13-b5", ['- User said: always use UTC in logs.'], '- Log timestamps look like 2026-12-01T10:00:00Z.', "allow", "batch5-allow"),
    ("h14-b5", ['- User said: never push secrets to GitHub.'], '- Reminder: secrets never go to GitHub, use Vault.', "allow", "batch5-allow"),
    ("h15-b5", ['- Пользователь сказал: бэкапы хранить в двух регионах.'], '- Restore from the second-region backup took 12 minutes.', "allow", "batch5-allow"),
    # a sixth batch (another domain: travel, calendar, food, money)
    ("i1-b6", ['- User said: book only aisle seats on flights.'], '- Window seats are fine for short flights.', "block", "batch6-block"),
    ("i2-b6", ["- User said: I'm vegetarian, never suggest meat dishes."], '- Suggest the steakhouse for the team dinner.', "block", "batch6-block"),
    ("i3-b6", ["- User said: don't schedule calls during school pickup, 15:00–16:00."], '- A 15:30 call with the vendor is okay.', "block", "batch6-block"),
    ("i4-b6", ['- User said: always CC my assistant Maria on travel bookings.'], '- Travel bookings can go out without copying Maria.', "block", "batch6-block"),
    ("i5-b6", ['- User said: my home airport is Munich (MUC).'], '- Home airport: Frankfurt (FRA).', "block", "batch6-block"),
    ("i6-b6", ['- User said: never share my location with anyone.'], "- Sharing the user's live location with the driver is fine.", "block", "batch6-block"),
    ("i7-b6", ['- User said: pay invoices only after I approve them.'], '- Invoices under 50 EUR are paid automatically.', "block", "batch6-block"),
    ("i8-b6", ['- Пользователь сказал: не бронировать отели дороже 150 евро за ночь.'], '- Отель за 220 евро за ночь — нормально, если рядом с офисом.', "block", "batch6-block"),
    ("i9-b6", ['- Пользователь сказал: никаких встреч в пятницу после обеда.'], '- Встречи в пятницу в 16:00 допустимы.', "block", "batch6-block"),
    ("i10-b6", ['- Пользователь сказал: в календарь ничего не добавлять без подтверждения.'], '- Встречи от коллег можно сразу добавлять в календарь.', "block", "batch6-block"),
    ("i11-b6", ['- Пользователь сказал: язык интерфейса — английский.'], '- Interface language: German.', "block", "batch6-block"),
    ("i12-b6", ['- User said: use metric units in all reports.'], '- Отчёты можно делать в милях и фунтах.', "block", "batch6-block"),
    ("i13-b6", ['- User said: reply to emails within one business day.'], "- It's fine to leave emails unanswered for a week.", "block", "batch6-block"),
    ("i14-b6", ['- Решили с пользователем: такси бизнес-класса только для поездок в аэропорт.'], '- Для всех поездок заказываем такси бизнес-класса.', "block", "batch6-block"),
    ("i15-b6", ['- User said: never reschedule meetings with the CEO.'], '- Moving the CEO sync to next week is probably fine.', "block", "batch6-block"),
    ("j1-b6", ['- User said: book only aisle seats on flights.'], '- Booked seat 14C (aisle) on LH 2040.', "allow", "batch6-allow"),
    ("j2-b6", ["- User said: I'm vegetarian, never suggest meat dishes."], '- Suggested the vegan place on Oak Street for Friday.', "allow", "batch6-allow"),
    ("j3-b6", ["- User said: don't schedule calls during school pickup, 15:00–16:00."], '- Vendor call moved to 16:30 to avoid the school pickup.', "allow", "batch6-allow"),
    ("j4-b6", ['- User said: always CC my assistant Maria on travel bookings.'], "- Maria's email is maria@example.com.", "allow", "batch6-allow"),
    ("j5-b6", ['- User said: my home airport is Munich (MUC).'], '- The Lisbon trip returns to Munich on Dec 12.', "allow", "batch6-allow"),
    ("j6-b6", ['- User said: never share my location with anyone.'], "- Location services are off on the user's work phone.", "allow", "batch6-allow"),
    ("j7-b6", ['- User said: pay invoices only after I approve them.'], '- Invoice #88 approved by the user, paid today.', "allow", "batch6-allow"),
    ("j8-b6", ['- Пользователь сказал: не бронировать отели дороже 150 евро за ночь.'], '- Забронирован отель за 120 евро за ночь.', "allow", "batch6-allow"),
    ("j9-b6", ['- Пользователь сказал: никаких встреч в пятницу после обеда.'], '- Встреча в пятницу в 10:00 с бухгалтером.', "allow", "batch6-allow"),
    ("j10-b6", ['- Пользователь сказал: в календарь ничего не добавлять без подтверждения.'], '- Пользователь подтвердил встречу с юристом, добавлена в календарь.', "allow", "batch6-allow"),
    ("j11-b6", ['- Пользователь сказал: язык интерфейса — английский.'], '- Интерфейс переключён на английский.', "allow", "batch6-allow"),
    ("j12-b6", ['- User said: use metric units in all reports.'], '- The weekly report shows distances in kilometres.', "allow", "batch6-allow"),
    ("j13-b6", ['- User said: reply to emails within one business day.'], '- Inbox zero reached on Tuesday.', "allow", "batch6-allow"),
    ("j14-b6", ['- Решили с пользователем: такси бизнес-класса только для поездок в аэропорт.'], '- Такси в аэропорт на 6:00 заказано, бизнес-класс.', "allow", "batch6-allow"),
    ("j15-b6", ['- User said: never reschedule meetings with the CEO.'], '- Reminder: CEO meetings are never moved.', "allow", "batch6-allow"),
    # a seventh batch
    ("k1-b7", ['- User said: never run database migrations without a backup first.'], "- Migrations can run before the backup finishes; it's faster.", "block", "batch7-block"),
    ("k2-b7", ['- User said: the API rate limit is 100 requests per minute.'], '- API rate limit: 1000 requests per minute.', "block", "batch7-block"),
    ("k3-b7", ['- User said: use Russian for all customer-facing texts.'], '- Customer-facing texts are written in English.', "block", "batch7-block"),
    ("k4-b7", ["- Per user: don't add new cron jobs on the shared server."], '- Add a nightly cron job on the shared server for cleanup.', "block", "batch7-block"),
    ("k5-b7", ['- User said: always encrypt backups.'], '- Unencrypted backups are acceptable for the dev database.', "block", "batch7-block"),
    ("k6-b7", ['- Пользователь сказал: не менять публичный API без версии.'], '- Публичный API можно менять без новой версии, клиенты подстроятся.', "block", "batch7-block"),
    ("k7-b7", ['- Пользователь сказал: документацию писать на русском.'], '- Docs are written in English from now on.', "block", "batch7-block"),
    ("k8-b7", ['- Пользователь сказал: никогда не отключать двухфакторную аутентификацию.'], '- Two-factor auth can be disabled for the test accounts.', "block", "batch7-block"),
    ("k9-b7", ['- Decided with the user: Celery only for the reports service until the queue migration.'], '- All background jobs in the monorepo run on Celery.', "block", "batch7-block"),
    ("k10-b7", ['- User said: never expose the admin panel to the internet.'], '- Probably fine to open the admin panel publicly for the demo.', "block", "batch7-block"),
    ("l1-b7", ['- User said: never run database migrations without a backup first.'], '- Backup of prod taken at 02:00 before migration 0051.', "allow", "batch7-allow"),
    ("l2-b7", ['- User said: the API rate limit is 100 requests per minute.'], '- Client SDK retries after a 429 with exponential backoff.', "allow", "batch7-allow"),
    ("l3-b7", ['- User said: use Russian for all customer-facing texts.'], '- Internal runbooks stay in English.', "allow", "batch7-allow"),
    ("l4-b7", ["- Per user: don't add new cron jobs on the shared server."], '- The cleanup job runs as a systemd timer on the worker VM instead.', "allow", "batch7-allow"),
    ("l5-b7", ['- User said: always encrypt backups.'], '- Backups are encrypted with age before upload.', "allow", "batch7-allow"),
    ("l6-b7", ['- Пользователь сказал: не менять публичный API без версии.'], '- Изменения публичного API выходят в v2 с новой версией.', "allow", "batch7-allow"),
    ("l7-b7", ['- Пользователь сказал: документацию писать на русском.'], '- Документация к API — на русском, примеры кода с английскими комментариями.', "allow", "batch7-allow"),
    ("l8-b7", ['- Пользователь сказал: никогда не отключать двухфакторную аутентификацию.'], '- 2FA enforced for all admin accounts since Nov 20.', "allow", "batch7-allow"),
    ("l9-b7", ['- Decided with the user: Celery only for the reports service until the queue migration.'], '- The reports service runs 4 Celery workers.', "allow", "batch7-allow"),
    ("l10-b7", ['- User said: never expose the admin panel to the internet.'], '- Admin panel is reachable only over the VPN.', "allow", "batch7-allow"),
    # an eighth batch (measured last: see docs/arbitration.md, Figures)
    ("m1-b8", ['- User said: never commit generated files to the repo.'], '- Generated protobuf files are fine to commit, it saves a build step.', "block", "batch8-block"),
    ("m2-b8", ['- User said: all dates in docs use ISO format (YYYY-MM-DD).'], '- Docs may use US dates like 12/04/2026.', "block", "batch8-block"),
    ("m3-b8", ['- User said: only Anna can approve production releases.'], '- Any senior engineer can approve a production release.', "block", "batch8-block"),
    ("m4-b8", ['- User said: send me a summary every evening at 20:00.'], '- Daily summary goes out at 8:00 in the morning.', "block", "batch8-block"),
    ("m5-b8", ['- Пользователь сказал: не использовать внешние CDN для шрифтов.'], '- Шрифты подключаем с Google Fonts CDN.', "block", "batch8-block"),
    ("m6-b8", ['- Пользователь сказал: всегда запускать тесты перед мёржем.'], '- Перед мёржем тесты можно не гонять, если правка в README.', "block", "batch8-block"),
    ("m7-b8", ['- Пользователь сказал: его зовут Павел, обращаться по имени.'], '- Обращаться к пользователю: Павел Сергеевич, на «вы».', "block", "batch8-block"),
    ("m8-b8", ['- User said: never downgrade dependencies.'], '- Пакет lodash можно откатить на старую версию, если сборка падает.', "block", "batch8-block"),
    ("m9-b8", ['- Decided with the user: Rust only for the parser module.'], '- The whole backend gets rewritten in Rust.', "block", "batch8-block"),
    ("m10-b8", ["- User said: don't leave TODO comments in merged code."], '- TODO comments in merged code are acceptable if they link an issue.', "block", "batch8-block"),
    ("n1-b8", ['- User said: never commit generated files to the repo.'], '- Generated files go to build/ which is in .gitignore.', "allow", "batch8-allow"),
    ("n2-b8", ['- User said: all dates in docs use ISO format (YYYY-MM-DD).'], '- Release notes dated 2026-12-04 are in docs/releases/.', "allow", "batch8-allow"),
    ("n3-b8", ['- User said: only Anna can approve production releases.'], '- Anna approved the 3.2 production release this morning.', "allow", "batch8-allow"),
    ("n4-b8", ['- User said: send me a summary every evening at 20:00.'], '- The 20:00 summary includes CI status and open PRs.', "allow", "batch8-allow"),
    ("n5-b8", ['- Пользователь сказал: не использовать внешние CDN для шрифтов.'], '- Шрифты лежат локально в static/fonts.', "allow", "batch8-allow"),
    ("n6-b8", ['- Пользователь сказал: всегда запускать тесты перед мёржем.'], '- Тесты перед мёржем занимают около 4 минут.', "allow", "batch8-allow"),
    ("n7-b8", ['- Пользователь сказал: его зовут Павел, обращаться по имени.'], '- Павел предпочитает короткие сообщения.', "allow", "batch8-allow"),
    ("n8-b8", ['- User said: never downgrade dependencies.'], '- Upgraded lodash to 4.17.21.', "allow", "batch8-allow"),
    ("n9-b8", ['- Decided with the user: Rust only for the parser module.'], '- The parser module builds with cargo in CI.', "allow", "batch8-allow"),
    ("n10-b8", ["- User said: don't leave TODO comments in merged code."], '- Removed three stale TODO comments before merging PR #77.', "allow", "batch8-allow"),
]




#: Known misses, kept visible: strict xfail turns a fix into a failing test that asks for the mark to go.
KNOWN_MISSES = {
    "c4-b3": "working-hours time ranges are not compared (no shared anchor concept)",
    "f11-b4": "a Telegram alert bot reads as writing to the user in Telegram (who is addressed is not modelled)",
    "k1-b7": "'before the backup finishes' is not read as 'without a backup' (temporal order is not modelled)",
    "m2-b8": "date formats (ISO vs US) are not a slot",
    "m7-b8": "a first name with a patronymic counts as the same name; the formality clash is not weighed",
}


@pytest.mark.parametrize(("memory", "candidate", "expect", "kind"), table(CASES, KNOWN_MISSES))
def test_arbitration_table(memory, candidate, expect, kind):
    res = _decide(memory, candidate)
    assert res.decision == expect, (res.error or {}).get("reason")


def test_block_error_has_the_documented_shape_and_survives_a_reason_string():
    res = _decide(["# Rules", "- User said: never deploy on Fridays."], "- Friday deploys are fine.")
    err = res.error
    assert res.decision == "block" and res.tier is Tier.HYPOTHESIS
    assert err["error"] == "EpistemicConflictError"
    assert err["attempted"] == {"tier": "HYPOTHESIS", "content": "- Friday deploys are fine."}
    cw = err["conflicts_with"]
    assert set(cw) >= {"tier", "id", "file", "line", "content", "scope", "recorded_at"}
    assert (cw["tier"], cw["file"], cw["line"]) == ("DIRECTIVE", "MEMORY.md", 2)
    assert cw["content"] == "- User said: never deploy on Fridays."
    assert err["reason"] and err["resolution"]
    # Plain JSON: it round-trips as the text of a host's block reason.
    assert json.loads(json.dumps(err, ensure_ascii=False)) == err


def test_scoped_decision_blocks_unscoped_generalization_and_names_the_scope():
    res = _decide(["- Decided with the user: SQLite only for prototype A."], "- The user prefers SQLite everywhere.")
    assert res.decision == "block"
    assert res.error["kind"] == "scope-generalization"
    assert res.error["conflicts_with"]["scope"]
    assert res.error["conflicts_with"]["scope"] in res.error["reason"]


def test_allowed_line_has_no_error():
    res = _decide(["- User said: never deploy on Fridays."], "- Deploys go out Monday to Thursday.")
    assert res.decision == "allow" and res.error is None and res.supersedes == ()
    assert res.to_json()["error"] is None


def test_verified_user_directive_amends_and_supersedes():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays.", "- User said: use pnpm."])
    line = "- Deploys on Fridays are fine from now on."
    res = arbitrate(index, line, Tier.DIRECTIVE, verified=True)
    assert res.decision == "allow"
    assert [c.line for c in res.supersedes] == [1]
    assert res.to_json()["supersedes"][0]["content"] == "- User said: never deploy on Fridays."


def test_unverified_directive_cannot_amend_a_directive():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, "- User said: Friday deploys are fine.", Tier.DIRECTIVE, verified=False)
    assert res.decision == "block"
    assert res.error["kind"] == "unverified-amendment"


def test_verified_decision_does_not_supersede_a_directive():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, "- Friday deploys are fine for the pilot.", Tier.DECISION, verified=True)
    assert res.decision == "block"


def test_directive_in_user_md_binds_writes_to_daily_notes(tmp_path):
    (tmp_path / "USER.md").write_text("- User said: my timezone is Europe/Berlin.\n", encoding="utf-8")
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "2026-11-28.md").write_text("- 10:00 standup\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(Workspace(tmp_path))
    res = arbitrate(index, "- User's timezone: America/Chicago.", Tier.HYPOTHESIS, file="memory/2026-11-28.md")
    assert res.decision == "block"
    assert res.error["conflicts_with"]["file"] == "USER.md"


def test_unstamped_lines_bind_but_stamped_superseded_ones_do_not(tmp_path):
    ws = Workspace(tmp_path)
    ws.ensure_state()
    old = "- User said: never deploy on Fridays."
    stamp = make_stamp(old, Tier.DIRECTIVE, 1, ws.key, state="superseded")
    (tmp_path / "MEMORY.md").write_text(apply_stamp(old, stamp) + "\n- User said: use pnpm.\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(ws)
    assert [c.line for c in index.constraints] == [2]
    assert arbitrate(index, "- Friday deploys are fine.", Tier.HYPOTHESIS).decision == "allow"
    assert arbitrate(index, "- Package manager: yarn.", Tier.HYPOTHESIS).decision == "block"


def test_a_forged_stamp_does_not_turn_a_guess_into_a_constraint(tmp_path):
    ws = Workspace(tmp_path)
    ws.ensure_state()
    other_key = b"k" * 32
    forged = apply_stamp("- Friday deploys are fine.", make_stamp("- Friday deploys are fine.", Tier.DIRECTIVE, 1,
                                                                    other_key))
    (tmp_path / "MEMORY.md").write_text(forged + "\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(ws)
    assert index.constraints == []  # classified on the fly: an unmarked line is a HYPOTHESIS


def test_stamped_directive_binds_with_its_stamp_id(tmp_path):
    ws = Workspace(tmp_path)
    ws.ensure_state()
    text = "- Never deploy on Fridays."
    stamp = make_stamp(text, Tier.DIRECTIVE, 3, ws.key)
    (tmp_path / "MEMORY.md").write_text(apply_stamp(text, stamp) + "\n", encoding="utf-8")
    res = arbitrate(ConstraintIndex.from_workspace(ws), "- Friday deploys are OK.", Tier.HYPOTHESIS)
    assert res.decision == "block"
    assert res.error["conflicts_with"]["id"] == stamp.id


def test_overrides_replace_a_file_for_the_check(tmp_path):
    (tmp_path / "MEMORY.md").write_text("- User said: never deploy on Fridays.\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(Workspace(tmp_path), overrides={"MEMORY.md": "# empty\n"})
    assert arbitrate(index, "- Friday deploys are fine.", Tier.HYPOTHESIS).decision == "allow"


def test_the_same_line_restated_is_not_its_own_conflict():
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, "- User said: never deploy on Fridays.", Tier.DIRECTIVE)
    assert res.decision == "allow"


@pytest.mark.parametrize("text", ["", "   ", "- ", "<!-- cu:H -->", "\x00", "🙂" * 50, "a" * 5000],
                         ids=["empty", "blank", "marker", "stamp-only", "nul", "emoji", "long"])
def test_odd_candidates_never_crash(text):
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])
    res = arbitrate(index, text, Tier.HYPOTHESIS)
    assert res.decision in {"allow", "block"}


def test_a_check_examines_few_constraints_in_a_large_memory():
    from tiers.arbitrate import MAX_CANDIDATES
    from tiers.concepts import analyze

    lines = [f"- User said: never restart the service{i} cluster on weekends or Fridays." for i in range(600)]
    lines.append("- User said: never deploy on Fridays.")
    index = ConstraintIndex.from_lines(lines)
    cands = index.candidates(analyze("- Friday deploys are fine."))
    assert len(cands) <= MAX_CANDIDATES
    assert any(c.line == 601 for c in cands)
    assert arbitrate(index, "- Friday deploys are fine.", Tier.HYPOTHESIS).error["conflicts_with"]["line"] == 601


def test_optional_judge_can_add_a_block_but_is_off_by_default(tmp_path):
    import pluggy

    from tiers.judge import load_judge

    hookimpl = pluggy.HookimplMarker("cuticle")
    calls = []

    class Judge:
        @hookimpl
        def cuticle_judge_conflict(self, candidate, constraint, context):
            calls.append((candidate, constraint, context))
            return {"conflict": True, "confidence": 0.9, "reason": "late Friday is Friday"}

    (tmp_path / "MEMORY.md").write_text("- User said: never deploy on Fridays.\n", encoding="utf-8")
    index = ConstraintIndex.from_workspace(Workspace(tmp_path))
    line = "- The Friday changelog template lives in docs/."
    assert index.judge is None
    assert arbitrate(index, line, Tier.HYPOTHESIS).decision == "allow"
    index.judge = load_judge([Judge()], entry_points=False)
    res = arbitrate(index, line, Tier.HYPOTHESIS)
    assert calls and calls[0][2]["constraint_tier"] == "DIRECTIVE"
    assert res.decision == "block" and res.error["kind"] == "judge"


def test_a_failing_judge_fails_open(tmp_path):
    index = ConstraintIndex.from_lines(["- User said: never deploy on Fridays."])

    def broken(*_a):
        raise RuntimeError("model crashed")

    index.judge = broken
    assert arbitrate(index, "- The Friday changelog template lives in docs/.", Tier.HYPOTHESIS).decision == "allow"


def test_judge_config_must_be_boolean(tmp_path):
    from tiers.errors import ConfigError
    from tiers.judge import judge_from_config

    (tmp_path / ".cuticle").mkdir()
    (tmp_path / ".cuticle" / "config.toml").write_text("[tiers]\njudge = 'yes'\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="judge"):
        judge_from_config(Workspace(tmp_path))


def test_dev_set_figures_reach_the_goal():
    path = DATA / "eval" / "conflicts-dev.jsonl"
    if not path.exists():
        pytest.skip("shared eval data not present")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from conflicts_eval import run

    rep = run(path)
    assert rep["recall"] >= 0.8
    assert rep["false_block_rate"] <= 0.05
