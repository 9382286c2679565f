"""What makes a line a report of the environment, for every kind of source (chats and trackers, records and
documents, devices, accounts), and the near misses that must stay the agent's own (HYPOTHESIS): a place or a
label with no reported value, an instruction about the place, advice, a possibility, a condition."""

from __future__ import annotations

import pytest

from tiers.classify import classify
from tiers.model import Tier

D, O, C, H = Tier.DIRECTIVE, Tier.OBSERVATION, Tier.DECISION, Tier.HYPOTHESIS

REPORTS = [
    # a source label and a value after it
    ("en-label-tracker", "- Parcel tracker: shipment 4471 left the Leipzig hub at 06:40."),
    ("en-label-chat", "- Teams #ops: the on-call bot posted 2 new incidents at 03:10."),
    ("en-label-alert", "- Prometheus alert: MemoryPressure on worker-2."),
    ("ru-label-statement", "- Выписка по счёту за октябрь: 3 списания по 499 ₽."),
    ("ru-label-portal", "- Личный кабинет: заявка на возврат одобрена, статус «Выполнено»."),
    ("ru-label-tracker", "- Трекер: у задачи OPS-88 срок перенесён на 12.12."),
    # a source as the place the value was read in
    ("en-place-document", "- In the lease PDF, clause 7 sets a 2-month notice period."),
    ("ru-place-contract", "- В договоре аренды (п. 5) залог — 2 месячных платежа."),
    ("ru-place-table", "- В таблице «Клиенты» 214 строк без e-mail."),
    # a source as the subject of a reporting verb
    ("en-subject-device", "- The smoke sensor reports low battery since Monday."),
    ("en-subject-document", "- The insurance contract states a deductible of €300."),
    ("en-subject-statement", "- The December bank statement lists two charges from Hetzner."),
    ("ru-subject-device", "- Датчик протечки сообщил о воде в ванной в 02:15."),
    ("ru-subject-bank", "- Банк прислал уведомление: карта заблокирована."),
    # a record reporting an event of its subject
    ("en-record-event", "- Ticket SUP-912 was closed by Marco on Nov 30."),
    ("en-record-order", "- The order #8812 was refunded to the original card."),
    ("en-record-count", "- The `Leads 2027` sheet has 96 rows, 12 of them without a phone."),
    ("ru-record-event", "- Заказ № 5531 доставлен в постамат 1 декабря."),
    ("en-subject-wearable", "- The fitness watch recorded a resting pulse of 54 overnight."),
    ("en-record-edited", "- The Confluence page “Onboarding” was last edited by Dana yesterday."),
    ("ru-subject-navigator", "- Навигатор показывает, что до аэропорта 55 минут."),
    ("ru-place-crm", "- В CRM у сделки «Север» статус изменился на «Оплачено»."),
    ("en-strong-evidence-with-must", "- The contract says the deposit must be paid by Dec 10."),
    ("en-could-not", "- CI could not reach the registry: 3 retries, exit code 1."),
    ("ru-ne-mogla", "- Сборка не могла скачать пакет: 3 попытки, код выхода 1."),
    # a quoted literal after a source label is what the source displayed
    ("en-label-quoted-status", "- Jira: PAY-12 \"In review\", assignee Dana."),
    ("ru-label-quoted-status", "- Трекер задач: OPS-31 — «На проверке»."),
    # measuring devices by their kind, apps of a bank, synced feeds
    ("en-label-device-kind", "- Glucometer: fasting reading 5.4 this morning."),
    ("ru-label-device-kind", "- Тонометр: утром давление 128 на 84."),
    ("ru-label-bank-app", "- Банковское приложение: перевод 4 500 ₽ отклонён в 09:12."),
    ("en-label-sync", "- Strava sync: 12.4 km ride on Dec 1."),
]

NOT_REPORTS = [
    # a place or a label with nothing reported: configuration or the agent's note
    ("en-config-label-port", "- Dev server port: 3000."),
    ("en-config-label-cluster", "- Staging cluster: stg-eu-1."),
    ("en-config-package", "- Package manager: pnpm 9."),
    ("en-config-quoted-no-source", "- Commit style: \"feat: …\" prefixes."),
    ("ru-config-quoted-no-source", "- Формат счетов: «ИП Иванов, №…»."),
    ("ru-config-place", "- В тестах и моках `any` допустим."),
    ("ru-config-services", "- Сервисов: 9."),
    # an instruction about the place, advice
    ("en-place-then-imperative", "- In the spreadsheet, add 2 columns for VAT."),
    ("en-place-keep", "- On the server, keep 3 backups at most."),
    ("en-should", "- The thermostat should stay at 20 °C at night."),
    ("ru-nuzhno", "- В таблице нужно добавить 2 столбца под НДС."),
    ("ru-stoit", "- Термостат стоит держать на 20 °C ночью."),
    ("ru-nado", "- Чек из магазина надо сохранить на 14 дней."),
    # a possibility about what the environment showed
    ("en-may", "- Sentry errors may come from the 3.2 release."),
    ("en-could", "- The 504s could come from the proxy's 30 s timeout."),
    ("en-hints", "- The CI logs hint at a race in the 2 cache workers."),
    ("ru-mogut", "- Ошибки в Sentry могут идти от релиза 3.2."),
    # a condition opens a rule, not a report
    ("en-if", "- If the disk alerts keep firing, restarting the DB at noon is fine."),
    ("ru-esli", "- Если алерты по диску не стихают, перезапускать базу днём можно."),
    # source words with no reporting verb, or a verb in another clause
    ("en-subject-no-verb", "- The spreadsheet needs a column for VAT."),
    ("en-verb-other-clause", "- Report to the team lead, if the deploy passed."),
    ("ru-verb-other-clause", "- В конце отчёта ставить 👍, если всё прошло хорошо."),
    ("en-tool-first-config", "- mypy runs in CI on src/."),
    ("en-hedged-document", "- The contract probably renews in March 2027."),
    ("ru-hedged-document", "- В договоре, скорее всего, есть пункт о штрафах."),
]


@pytest.mark.parametrize("line", [r[1] for r in REPORTS], ids=[r[0] for r in REPORTS])
def test_a_report_of_the_environment_is_an_observation(line: str) -> None:
    result = classify(line)
    assert result.tier is O, result.reasons


@pytest.mark.parametrize("line", [r[1] for r in NOT_REPORTS], ids=[r[0] for r in NOT_REPORTS])
def test_source_words_without_a_report_stay_the_agents(line: str) -> None:
    result = classify(line)
    assert result.tier is H, result.reasons


def test_a_possibility_demotes_only_environment_evidence() -> None:
    """"may" is a permission in an agreed or a user's line, a guess only about what the environment showed."""
    decision = classify("- Decided with the user: staging may use the shared key until per-service keys exist.")
    assert decision.tier is C
    assert decision.scope == "until per-service keys exist"
    assert classify("- User said: contractors may read the wiki but never the repo.").tier is D
    assert classify("- In May the bank charged a €12 fee, per the statement.").tier is O


def test_a_parenthesized_user_label_is_provenance() -> None:
    assert classify("**Правило (от пользователя):** не пушить в main напрямую.").tier is D
    assert classify("**Правило (со слов пользователя):** созвоны не дольше 30 минут.").tier is D


@pytest.mark.parametrize(
    ("line", "tier"),
    [
        ("- User said: until the audit, call me only for outages.", D),
        ("- User said: use Docker only for the integration tests.", D),
        ("- Пользователь сказал: присылайте отчёты только для крупных клиентов.", D),
        ("- Пользователь сказал: пиши мне только для срочных вопросов.", D),
        ("- User said: Postgres only for the billing service.", C),
        ("- Пользователь сказал: логи только для отладки.", C),
    ],
    ids=["en-leading-scope-then-addressed", "en-imperative", "ru-imperative-plural", "ru-addressed",
         "en-stated-choice", "ru-plural-noun-is-no-imperative"],
)
def test_a_users_instruction_stays_a_directive_and_a_stated_choice_is_scoped(line: str, tier: Tier) -> None:
    result = classify(line)
    assert result.tier is tier, result.reasons
    assert (result.scope is None) is (tier is D)
