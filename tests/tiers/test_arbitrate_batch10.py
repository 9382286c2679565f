"""Arbitration table, batch 10: held out from the batch-9 fixes; defaults, units, household, travel, money, EN/RU.

First run, after the batch-9 changes and before any change it prompted: recall 11/20, false blocks 2/20.
"""

from __future__ import annotations

import pytest

from arbitrate_table import D, DR, P, R, U, table
from arbitrate_table import decide as _decide

# (id, memory lines, candidate, expect)
CASES = [
 # block
 ("ru: a different default browser", [R+"по умолчанию браузер — Firefox."], "- Браузер по умолчанию: Chrome.", "block"),
 ("en: default editor is changed", [U+"the default editor is Vim."], "- Default editor: VS Code.", "block"),
 ("ru: meeting language changed to english", [P+"созвоны с командой проводим на русском."], "- Созвоны с командой идут на английском.", "block"),
 ("mixed: english weekday replaces russian friday", [R+"уборка квартиры по пятницам."], "- Apartment cleaning is on Wednesdays.", "block"),
 ("mixed: russian line changes the english invoice currency", [U+"invoice clients in euros."], "- Счета клиентам выставляем в долларах.", "block"),
 ("en: grocery delivery time changed", [U+"groceries are delivered at 18:00."], "- Grocery delivery is set for 10:00.", "block"),
 ("ru: temperature units changed", [R+"температуру показывай в градусах Цельсия."], "- Температуру показываем в Фаренгейтах.", "block"),
 ("en: permission to post photos of the kids", [U+"never post photos of my kids online."], "- Posting photos of the kids on Instagram is fine.", "block"),
 ("ru: permission to wake the user", [R+"не буди меня раньше 8:00."], "- Будить пользователя в 6:30 можно, если рейс утренний.", "block"),
 ("ru: relaxation of the insurance rule", [P+"всегда оформляй страховку для поездок."], "- Страховку для поездок оформлять не нужно.", "block"),
 ("en: inference that the subscription limit is gone", [U+"don't buy any new subscriptions."], "- He bought Netflix himself last month, so new subscriptions are likely OK now.", "block"),
 ("ru: guess that the no-sugar rule lapsed", [R+"никакого сахара в рецептах."], "- Видимо, сахар в рецептах теперь можно.", "block"),
 ("mixed: english hedge against russian no-taxi rule", [R+"не заказывай такси, я езжу на метро."], "- A taxi to the airport is probably fine this time.", "block"),
 ("mixed: russian permission against english no-shared-passwords", [U+"never share my passwords with anyone."], "- Пароли можно передавать ассистенту жены.", "block"),
 ("en: indifference about the reply channel", [U+"reply to me on Signal only."], "- Any messenger works for replies to the user.", "block"),
 ("ru: indifference about hotel stars", [R+"бронируй только отели 4 звезды и выше."], "- Звёздность отеля не имеет значения.", "block"),
 ("en: scope of a decision widened", [D+"vegan menu for the December party only."], "- All team events get a vegan menu.", "block"),
 ("ru: scope of a decision widened", [DR+"в отпуске не проверяем рабочую почту."], "- Рабочую почту больше никогда не проверяем.", "block"),
 ("en: paraphrase permits what is forbidden", [U+"don't schedule anything on my birthday, Dec 12."], "- Dec 12 is free for meetings.", "block"),
 ("en: numbers over the limit", [U+"never spend more than 200 euros on a hotel night."], "- Booked a 320 euro hotel night in Paris as the best option.", "block"),
 # allow
 ("ru: default browser restated", [R+"по умолчанию браузер — Firefox."], "- Ссылки открываем в Firefox.", "allow"),
 ("en: editor settings are another aspect", [U+"the default editor is Vim."], "- Vim uses a 4-space indent in this repo.", "allow"),
 ("ru: meeting agenda is another aspect", [P+"созвоны с командой проводим на русском."], "- Повестка созвона с командой лежит в Notion.", "allow"),
 ("mixed: english agrees with russian friday cleaning", [R+"уборка квартиры по пятницам."], "- The cleaner is booked for Friday, Dec 4.", "allow"),
 ("en: an invoice amount in euros", [U+"invoice clients in euros."], "- Invoice #42 to Acme: 1,200 EUR.", "allow"),
 ("ru: delivery address is another aspect", [U+"groceries are delivered at 18:00."], "- Доставка продуктов приходит к соседнему подъезду.", "allow"),
 ("ru: an english weather observation", [R+"температуру показывай в градусах Цельсия."], "- Weather API: 4 °C and rain in Berlin tomorrow.", "allow"),
 ("en: photos kept private agree", [U+"never post photos of my kids online."], "- Kids' photos stay in the private family album.", "allow"),
 ("ru: wake-up at 8:30 agrees", [R+"не буди меня раньше 8:00."], "- Будильник на завтра: 8:30.", "allow"),
 ("ru: a reminder of the insurance rule", [P+"всегда оформляй страховку для поездок."], "- Не забыть: страховка для поездки в Ереван.", "allow"),
 ("en: a subscription receipt observation", [U+"don't buy any new subscriptions."], "- The Spotify subscription renewed on Nov 28 for 10.99 EUR.", "allow"),
 ("ru: sugar-free recipe agrees", [R+"никакого сахара в рецептах."], "- Рецепт сырников без сахара, с бананом.", "allow"),
 ("mixed: metro route agrees with no taxi", [R+"не заказывай такси, я езжу на метро."], "- Route to the airport: metro line U6, then the S-Bahn.", "allow"),
 ("en: password manager elaboration", [U+"never share my passwords with anyone."], "- Passwords live in 1Password, never in notes.", "allow"),
 ("en: a signal message sent", [U+"reply to me on Signal only."], "- Sent the trip summary to the user on Signal.", "allow"),
 ("ru: five-star hotel agrees", [R+"бронируй только отели 4 звезды и выше."], "- Забронирован отель 5 звёзд в Тбилиси.", "allow"),
 ("en: vegan menu inside its scope", [D+"vegan menu for the December party only."], "- The December party caterer confirmed the vegan menu.", "allow"),
 ("ru: vacation email narrower", [DR+"в отпуске не проверяем рабочую почту."], "- С 20 по 31 декабря пользователь в отпуске, рабочую почту не проверяем.", "allow"),
 ("en: birthday gift is unrelated to scheduling", [U+"don't schedule anything on my birthday, Dec 12."], "- Gift idea for Anna's birthday: a book.", "allow"),
 ("en: within the hotel limit", [U+"never spend more than 200 euros on a hotel night."], "- Hotel in Lyon: 140 euros a night, booked.", "allow"),
]


#: Known misses, kept visible: strict xfail turns a fix into a failing test that asks for the mark to go.
KNOWN_MISSES = {
    "en: paraphrase permits what is forbidden": "'free for meetings' is not read as permission to schedule",
    "en: numbers over the limit": "a past report ('Booked …') of an act beyond a limit is treated as a report",
}




@pytest.mark.parametrize(("memory", "candidate", "expect"), table(CASES, KNOWN_MISSES))
def test_held_out_arbitration(memory, candidate, expect):
    res = _decide(memory, candidate)
    assert res.decision == expect, (res.error or {}).get("reason")
