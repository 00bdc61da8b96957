"""Whatever JSON a client sends to the seat endpoints of the API, at a party of any
game, the answer is JSON and never a 500. CI runs these on SQLite and on PostgreSQL,
which refuses a NUL byte in any statement: NUL and other control characters are
sent on purpose."""

from functools import partial

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.engine.cards import DECK
from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import FIRST_HANDS, start_party, whole_table_party

pytestmark = pytest.mark.django_db

# Bytes no keyboard types: NUL, escape, delete, a C1 control, a lone surrogate.
control = st.sampled_from(["\x00", "A\x00S", "\x1b[2J", "\x7f", "\x85x", "\ud800"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=8) | control,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
card = st.one_of(st.sampled_from([str(c) for c in DECK] + ["ZZ", "10H"]), control)
bodies = st.fixed_dictionaries(
    {},
    optional={
        "number": st.one_of(st.integers(-1, 3), json_values),
        "key": st.one_of(st.text(max_size=70), control, json_values),
        "version": st.one_of(st.integers(-1, 3), json_values),
        "ending": st.one_of(st.sampled_from(["knock", "gin", "big_gin", "no_game"]), json_values),
        "knocker": st.one_of(st.integers(-1, 3), json_values),
        "knocker_deadwood": st.one_of(st.integers(-1, 120), json_values),
        "defender_deadwood": st.one_of(st.integers(-1, 120), json_values),
        "knocker_cards": st.one_of(st.lists(card, max_size=12), json_values),
        "defender_cards": st.one_of(st.lists(card, max_size=12), json_values),
        "melds": st.one_of(st.lists(st.lists(card, max_size=5), max_size=4), json_values),
        "up_card": st.one_of(card, json_values),
        "rulings": st.one_of(
            st.dictionaries(
                st.sampled_from(
                    [
                        "knocker_missing_cards",
                        "defender_too_many_cards",
                        "illegal_knock_accepted",
                        "x",
                    ]
                ),
                json_values,
            ),
            json_values,
        ),
    },
)

# Bodies the schema takes, so the rules engine and the services are reached too.
deck = [str(c) for c in DECK]
plausible = st.builds(
    lambda common, entry: common | entry,
    st.fixed_dictionaries({"number": st.integers(1, 2), "knocker": st.integers(0, 2)}),
    st.one_of(
        st.fixed_dictionaries(
            {
                "ending": st.sampled_from(["knock", "gin", "big_gin", "no_game"]),
                "knocker_deadwood": st.integers(0, 15),
                "defender_deadwood": st.integers(0, 120),
            }
        ),
        st.permutations(deck).map(lambda d: {"knocker_cards": d[:10], "defender_cards": d[10:20]}),
    ),
)


# Another game's hands: a body of any shape, or an entry of any game's.
game_bodies = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"number": st.integers(0, 2)}, optional={"entry": json_values, "version": json_values}
    ),
    st.builds(
        lambda number, entry: {"number": number, "entry": entry},
        st.integers(1, 2),
        st.sampled_from([entry for _, entry in FIRST_HANDS.values()]),
    ),
)


def gin_rummy_table(confirm):
    party = start_party()
    if confirm:
        hand_enter(seat=party.seats.get(position=0), number=1, entry=Result("knock", 0, 3, 21))
    return party


# (the party, a body, whether a hand waits to be confirmed, the address under the
# seat's): Gin Rummy's bodies at a party of two, another game's at its table, at
# the one address or the alias under /game that older clients use.
gin_rummy_calls = st.tuples(
    st.just(gin_rummy_table), st.one_of(bodies, json_values, plausible), st.booleans(), st.just("")
)
game_calls = st.tuples(
    st.builds(partial, st.just(whole_table_party), st.sampled_from(sorted(FIRST_HANDS))),
    game_bodies,
    st.booleans(),
    st.sampled_from(["", "/game"]),
)


# About as many of each kind as when each had a test of its own (150 and 120).
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(call=st.one_of(gin_rummy_calls, game_calls))
def test_no_body_makes_the_api_fail(client, call):
    table_of, body, confirm, alias = call
    # Something to confirm, so a body the schema takes reaches the service.
    party = table_of(confirm)
    token = party.seats.get(position=1).token
    path = "/hands/1/confirm" if confirm else "/hands"
    if isinstance(body, str):
        # A bare string goes out as it is, lone surrogates as the bytes no UTF-8
        # decoder takes: a broken client is a client too.
        body = body.encode("utf-8", "surrogatepass")
    response = client.post(
        f"/api/tables/{token}{alias}{path}", body, content_type="application/json"
    )
    event(f"{party.game} {'confirm' if confirm else 'enter'}{alias}: {response.status_code}")
    assert response.status_code < 500
    assert response["Content-Type"].startswith("application/json")
    if response.status_code >= 400:
        assert response.json()["detail"]
    else:
        assert party.hands.count() == 1
