import datetime

import pytest
from django.urls import reverse

from clubs.models import ClubNight
from scoring import errors
from scoring.models import AuditRecord, Party
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from scoring.services.nights import night_create
from scoring.services.parties import party_cancel
from tests.conftest import messages_after
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
    start_night_party,
)

pytestmark = pytest.mark.django_db


def club_url(club):
    return reverse("manage:club-detail", args=[club.slug])


def night_url(night):
    return reverse("manage:night-detail", args=[night.pk])


def night_data(**changes):
    data = {"name": "Friday night", "date": "2026-11-27", "ruleset": "classic"}
    data["confirmation_required"] = "on"
    return data | changes


# Who may see and act


def test_manage_links_each_club_to_its_management_page(client, organizer):
    text = client.get(reverse("manage:club-list")).text
    assert club_url(organizer.club) in text


def test_the_public_club_page_leads_its_organizer_to_the_nights(client, organizer):
    assert club_url(organizer.club) in client.get(organizer.club.get_absolute_url()).text
    client.logout()
    assert club_url(organizer.club) not in client.get(organizer.club.get_absolute_url()).text


@pytest.mark.parametrize("page", ["club", "night"])
def test_anonymous_visitors_are_sent_to_log_in(client, page):
    night = ClubNightFactory()
    url = club_url(night.club) if page == "club" else night_url(night)
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("page", ["club", "night"])
def test_a_member_who_does_not_organize_is_refused(client, page):
    night = ClubNightFactory()
    member = MembershipFactory(club=night.club, player__user=UserFactory())
    client.force_login(member.player.user)
    url = club_url(night.club) if page == "club" else night_url(night)
    assert client.get(url).status_code == 404
    assert client.post(url, night_data()).status_code == 404
    assert ClubNight.objects.count() == 1


@pytest.mark.parametrize("page", ["club", "night"])
def test_the_organizer_of_another_club_is_refused(client, organizer, page):
    night = ClubNightFactory()
    url = club_url(night.club) if page == "club" else night_url(night)
    response = client.get(url)
    assert response.status_code == 404
    assert "There is no such page" in response.text


def test_a_superuser_may_manage_any_club(client):
    night = ClubNightFactory(name="Open night")
    client.force_login(UserFactory(is_superuser=True))
    assert "Open night" in client.get(club_url(night.club)).text
    assert client.get(night_url(night)).status_code == 200


# Club nights


def test_an_organizer_opens_a_club_night(client, organizer):
    response = client.post(
        club_url(organizer.club), night_data(ruleset="cardgames", confirmation_required="")
    )

    night = ClubNight.objects.get()
    assert response.status_code == 302
    assert response.url == night_url(night)
    assert (night.club, night.name, night.date) == (
        organizer.club,
        "Friday night",
        datetime.date(2026, 11, 27),
    )
    assert night.ruleset == "cardgames"
    assert night.confirmation_required is False


def test_the_night_form_sent_twice_opens_one_night_and_shows_it(client, organizer, sent_twice):
    first, second = sent_twice(club_url(organizer.club), night_data())

    night = ClubNight.objects.get()
    assert first["Location"] == second["Location"] == night_url(night)
    assert "This form was already sent: here is what it made." in messages_after(client, second)


def test_a_night_form_without_a_key_opens_a_night_each_time_as_before(client, organizer):
    for _ in (1, 2):
        assert client.post(club_url(organizer.club), night_data()).status_code == 302

    assert ClubNight.objects.count() == 2


def test_the_night_form_asks_for_confirmation_by_default(client, organizer):
    form = client.get(club_url(organizer.club)).context["form"]
    assert form["confirmation_required"].value() is True
    assert 'name="confirmation_required"' in form.as_div()
    assert "checked" in str(form["confirmation_required"])


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"name": "   "}, "This field is required"),
        ({"ruleset": "poker"}, "Select a valid choice"),
        ({"date": "31.02.2026"}, "Enter a valid date"),
    ],
)
def test_a_bad_club_night_is_refused_with_a_message(client, organizer, changes, message):
    response = client.post(club_url(organizer.club), night_data(**changes))
    assert response.status_code == 200
    assert message in response.text
    assert not ClubNight.objects.exists()


def test_the_night_service_checks_what_the_form_would(organizer):
    club = organizer.club
    today = datetime.date(2026, 11, 27)
    with pytest.raises(errors.EntryError, match="name"):
        night_create(club=club, name=" ", date=today)
    with pytest.raises(errors.EntryError, match="too long"):
        night_create(club=club, name="x" * 121, date=today)
    with pytest.raises(errors.EntryError, match="date"):
        night_create(club=club, name="Friday", date="tomorrow")
    with pytest.raises(errors.EntryError, match="no rules called"):
        night_create(club=club, name="Friday", date=today, ruleset="poker")
    assert not ClubNight.objects.exists()


def test_the_club_page_lists_its_nights_newest_first(client, organizer):
    club = organizer.club
    ClubNightFactory(club=club, name="Autumn night", date=datetime.date(2026, 10, 1))
    ClubNightFactory(club=club, name="Winter night", date=datetime.date(2026, 12, 1))
    ClubNightFactory(name="Someone else's night")

    text = client.get(club_url(club)).text

    assert text.index("Winter night") < text.index("Autumn night")
    assert "Someone else's night" not in text


@pytest.mark.parametrize("nights", [2, 30])
def test_the_club_page_query_count_does_not_grow_with_nights(
    client, organizer, django_assert_max_num_queries, nights
):
    for night in ClubNightFactory.create_batch(nights, club=organizer.club):
        start_night_party(night)
    with django_assert_max_num_queries(7):
        response = client.get(club_url(organizer.club))
    assert len(response.context["table"].page.object_list) == nights
    assert response.context["table"].rows[0].get_cell("party_count") == 1


# Starting parties


@pytest.fixture
def night(organizer):
    night = ClubNightFactory(club=organizer.club, ruleset="cardgames")
    MembershipFactory.create_batch(6, club=organizer.club)
    return night


def members(night, count):
    return [m.player for m in night.club.memberships.select_related("player")[:count]]


@pytest.mark.parametrize(
    "format, count",
    [
        ("two", 2),
        ("rotation", 3),
        ("chouette", 3),
        ("chouette", 6),
        ("partners", 4),
        ("partners", 6),
    ],
)
def test_an_organizer_starts_a_party_of_each_format(client, organizer, night, format, count):
    players = members(night, count)

    response = client.post(
        night_url(night),
        {"format": format, "players": [p.pk for p in players], "label": "Table 3"},
    )

    party = Party.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("manage:party-detail", args=[party.pk])
    assert (party.night, party.club, party.format, party.label) == (
        night,
        night.club,
        format,
        "Table 3",
    )
    assert {s.player for s in party.seats.all()} == set(players)
    assert party.rules["name"] == "cardgames"
    assert party.audit.get(action=AuditRecord.Action.START).user == organizer.player.user


@pytest.mark.parametrize(
    "format, count, message",
    [
        ("rotation", 2, "played by 3 players, not 2"),
        ("two", 3, "played by 2 players, not 3"),
        ("partners", 5, "played by 4 or 6 players, not 5"),
        ("two", 0, "Tick the players"),
        ("bridge", 2, "Select a valid choice"),
    ],
)
def test_a_bad_start_gets_a_message_and_creates_nothing(
    client, organizer, night, format, count, message
):
    players = members(night, count)
    response = client.post(night_url(night), {"format": format, "players": [p.pk for p in players]})
    assert response.status_code == 200
    assert message in response.text
    assert not Party.objects.exists()
    assert not AuditRecord.objects.exists()


def test_only_members_of_the_club_may_be_seated(client, organizer, night):
    stranger = MembershipFactory().player  # a member of another club
    response = client.post(
        night_url(night), {"format": "two", "players": [members(night, 1)[0].pk, stranger.pk]}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert not Party.objects.exists()


def test_the_night_page_offers_the_clubs_members_only(client, organizer, night):
    outsider = MembershipFactory(player__name="Otto Outsider").player
    response = client.get(night_url(night))
    offered = set(response.context["form"].fields["players"].queryset)
    assert offered == {m.player for m in night.club.memberships.all()}
    assert outsider.name not in response.text


# The night at a glance


def tables_url(night):
    return reverse("manage:night-tables", args=[night.pk])


def states(response):
    return [(row["party"].label, row["state"]) for row in response.context["glance"]["rows"]]


def test_the_night_page_lists_parties_with_players_score_and_links(client, organizer, night):
    running = start_night_party(night, label="Running party")
    a, b = running.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    hand_confirm(seat=b, number=1, version=1)
    finished = start_night_party(night, label="Finished party")
    c, d = finished.seats.order_by("position")
    hand_enter(seat=c, number=1, entry=Result("gin", 0, 0, 75))
    hand_confirm(seat=d, number=1, version=1)

    response = client.get(night_url(night))

    text = response.text
    assert reverse("manage:party-detail", args=[running.pk]) in text
    assert reverse("manage:party-detail", args=[finished.pk]) in text
    for seat in (a, b, c, d):
        assert seat.get_absolute_url() in text  # the organizer can open each table page
        assert seat.player.name in text
    running_row, finished_row = response.context["glance"]["rows"]
    assert running_row["state"] == "entering"
    assert (a.player.name, 18) in running_row["points"]  # 21 - 3 for the knocker
    assert finished_row["state"] == "finished"
    payer, payee, amount = finished_row["payments"][0]
    assert (payer, payee) == (d.player.name, c.player.name)
    # Cardgames rules (seed 001): 100 points, doubled for a shutout (every hand won,
    # no no-game) to 200, + one box of 25 + the game bonus 100 = 325 against 0.
    assert amount == 325
    assert f"{payer} pays {payee} {amount}" in text


def test_every_table_shows_its_state_disputes_first_with_counts_and_a_link_to_decide(
    client, organizer, night
):
    waiting = start_night_party(night, label="Waiting")
    confirming = start_night_party(night, label="Confirming")
    a, _ = confirming.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    disputed = start_night_party(night, label="Disputed")
    c, d = disputed.seats.order_by("position")
    hand_enter(seat=c, number=1, entry=Result("knock", 0, 3, 21))
    hand = hand_enter(seat=d, number=1, entry=Result("knock", 0, 3, 12)).hand
    cancelled = start_night_party(night, label="Cancelled")
    party_cancel(party=cancelled, user=organizer.player.user, reason="wrong table")

    response = client.get(night_url(night))

    assert states(response) == [
        ("Disputed", "disputed"),
        ("Confirming", "confirming"),
        ("Waiting", "entering"),
        ("Cancelled", "cancelled"),
    ]
    counts = response.context["glance"]["counts"]
    assert counts == {
        "disputed": 1, "confirming": 1, "entering": 1, "finished": 0, "cancelled": 1
    }  # fmt: skip
    decide = reverse("manage:party-detail", args=[disputed.pk]) + f"#hand-{hand.pk}"
    assert f'href="{decide}"' in response.text
    assert "Decide hand 1" in response.text
    # The title shows the open disputes, so a tab in the background still tells.
    assert "<title>1 dispute · " in response.text
    assert waiting.label in response.text


def test_the_tables_fragment_is_what_the_page_polls(client, organizer, night):
    party = start_night_party(night, label="Table 1")
    response = client.get(tables_url(night))
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section id="night-tables"')
    assert "<html" not in response.text
    assert f'data-title="{night.name} · Manage · Knock"' in response.text
    a, b = party.seats.order_by("position")
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    hand_enter(seat=b, number=1, entry=Result("knock", 0, 4, 21))
    again = client.get(tables_url(night))
    assert f'data-title="1 dispute · {night.name} · Manage · Knock"' in again.text
    assert 'data-disputes="1"' in again.text


@pytest.mark.parametrize("who", ["anonymous", "member", "other organizer"])
def test_only_the_clubs_organizers_see_the_tables_fragment(client, night, who):
    url = tables_url(night)
    client.logout()
    if who == "member":
        member = MembershipFactory(club=night.club, player__user=UserFactory())
        client.force_login(member.player.user)
    elif who == "other organizer":
        client.force_login(OrganizerFactory().player.user)
    response = client.get(url)
    assert response.status_code == (302 if who == "anonymous" else 404)
    assert "night-tables" not in response.text


@pytest.mark.parametrize("parties", [2, 30])
@pytest.mark.parametrize("page", ["night", "tables"])
def test_the_night_page_query_count_does_not_grow_with_parties(
    client, organizer, django_assert_max_num_queries, parties, page
):
    night = ClubNightFactory(club=organizer.club)
    for number in range(parties):
        party = start_night_party(night, seed=number)
        a, b = party.seats.order_by("position")
        hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
        if number % 2:
            hand_confirm(seat=b, number=1, version=1)
    url = night_url(night) if page == "night" else tables_url(night)
    with django_assert_max_num_queries(10):
        response = client.get(url)
    assert len(response.context["glance"]["rows"]) == parties
