"""The final on the organizer's pages: added on the desk, started after the finish
(asked first), its bracket with each match's table cards, a no-show and its undo,
and the bracket following the tables by itself."""

from html import unescape

import pytest
from django.urls import reverse

from scoring.services.hands import hand_confirm, hand_enter
from scoring.services.knocks import Result
from tests.conftest import messages_after
from tests.factories import OrganizerFactory
from tests.tournaments.conftest import play_out
from tests.tournaments.manage.conftest import messages_of
from tournaments import registration
from tournaments.final import bracket
from tournaments.models import FinalStage, Match, Tournament

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Ben", "Carl", "Dora", "Ed", "Fay", "Gus", "Hilde")


def url(name, *args):
    return reverse(f"manage:{name}", args=args)


@pytest.fixture
def finished(tournament, post, django_capture_on_commit_callbacks):
    """A one-round Swiss of the given players, played out and finished, with a
    final of ``qualifiers`` added on the desk before the finish."""

    def make(names=NAMES[:4], qualifiers=4, best_of=1, third_place=False):
        t = tournament(names, rounds=1)
        data = {"qualifiers": qualifiers, "best_of": best_of}
        if third_place:
            data["third_place"] = "on"
        post(url("final-add", t.slug), data)
        post(url("round-start", t.slug))
        for table in t.round_set.get().tables.exclude(party=None):
            with django_capture_on_commit_callbacks(execute=True):
                play_out(table, table.seatings.get(side=0).entrant)
        post(url("round-close", t.slug, 1))
        post(url("tournament-finish", t.slug))
        t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED
        return t

    return make


def games_of(t):
    return [
        game
        for match in Match.objects.filter(stage__tournament=t).prefetch_related("games__party")
        for game in match.games.all()
        if game.party.status == "running"
    ]


def play(game, winner, capture):
    with capture(execute=True):
        play_out(game, winner)


def test_the_desk_adds_a_final_and_says_it_starts_after_the_finish(tournament, post):
    t = tournament(NAMES[:5])
    page = post(url("final-add", t.slug), {"qualifiers": 4, "best_of": 3, "third_place": "on"})

    assert messages_of(page) == [
        "The best 4 play a knockout final once the tournament is finished."
    ]
    stage = FinalStage.objects.get(tournament=t)
    assert (stage.qualifiers, stage.best_of, stage.third_place) == (4, 3, True)
    html = page.content.decode()
    assert 'id="final-form"' not in html
    assert "It starts once the tournament is finished" in html
    assert url("final-start", t.slug) not in html


def test_the_final_form_sent_twice_adds_one_final_and_shows_it(tournament, client, sent_twice):
    t = tournament(NAMES[:5])

    first, second = sent_twice(
        url("tournament-detail", t.slug), {"qualifiers": 4, "best_of": 1}, url("final-add", t.slug)
    )

    assert FinalStage.objects.filter(tournament=t).count() == 1
    assert first["Location"] == second["Location"] == url("tournament-detail", t.slug) + "#final"
    assert messages_after(client, second) == [
        "The best 4 play a knockout final once the tournament is finished.",
        "This form was already sent: here is what it made.",
    ]


def test_a_final_with_more_qualifiers_than_entrants_is_refused_with_a_message(tournament, post):
    t = tournament(NAMES[:4])

    page = post(url("final-add", t.slug), {"qualifiers": 6, "best_of": 1})

    assert not FinalStage.objects.filter(tournament=t).exists()
    assert len(messages_of(page)) == 1
    assert 'id="final-form"' in page.content.decode()


def test_the_start_asks_first_then_draws_the_bracket_with_table_cards(finished, post, client):
    t = finished(NAMES[:8], qualifiers=8)
    desk = client.get(url("tournament-detail", t.slug)).content.decode()
    assert url("final-start", t.slug) in desk

    question = client.get(url("final-start", t.slug))
    assert question.status_code == 200
    assert FinalStage.objects.get(tournament=t).status == FinalStage.Status.PLANNED
    assert "The best 8 of the final standings are seeded 1 to 8" in question.content.decode()

    page = post(url("final-start", t.slug))

    assert page.request["PATH_INFO"] == url("final", t.slug)
    assert messages_of(page) == ["The final has started: print the matches' table cards."]
    html = page.content.decode()
    assert html.count('data-state="playing"') == 4
    assert html.count('data-state="waiting"') == 3
    assert "Quarter-final" in html and "Semi-final" in html
    for game in games_of(t):
        assert url("party-cards", game.party_id) in html
    # The seeds stand beside the names: 1 against 8 in the first match.
    first = page.context["bracket"][0].matches[0]
    assert first.seeds == (1, 8)


def test_a_started_final_cannot_be_started_again(finished, post, client):
    t = finished()
    post(url("final-start", t.slug))

    question = client.get(url("final-start", t.slug)).content.decode()

    assert "The final has already started." in question
    assert 'id="confirm-button"' not in question


def test_a_no_show_asks_first_and_is_taken_back(finished, post, client):
    t = finished()
    post(url("final-start", t.slug))
    match = Match.objects.filter(stage__tournament=t, round=1).order_by("slot").first()
    absent = match.second

    forfeit = url("match-forfeit", t.slug, match.pk)
    question = client.get(forfeit, {"absent": absent.pk}).content.decode()
    assert f"{absent} did not come to the match?" in question
    match.refresh_from_db()
    assert match.absent is None

    page = post(forfeit, {"absent": absent.pk})

    assert messages_of(page) == [f"{absent} did not come: {match.first} goes through."]
    match.refresh_from_db()
    assert (match.absent, match.winner_id) == (1, match.first_id)
    html = page.content.decode()
    assert f'id="match-{match.pk}"' in html
    assert url("match-forfeit-undo", t.slug, match.pk) in html

    undo = url("match-forfeit-undo", t.slug, match.pk)
    assert 'id="confirm-button"' in client.get(undo).content.decode()
    page = post(undo)

    assert messages_of(page) == ["The no-show is taken back: the match is played."]
    match.refresh_from_db()
    assert (match.absent, match.winner_id) == (None, None)


def test_the_bracket_follows_the_tables_to_the_champion(
    finished, post, client, django_capture_on_commit_callbacks
):
    t = finished()
    post(url("final-start", t.slug))
    fragment = client.get(url("final-bracket", t.slug))
    version = fragment["X-Board-Version"]
    assert client.get(url("final-bracket", t.slug), {"v": version}).status_code == 204

    for game in games_of(t):
        first = game.match.first
        play(game, first, django_capture_on_commit_callbacks)

    fragment = client.get(url("final-bracket", t.slug), {"v": version})
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert html.count('data-state="decided"') == 2
    assert html.count('data-state="playing"') == 1

    (final,) = games_of(t)
    play(final, final.match.second, django_capture_on_commit_callbacks)

    stage = FinalStage.objects.get(tournament=t)
    assert stage.status == FinalStage.Status.FINISHED
    page = client.get(url("final", t.slug)).content.decode()
    assert page.count('data-state="decided"') == 3
    assert 'class="match-side won"' in page
    # Below the bracket, the final standings: the winner first.
    places = page.split('id="final-places"')[1]
    assert places.index(str(final.match.second)) < places.index(str(final.match.first))
    assert "Winner" in places


def test_another_clubs_organizer_finds_no_final(finished, post, client):
    t = finished()
    post(url("final-start", t.slug))
    match = Match.objects.filter(stage__tournament=t).first()
    client.force_login(OrganizerFactory().player.user)

    for address in (
        url("final", t.slug),
        url("final-bracket", t.slug),
        url("final-start", t.slug),
        url("match-forfeit", t.slug, match.pk) + f"?absent={match.first_id}",
        url("match-forfeit-undo", t.slug, match.pk),
    ):
        assert client.get(address).status_code == 404, address


def test_a_tournament_without_a_final_has_no_final_page(tournament, client):
    t = tournament()

    assert client.get(url("final", t.slug)).status_code == 404


@pytest.mark.parametrize("size", [4, 8])
def test_the_final_page_takes_the_same_queries_for_any_bracket(
    finished, post, client, django_assert_max_num_queries, size
):
    t = finished(NAMES[:size], qualifiers=size)
    post(url("final-start", t.slug))
    assert bracket.final_stage_of(t).status == FinalStage.Status.PLAYING

    with django_assert_max_num_queries(16):
        client.get(url("final", t.slug))


def test_the_semi_finals_losers_play_for_third_place_beside_the_final(
    finished, post, client, django_capture_on_commit_callbacks
):
    t = finished(third_place=True)
    post(url("final-start", t.slug))
    for game in games_of(t):
        play(game, game.match.first, django_capture_on_commit_callbacks)

    page = client.get(url("final", t.slug))

    rounds = page.context["bracket"]
    assert [r.key for r in rounds] == ["semi-final", "final", "third-place"]
    html = page.content.decode()
    third = html.split('data-key="third-place"')[1]
    assert "Match for third place" in third
    assert third.count('data-state="playing"') == 1
    losers = {m.second.player.name for m in rounds[0].matches}
    assert all(name in third for name in losers)


def test_a_knockout_cup_starts_its_bracket_from_the_check_in(club, members, post, client):
    cup = post(
        url("tournament-create", club.slug),
        {
            "name": "Club Cup",
            "date": "2026-11-24",
            "format": "knockout",
            "ruleset": "classic",
            "target": 100,
            "bye_value": 0,
            "forfeit_value": 100,
            "confirmation_required": "on",
            "public_pairings": "on",
            "public_standings": "on",
            "public_results": "on",
        },
    )
    t = Tournament.objects.get(name="Club Cup")
    post(url("entrant-register", t.slug), {"players": [p.pk for p in members(*NAMES[:6])]})
    post(url("entrants-check-in", t.slug), {"action": "all"})
    desk = client.get(url("tournament-detail", t.slug)).content.decode()
    assert 'id="final-form"' not in desk  # the cup is its final
    assert url("final-start", t.slug) in desk and url("round-start", t.slug) not in desk
    assert cup.status_code == 200

    page = post(url("final-start", t.slug))

    assert page.request["PATH_INFO"] == url("final", t.slug)
    html = page.content.decode()
    # Six players in a bracket of eight: the two best seeds have byes.
    assert html.count('data-state="bye"') == 2
    assert html.count('data-state="playing"') == 2


def test_the_finish_leads_to_standings_that_offer_to_start_the_final(
    tournament, post, django_capture_on_commit_callbacks
):
    t = tournament(NAMES[:4], rounds=1)
    post(url("final-add", t.slug), {"qualifiers": 2, "best_of": 1})
    post(url("round-start", t.slug))
    for table in t.round_set.get().tables.exclude(party=None):
        with django_capture_on_commit_callbacks(execute=True):
            play_out(table, table.seatings.get(side=0).entrant)
    post(url("round-close", t.slug, 1))

    standings = post(url("tournament-finish", t.slug)).content.decode()

    assert "The best 2 play a knockout final" in standings
    assert f'href="{url("final-start", t.slug)}"' in standings


def test_a_final_added_by_mistake_is_removed_after_asking(tournament, post, client):
    t = tournament()
    post(url("final-add", t.slug), {"qualifiers": 4, "best_of": 1})
    remove = url("final-remove", t.slug)
    assert remove in client.get(url("tournament-detail", t.slug)).content.decode()
    assert 'id="confirm-button"' in client.get(remove).content.decode()

    page = post(remove)

    assert messages_of(page) == ["The final is removed."]
    assert not FinalStage.objects.filter(tournament=t).exists()
    assert 'id="final-form"' in page.content.decode()


def test_the_start_of_the_final_is_undone_before_a_hand_and_not_after(finished, post, client):
    t = finished()
    post(url("final-start", t.slug))
    undo = url("final-start-undo", t.slug)
    assert undo in client.get(url("final", t.slug)).content.decode()
    assert 'id="confirm-button"' in client.get(undo).content.decode()

    page = post(undo)

    assert messages_of(page) == ["The start of the final is undone: start it again when ready."]
    # Its page, nothing drawn, sends the organizer to the desk that starts it.
    assert client.get(url("final", t.slug))["Location"].endswith("#final")
    assert FinalStage.objects.get(tournament=t).status == FinalStage.Status.PLANNED
    assert not Match.objects.filter(stage__tournament=t).exists()
    assert url("final-start", t.slug) in page.content.decode()

    # Started again, a hand is played: the start stays.
    post(url("final-start", t.slug))
    game = games_of(t)[0]
    party = game.party
    seats = list(party.seats.order_by("position"))
    entered = hand_enter(seat=seats[0], number=1, entry=Result("knock", 0, 5, 30)).hand
    hand_confirm(seat=seats[1], number=1, version=entered.version)
    # The question says so at once, without its button.
    question = client.get(undo).content.decode()
    assert "Games of the final have begun: it cannot be undone." in question
    assert 'id="confirm-button"' not in question
    page = post(undo)

    assert messages_of(page) == ["Games of the final have begun: it cannot be undone."]
    assert FinalStage.objects.get(tournament=t).status == FinalStage.Status.PLAYING


def test_the_desks_final_actions_keep_the_organizers_address_in_the_record(client, db):
    from tests.factories import MembershipFactory, OrganizerFactory
    from tournaments.models import TournamentRecord

    organizer = OrganizerFactory()
    client.force_login(organizer.player.user)
    tournament = registration.tournament_create(club=organizer.club, name="Cup", rounds=1)
    players = [MembershipFactory(club=organizer.club).player for _ in range(2)]
    registration.entrant_register(tournament=tournament, players=players)
    response = client.post(
        f"/manage/tournaments/{tournament.slug}/final/add/",
        {"qualifiers": 2, "best_of": 1},
        REMOTE_ADDR="203.0.113.9",
    )
    assert response.status_code == 302
    record = TournamentRecord.objects.get(action=TournamentRecord.Action.FINAL_ADDED)
    assert record.address == "203.0.113.9"


def test_a_player_withdraws_from_the_final_and_is_reinstated_until_his_opponent_plays_on(
    finished, post, client, django_capture_on_commit_callbacks
):
    """A withdrawal in the final works as in the rounds: asked first, his match
    given away, taken back while that harms nobody."""
    t = finished()
    post(url("final-start", t.slug))
    first_semi, second_semi = Match.objects.filter(stage__tournament=t, round=1).order_by("slot")
    leaver, opponent = first_semi.second, first_semi.first
    final_page = client.get(url("final", t.slug))
    assert [e.pk for e in final_page.context["still_in"]] == FinalStage.objects.get(
        tournament=t
    ).seeds
    withdraw = url("entrant-withdraw", t.slug, leaver.pk)
    assert withdraw in final_page.content.decode()

    question = client.get(withdraw).content.decode()
    assert f"{leaver} gives the match in the final away: the opponent goes on." in question
    first_semi.refresh_from_db()
    assert first_semi.winner_id is None

    page = post(withdraw)

    assert page.request["PATH_INFO"] == url("final", t.slug)
    first_semi.refresh_from_db()
    assert (first_semi.absent, first_semi.winner_id) == (1, opponent.pk)
    assert leaver.pk not in [e.pk for e in page.context["still_in"]]
    assert [(e.pk, refusal) for e, refusal in page.context["withdrawn"]] == [(leaver.pk, "")]
    reinstate = url("entrant-reinstate", t.slug, leaver.pk)
    assert reinstate in page.content.decode()

    question = client.get(reinstate).content.decode()
    assert "plays on in the final: the match given away is played again." in question
    page = post(reinstate)

    assert messages_of(page) == [f"{leaver} is reinstated and paired again."]
    first_semi.refresh_from_db()
    assert (first_semi.absent, first_semi.winner_id) == (None, None)
    leaver.refresh_from_db()
    assert leaver.withdrawn_after is None
    assert {g.match_id for g in games_of(t)} == {first_semi.pk, second_semi.pk}
    actions = list(t.records.values_list("action", flat=True))
    assert actions[-4:] == ["withdrawn", "match_forfeit", "reinstated", "match_unforfeit"]

    # Withdrawn again, his opponent goes on to the final, which begins: too late.
    post(withdraw)
    semi_game = next(g for g in games_of(t) if g.match_id == second_semi.pk)
    play(semi_game, second_semi.first, django_capture_on_commit_callbacks)
    final_game = next(g for g in games_of(t) if g.match.round == 2)
    seats = list(final_game.party.seats.order_by("position"))
    entered = hand_enter(seat=seats[0], number=1, entry=Result("knock", 0, 5, 30)).hand
    hand_confirm(seat=seats[1], number=1, version=entered.version)

    question = unescape(client.get(reinstate).content.decode())
    too_late = (
        f"{leaver}'s match in the final went to the opponent, whose next match has begun: "
        f"{leaver} can no longer be reinstated."
    )
    assert too_late in question
    assert 'id="confirm-button"' not in question
    assert messages_of(post(reinstate)) == [too_late]
    leaver.refresh_from_db()
    first_semi.refresh_from_db()
    assert leaver.withdrawn_after is not None
    assert first_semi.winner_id == opponent.pk


def test_the_organizers_standings_put_the_final_first_once_it_is_decided(
    finished, post, client, django_capture_on_commit_callbacks
):
    t = finished()
    post(url("final-start", t.slug))
    standings = url("standings", t.slug)
    assert 'id="final-places"' not in client.get(standings).content.decode()
    for game in games_of(t):  # the semi-finals: the lower seed wins each
        play(game, game.match.second, django_capture_on_commit_callbacks)
    (final,) = games_of(t)
    play(final, final.match.first, django_capture_on_commit_callbacks)

    page = client.get(standings).content.decode()
    # The final's order, as the public standings and the CSV show it, before the
    # rounds' standings: the champion first, the other finalist second.
    places = page.split('id="final-places"')[1].split('id="rounds-standings"')[0]
    lines = places.split("<tr ")[1:]
    assert str(final.match.first.player.name) in lines[0]
    assert str(final.match.second.player.name) in lines[1]
    assert [line.entrant for line, _ in bracket.places(t, public=False)][:2] == [
        final.match.first,
        final.match.second,
    ]
