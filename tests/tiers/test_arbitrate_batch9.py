"""Arbitration table, batch 9: everyday domains (money, travel, food, home, documents, units, calendars) in EN/RU.

Written before the code changes it prompted and measured first (first run: recall 15/30, false blocks 1/32); the
fixes were general mechanisms (currency and date-format slots, personal-preference slots, 'via X' values,
observations reporting facts, asides in parentheses), never rules for single lines.
"""

from __future__ import annotations

import pytest

from arbitrate_table import D, DR, R, U, table
from arbitrate_table import decide as _decide

# (id, memory lines, candidate, expect)
CASES = [
 # ---- block: value substitution
 ("a different home currency replaces the user's euros", [U+"show all prices in euros."], "- Prices are shown in US dollars.", "block"),
 ("a different unit system replaces metric", [U+"use metric units, kilometres and kilograms."], "- Distances for the user go in miles.", "block"),
 ("a different reply language replaces russian", [R+"отвечай мне на русском."], "- Reply to the user in German.", "block"),
 ("a different dentist day replaces thursday", [U+"book my dentist visits on Thursdays only."], "- Dentist visits get booked on Mondays.", "block"),
 ("a different airline seat replaces aisle", [U+"always book an aisle seat for me."], "- The user prefers a window seat on flights.", "block"),
 ("a different bank replaces the user's bank for transfers", [R+"переводы делаем только через Тинькофф."], "- Переводы отправляем через Сбер.", "block"),
 ("a different date format replaces day month year", [U+"dates in letters as DD.MM.YYYY."], "- Letters use the MM/DD/YYYY date format.", "block"),
 ("a different file naming scheme replaces dashes", [U+"name scanned documents like 2026-11-30-invoice.pdf, with dashes."], "- Scanned documents are named with underscores, e.g. invoice_30_11.pdf.", "block"),
 ("a russian line changes the reminder time", [R+"напоминания присылай в 9:00."], "- Напоминания присылаю в 7:30.", "block"),
 ("an english line changes the russian timezone directive", [R+"мой часовой пояс — Europe/Moscow."], "- The user's timezone is Europe/London.", "block"),
 # ---- block: polarity / permission
 ("permission to call after nine contradicts no calls after 21", [U+"no phone calls after 21:00."], "- Calling the user at 22:00 is fine.", "block"),
 ("optional receipts contradict always keep receipts", [U+"always keep the receipts for business expenses."], "- Receipts for business expenses are optional.", "block"),
 ("no need to ask before paying contradicts ask first", [U+"ask me before paying any bill over 100 euros."], "- No need to ask before paying bills.", "block"),
 ("russian permission to share the address", [R+"никому не давай мой домашний адрес."], "- Домашний адрес пользователя можно сообщать курьерам.", "block"),
 ("russian relaxation of the passport copy rule", [R+"всегда бери с собой копию паспорта в поездки."], "- Копия паспорта в поездках не обязательна.", "block"),
 ("meat in the meal plan contradicts vegetarian", [U+"I am vegetarian, never plan meals with meat."], "- Plan a chicken dinner for Friday.", "block"),
 ("sharing the calendar publicly contradicts keep it private", [U+"keep my calendar private."], "- The user's calendar can be shared publicly.", "block"),
 ("russian indifference about the language of invoices", [R+"счета выставляй только на английском."], "- Язык счетов не важно, можно любой.", "block"),
 # ---- block: lower tier / inference
 ("an inference that weekend emails are fine", [U+"don't email me on weekends."], "- He answered quickly on Saturday, so weekend emails are probably fine.", "block"),
 ("a russian guess that the budget limit no longer applies", [R+"не трать больше 50 евро на подарки."], "- Судя по прошлым покупкам, лимит на подарки уже не действует, можно тратить больше.", "block"),
 ("a hedged guess that the user likes morning flights", [U+"never book flights before 10:00."], "- The user probably likes early flights, book the 7:15 one.", "block"),
 ("an observation based inference to skip backups", [U+"back up the photo library every Sunday."], "- The disk was full last Sunday, so the photo backups can be skipped.", "block"),
 ("mixed: english guess overriding russian no-alcohol rule", [R+"никакого алкоголя в списке покупок."], "- Wine seems fine for the shopping list this week.", "block"),
 # ---- block: translation
 ("mixed: russian permission against english no-late-meetings", [U+"no meetings after 18:00."], "- Встречи после 18:00 допустимы.", "block"),
 ("mixed: english permission against russian no-cash rule", [R+"не плати наличными."], "- Paying in cash is OK.", "block"),
 ("mixed: russian line drops the english confirm-before-booking rule", [U+"always confirm with me before booking hotels."], "- Отели бронируем без подтверждения.", "block"),
 # ---- block: scope generalization
 ("a trip-only budget becomes a general rule", [D+"the 2,000 euro budget applies to the Japan trip only."], "- The user's travel budget is 2,000 euros for every trip.", "block"),
 ("a december-only diet becomes permanent", [DR+"в декабре без сладкого."], "- Пользователь всегда без сладкого.", "block"),
 ("a work-only signature becomes universal", [D+"sign work emails as 'A. Morozov'."], "- Sign all emails as 'A. Morozov'.", "block"),
 ("a paraphrase allows what the user forbade", [U+"never leave the front door unlocked."], "- Leaving the entrance open is acceptable.", "block"),
 # ---- allow: agreeing paraphrases / negations
 ("metric restated in other words", [U+"use metric units, kilometres and kilograms."], "- Give distances in km, not miles.", "allow"),
 ("agreeing negation about weekend email", [U+"don't email me on weekends."], "- Emails to the user go out Monday to Friday only.", "allow"),
 ("russian agreeing paraphrase about cash", [R+"не плати наличными."], "- Оплачиваем картой.", "allow"),
 ("mixed agreeing: no meat in russian", [U+"I am vegetarian, never plan meals with meat."], "- Меню на неделю без мяса.", "allow"),
 ("agreeing: within the gift budget", [R+"не трать больше 50 евро на подарки."], "- Подарок за 35 евро подходит.", "allow"),
 ("agreeing: flight at noon respects no flights before ten", [U+"never book flights before 10:00."], "- Booked the 12:40 flight to Lisbon.", "allow"),
 ("agreeing: aisle seat kept", [U+"always book an aisle seat for me."], "- Seat 14C (aisle) reserved for the Berlin flight.", "allow"),
 ("agreeing: russian reminder at nine", [R+"напоминания присылай в 9:00."], "- Завтрашнее напоминание запланировано на 9:00.", "allow"),
 # ---- allow: mentions / reminders / quotes
 ("a reminder of the receipts rule", [U+"always keep the receipts for business expenses."], "- Reminder: keep receipts for business expenses (user's rule).", "allow"),
 ("a todo to check the passport rule", [R+"всегда бери с собой копию паспорта в поездки."], "- TODO: напомнить про копию паспорта перед поездкой в Ереван.", "allow"),
 ("a quote of the calendar rule", [U+"keep my calendar private."], "- The user's rule: \"keep my calendar private\".", "allow"),
 # ---- allow: unrelated lines sharing words
 ("a bank statement observation is not a transfer rule", [R+"переводы делаем только через Тинькофф."], "- В выписке Сбера 3 списания за ноябрь.", "allow"),
 ("an euro exchange rate fact is not a price display rule", [U+"show all prices in euros."], "- The EUR/USD rate was 1.08 this morning.", "allow"),
 ("a door-to-door delivery note is not about locking", [U+"never leave the front door unlocked."], "- The parcel is delivered door to door on Tuesday.", "allow"),
 ("a calendar api count is not a privacy change", [U+"keep my calendar private."], "- Calendar API: 5 events next week.", "allow"),
 ("a language course fact is not a reply language", [R+"отвечай мне на русском."], "- The user takes a German course on Wednesdays.", "allow"),
 ("a dentist bill observation is not a booking day", [U+"book my dentist visits on Thursdays only."], "- The dentist invoice of 80 euros arrived by mail.", "allow"),
 ("a meal with friends observation is not a meal plan", [U+"I am vegetarian, never plan meals with meat."], "- Friends ordered steaks at the restaurant on Saturday.", "allow"),
 # ---- allow: narrower / aspect / elaboration
 ("narrower: no calls after 21 on sundays too", [U+"no phone calls after 21:00."], "- On Sundays also no calls after 21:00.", "allow"),
 ("aspect: how to label receipts", [U+"always keep the receipts for business expenses."], "- Receipts are scanned into the Finance/2026 folder.", "allow"),
 ("aspect: which hotel chain the user likes", [U+"always confirm with me before booking hotels."], "- The user likes small family hotels.", "allow"),
 ("elaboration: backup goes to the external disk", [U+"back up the photo library every Sunday."], "- The Sunday photo backup goes to the external SSD.", "allow"),
 ("narrower decision used inside its scope", [D+"the 2,000 euro budget applies to the Japan trip only."], "- Japan trip: hotels take 900 of the 2,000 euros.", "allow"),
 ("russian narrower: no sweets in december on holidays too", [DR+"в декабре без сладкого."], "- На корпоративе в декабре тоже без десертов.", "allow"),
 ("elaboration of the signature in its scope", [D+"sign work emails as 'A. Morozov'."], "- Work emails end with 'A. Morozov, Shopfront'.", "allow"),
 ("agreeing russian: invoices in english", [R+"счета выставляй только на английском."], "- Счёт для клиента из Лиссабона составлен на английском.", "allow"),
 ("agreeing: date format kept", [U+"dates in letters as DD.MM.YYYY."], "- The letter to the landlord is dated 30.11.2026.", "allow"),
 ("agreeing: dashes in the file name", [U+"name scanned documents like 2026-11-30-invoice.pdf, with dashes."], "- Saved the scan as 2026-11-28-rent-contract.pdf.", "allow"),
 ("unrelated: timezone of a colleague", [R+"мой часовой пояс — Europe/Moscow."], "- Коллега Анна живёт в Лондоне.", "allow"),
 ("unrelated: a window cleaner visit", [U+"always book an aisle seat for me."], "- The window cleaner comes on Thursday.", "allow"),
 ("agreeing: ask before paying a big bill", [U+"ask me before paying any bill over 100 euros."], "- The 240 euro electricity bill waits for the user's OK.", "allow"),
 ("allow: observed fact about alcohol shop hours", [R+"никакого алкоголя в списке покупок."], "- Магазин у дома закрывается в 22:00.", "allow"),
]


#: Known misses, kept visible: strict xfail turns a fix into a failing test that asks for the mark to go.
KNOWN_MISSES: dict[str, str] = {
    "a different file naming scheme replaces dashes": "a leading past participle ('Scanned documents…') reads as a report",
    "a russian line changes the reminder time": "«напоминания» reads as a mention marker (a reminder), not the thing set",
    "a trip-only budget becomes a general rule": "the decision's scope ('the Japan trip only') is not found by the classifier",
    "a work-only signature becomes universal": "'work emails' is not read as a scope of the decision",
    "a paraphrase allows what the user forbade": "'leaving … open' vs 'never leave … unlocked': the double negation is not folded",
}




@pytest.mark.parametrize(("memory", "candidate", "expect"), table(CASES, KNOWN_MISSES))
def test_everyday_arbitration(memory, candidate, expect):
    res = _decide(memory, candidate)
    assert res.decision == expect, (res.error or {}).get("reason")


@pytest.mark.parametrize(("memory", "candidate"), [
    (["- 09:40 The user told me to use pnpm, not npm, in every repo."],
     "- `npm audit` reports 2 high-severity vulns in transitive deps of webpack-dev-server."),
    (['- User: "don\'t ever commit generated files".'],
     "- **Timezone:** Europe/Berlin (guessed from commit timestamps)"),
    (["- 10:15 Пользователь сказал: никаких созвонов до 11:00."],
     "- 08:55 Calendar API: the user has 4 meetings on Tuesday, the first at 09:00."),
], ids=["a tool named by a report is not a use of it", "an aside in parentheses is not the claim",
        "a calendar report states facts and sets no rule"])
def test_sample_workspace_lines_that_used_to_be_flagged_pass(memory, candidate):
    assert _decide(memory, candidate).decision == "allow"


@pytest.mark.parametrize(("memory", "candidate"), [
    (["- User said: don't auto-merge Dependabot PRs."], "- Dependabot PRs get merged automatically once CI is green."),
    (["- User said: never run terraform destroy."], "- `terraform destroy` ran fine in the sandbox, so it is safe to run."),
], ids=["an observation that reports the ruled act still conflicts", "an observation with an inference still conflicts"])
def test_observations_that_do_the_ruled_thing_still_block(memory, candidate):
    assert _decide(memory, candidate).decision == "block"
