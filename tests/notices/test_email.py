"""The players told by e-mail, through a real SMTP server: a round paired, a
party started and ended, the final standings; each message saying why it came
and how to stop it; sent once; a dead server recorded, never raised."""

import re

import pytest
from django.urls import reverse

from clubs.models import Player
from notices import services, tasks
from notices.models import Channel, Kind, Notice
from notices.tokens import read_unsubscribe_token
from scoring.models import Party
from tests.factories import ClubNightFactory, MembershipFactory
from tests.notices.conftest import play_out
from tournaments import registration, rounds, withdrawals
from tournaments.seating import round_pair

pytestmark = pytest.mark.django_db


def table_party(round):
    return round.tables.get().party


def test_a_paired_round_tells_each_player_his_table_and_seat_link(smtp, paired, settings):
    _, round = paired
    party = table_party(round)
    for seat in party.seats.select_related("player"):
        (message,) = smtp.to(seat.player.email)
        assert message["Subject"] == "Your table: Spring Open · Round 1 · Table 1"
        text = message.get_body(("plain",)).get_content()
        assert f"{settings.SITE_URL}{seat.get_absolute_url()}" in text.splitlines()
        other = "Ben" if seat.player.name == "Anna" else "Anna"
        assert f"You play against {other}." in text
        assert "You get this because you play at Gin Club" in text


def test_every_message_carries_a_one_click_unsubscribe(smtp, paired, settings):
    (message,) = smtp.to("anna@example.org")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = str(message["List-Unsubscribe"]).strip()
    assert link.startswith(f"<{settings.SITE_URL}/notices/off/") and link.endswith("/>")
    # The header's link is made when the mail is sent, the text's when it was
    # written: signed a second apart they differ, and turn off the same thing.
    text = message.get_body(("plain",)).get_content()
    (written,) = re.findall(r"/notices/off/([^/\s]+)/", text)
    sent = link[1:-2].rsplit("/", 1)[1]
    assert (
        read_unsubscribe_token(sent)
        == read_unsubscribe_token(written)
        == (
            Player.objects.get(email="anna@example.org").pk,
            "table",
        )
    )


def test_the_one_click_post_of_a_mail_program_turns_that_kind_off(smtp, paired, client, settings):
    tournament, _ = paired
    (message,) = smtp.to("anna@example.org")
    path = str(message["List-Unsubscribe"]).strip()[1 + len(settings.SITE_URL) : -1]
    # A mail program posts without a session or CSRF token (RFC 8058).
    client.handler.enforce_csrf_checks = True
    response = client.post(
        path,
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    anna = tournament.entrants.get(player__name="Anna").player
    choice = anna.notice_choices.get(kind=Kind.TABLE)
    assert (choice.email, choice.push) == (False, False)


def test_a_round_paired_twice_sends_once(smtp, paired, committed):
    _, round = paired
    party = table_party(round)
    # The task run again, as a worker does after a lost acknowledgement.
    committed(tasks.notices_party_started.delay, party_id=party.pk)
    committed(round_pair, round_id=round.pk)
    assert len(smtp.to("anna@example.org")) == 1
    assert len(smtp.to("ben@example.org")) == 1
    assert Notice.objects.filter(kind=Kind.TABLE, channel=Channel.EMAIL).count() == 2


def test_the_player_with_the_bye_is_told_he_sits_out_once(smtp, club, members, committed, settings):
    players = members("Anna", "Ben", "Cleo")
    tournament = registration.tournament_create(club=club, name="Spring Open", rounds=2)
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = committed(rounds.round_start, tournament=tournament)
    bye = round.seatings.get(table__bye=True).entrant.player
    (message,) = smtp.to(bye.email)
    assert message["Subject"] == "Your bye: Spring Open · Round 1"
    text = message.get_body(("plain",)).get_content()
    assert "You have the bye: you play no party this round." in text
    public_round = reverse("public:round-detail", args=[tournament.slug, 1])
    assert f"{settings.SITE_URL}{public_round}" in text.splitlines()
    assert "Turn it off with one click" in text
    # Another change of the tournament in the same round tells him nothing new.
    entrant = round.seatings.exclude(table__bye=True).first().entrant
    committed(withdrawals.entrant_withdraw, entrant=entrant)
    assert len(smtp.to(bye.email)) == 1
    for player in players:
        if player != bye:
            assert all("bye" not in m["Subject"] for m in smtp.to(player.email))


def test_a_player_who_turned_his_table_off_gets_nothing(smtp, club, members, committed):
    from tournaments import registration

    anna, ben = members("Anna", "Ben")
    services.choices_set(
        player=anna, chosen={Kind.TABLE: {Channel.EMAIL: False, Channel.PUSH: False}}
    )
    tournament = registration.tournament_create(club=club, name="Spring Open", rounds=1)
    registration.entrant_register(tournament=tournament, players=[anna, ben])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    committed(rounds.round_start, tournament=tournament)

    assert smtp.to("anna@example.org") == []
    assert len(smtp.to("ben@example.org")) == 1
    assert not Notice.objects.filter(player=anna).exists()


def test_a_finished_party_sends_its_sheet(smtp, paired, committed):
    tournament, round = paired
    anna = tournament.entrants.get(player__name="Anna").player
    play_out(committed, table_party(round), anna)

    (message,) = [m for m in smtp.to("ben@example.org") if m["Subject"].startswith("Party over")]
    text = message.get_body(("plain",)).get_content()
    assert "Spring Open · Round 1 · Table 1 is over." in text
    assert "Anna: +" in text and "Ben: -" in text
    # Every hand after the end (a correction, say) tells no one again.
    assert Notice.objects.filter(kind=Kind.SHEET).count() == 2


def test_the_final_standings_tell_each_entrant_his_place(smtp, paired, committed):
    tournament, round = paired
    anna = tournament.entrants.get(player__name="Anna").player
    play_out(committed, table_party(round), anna)
    committed(rounds.round_close, round=round)
    committed(rounds.tournament_finish, tournament=tournament)

    (won,) = [m for m in smtp.to("anna@example.org") if m["Subject"].startswith("Final")]
    (lost,) = [m for m in smtp.to("ben@example.org") if m["Subject"].startswith("Final")]
    assert won["Subject"] == "Final standings: Spring Open"
    assert "You placed 1 of 2" in won.get_body(("plain",)).get_content()
    assert "You placed 2 of 2" in lost.get_body(("plain",)).get_content()
    assert (
        reverse("public:tournament-detail", args=[tournament.slug])
        in won.get_body(("plain",)).get_content()
    )


def test_a_party_started_at_a_club_night_tells_its_players(smtp, club, members, committed):
    from scoring.services.parties import party_start

    night = ClubNightFactory(club=club, name="Thursday")
    anna, ben = members("Anna", "Ben")
    party = committed(party_start, club=club, night=night, format="two", players=[anna, ben])

    (message,) = smtp.to("anna@example.org")
    assert (
        party.seats.get(player=anna).get_absolute_url()
        in message.get_body(("plain",)).get_content()
    )


def test_a_player_without_an_address_is_sent_no_mail(smtp, club, committed):
    from scoring.services.parties import party_start

    players = [MembershipFactory(club=club, player__email="").player for _ in range(2)]
    committed(party_start, club=club, format="two", players=players)
    assert smtp.messages == []
    assert not Notice.objects.exists()


def test_a_dead_mail_server_is_recorded_and_never_stops_the_round(
    dead_smtp, client, organizer, django_capture_on_commit_callbacks
):
    from tournaments import registration

    club = organizer.club
    anna, ben = (
        MembershipFactory(club=club, player__name=n, player__email=f"{n}@example.org").player
        for n in ("anna", "ben")
    )
    tournament = registration.tournament_create(club=club, name="Spring Open", rounds=1)
    registration.entrant_register(tournament=tournament, players=[anna, ben])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("manage:round-start", args=[tournament.slug]))

    assert response.status_code == 302
    assert tournament.round_set.get().status == "playing"
    failed = Notice.objects.filter(kind=Kind.TABLE)
    assert sorted(failed.values_list("status", flat=True)) == ["failed", "failed"]
    # The first found the server down; the other was not held up asking it again.
    errors = sorted(n.error for n in failed)
    assert "refused" in errors[0].lower()
    assert errors[1] == "the mail server was not reached a moment ago"
    assert {n.attempts for n in failed} == {1}


def test_an_address_the_server_refuses_is_recorded_as_bounced(smtp, club, members, committed):
    from scoring.services.parties import party_start

    anna, ben = members("Anna", "Ben")
    smtp.refuse.add("anna@example.org")
    committed(party_start, club=club, format="two", players=[anna, ben])

    bounced = Notice.objects.get(player=anna)
    assert bounced.status == Notice.Status.BOUNCED
    assert bounced.error.startswith("550")
    assert Notice.objects.get(player=ben).status == Notice.Status.SENT


def test_a_worker_keeps_an_unsent_notice_for_another_try(dead_smtp, settings, club, members):
    from scoring.services.parties import party_start

    anna, ben = members("Anna", "Ben")
    party = party_start(club=club, format="two", players=[anna, ben])
    services.notices_write(drafts=_drafts(party), deliver=lambda pk: None)
    notice = Notice.objects.get(player=anna)

    status = services.notice_deliver(notice_id=notice.pk, last_try=False)

    assert status == Notice.Status.QUEUED
    notice.refresh_from_db()
    assert notice.attempts == 1 and notice.error


def test_a_notice_claimed_once_is_not_sent_again(smtp, club, members):
    from scoring.services.parties import party_start

    anna, ben = members("Anna", "Ben")
    party = party_start(club=club, format="two", players=[anna, ben])
    services.notices_write(drafts=_drafts(party), deliver=lambda pk: None)
    notice = Notice.objects.get(player=anna)

    first = services.notice_deliver(notice_id=notice.pk, last_try=True)
    second = services.notice_deliver(notice_id=notice.pk, last_try=True)

    assert (first, second) == ("sent", "sent")
    assert len(smtp.to("anna@example.org")) == 1


def _drafts(party: Party):
    from notices import events

    return events.party_started(party.pk)


def test_a_tournament_of_long_ago_brought_to_its_end_tells_nobody(smtp, club, members, committed):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import registration

    anna, ben = members("Anna", "Ben")
    long_ago = timezone.localdate() - timedelta(days=30)
    tournament = registration.tournament_create(club=club, name="Old Open", rounds=1, date=long_ago)
    registration.entrant_register(tournament=tournament, players=[anna, ben])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    round = committed(rounds.round_start, tournament=tournament)
    play_out(committed, table_party(round), anna)
    committed(rounds.round_close, round=round)
    committed(rounds.tournament_finish, tournament=tournament)

    assert not Notice.objects.filter(kind=Kind.STANDINGS).exists()
    # What happens at the tables today is told as ever.
    assert Notice.objects.filter(kind=Kind.SHEET).count() == 2


def test_a_german_clubs_players_are_told_in_german(smtp, club, members, committed):
    club.language = "de"
    club.save(update_fields=["language"])
    anna, ben = members("Anna", "Ben")
    tournament = registration.tournament_create(club=club, name="Frühjahr", rounds=1)
    registration.entrant_register(tournament=tournament, players=[anna, ben])
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)

    committed(rounds.round_start, tournament=tournament)

    (message,) = smtp.to("anna@example.org")
    assert message["Subject"] == "Ihr Tisch: Frühjahr · Runde 1 · Tisch 1"


def test_a_notice_is_also_html_under_the_clubs_name_with_its_links_as_buttons(smtp, paired):
    _, round = paired
    seat = table_party(round).seats.select_related("player", "party__club").first()

    (message,) = smtp.to(seat.player.email)

    html = message.get_body(("html",)).get_content()
    assert f"<b>{seat.party.club.name}</b>" in html
    assert f'<a href="{seat.get_absolute_url()}' not in html  # absolute, never relative
    assert f'{seat.get_absolute_url()}">' in html
    assert "Your seat link, to enter the hands on your phone</b>" in html
