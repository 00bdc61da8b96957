"""Whatever the organizer's forms send, the answer is never a 500: a refusal is a
message and a redirect (or the form again), and a refused change writes nothing."""

import pytest
from django.contrib import messages
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.conftest import clear_cache
from tournaments import tables
from tournaments.models import Entrant, Round, Seating, Table, Tournament

pytestmark = pytest.mark.django_db

junk = st.one_of(
    st.integers(-5, 10**12).map(str),
    st.text(max_size=8),
    st.sampled_from(["", "1", "0", "on", "KH", "10♣", "ZZ", "x" * 6000]),
)
# The POST pages of a running tournament, with the fields they read.
PAGES = {
    "entrant-register": ["players"],
    "entrant-guests": ["names"],
    "keep-apart": ["first", "second"],
    "round-start": [],
    "round-pair": ["fewest"],
    "standings-draw": ["card-1", "card-2", "card-3", "card-4"],
    "tables-swap": ["first", "second"],
    "round-undo": [],
    "table-forfeit": ["absent"],
    "entrant-check-in": ["checked_in"],
    "entrants-check-in": ["action", "entrant"],
    "entrant-withdraw": [],
    "entrant-reinstate": [],
    "table-forfeit-undo": [],
}


def snapshot():
    """Everything a refused change must leave as it was."""
    return (
        list(Tournament.objects.values_list("status", "rounds")),
        list(Entrant.objects.values_list("pk", "checked_in", "withdrawn_after")),
        list(Round.objects.values_list("number", "status", "draws")),
        list(Seating.objects.values_list("entrant_id", "table_id")),
        list(Table.objects.values_list("pk", "absent")),
    )


@pytest.fixture
def started(tournament, post):
    """A Swiss of four with its first round paired: built once a test, and every
    example starts from it (see below)."""
    t = tournament(["Anna", "Ben", "Carl", "Dora"])
    post(reverse("manage:round-start", args=[t.slug]))
    return t


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(page=st.sampled_from(sorted(PAGES)), values=st.lists(junk, min_size=4, max_size=4))
def test_no_form_makes_a_tournament_page_fail(client, started, post, page, values):
    # Each example starts where the first did: what it wrote is rolled back and the
    # cache emptied, as between two tests. Left in place, the examples' changes
    # piled up (and each new tournament made every hand rebuild the board of all
    # the ones before); the tournament is built once, not once an example, as
    # building and pairing it cost more than the form sent.
    clear_cache()
    with transaction.atomic():
        try:
            one_form(client, started, post, page, values)
        finally:
            transaction.set_rollback(True)


def one_form(client, t, post, page, values):
    table = tables.round_tables(t.round_set.get())[0].table
    args = {
        "entrant-check-in": [t.slug, t.entrants.first().pk],
        "entrant-withdraw": [t.slug, t.entrants.first().pk],
        "entrant-reinstate": [t.slug, t.entrants.first().pk],
        "table-forfeit-undo": [t.slug, 1, table.number],
        "tables-swap": [t.slug, 1],
        "round-undo": [t.slug, 1],
        "table-forfeit": [t.slug, 1, table.number],
    }.get(page, [t.slug])
    data = dict(zip(PAGES[page], values, strict=False))
    before = snapshot()

    response = post(reverse(f"manage:{page}", args=args), data, follow=False)

    assert response.status_code == 302
    shown = client.get(response["Location"])
    assert shown.status_code == 200
    refused = [m for m in shown.context["messages"] if m.level == messages.ERROR]
    event(f"{page}: {'refused' if refused else 'done'}")
    if refused:
        assert snapshot() == before
