"""Whatever a phone sends to the entry, preview and confirmation of another game's
hand, on its seat page or through the API, the answer is never a 500, and a
refused entry stores nothing. NUL and other control characters are sent on purpose."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.services.hands import hand_enter
from tests.factories import start_game_party

pytestmark = pytest.mark.django_db

GAMES = {"chinchon": 3, "canasta": 4, "blaue_vierzehn": 3, "cruzo": 3}
FIRST = {
    "chinchon": {"closer": 0, "penalties": [0, 5, 9]},
    "canasta": {"sides": [{"meld_points": 300, "natural_canastas": 1, "went_out": True},
                          {"meld_points": 90}]},
    "blaue_vierzehn": {"points": [20, 30, 6]},
    "cruzo": {"went_out": [2], "cards_left": {"0": 3, "1": 1}},
}  # fmt: skip

control = st.sampled_from(["\x00", "A\x00S", "7\x00", "\x1b[2J", "\x7f", "\x85x", "\ufeff\x08"])
value = st.one_of(
    st.integers(min_value=-5, max_value=2000).map(str),
    st.text(max_size=10),
    st.sampled_from(["", "on", "1O 2O 3O", "12E 8O", "1O 1O", "5C 5E 5B 7O 7C 7E 1B 2B 3B"]),
    control,
)
names = st.sampled_from(
    ["number", "key", "version", "closer", "chinchon"]
    + [f"{name}_{side}" for side in range(4) for name in ("penalty", "cards", "points", "out",
       "left", "meld_points", "natural_canastas", "red_threes", "went_out", "melded_nothing")]
)  # fmt: skip
forms = st.dictionaries(names, value, max_size=12)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2000) | st.text(max_size=6) | control,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=14,
)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(sorted(GAMES)),
    data=forms,
    endpoint=st.sampled_from(["table-enter", "table-preview-game", "table-confirm"]),
    pending=st.booleans(),
)
def test_no_form_makes_the_seat_page_fail(client, game, data, endpoint, pending):
    party = start_game_party(game, GAMES[game])
    seats = list(party.seats.order_by("position"))
    if pending:
        hand_enter(seat=seats[0], number=1, entry=FIRST[game])
    before = party.hands.count()
    response = client.post(reverse(f"seat:{endpoint}", args=[seats[1].token]), data)
    assert response.status_code < 500
    if response.status_code == 400:
        assert party.hands.count() == before


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(sorted(GAMES)),
    body=st.one_of(
        json_values,
        st.fixed_dictionaries(
            {"number": st.integers(0, 2)}, optional={"entry": json_values, "version": json_values}
        ),
        st.builds(
            lambda number, entry: {"number": number, "entry": entry},
            st.integers(1, 2),
            st.sampled_from(list(FIRST.values())),
        ),
    ),
    confirm=st.booleans(),
)
def test_no_body_makes_the_game_api_fail(client, game, body, confirm):
    party = start_game_party(game, GAMES[game])
    seats = list(party.seats.order_by("position"))
    if confirm:
        hand_enter(seat=seats[0], number=1, entry=FIRST[game])
    path = "/hands/1/confirm" if confirm else "/hands"
    response = client.post(
        f"/api/tables/{seats[1].token}/game{path}", body, content_type="application/json"
    )
    assert response.status_code < 500
    assert response["Content-Type"].startswith("application/json")
    if response.status_code >= 400:
        assert response.json()["detail"]
