"""Whatever a phone sends to a seat's endpoints, of a party of any game, the answer is
never a 500, and a refused entry stores nothing. CI runs these on SQLite and on
PostgreSQL, which refuses a NUL byte in any statement: NUL and other control
characters are sent on purpose, in the fields and in the token."""

from functools import partial
from urllib.parse import quote

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.engine.cards import DECK
from scoring.models import AuditRecord, Hand
from tests.conftest import clear_cache
from tests.factories import FIRST_HANDS, start_party, whole_table_party

pytestmark = pytest.mark.django_db

ENDPOINTS = ["table-enter", "table-enter-cards", "table-preview", "table-confirm"]
# The other games' hands: their own form at the same entry, and their own preview.
GAME_ENDPOINTS = ["table-enter", "table-preview-game", "table-confirm"]

# Bytes no keyboard types: NUL, escape, delete, a C1 control, a byte-order mark.
control = st.sampled_from(["\x00", "A\x00S", "7\x00", "\x1b[2J", "\x7f", "\x85x", "\ufeff\x08"])
cards = st.lists(
    st.one_of(st.sampled_from([str(c) for c in DECK] + ["ZZ", "10H", "1S", "AS"]), control),
    max_size=12,
)
text_or_number = st.one_of(
    st.integers(min_value=-5, max_value=200).map(str),
    st.text(max_size=12),
    st.just(""),
    control,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "number": st.one_of(st.integers(min_value=-1, max_value=4).map(str), st.text(max_size=4)),
        "key": st.one_of(st.text(max_size=80), control),
        "version": text_or_number,
        "ending": st.sampled_from(["knock", "gin", "big_gin", "no_game", "fold", ""]),
        "knocker": text_or_number,
        "knocker_deadwood": text_or_number,
        "defender_deadwood": text_or_number,
        "knocker_cards": cards.map(" ".join),
        "defender_cards": cards.map(" ".join),
        "melds": cards.map(" ".join),
        "up_card": st.one_of(st.sampled_from(["", "7H", "ZZ", "AS"]), control),
        "illegal_knock_accepted": st.sampled_from(["on", ""]),
        "knocker_missing_cards": text_or_number,
        "defender_missing_cards": text_or_number,
        "defender_too_many_cards": st.sampled_from(["on", ""]),
    },
)

# Entries that pass the form and reach the rules engine: real hands dealt from a
# shuffled deck, or counts near the knock limit.
dealt = st.permutations([str(c) for c in DECK]).map(
    lambda deck: {"knocker_cards": " ".join(deck[:10]), "defender_cards": " ".join(deck[10:20])}
)
counts = st.fixed_dictionaries(
    {
        "ending": st.sampled_from(["knock", "gin", "big_gin", "no_game"]),
        "knocker_deadwood": st.integers(0, 15).map(str),
        "defender_deadwood": st.integers(0, 120).map(str),
    }
)
plausible = st.builds(
    lambda common, entry: common | entry,
    st.fixed_dictionaries(
        {"number": st.sampled_from(["1", "2"]), "knocker": st.sampled_from(["0", "1", "2"])}
    ),
    st.one_of(dealt, counts),
)


# The other games' forms: a field per side and what each game asks of it.
game_value = st.one_of(
    st.integers(min_value=-5, max_value=2000).map(str),
    st.text(max_size=10),
    st.sampled_from(["", "on", "1O 2O 3O", "12E 8O", "1O 1O", "5C 5E 5B 7O 7C 7E 1B 2B 3B"]),
    control,
)
game_names = st.sampled_from(
    ["number", "key", "version", "closer", "chinchon"]
    + [f"{name}_{side}" for side in range(4) for name in ("penalty", "cards", "points", "out",
       "left", "meld_points", "natural_canastas", "red_threes", "went_out", "melded_nothing")]
)  # fmt: skip


# (the party, endpoint, seat, form): Gin Rummy's entries at a party of two, or
# another game's form at its table, from the second seat.
gin_rummy_posts = st.tuples(
    st.just(start_party),
    st.sampled_from(ENDPOINTS),
    st.integers(0, 1),
    st.one_of(fields, plausible),
)
game_posts = st.tuples(
    st.builds(partial, st.just(whole_table_party), st.sampled_from(sorted(FIRST_HANDS)),
              st.booleans()),
    st.sampled_from(GAME_ENDPOINTS),
    st.just(1),
    st.dictionaries(game_names, game_value, max_size=12),
)  # fmt: skip


# About as many of each kind as when each had a test of its own (150 and 120).
@settings(max_examples=340, deadline=None)
@given(post=st.one_of(gin_rummy_posts, game_posts))
def test_no_input_makes_a_seat_endpoint_fail(post):
    party_of, endpoint, seat, data = post
    client = Client()  # a phone of its own: no message left over from the last example
    party = party_of()
    before = list(party.hands.values_list("pk", "status", "version"))
    actions = list(party.audit.values_list("action", flat=True))
    token = party.seats.get(position=seat).token
    response = client.post(reverse(f"seat:{endpoint}", args=[token]), data)
    assert response.status_code < 500
    hands = list(party.hands.all())
    assert len(hands) <= 1
    said = list(get_messages(response.wsgi_request))
    refused = response.status_code >= 400 or any(m.level_tag == "error" for m in said)
    event(
        f"{party.game} {endpoint}: {response.status_code}, refused {refused}, {len(hands)} hand(s)"
    )
    if refused:
        assert list(party.hands.values_list("pk", "status", "version")) == before
        assert list(party.audit.values_list("action", flat=True)) == actions
    for hand in hands:
        # A stored hand is a whole one: scored by the engine and in the audit log.
        assert hand.status in (Hand.Status.PENDING, Hand.Status.CONFIRMED, Hand.Status.DISPUTED)
        assert AuditRecord.objects.filter(hand=hand, action=AuditRecord.Action.ENTER).exists()


tokens = st.one_of(
    st.text(min_size=1, max_size=70),
    control,
    # The right length, with something else inside.
    st.tuples(st.text(min_size=42, max_size=42), control).map("".join),
)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(token=tokens, path=st.sampled_from(["/table/{}/", "/table/{}/state/", "/api/tables/{}"]))
def test_no_token_makes_a_seat_page_fail(client, token, path):
    # Each token must reach the lookup, not the guard that counts wrong links.
    clear_cache()
    response = client.get(path.format(quote(token, safe="")))
    event(f"{path}: {response.status_code}")
    assert response.status_code in (404, 422)
