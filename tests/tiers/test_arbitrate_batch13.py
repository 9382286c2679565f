"""Arbitration table, batch 13: the last held-out batch, written after all other fixes of this round.

First run: recall 7/10, false blocks 1/10 (the false block, a kept month read as a dropped scope, was then fixed).
"""

from __future__ import annotations

import pytest

from arbitrate_table import D, DR, P, R, U, table
from arbitrate_table import decide as _decide

# (id, memory lines, candidate, expect)
CASES = [
 # block
 ("en: a different podcast app", [U+"podcasts go to Pocket Casts, not Spotify."], "- New podcast subscriptions are added in Spotify.", "block"),
 ("ru: a different time for the weekly call with parents", [R+"созвон с родителями по воскресеньям в 19:00."], "- Созвон с родителями по воскресеньям в 12:00.", "block"),
 ("mixed: english permission against russian no-photos-of-documents", [R+"не фотографируй мои документы."], "- Taking photos of the user's documents is fine for scanning.", "block"),
 ("en: hedged override of the no-dairy rule", [U+"no dairy in my groceries."], "- He probably tolerates dairy now, so milk is back on the list.", "block"),
 ("ru: permission to reschedule without asking", [R+"не переноси мои встречи без моего согласия."], "- Встречи пользователя можно переносить без согласования.", "block"),
 ("en: indifference about the airline", [U+"fly Lufthansa whenever possible."], "- Airline choice doesn't matter to the user.", "block"),
 ("mixed: russian line changes the english currency for expenses", [U+"log expenses in euros."], "- Расходы записываем в долларах.", "block"),
 ("en: software: a different branch for hotfixes", [U+"hotfixes go to the release branch, never to main."], "- Hotfixes are committed straight to main.", "block"),
 ("ru: scope of a decision dropped", [DR+"до конца января не заказываем доставку еды."], "- Доставку еды не заказываем.", "block"),
 ("en: relaxation of the two-factor rule", [U+"always enable two-factor authentication on new accounts."], "- Two-factor authentication on new accounts is not needed.", "block"),
 # allow
 ("en: podcast app restated", [U+"podcasts go to Pocket Casts, not Spotify."], "- Added the new history podcast to Pocket Casts.", "allow"),
 ("ru: call with parents reminder", [R+"созвон с родителями по воскресеньям в 19:00."], "- Напоминание: в воскресенье в 19:00 созвон с родителями.", "allow"),
 ("mixed: documents scanned by the user agrees", [R+"не фотографируй мои документы."], "- The user scans his documents himself.", "allow"),
 ("en: dairy-free milk agrees", [U+"no dairy in my groceries."], "- Oat milk added to the grocery list.", "allow"),
 ("ru: asking before rescheduling agrees", [R+"не переноси мои встречи без моего согласия."], "- Спросил пользователя, можно ли перенести встречу с юристом.", "allow"),
 ("en: lufthansa flight booked agrees", [U+"fly Lufthansa whenever possible."], "- Booked Lufthansa LH1234 to Munich for Dec 9.", "allow"),
 ("en: expense in euros agrees", [U+"log expenses in euros."], "- Logged 42.50 euros for the taxi to the airport.", "allow"),
 ("en: software: hotfix on the release branch agrees", [U+"hotfixes go to the release branch, never to main."], "- The login hotfix is on release/2.3, waiting for review.", "allow"),
 ("ru: food delivery in january restated", [DR+"до конца января не заказываем доставку еды."], "- В январе готовим дома, доставку еды не заказываем.", "allow"),
 ("en: two-factor status observation", [U+"always enable two-factor authentication on new accounts."], "- Two-factor authentication enabled on the new bank account.", "allow"),
]


#: Known misses, kept visible: strict xfail turns a fix into a failing test that asks for the mark to go.
KNOWN_MISSES = {
    "en: hedged override of the no-dairy rule": "'milk' is not known as dairy; 'tolerates' is not read as permission",
    "en: indifference about the airline": "'airline' and 'fly Lufthansa' share no concept",
    "en: software: a different branch for hotfixes": "the branch values are ruled 'never to main' in another clause",
}




@pytest.mark.parametrize(("memory", "candidate", "expect"), table(CASES, KNOWN_MISSES))
def test_last_held_out_arbitration(memory, candidate, expect):
    res = _decide(memory, candidate)
    assert res.decision == expect, (res.error or {}).get("reason")


@pytest.mark.parametrize(("memory", "candidate", "expect"), [
    (["- Договорились с пользователем: в январе релизы только по средам."], "- В феврале релизы по понедельникам.",
     "allow"),
    (["- Договорились с пользователем: в январе релизы только по средам."], "- В январе релизы по понедельникам.",
     "block"),
], ids=["another month is another case", "the same month with another weekday conflicts"])
def test_months_scope_values(memory, candidate, expect):
    assert _decide(memory, candidate).decision == expect
