"""The party page, where a disputed hand is decided, leads back to where the party
is played: its tournament round, or its club night."""

import pytest
from django.urls import reverse

from scoring.services.hands import hand_enter
from scoring.services.knocks import Result
from tests.factories import ClubNightFactory, MembershipFactory, start_night_party
from tournaments import registration, rounds, tables

pytestmark = pytest.mark.django_db


def disputed(party):
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", a.position, 3, 21))
    hand_enter(seat=b, number=1, entry=Result("knock", b.position, 3, 21))


def test_a_tournament_table_s_dispute_links_back_to_its_round(
    client, organizer, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    club = organizer.club
    players = [MembershipFactory(club=club, player__name=n).player for n in ("Anna", "Ben")]
    tournament = registration.tournament_create(club=club, name="Thursday Swiss")
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    with django_capture_on_commit_callbacks(execute=True):
        round = rounds.round_start(tournament=tournament)
    (view,) = tables.round_tables(round)
    party = view.table.party
    disputed(party)

    url = reverse("manage:party-detail", args=[party.pk])
    # The way back is read with the party: the page's budget does not grow.
    with django_assert_max_num_queries(11):
        text = client.get(url).content.decode()

    back = reverse("manage:round-detail", args=[tournament.slug, 1])
    assert f'<a id="party-back" href="{back}">← Thursday Swiss: round 1</a>' in text
    assert "<h1>Thursday Swiss · Round 1 · Table 1</h1>" in text


def test_a_club_night_party_s_dispute_links_back_to_its_night(client, organizer):
    night = ClubNightFactory(club=organizer.club, name="Friday night")
    party = start_night_party(night, label="Table 1")
    disputed(party)

    text = client.get(reverse("manage:party-detail", args=[party.pk])).content.decode()

    back = reverse("manage:night-detail", args=[night.pk])
    assert f'<a id="party-back" href="{back}">← Friday night</a>' in text
