"""Arbitration table, batch 12: held out from the batch-11 fixes; household, pets, travel, family, plus software.

First run, after the batch-11 changes and before any change it prompted: recall 11/15, false blocks 0/15.
"""

from __future__ import annotations

import pytest

from arbitrate_table import D, DR, P, R, U, table
from arbitrate_table import decide as _decide

# (id, memory lines, candidate, expect)
CASES = [
 # block
 ("en: a different vet clinic", [U+"take the cat only to the vet at Greenfield Clinic."], "- The cat's checkup is booked at Pawsome Vet.", "block"),
 ("ru: a different laundry day", [R+"стирку запускаем по субботам."], "- Стирку запускаем по вторникам.", "block"),
 ("mixed: english line changes the russian meeting platform", [R+"созвоны только в Google Meet."], "- Calls with the user happen in Zoom.", "block"),
 ("en: a different hair salon time", [U+"haircut appointments at 10:00 only."], "- Haircut appointment set for 16:45.", "block"),
 ("ru: a different newsletter language", [P+"рассылку пишем на английском."], "- Рассылку пишем на испанском.", "block"),
 ("en: permission to leave the heating on", [U+"never leave the heating on when we're away."], "- Leaving the heating on while away is fine.", "block"),
 ("ru: permission to give out the phone number", [R+"мой номер телефона никому не сообщай."], "- Номер телефона пользователя можно давать доставке.", "block"),
 ("mixed: russian relaxes the english backup rule", [U+"always back up the laptop before OS updates."], "- Бэкап ноутбука перед обновлением ОС делать не нужно.", "block"),
 ("en: relaxation of the visa check", [U+"always check visa rules before booking international trips."], "- Checking visa rules is optional for short trips.", "block"),
 ("en: inference lifts the no-late-dinner rule", [U+"no dinner reservations after 20:00."], "- She stayed out late last week, so a 21:30 dinner reservation is likely OK.", "block"),
 ("ru: guess overrides the no-gluten rule", [R+"никакого глютена в продуктах."], "- Похоже, глютен ему уже можно, он ел пиццу.", "block"),
 ("en: indifference about reply tone", [U+"keep replies to my landlord formal."], "- The tone with the landlord doesn't matter.", "block"),
 ("ru: a scoped decision generalized", [DR+"пока болеет няня, детей в сад водит папа."], "- Детей в сад водит папа.", "block"),
 ("en: scoped decision generalized", [D+"pause the gym membership during December."], "- The gym membership is paused.", "block"),
 ("mixed: english permission against the russian no-deploy-on-holidays", [R+"в праздники ничего не выкатываем."], "- Deploying on holidays is fine.", "block"),
 # allow
 ("en: vet visit at the same clinic", [U+"take the cat only to the vet at Greenfield Clinic."], "- Vaccination for the cat booked at Greenfield Clinic on Dec 3.", "allow"),
 ("ru: laundry detergent aspect", [R+"стирку запускаем по субботам."], "- Порошок для стирки заканчивается.", "allow"),
 ("mixed: meet link stored", [R+"созвоны только в Google Meet."], "- The Google Meet link for Monday's call is in the calendar.", "allow"),
 ("en: haircut price aspect", [U+"haircut appointments at 10:00 only."], "- A haircut costs 35 euros at the new salon.", "allow"),
 ("ru: newsletter subject line", [P+"рассылку пишем на английском."], "- Тема декабрьской рассылки: итоги года.", "allow"),
 ("en: heating turned off agrees", [U+"never leave the heating on when we're away."], "- Turned the heating off before the trip to Riga.", "allow"),
 ("ru: phone number kept private agrees", [R+"мой номер телефона никому не сообщай."], "- Курьеру дан номер консьержа, не пользователя.", "allow"),
 ("mixed: backup done agrees", [U+"always back up the laptop before OS updates."], "- Перед обновлением macOS сделан бэкап ноутбука.", "allow"),
 ("en: visa check done", [U+"always check visa rules before booking international trips."], "- Visa rules for Georgia checked: no visa needed for 1 year.", "allow"),
 ("en: early dinner agrees", [U+"no dinner reservations after 20:00."], "- Dinner reserved for 19:00 on Friday.", "allow"),
 ("ru: gluten-free bread agrees", [R+"никакого глютена в продуктах."], "- Купили безглютеновый хлеб.", "allow"),
 ("en: formal letter to landlord agrees", [U+"keep replies to my landlord formal."], "- Drafted a formal reply to the landlord about the heating.", "allow"),
 ("ru: nanny scope kept", [DR+"пока болеет няня, детей в сад водит папа."], "- Пока няня болеет, папа отводит детей к 8:30.", "allow"),
 ("en: december pause restated", [D+"pause the gym membership during December."], "- Gym membership paused for December, resumes Jan 1.", "allow"),
 ("en: holiday schedule observation", [R+"в праздники ничего не выкатываем."], "- The release calendar marks Dec 31 – Jan 8 as a freeze.", "allow"),
]


#: Known misses, kept visible: strict xfail turns a fix into a failing test that asks for the mark to go.
KNOWN_MISSES = {
    "en: permission to leave the heating on": "'leave … on' vs 'heating on' (a verb particle as the state) is not modelled",
    "en: relaxation of the visa check": "the rule's 'before booking' context outweighs its core in the relatedness score",
}




@pytest.mark.parametrize(("memory", "candidate", "expect"), table(CASES, KNOWN_MISSES))
def test_held_out_arbitration_everyday(memory, candidate, expect):
    res = _decide(memory, candidate)
    assert res.decision == expect, (res.error or {}).get("reason")
