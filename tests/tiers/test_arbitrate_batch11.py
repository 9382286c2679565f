"""Arbitration table, batch 11: held out from the batch-9/10 fixes; Russian and EN<->RU heavy, family, money, health.

First run, after the batch-10 changes and before any change it prompted: recall 8/20, false blocks 1/20.
"""

from __future__ import annotations

import pytest

from arbitrate_table import D, DR, P, R, U, table
from arbitrate_table import decide as _decide

# (id, memory lines, candidate, expect)
CASES = [
 # block
 ("ru: a different city for the conference hotel", [R+"жильё на конференцию ищи только в центре Вены."], "- Жильё на конференцию ищем в пригороде Вены, там дешевле.", "block"),
 ("ru: a different pharmacy chain", [P+"лекарства заказываем только в аптеке «Ригла»."], "- Лекарства заказываем в «Еаптеке».", "block"),
 ("mixed: english line replaces the russian kindergarten pickup time", [R+"забирать сына из садика в 17:30."], "- Pick up the son from kindergarten at 18:15.", "block"),
 ("mixed: russian line replaces the english gym days", [U+"gym on Tuesdays and Thursdays."], "- Спортзал по понедельникам и средам.", "block"),
 ("en: a different rent payment day", [U+"pay the rent on the 1st of each month."], "- Rent is paid on the 15th of each month.", "block"),
 ("ru: a different nickname", [R+"зови меня Катя."], "- Обращаться к пользователю: Екатерина Андреевна.", "block"),
 ("en: a different shipping address city", [U+"ship all parcels to my office in Munich."], "- Parcels go to the user's home in Hamburg.", "block"),
 ("ru: permission to spend savings", [R+"никогда не трогай накопительный счёт."], "- С накопительного счёта можно снять на отпуск.", "block"),
 ("ru: relaxing the double-check of transfers", [P+"всегда перепроверяй реквизиты перед переводом."], "- Реквизиты перед переводом можно не перепроверять.", "block"),
 ("mixed: english permission against russian no-voice-messages", [R+"не присылай мне голосовые сообщения."], "- Voice messages to the user are OK.", "block"),
 ("mixed: russian relaxation against english always-cc rule", [U+"always CC my assistant on travel emails."], "- Ассистента в копию писем о поездках ставить не обязательно.", "block"),
 ("en: inference overrides the no-nuts rule", [U+"no nuts in anything you order for me, I'm allergic."], "- He ate the walnut cake at the party, so nuts are probably fine.", "block"),
 ("ru: inference overrides the quiet hours", [R+"после 22:00 никаких уведомлений."], "- Судя по активности в чате, уведомления после 22:00 ему не мешают.", "block"),
 ("mixed: english observation-based guess against russian no-overtime rule", [R+"не ставь встречи в выходные."], "- The calendar is empty on Saturday, so a meeting then is likely fine.", "block"),
 ("en: indifference about the document format", [U+"send contracts as PDF only."], "- The contract format doesn't matter, Word is fine too.", "block"),
 ("ru: the decided scope is dropped", [DR+"на время ремонта живём у родителей."], "- Пользователь живёт у родителей.", "block"),
 ("en: a scoped decision made universal", [D+"economy class for flights under 3 hours."], "- Always book economy class.", "block"),
 ("en: a paraphrase lets the kids use the tablet at night", [U+"no screens for the kids after 20:00."], "- The kids can watch cartoons on the tablet at 21:00.", "block"),
 ("ru: a paraphrase contradicts no sharing of medical data", [R+"мои медицинские данные никому не передавай."], "- Результаты анализов отправил тренеру в спортзал, так можно.", "block"),
 ("mixed: russian currency substitution against english", [U+"keep the household budget in euros."], "- Семейный бюджет ведём в рублях.", "block"),
 # allow
 ("ru: hotel in the centre agrees", [R+"жильё на конференцию ищи только в центре Вены."], "- Нашёл квартиру в 1-м районе Вены, это центр.", "allow"),
 ("ru: pharmacy opening hours are another aspect", [P+"лекарства заказываем только в аптеке «Ригла»."], "- «Ригла» у дома работает до 21:00.", "allow"),
 ("mixed: english pickup reminder", [R+"забирать сына из садика в 17:30."], "- Reminder: kindergarten pickup at 17:30 today.", "allow"),
 ("mixed: gym bag is another aspect", [U+"gym on Tuesdays and Thursdays."], "- Сумку для спортзала собирать с вечера.", "allow"),
 ("en: rent amount is another aspect", [U+"pay the rent on the 1st of each month."], "- Rent went up to 1,150 euros from January.", "allow"),
 ("ru: name used correctly", [R+"зови меня Катя."], "- Катя просила напомнить про визу.", "allow"),
 ("en: office parcel agrees", [U+"ship all parcels to my office in Munich."], "- The new monitor ships to the Munich office on Monday.", "allow"),
 ("ru: savings balance observation", [R+"никогда не трогай накопительный счёт."], "- Банк: на накопительном счёте 4 200 евро.", "allow"),
 ("ru: transfer details checked agrees", [P+"всегда перепроверяй реквизиты перед переводом."], "- Реквизиты арендодателя перепроверены, перевод отправлен.", "allow"),
 ("mixed: text message instead of voice agrees", [R+"не присылай мне голосовые сообщения."], "- Send the user text messages, not voice notes.", "allow"),
 ("mixed: assistant in cc agrees", [U+"always CC my assistant on travel emails."], "- Письмо про билеты в Рим отправлено, ассистент в копии.", "allow"),
 ("en: nut-free order agrees", [U+"no nuts in anything you order for me, I'm allergic."], "- Ordered the nut-free granola for the user.", "allow"),
 ("ru: quiet hours respected", [R+"после 22:00 никаких уведомлений."], "- Уведомление о посылке отложено до 8:00 утра.", "allow"),
 ("en: weekday meeting agrees", [R+"не ставь встречи в выходные."], "- Meeting with the accountant set for Wednesday 11:00.", "allow"),
 ("en: pdf contract sent agrees", [U+"send contracts as PDF only."], "- Sent the signed contract to Anna as PDF.", "allow"),
 ("ru: renovation scope kept", [DR+"на время ремонта живём у родителей."], "- Пока идёт ремонт, почту забираем у родителей.", "allow"),
 ("en: short flight economy agrees", [D+"economy class for flights under 3 hours."], "- Booked economy for the 2-hour flight to Rome.", "allow"),
 ("en: screen rule mentioned", [U+"no screens for the kids after 20:00."], "- Note: the kids' tablet locks itself at 20:00 per the user's rule.", "allow"),
 ("ru: medical data kept private agrees", [R+"мои медицинские данные никому не передавай."], "- Медицинские документы хранятся в зашифрованной папке.", "allow"),
 ("en: a euro expense agrees", [U+"keep the household budget in euros."], "- Household budget, November: 2,340 euros spent.", "allow"),
]


#: Known misses, kept visible: strict xfail turns a fix into a failing test that asks for the mark to go.
KNOWN_MISSES = {
    "ru: a different city for the conference hotel": "'centre' vs 'suburb' of one city is not a slot",
}




@pytest.mark.parametrize(("memory", "candidate", "expect"), table(CASES, KNOWN_MISSES))
def test_held_out_arbitration_ru_and_mixed(memory, candidate, expect):
    res = _decide(memory, candidate)
    assert res.decision == expect, (res.error or {}).get("reason")
