"""The knockout final: adding it, seeding it from the final standings, games
decided by their parties, matches advancing, forfeits and the final standings."""

import pytest

from scoring.errors import ResultFinal
from scoring.models import Party
from scoring.services.hands import hand_confirm, hand_decide, hand_enter
from scoring.services.knocks import Result
from tests.factories import OrganizerFactory
from tests.tournaments.conftest import play_out
from tournaments import registration, standings, tables, withdrawals
from tournaments.final import advance, bracket, forfeits
from tournaments.final.setup import (
    final_stage_add,
    final_stage_remove,
    final_stage_start,
    final_stage_start_undo,
)
from tournaments.models import (
    Entrant,
    FinalStage,
    Match,
    MatchGame,
    Tournament,
    TournamentRecord,
)
from tournaments.records import TournamentError
from tournaments.rounds import round_close, round_start, tournament_finish

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]


def win_game(party, winner, django_capture_on_commit_callbacks):
    """The ``winner`` (an entrant) goes gin until the party is over, each hand
    confirmed and committed as at the table (so the final advances)."""
    seats = {s.player_id: s for s in party.seats.all()}
    mine = seats[winner.player_id]
    theirs = next(s for s in seats.values() if s.pk != mine.pk)
    number = party.hands.count() + 1  # after any hands already played
    party.refresh_from_db()
    while party.status == Party.Status.RUNNING:
        result = Result("gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=90)
        with django_capture_on_commit_callbacks(execute=True):
            entered = hand_enter(seat=mine, number=number, entry=result).hand
            hand_confirm(seat=theirs, number=number, version=entered.version)
        number += 1
        party.refresh_from_db()


def current_party(match):
    match.refresh_from_db()
    game = match.games.order_by("-number").first()
    return game.party


@pytest.fixture
def finished(started):
    """A Swiss of six after one round, finished with a final card draw: one place
    each."""

    def make(names=NAMES, **final):
        tournament, round = started(names)
        for view in tables.round_tables(round):
            if not view.table.bye:
                play_out(view.table, view.entrants[0])
        round_close(round=round)
        if final:
            final_stage_add(tournament=tournament, **final)
        tournament_finish(tournament=tournament, final_draw=True)
        tournament.refresh_from_db()
        return tournament

    return make


def seeds_by_standings(tournament, count):
    return [line.entrant.pk for line in standings.standings_for(tournament).lines[:count]]


def test_a_final_is_added_before_the_tournament_finishes(started):
    tournament, _ = started(NAMES)
    stage = final_stage_add(tournament=tournament, qualifiers=4, best_of=3)
    assert (stage.qualifiers, stage.best_of, stage.status) == (4, 3, "planned")
    record = tournament.records.get()
    assert record.action == TournamentRecord.Action.FINAL_ADDED
    with pytest.raises(TournamentError, match="already has a final"):
        final_stage_add(tournament=tournament, qualifiers=2)


@pytest.mark.parametrize(
    ("qualifiers", "best_of", "message"),
    [
        (1, 1, "at least two"),
        (7, 1, "only 6 entrants"),
        (4, 2, "best of 1 or of 3"),
    ],
)
def test_a_final_that_cannot_be_played_is_refused(started, qualifiers, best_of, message):
    tournament, _ = started(NAMES)
    with pytest.raises(TournamentError, match=message):
        final_stage_add(tournament=tournament, qualifiers=qualifiers, best_of=best_of)
    assert not FinalStage.objects.exists()


def test_no_final_is_added_to_a_finished_tournament(finished):
    tournament = finished()
    with pytest.raises(TournamentError, match="finished"):
        final_stage_add(tournament=tournament, qualifiers=4)


def test_the_final_starts_only_after_the_qualifying_rounds(started):
    tournament, _ = started(NAMES)
    final_stage_add(tournament=tournament, qualifiers=4)
    with pytest.raises(TournamentError, match="Finish the qualifying rounds"):
        final_stage_start(tournament=tournament)


def test_a_planned_final_can_be_taken_back(started):
    tournament, _ = started(NAMES)
    final_stage_add(tournament=tournament, qualifiers=4)
    final_stage_remove(tournament=tournament)
    assert not FinalStage.objects.exists()
    actions = list(tournament.records.values_list("action", flat=True))
    assert actions == ["final_added", "final_removed"]


def test_the_best_placed_are_seeded_and_the_best_get_byes(finished):
    tournament = finished(qualifiers=6)
    stage = final_stage_start(tournament=tournament)
    expected = seeds_by_standings(tournament, 6)
    assert stage.seeds == expected
    first = list(stage.matches.filter(round=1).order_by("slot"))
    pairs = [(m.first_id, m.second_id) for m in first]
    s = expected
    assert pairs == [(s[0], None), (s[3], s[4]), (s[1], None), (s[2], s[5])]
    # Byes advance at once; the others play game 1 with seat links.
    assert [m.winner_id for m in first] == [s[0], None, s[1], None]
    assert [m.games.count() for m in first] == [0, 1, 0, 1]
    party = first[1].games.get().party
    assert {seat.player_id for seat in party.seats.all()} == {
        first[1].first.player_id,
        first[1].second.player_id,
    }
    assert "Quarter-final · game 1" in party.label
    assert tournament.records.filter(action="final_started").exists()
    with pytest.raises(TournamentError, match="already started"):
        final_stage_start(tournament=tournament)


def test_a_top_four_best_of_three_with_third_place_is_played_to_the_end(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=4, best_of=3, third_place=True)
    stage = final_stage_start(tournament=tournament)
    s = stage.seeds
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    assert (semi_1.first_id, semi_1.second_id, semi_2.first_id, semi_2.second_id) == (
        s[0],
        s[3],
        s[1],
        s[2],
    )
    # Seed 4 wins game 1, seed 1 games 2 and 3: a third game starts by itself.
    win_game(current_party(semi_1), semi_1.second, django_capture_on_commit_callbacks)
    assert semi_1.games.count() == 2
    win_game(current_party(semi_1), semi_1.first, django_capture_on_commit_callbacks)
    assert semi_1.games.count() == 3
    semi_1.refresh_from_db()
    assert semi_1.winner_id is None
    view = bracket.bracket(stage, public=False)[0].matches[0]
    assert view.wins == (1, 1)
    assert view.status == "playing"
    win_game(current_party(semi_1), semi_1.first, django_capture_on_commit_callbacks)
    semi_1.refresh_from_db()
    assert semi_1.winner_id == s[0]
    # The neighbour is not decided: no final yet.
    assert not stage.matches.filter(round=2).exists()
    for _ in range(2):
        win_game(current_party(semi_2), semi_2.second, django_capture_on_commit_callbacks)
    semi_2.refresh_from_db()
    assert semi_2.winner_id == s[2]
    final = stage.matches.get(round=2, third_place=False)
    third = stage.matches.get(third_place=True)
    assert (final.first_id, final.second_id) == (s[0], s[2])
    assert (third.first_id, third.second_id) == (s[3], s[1])
    for _ in range(2):
        win_game(current_party(third), third.second, django_capture_on_commit_callbacks)
    stage.refresh_from_db()
    assert stage.status == "playing"
    for _ in range(2):
        win_game(current_party(final), final.second, django_capture_on_commit_callbacks)
    stage.refresh_from_db()
    assert stage.status == "finished"

    lines = bracket.final_standings(tournament, public=False)
    top = [(x.place, x.entrant.pk, x.reached) for x in lines[:4]]
    assert top == [
        (1, s[2], "champion"),
        (2, s[0], "final"),
        (3, s[1], "third-place"),
        (4, s[3], "third-place"),
    ]
    assert [x.place for x in lines] == [1, 2, 3, 4, 5, 6]
    assert sorted(x.entrant.pk for x in lines) == sorted(
        tournament.entrants.values_list("pk", flat=True)
    )


def test_without_a_third_place_match_the_semi_final_losers_share_third(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    for match in stage.matches.filter(round=1):
        win_game(current_party(match), match.first, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2)
    win_game(current_party(final), final.first, django_capture_on_commit_callbacks)
    stage.refresh_from_db()
    assert stage.status == "finished"
    lines = bracket.final_standings(tournament, public=False)
    assert [(x.place, x.shared) for x in lines[:4]] == [
        (1, False),
        (2, False),
        (3, True),
        (3, True),
    ]
    assert lines[4].place == 5


def test_a_forfeit_sends_the_other_through_and_can_be_taken_back(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    party = current_party(semi_1)
    forfeits.match_forfeit(match=semi_1, absent=semi_1.second)
    semi_1.refresh_from_db()
    assert (semi_1.winner_id, semi_1.absent) == (semi_1.first_id, 1)
    party.refresh_from_db()
    assert party.status == Party.Status.CANCELLED
    win_game(current_party(semi_2), semi_2.first, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2)
    assert final.first_id == semi_1.first_id

    forfeits.match_forfeit_undo(match=semi_1)
    semi_1.refresh_from_db()
    assert (semi_1.winner_id, semi_1.absent) == (None, None)
    assert not stage.matches.filter(round=2).exists()
    assert current_party(semi_1).status == Party.Status.RUNNING
    actions = list(tournament.records.values_list("action", flat=True))
    assert actions[-2:] == ["match_forfeit", "match_unforfeit"]


def test_a_forfeit_stands_once_the_next_match_has_a_hand(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    forfeits.match_forfeit(match=semi_1, absent=semi_1.first)
    win_game(current_party(semi_2), semi_2.first, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2)
    party = current_party(final)
    seat = party.seats.first()
    result = Result("gin", knocker=seat.position, knocker_deadwood=0, defender_deadwood=20)
    hand_enter(seat=seat, number=1, entry=result)
    with pytest.raises(TournamentError, match="forfeit stands"):
        forfeits.match_forfeit_undo(match=semi_1)


def test_a_forfeit_stands_once_the_match_it_led_to_was_decided_by_a_forfeit(finished):
    # Six qualifiers: seeds 1 and 2 have byes, the two other quarter-finals are played.
    tournament = finished(qualifiers=6)
    stage = final_stage_start(tournament=tournament)
    played = stage.matches.filter(round=1, second__isnull=False).order_by("slot")
    for match in played:
        forfeits.match_forfeit(match=match, absent=match.second)
    for semi in stage.matches.filter(round=2).order_by("slot"):
        forfeits.match_forfeit(match=semi, absent=semi.second)
    assert stage.matches.filter(round=3).exists()

    with pytest.raises(TournamentError, match="forfeit stands"):
        forfeits.match_forfeit_undo(match=played[0])
    # Nothing moved: the final still has the semi-finals' winners.
    final = stage.matches.get(round=3)
    winners = set(stage.matches.filter(round=2).values_list("winner", flat=True))
    assert {final.first_id, final.second_id} == winners


def test_three_qualifiers_play_no_match_for_third_place(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=3, third_place=True)
    stage = final_stage_start(tournament=tournament)
    assert [r.key for r in bracket.bracket(stage, public=False)] == ["semi-final", "final"]
    semi = stage.matches.get(round=1, second__isnull=False)
    win_game(current_party(semi), semi.first, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2)
    win_game(current_party(final), final.first, django_capture_on_commit_callbacks)
    stage.refresh_from_db()
    assert stage.status == FinalStage.Status.FINISHED
    assert not stage.matches.filter(third_place=True).exists()


def test_a_forfeit_is_refused_once_the_game_has_hands(finished):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    match = stage.matches.filter(round=1).first()
    seat = current_party(match).seats.first()
    result = Result("gin", knocker=seat.position, knocker_deadwood=0, defender_deadwood=20)
    hand_enter(seat=seat, number=1, entry=result)
    with pytest.raises(TournamentError, match="its party decides"):
        forfeits.match_forfeit(match=match, absent=match.first)


def test_a_knockout_tournament_is_its_final_seeded_by_lot_without_ratings(club, members):
    tournament = registration.tournament_create(club=club, name="Club Cup", format="knockout")
    stage = tournament.final_stage
    assert stage.status == "planned"
    registration.entrant_register(tournament=tournament, players=members(*NAMES[:5]))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    with pytest.raises(TournamentError, match="starts with its bracket"):
        round_start(tournament=tournament)
    stage = final_stage_start(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert stage.seeding == "lot"
    assert sorted(stage.seeds) == sorted(tournament.entrants.values_list("pk", flat=True))
    # Five in a bracket of eight: three byes for the three best seeds.
    assert Match.objects.filter(stage=stage, round=1, second__isnull=True).count() == 3


def test_a_knockout_tournament_is_seeded_by_the_clubs_ratings(club, members):
    from seasons.models import Rating

    tournament = registration.tournament_create(club=club, name="Club Cup", format="knockout")
    players = members(*NAMES[:4])
    registration.entrant_register(tournament=tournament, players=players)
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    by_name = {str(e): e.pk for e in tournament.entrants.all()}
    for player, mu in zip(players, [1500, 1600, None, 1700], strict=True):
        if mu is not None:
            Rating.objects.create(club=club, player=player, mu=mu, sigma=100)
    stage = final_stage_start(tournament=tournament)
    assert stage.seeding == "rating"
    # Carl is unrated: last.
    assert stage.seeds == [by_name["Dora"], by_name["Ben"], by_name["Anna"], by_name["Carl"]]


def test_the_bracket_is_read_in_a_fixed_number_of_queries(finished, django_assert_max_num_queries):
    tournament = finished(qualifiers=6, third_place=True)
    stage = final_stage_start(tournament=tournament)
    with django_assert_max_num_queries(8):
        rounds = bracket.bracket(stage, public=False)
    assert [r.key for r in rounds] == ["quarter-final", "semi-final", "final", "third-place"]
    assert [len(r.matches) for r in rounds] == [4, 2, 1, 1]
    assert [m.status for m in rounds[0].matches] == ["bye", "playing", "bye", "playing"]
    assert rounds[1].matches[0].status == "waiting"
    assert rounds[0].matches[0].seeds == (1, None)
    assert rounds[0].matches[1].seeds == (4, 5)


def test_an_entrant_withdrawn_during_the_final_forfeits_his_match(finished):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi = stage.matches.get(round=1, slot=1)
    withdrawals.entrant_withdraw(entrant=semi.first)
    semi.refresh_from_db()
    assert (semi.absent, semi.winner_id) == (0, semi.second_id)
    actions = list(tournament.records.values_list("action", flat=True))
    assert actions[-2:] == ["withdrawn", "match_forfeit"]


def test_a_withdrawn_winner_gives_away_his_next_match(finished, django_capture_on_commit_callbacks):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    win_game(current_party(semi_1), semi_1.first, django_capture_on_commit_callbacks)
    withdrawals.entrant_withdraw(entrant=semi_1.first)
    win_game(current_party(semi_2), semi_2.first, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2)
    assert (final.absent, final.winner_id, final.games.count()) == (0, semi_2.first_id, 0)
    stage.refresh_from_db()
    assert stage.status == "finished"


def test_the_standings_csv_puts_the_finals_places_first(
    finished, django_capture_on_commit_callbacks, client
):
    import csv
    import io

    tournament = finished(qualifiers=2)
    stage = final_stage_start(tournament=tournament)
    final = stage.matches.get()
    win_game(current_party(final), final.second, django_capture_on_commit_callbacks)
    answer = client.get(f"/t/{tournament.slug}/standings.csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Place", "Player", "Final"]
    assert [r[:3] for r in rows[1:3]] == [
        ["1", str(final.second), "Winner"],
        ["2", str(final.first), "Final"],
    ]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4", "5", "6"]
    assert all(r[2] == "" for r in rows[3:])


def test_the_final_goes_into_the_archive_and_comes_back(
    finished, django_capture_on_commit_callbacks
):
    import json

    from django.core.serializers.json import DjangoJSONEncoder

    from tests.factories import ClubFactory
    from tournaments.archive.export import tournament_export
    from tournaments.archive.restore import archive_import

    tournament = finished(qualifiers=4, best_of=3, third_place=True)
    stage = final_stage_start(tournament=tournament)
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    win_game(current_party(semi_1), semi_1.second, django_capture_on_commit_callbacks)
    forfeits.match_forfeit(match=semi_2, absent=semi_2.first)

    def shape(t):
        return [
            (v.round, v.slot, v.third_place, v.status, v.wins, str(v.first), str(v.second))
            for r in bracket.bracket(t.final_stage, public=False)
            for v in r.matches
        ]

    data = json.loads(json.dumps(tournament_export(tournament), cls=DjangoJSONEncoder))
    copy = archive_import(data=data, club=ClubFactory())
    copy.refresh_from_db()
    assert shape(copy) == shape(tournament)
    assert [str(copy.entrants.get(pk=pk)) for pk in copy.final_stage.seeds] == [
        str(tournament.entrants.get(pk=pk)) for pk in stage.seeds
    ]
    assert (copy.final_stage.best_of, copy.final_stage.status) == (3, "playing")


@pytest.mark.parametrize(
    ("size", "third_place", "seed"),
    [(2, False, 1), (3, True, 2), (5, True, 3), (7, False, 4), (8, True, 5), (11, True, 6)],
)
def test_any_bracket_played_with_random_winners_ends_with_every_qualifier_placed_once(
    club, members, django_capture_on_commit_callbacks, size, third_place, seed
):
    from random import Random

    rng = Random(seed)
    tournament = registration.tournament_create(club=club, name="Cup", format="knockout")
    registration.entrant_register(tournament=tournament, players=members(*map(str, range(size))))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    stage = final_stage_start(tournament=tournament)
    stage.third_place = third_place
    stage.save()
    for _ in range(2 * size):  # more than enough matches
        open_match = stage.matches.filter(winner__isnull=True).order_by("round", "slot").first()
        if open_match is None:
            break
        if rng.random() < 0.2:
            absent = rng.choice([open_match.first, open_match.second])
            forfeits.match_forfeit(match=open_match, absent=absent)
        else:
            winner = rng.choice([open_match.first, open_match.second])
            win_game(current_party(open_match), winner, django_capture_on_commit_callbacks)
    stage.refresh_from_db()
    tournament.refresh_from_db()
    assert (stage.status, tournament.status) == ("finished", "finished")
    lines = bracket.final_standings(tournament, public=False)
    assert sorted(x.entrant.pk for x in lines) == sorted(stage.seeds)
    final = stage.matches.get(
        round=max(stage.matches.values_list("round", flat=True)), third_place=False
    )
    assert lines[0].entrant.pk == final.winner_id and lines[0].reached == "champion"
    assert [x.place for x in lines][:2] == [1, 2]
    played_third = stage.matches.filter(third_place=True).exists()
    assert played_third == (third_place and size >= 4)


def test_the_start_of_the_final_is_undone_until_a_game_has_a_hand(finished):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    parties = [g.party for g in MatchGame.objects.filter(match__stage=stage)]
    final_stage_start_undo(tournament=tournament)
    stage.refresh_from_db()
    assert (stage.status, stage.seeds, stage.matches.count()) == ("planned", [], 0)
    assert {Party.objects.get(pk=p.pk).status for p in parties} == {Party.Status.CANCELLED}
    assert tournament.records.last().action == "final_undone"

    stage = final_stage_start(tournament=tournament)
    seat = current_party(stage.matches.first()).seats.first()
    result = Result("gin", knocker=seat.position, knocker_deadwood=0, defender_deadwood=20)
    hand_enter(seat=seat, number=1, entry=result)
    with pytest.raises(TournamentError, match="have begun"):
        final_stage_start_undo(tournament=tournament)


def test_an_undone_knockout_tournament_is_back_in_registration(club, members):
    tournament = registration.tournament_create(club=club, name="Club Cup", format="knockout")
    registration.entrant_register(tournament=tournament, players=members(*NAMES[:3]))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    final_stage_start(tournament=tournament)
    final_stage_start_undo(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    with pytest.raises(TournamentError, match="has not started"):
        final_stage_start_undo(tournament=tournament)


def test_a_knockout_tournaments_games_count_in_the_clubs_season(
    club, members, django_capture_on_commit_callbacks
):
    from datetime import date

    from seasons.selectors import season_events
    from seasons.services import season_create
    from tests.factories import UserFactory

    tournament = registration.tournament_create(
        club=club, name="Club Cup", format="knockout", date=date(2026, 10, 10)
    )
    registration.entrant_register(tournament=tournament, players=members(*NAMES[:2]))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    stage = final_stage_start(tournament=tournament)
    final = stage.matches.get()
    win_game(current_party(final), final.first, django_capture_on_commit_callbacks)
    season = season_create(
        club=club,
        user=UserFactory(),
        name="Autumn",
        starts=date(2026, 9, 1),
        ends=date(2026, 12, 31),
        counts="tournaments",
        scheme="plus_minus",
    )
    (event,) = season_events(season)
    assert event.key == ("tournament", tournament.pk)
    won = event.results[final.first.player_id]
    assert won > 0
    assert event.results[final.second.player_id] == -won


def test_advancing_twice_changes_nothing_more(finished):
    tournament = finished(qualifiers=4, best_of=3)
    stage = final_stage_start(tournament=tournament)
    semi = stage.matches.filter(round=1).first()
    # Game 1 played without the commit's hook: the bracket waits for it.
    play_out_party(current_party(semi), semi.first)
    assert semi.games.count() == 1
    advance.stage_advance(stage=stage)
    advance.stage_advance(stage=stage)
    assert list(semi.games.values_list("number", flat=True)) == [1, 2]
    assert not stage.matches.filter(round=2).exists()


def play_out_party(party, winner):
    seats = {s.player_id: s for s in party.seats.all()}
    mine = seats[winner.player_id]
    theirs = next(s for s in seats.values() if s.pk != mine.pk)
    result = Result("gin", knocker=mine.position, knocker_deadwood=0, defender_deadwood=90)
    entered = hand_enter(seat=mine, number=1, entry=result).hand
    hand_confirm(seat=theirs, number=1, version=entered.version)


def test_the_catch_up_advances_a_final_whose_advance_never_ran(finished):
    from tournaments.final.tasks import advance_finals

    tournament = finished(qualifiers=2)
    stage = final_stage_start(tournament=tournament)
    final = stage.matches.get()
    play_out_party(current_party(final), final.second)
    assert advance_finals() == 1
    final.refresh_from_db()
    stage.refresh_from_db()
    assert (final.winner_id, stage.status) == (final.second_id, "finished")
    assert advance_finals() == 0


def test_a_long_tournament_name_still_fits_the_games_label(club, members):
    tournament = registration.tournament_create(club=club, name="N" * 120, format="knockout")
    registration.entrant_register(tournament=tournament, players=members(*NAMES[:2]))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    stage = final_stage_start(tournament=tournament)
    label = current_party(stage.matches.get()).label
    assert len(label) == 120
    assert label.endswith(" · Final · game 1")


def test_a_game_that_decided_its_match_is_not_corrected_any_more(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=4, best_of=3)
    organizer = OrganizerFactory(club=tournament.club).player.user
    stage = final_stage_start(tournament=tournament)
    semi = stage.matches.filter(round=1).order_by("slot").first()
    first_game = current_party(semi)
    win_game(first_game, semi.first, django_capture_on_commit_callbacks)

    # Game 1 is over, the match is not: a correction of game 1 is still taken.
    hand = first_game.hands.order_by("number").first()
    seat = first_game.seats.get(player=semi.first.player)
    corrected = Result("gin", knocker=seat.position, knocker_deadwood=0, defender_deadwood=80)
    hand_decide(hand=hand, user=organizer, entry=corrected, reason="miscounted", disputed=False)

    win_game(current_party(semi), semi.first, django_capture_on_commit_callbacks)
    semi.refresh_from_db()
    assert semi.winner_id == semi.first_id
    # Now the winner has gone on: the games that sent him are final.
    hand.refresh_from_db()
    before = (hand.status, hand.points, hand.version)
    loser = first_game.seats.get(player=semi.second.player)
    flipped = Result("gin", knocker=loser.position, knocker_deadwood=0, defender_deadwood=90)
    with pytest.raises(ResultFinal, match="its result stands"):
        hand_decide(hand=hand, user=organizer, entry=flipped, reason="wrong", disputed=False)
    hand.refresh_from_db()
    assert (hand.status, hand.points, hand.version) == before


def test_who_is_still_in_the_final_follows_the_bracket(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=4, third_place=True)
    stage = final_stage_start(tournament=tournament)
    s = stage.seeds

    def still_in():
        stage.refresh_from_db()
        return [e.pk for e in bracket.still_in(stage, bracket.bracket(stage, public=False))]

    assert still_in() == s
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    win_game(current_party(semi_1), semi_1.first, django_capture_on_commit_callbacks)
    # The winner waits for his final, the loser for the match for third place.
    assert still_in() == s
    win_game(current_party(semi_2), semi_2.first, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2, third_place=False)
    win_game(current_party(final), final.first, django_capture_on_commit_callbacks)
    # The final is decided: only the match for third place is still played.
    assert still_in() == [s[2], s[3]]
    third = stage.matches.get(third_place=True)
    win_game(current_party(third), third.first, django_capture_on_commit_callbacks)
    assert still_in() == []


def test_a_winner_withdrawn_while_waiting_is_reinstated_before_his_match_is_drawn(
    finished, django_capture_on_commit_callbacks
):
    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    semi_1, semi_2 = stage.matches.filter(round=1).order_by("slot")
    win_game(current_party(semi_1), semi_1.first, django_capture_on_commit_callbacks)
    waiting = semi_1.first
    withdrawals.entrant_withdraw(entrant=waiting)
    assert withdrawals.reinstate_refusal(tournament, Entrant.objects.get(pk=waiting.pk)) == ""

    withdrawals.entrant_reinstate(entrant=waiting)

    win_game(current_party(semi_2), semi_2.first, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2)
    # He plays his final: nothing was given away.
    assert (final.absent, final.winner_id, final.games.count()) == (None, None, 1)


def test_a_player_withdrawn_during_a_game_with_hands_finishes_it_and_leaves_the_match(
    finished, django_capture_on_commit_callbacks
):
    """As at a round's table: the game's party decides that game, and a best of
    three that is not decided by then goes to the other side without a next game."""
    tournament = finished(qualifiers=4, best_of=3)
    stage = final_stage_start(tournament=tournament)
    semi = stage.matches.get(round=1, slot=0)
    party = current_party(semi)
    seats = {s.player_id: s for s in party.seats.all()}
    leaver, stayer = seats[semi.second.player_id], seats[semi.first.player_id]
    result = Result("knock", knocker=leaver.position, knocker_deadwood=5, defender_deadwood=30)
    entered = hand_enter(seat=leaver, number=1, entry=result).hand
    hand_confirm(seat=stayer, number=1, version=entered.version)

    withdrawals.entrant_withdraw(entrant=semi.second)

    semi.refresh_from_db()
    assert (semi.absent, semi.winner_id) == (None, None)
    party.refresh_from_db()
    assert party.status == Party.Status.RUNNING
    # He loses the game he began; no second game is started: the match is given away.
    win_game(party, semi.first, django_capture_on_commit_callbacks)
    semi.refresh_from_db()
    assert (semi.absent, semi.winner_id, semi.games.count()) == (1, semi.first_id, 1)


def test_a_season_by_places_scores_a_tournament_with_a_final_by_the_finals_places(
    finished, django_capture_on_commit_callbacks
):
    from seasons.selectors import season_lines
    from seasons.services import ratings_rebuild, season_create

    tournament = finished(qualifiers=4)
    stage = final_stage_start(tournament=tournament)
    # Each semi-final and the final won by the lower seed: the fourth seed's way.
    for match in stage.matches.filter(round=1):
        win_game(current_party(match), match.second, django_capture_on_commit_callbacks)
    final = stage.matches.get(round=2)
    win_game(current_party(final), final.second, django_capture_on_commit_callbacks)
    ratings_rebuild(club_id=tournament.club_id)
    final.refresh_from_db()
    champion, runner_up = final.second, final.first

    season = season_create(
        club=tournament.club,
        user=None,
        name="Cups",
        starts=tournament.date,
        ends=tournament.date,
        counts="tournaments",
        scheme="places",
        place_points=[10, 8, 6, 6, 2, 1],
    )
    points = {line.player: line.total for line in season_lines(season)}
    assert points[champion.player_id] == 10
    assert points[runner_up.player_id] == 8
    order = [line.entrant.player_id for line in bracket.final_standings(tournament, public=False)]
    assert sorted(points, key=points.get, reverse=True)[:2] == order[:2]
