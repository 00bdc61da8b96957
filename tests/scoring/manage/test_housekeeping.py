"""Undoing mistakes and closing up: cancel a party, swap a player before the first
hand, rematch, close the night; and a warning for a player already at a table."""

import pytest
from django.urls import reverse

from clubs.models import ClubRecord
from scoring import errors
from scoring.models import AuditRecord, Party
from scoring.results import party_results
from scoring.selectors import link_replaced
from scoring.services import hands, nights, parties
from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.factories import (
    ClubNightFactory,
    MembershipFactory,
    OrganizerFactory,
    UserFactory,
    start_night_party,
    start_party,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(organizer):
    night = ClubNightFactory(club=organizer.club)
    MembershipFactory.create_batch(4, club=organizer.club)
    return night


def seats(party):
    return list(party.seats.select_related("player").order_by("position"))


def finish(party):
    """Gin worth 100 at once: the party is over after one hand."""
    a, b = seats(party)
    hand_enter(seat=a, number=1, entry=Result("gin", 0, 0, 80))
    hand_confirm(seat=b, number=1, version=1)
    party.refresh_from_db()
    return party


def url(name, thing):
    return reverse(f"manage:{name}", args=[thing.pk])


# Cancel a party started by mistake


def test_a_cancelled_party_keeps_its_hands_in_the_record_and_counts_nowhere(client, organizer):
    night = ClubNightFactory(club=organizer.club)
    party = finish(start_night_party(night))
    assert party_results([party.pk], cancelled=False)[party.pk].finished

    response = client.post(url("party-cancel", party), {"reason": "Wrong players ticked"})

    assert response.status_code == 302
    assert response.url == url("night-detail", night)
    party.refresh_from_db()
    assert party.status == Party.Status.CANCELLED
    record = party.audit.get(action=AuditRecord.Action.CANCEL)
    assert (record.reason, record.user) == ("Wrong players ticked", organizer.player.user)
    assert party.audit.filter(action=AuditRecord.Action.ENTER).exists()
    assert party.hands.count() == 1
    assert party_results([party.pk], cancelled=False) == {}
    results = client.get(url("night-results", night)).context
    assert results["rows"] == []


def test_a_cancel_needs_a_reason_and_a_get_only_leads_back(client, organizer):
    party = start_night_party(ClubNightFactory(club=organizer.club))
    assert client.get(url("party-cancel", party)).url == url("party-detail", party)
    response = client.post(url("party-cancel", party), {"reason": " "}, follow=True)
    assert "Give a reason" in response.text
    party.refresh_from_db()
    assert party.status == Party.Status.RUNNING
    with pytest.raises(errors.EntryError, match="reason"):
        parties.party_cancel(party=party, user=None, reason="")


def test_a_cancelled_party_takes_no_more_hands_on_the_page_or_in_the_api(client, organizer):
    party = start_night_party(ClubNightFactory(club=organizer.club))
    parties.party_cancel(party=party, user=organizer.player.user, reason="mistake")
    a, _ = seats(party)
    page = client.get(a.get_absolute_url())
    assert "This party was cancelled" in page.text
    assert 'id="quick-entry"' not in page.text
    response = client.post(
        f"/api/tables/{a.token}/hands",
        {"number": 1, "ending": "knock", "knocker": 0, "knocker_deadwood": 3,
         "defender_deadwood": 21},
        content_type="application/json",
    )  # fmt: skip
    assert (response.status_code, response.json()["code"]) == (409, "party_cancelled")
    assert not party.hands.exists()
    with pytest.raises(errors.PartyCancelled):
        parties.party_cancel(party=party, user=None, reason="twice")


def test_a_party_without_a_night_is_cancelled_by_the_service_but_not_from_the_party_page(
    client, organizer
):
    # A tournament's table has no night: the tournament's pages cancel it (forfeit,
    # swap, undo), never the party page, whose housekeeping is the night's.
    party = start_party()
    organizer.club = party.club
    organizer.save()

    response = client.post(url("party-cancel", party), {"reason": "not here"}, follow=True)

    assert "Only a party of a club night can be cancelled here." in response.text
    party.refresh_from_db()
    assert party.status == Party.Status.RUNNING
    assert "cancel-form" not in client.get(url("party-detail", party)).text
    parties.party_cancel(party=party, user=organizer.player.user, reason="No-show")
    party.refresh_from_db()
    assert party.status == Party.Status.CANCELLED


def test_housekeeping_records_the_organizer_and_the_address(client, organizer, night):
    party = finish(start_night_party(night))
    address = {"REMOTE_ADDR": "198.51.100.7"}

    client.post(url("party-rematch", party), **address)
    rematch = Party.objects.exclude(pk=party.pk).get()
    client.post(url("party-cancel", rematch), {"reason": "Wrong table"}, **address)

    start = rematch.audit.get(action=AuditRecord.Action.START)
    cancel = rematch.audit.get(action=AuditRecord.Action.CANCEL)
    for record in (start, cancel):
        assert (record.user, record.address) == (organizer.player.user, "198.51.100.7")


# Swap a player before the first hand


def test_a_player_is_swapped_before_the_first_hand_with_a_new_link(client, organizer, night):
    party = start_night_party(night)
    seat = seats(party)[0]
    newcomer = MembershipFactory(club=night.club, player__name="Nell Newcomer").player
    old_link = seat.get_absolute_url()

    response = client.post(url("seat-swap", seat), {"player": newcomer.pk}, follow=True)

    seat.refresh_from_db()
    assert seat.player == newcomer
    assert seat.get_absolute_url() != old_link
    replaced = client.get(old_link)
    assert replaced.status_code == 410
    assert "This link was replaced" in replaced.text
    assert "Nell Newcomer takes" in response.text
    record = party.audit.get(action=AuditRecord.Action.SWAP)
    assert record.after["player"] == "Nell Newcomer"


def test_no_swap_once_a_hand_is_entered_nor_to_a_stranger_or_a_seated_player(organizer, night):
    party = start_night_party(night)
    a, b = seats(party)
    with pytest.raises(errors.EntryError, match="not a member"):
        parties.party_seat_swap(seat=a, player=MembershipFactory().player, user=None)
    with pytest.raises(errors.EntryError, match="already has a seat"):
        parties.party_seat_swap(seat=a, player=b.player, user=None)
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    newcomer = MembershipFactory(club=night.club).player
    with pytest.raises(errors.WrongDecision, match="before"):
        parties.party_seat_swap(seat=a, player=newcomer, user=None)
    assert not party.audit.filter(action=AuditRecord.Action.SWAP).exists()


def test_no_swap_to_a_deactivated_member_nor_at_a_party_without_a_night(organizer, night):
    party = start_night_party(night)
    a, _ = seats(party)
    gone = MembershipFactory(club=night.club, active=False).player
    with pytest.raises(errors.EntryError, match="not a member"):
        parties.party_seat_swap(seat=a, player=gone, user=None)
    table = start_party()
    newcomer = MembershipFactory(club=table.club).player
    with pytest.raises(errors.WrongDecision, match="club night"):
        parties.party_seat_swap(seat=seats(table)[0], player=newcomer, user=None)
    assert not AuditRecord.objects.filter(action=AuditRecord.Action.SWAP).exists()


def test_a_swap_is_audited_with_the_address_and_only_a_digest_of_the_old_link(
    client, organizer, night
):
    party = start_night_party(night)
    seat = seats(party)[0]
    old_token = seat.token
    newcomer = MembershipFactory(club=night.club).player

    client.post(url("seat-swap", seat), {"player": newcomer.pk}, REMOTE_ADDR="198.51.100.7")

    record = party.audit.get(action=AuditRecord.Action.SWAP)
    assert (record.user, record.address) == (organizer.player.user, "198.51.100.7")
    assert old_token not in str(record.before)
    assert link_replaced(old_token)


def test_a_swap_to_a_player_id_no_row_can_have_is_a_form_error(client, organizer, night):
    seat = seats(start_night_party(night))[0]
    for player in ("9" * 30, "-1", "x\x00"):
        response = client.post(url("seat-swap", seat), {"player": player}, follow=True)
        assert response.status_code == 200
        assert "Select a valid choice" in response.text
    assert not party_swapped(seat)


def party_swapped(seat):
    return AuditRecord.objects.filter(seat=seat, action=AuditRecord.Action.SWAP).exists()


def test_only_a_link_of_a_tokens_shape_is_looked_up(django_assert_num_queries):
    with django_assert_num_queries(0):
        assert not link_replaced("not-a-token")
        assert not link_replaced("x" * 42 + "\x00")


def test_the_party_page_offers_the_swap_only_before_the_first_hand(client, organizer, night):
    party = start_night_party(night)
    page = reverse("manage:party-detail", args=[party.pk])
    assert "Wrong player? Put in instead" in client.get(page).text
    a, _ = seats(party)
    hand_enter(seat=a, number=1, entry=Result("knock", 0, 3, 21))
    assert "Wrong player? Put in instead" not in client.get(page).text


# Rematch


def test_a_rematch_seats_the_same_players_in_one_click(client, organizer, night):
    party = finish(start_night_party(night, label="Table 2"))

    response = client.post(url("party-rematch", party))

    rematch = Party.objects.exclude(pk=party.pk).get()
    assert response.url == url("party-detail", rematch)
    assert {s.player for s in rematch.seats.all()} == {s.player for s in party.seats.all()}
    assert (rematch.night, rematch.format, rematch.label) == (night, party.format, "Table 2")
    assert rematch.status == Party.Status.RUNNING


def test_no_rematch_while_the_party_runs(client, organizer, night):
    party = start_night_party(night)
    response = client.post(url("party-rematch", party), follow=True)
    assert "still running" in response.text
    assert Party.objects.count() == 1


# A player already seated


def test_a_player_at_a_running_party_is_warned_about_before_another(client, organizer, night):
    running = start_night_party(night, label="Table 1")
    busy = seats(running)[0].player
    free = MembershipFactory(club=night.club).player
    data = {"format": "two", "players": [busy.pk, free.pk], "label": "Table 2"}

    warned = client.post(url("night-detail", night), data)

    assert warned.status_code == 200
    assert f"{busy.name} at Table 1" in warned.text
    assert Party.objects.count() == 1
    started = client.post(url("night-detail", night), {**data, "anyway": "on"})
    assert started.status_code == 302
    assert Party.objects.count() == 2


def test_the_start_form_marks_players_already_at_a_table(client, organizer, night):
    running = start_night_party(night, label="Table 1")
    busy = seats(running)[0].player
    assert f"{busy.name} (at Table 1)" in client.get(url("night-detail", night)).text


# Close the night


def test_a_closed_night_takes_no_new_parties_and_its_results_are_final(client, organizer, night):
    party = start_night_party(night)
    refused = client.post(url("night-close", night), follow=True)
    assert "1 party is still running" in refused.text
    finish(party)

    response = client.post(url("night-close", night))

    assert response.url == url("night-results", night)
    night.refresh_from_db()
    assert night.closed_at is not None and night.closed_by == organizer.player.user
    page = client.get(url("night-detail", night)).text
    assert "the results are final" in page
    assert 'id="party-form"' not in page
    players = [m.player for m in night.club.memberships.all()[:2]]
    with pytest.raises(errors.NightClosed):
        parties.party_start(club=night.club, night=night, format="two", players=players)
    hand = party.hands.get()
    with pytest.raises(errors.NightClosed):
        hands.hand_decide(hand=hand, user=organizer.player.user, entry=None, reason="late")
    with pytest.raises(errors.NightClosed):
        parties.party_cancel(party=party, user=organizer.player.user, reason="late")
    with pytest.raises(errors.NightClosed):
        nights.night_set_stake(night=night, stake="0.10")


def test_closing_the_night_and_its_stake_go_into_the_clubs_record(client, organizer, night):
    address = {"REMOTE_ADDR": "198.51.100.7"}
    client.post(url("night-stake", night), {"stake": "0.05"}, **address)
    client.post(url("night-stake", night), {"stake": "0.05"}, **address)  # unchanged
    client.post(url("night-close", night), **address)

    records = list(night.club.records.exclude(action=ClubRecord.Action.NIGHT).order_by("pk"))
    assert [(r.action, r.user, r.address) for r in records] == [
        (ClubRecord.Action.STAKE, organizer.player.user, "198.51.100.7"),
        (ClubRecord.Action.CLOSED, organizer.player.user, "198.51.100.7"),
    ]
    assert (records[0].details["stake"], records[0].details["was"]) == ("0.05", None)
    assert records[1].details["night"] == night.name
    page = client.get(reverse("manage:club-detail", args=[night.club.slug]))
    assert 'data-record="closed"' in page.text


@pytest.mark.parametrize(
    "name, method",
    [("party-cancel", "post"), ("party-rematch", "post"), ("night-close", "post"),
     ("night-stake", "post"), ("night-results", "get"), ("night-results-csv", "get"),
     ("seat-swap", "post")],
)  # fmt: skip
@pytest.mark.parametrize("who", ["anonymous", "member", "other organizer"])
def test_only_the_clubs_organizers_may_keep_house(client, night, name, method, who):
    party = finish(start_night_party(night))
    thing = {"party": party, "night": night, "seat": seats(party)[0]}[name.split("-")[0]]
    client.logout()
    if who == "member":
        member = MembershipFactory(club=night.club, player__user=UserFactory())
        client.force_login(member.player.user)
    elif who == "other organizer":
        client.force_login(OrganizerFactory().player.user)
    response = getattr(client, method)(url(name, thing), {"reason": "x", "stake": "1"})
    assert response.status_code == (302 if who == "anonymous" else 404)
    if who == "anonymous":
        assert response.url.startswith(reverse("login"))
    party.refresh_from_db()
    night.refresh_from_db()
    assert (party.status, night.closed_at, night.stake) == (Party.Status.FINISHED, None, None)
    assert Party.objects.count() == 1


def test_a_get_on_a_housekeeping_address_leads_back_to_its_page(client, organizer, night):
    party = start_night_party(night)
    assert client.get(url("night-close", night)).url == url("night-detail", night)
    assert client.get(url("night-stake", night)).url == url("night-detail", night)
    assert client.get(url("party-rematch", party)).url == url("party-detail", party)
    assert client.get(url("seat-swap", seats(party)[0])).url.startswith(url("party-detail", party))
    night.refresh_from_db()
    assert night.closed_at is None
