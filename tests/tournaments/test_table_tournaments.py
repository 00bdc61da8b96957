"""A Swiss tournament of another game (issue 28) at tables of three to six,
through the services: created, seated round by round with the fewest repeat
meetings, each table's party played to its end, the points by place."""

import itertools
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Party
from scoring.services.hands import hand_confirm, hand_enter
from tests.factories import MembershipFactory
from tournaments import explanations, registration, rounds, withdrawals
from tournaments.board import build_board
from tournaments.final.setup import final_stage_add
from tournaments.models import Round, Tournament
from tournaments.records import TournamentError
from tournaments.seating import rounds_pair_waiting
from tournaments.standings import standings_for
from tournaments.tables import round_tables, table_forfeit

pytestmark = pytest.mark.django_db


def table_tournament(club, count, committed, game="chinchon", size=4, **more):
    """A Swiss tournament of ``game`` at tables of ``size``, ``count`` members
    entered and checked in, round 1 seated."""
    tournament = registration.tournament_create(
        club=club, name="Chinchón Open", game=game, table_size=size, **more
    )
    players = [MembershipFactory(club=club).player for _ in range(count)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)
    committed(rounds.round_start, tournament=tournament)
    tournament.refresh_from_db()
    return tournament, tournament.round_set.get(number=1)


def seatings(round):
    """Each table of the round (no byes) as its entrants' ids in seat order."""
    return [[e.pk for e in v.entrants] for v in tables_of(round) if not v.table.bye]


def tables_of(round):
    return sorted(round_tables(round), key=lambda v: v.table.number)


def play(party, entry):
    """One hand entered by seat 0 and confirmed by as many others as it takes."""
    seats = list(party.seats.order_by("position"))
    hand = party.hands.order_by("-number").first()
    number = hand.number + 1 if hand else 1
    outcome = hand_enter(seat=seats[0], number=number, entry=entry)
    for seat in seats[1:]:
        if outcome.action == "confirmed":
            break
        outcome = hand_confirm(seat=seat, number=number, version=outcome.hand.version)
    assert outcome.action in ("confirmed", "recorded")


def play_chinchon(party, penalties):
    """A Chinchón party ended in one hand: ``penalties`` by seat, one of them 100
    or more; the lowest closes (−10 with nothing left)."""
    closer = penalties.index(min(penalties))
    play(party, {"closer": closer, "penalties": penalties})
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED


#: One hand by seat at a table of four: the first seat closes clean.
FOUR = [0, 20, 40, 100]
#: What the places 1-4 of that hand score: points (2 per player below) and margins
#: (−(4 · own − sum of totals), totals −10, 20, 40, 100: sum 150).
FOUR_POINTS = [6, 4, 2, 0]
FOUR_MARGINS = [190, 70, -10, -250]


def play_round(round, hands=None):
    """Every table of the round played to its end with the same hand by seat."""
    for view in tables_of(round):
        if not view.table.bye:
            size = len(view.entrants)
            play_chinchon(view.table.party, (hands or {}).get(size, [*FOUR[: size - 1], 100]))


def close_and_pair(tournament, round, committed):
    rounds.round_close(round=round)
    committed(rounds.round_pair_next, tournament=tournament)
    return tournament.round_set.get(number=round.number + 1)


def groupings(people, size):
    """Every way to seat ``people`` at tables of ``size`` (as many as it divides)."""
    if not people:
        yield []
        return
    head, rest = people[0], people[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for tail in groupings(left, size):
            yield [(head, *others), *tail]


def repeats(tables, met):
    return sum(met[frozenset(pair)] for t in tables for pair in itertools.combinations(t, 2))


def test_twelve_play_chinchon_at_tables_of_four_for_three_rounds_with_the_fewest_repeats(
    club, committed
):
    tournament, round = table_tournament(club, 12, committed)
    assert tournament.rounds == 4  # the seed's table: 9 to 16 entrants
    expected = Counter()
    score = Counter()
    met = Counter()
    for number in (1, 2, 3):
        tables = seatings(round)
        assert [len(t) for t in tables] == [4, 4, 4]
        # Three tables of four cannot avoid every repeat after round 1 (four of
        # round 1's three tables sit at each): the fewest of all 5,775 seatings.
        everyone = sorted(pk for t in tables for pk in t)
        fewest = min(repeats(seating, met) for seating in groupings(everyone, 4))
        assert repeats(tables, met) == fewest
        if number == 2:
            assert fewest == 3  # one pair of round 1 at each table
        assert sorted(pk for t in tables for pk in t) == sorted(
            tournament.entrants.values_list("pk", flat=True)
        )
        for view in tables_of(round):
            party = view.table.party
            assert party.game == "chinchon" and party.confirmation_required
            assert party.rules == {"deck": 40, "conga": False}
            seats = party.seats.order_by("position")
            assert [s.player_id for s in seats] == [e.player_id for e in view.entrants]
        for table in tables:
            for first, second in itertools.combinations(table, 2):
                met[frozenset((first, second))] += 1
            for seat, pk in enumerate(table):
                expected[pk] += FOUR_POINTS[seat]
                score[pk] += FOUR_MARGINS[seat]
        play_round(round)
        assert all(v.finished for v in tables_of(round))
        if number < 3:
            round = close_and_pair(tournament, round, committed)
            assert round.how == Round.How.TABLES and len(round.explanation) == 3

    rounds.round_close(round=round)
    standings = standings_for(tournament)
    assert standings.after_round == 3
    by_entrant = {line.entrant.pk: line for line in standings.lines}
    assert {pk: line.points for pk, line in by_entrant.items()} == dict(expected)
    assert {pk: line.score for pk, line in by_entrant.items()} == dict(score)
    # Every table hands out 4 · 3 = 12 points, and the margins add up to zero.
    assert sum(line.points for line in standings.lines) == 3 * 3 * 12
    assert sum(line.score for line in standings.lines) == 0
    # Points first, then game score, then parties won.
    keys = [(line.points, line.score, line.won) for line in standings.lines]
    assert keys == sorted(keys, reverse=True)
    assert standings.lines[0].place == 1 and standings.lines[0].games == 3
    # The round the organizer reads: each table with places and who met before.
    last = tournament.round_set.get(number=3)
    sentences = explanations.round_explanation(last, {e.pk: e for e in tournament.entrants.all()})
    assert len(sentences) == 3 and all(s.startswith("Table ") for s in sentences)


def test_nine_at_tables_of_three_meet_nobody_twice_in_four_rounds(club, committed):
    tournament, round = table_tournament(club, 9, committed, size=3, rounds=4)
    met = Counter()
    for number in (1, 2, 3, 4):
        for table in seatings(round):
            assert len(table) == 3
            for pair in itertools.combinations(table, 2):
                met[frozenset(pair)] += 1
        play_round(round, {3: [0, 50, 100]})
        if number < 4:
            round = close_and_pair(tournament, round, committed)

    # Each meets two others a round: all eight others once in four rounds.
    assert len(met) == 36 and set(met.values()) == {1}


def test_points_by_place_worked_by_hand_for_one_table_of_four(club, committed):
    tournament, round = table_tournament(club, 4, committed, rounds=1)
    view = tables_of(round)[0]
    # Seat 2 closes clean (−10); seats 0 and 1 tie on 30; seat 3 ends it at 100.
    play_chinchon(view.table.party, [30, 30, 0, 100])
    rounds.round_close(round=round)

    lines = {line.entrant: line for line in standings_for(tournament).lines}
    first, second, third, fourth = view.entrants
    # Totals 30, 30, −10, 100 (sum 150): third alone first (2 · 3 = 6), the two
    # sharing second score (4 + 2) / 2 = 3 each, the last 0; margins −(4 · own − 150).
    assert [lines[e].points for e in (first, second, third, fourth)] == [3, 3, 6, 0]
    assert [lines[e].score for e in (first, second, third, fourth)] == [30, 30, 190, -250]
    assert [lines[e].won for e in (first, second, third, fourth)] == [0, 0, 1, 0]
    assert [lines[e].place for e in (third, first, second, fourth)] == [1, 2, 2, 4]
    assert lines[first].shared and lines[second].shared and not lines[third].shared


def test_the_public_board_ranks_by_the_same_points_as_the_standings(club, committed):
    tournament, round = table_tournament(club, 10, committed)
    play_round(round, {4: FOUR, 3: [0, 50, 100]})

    # Live: the finished tables count before the round is closed.
    live = {line.entrant: line.points for line in build_board(tournament).standings}
    rounds.round_close(round=round)
    closed = {line.entrant.pk: line.points for line in standings_for(tournament).lines}
    assert live == closed and sorted(closed.values())[-4:] == [4, 4, 4, 6]


def test_ten_sit_at_tables_of_four_three_and_three_without_a_bye(club, committed):
    tournament, round = table_tournament(club, 10, committed)

    assert [len(t) for t in seatings(round)] == [4, 3, 3]
    assert not any(v.table.bye for v in tables_of(round))
    play_round(round, {4: FOUR, 3: [0, 50, 100]})
    round = close_and_pair(tournament, round, committed)

    assert [len(t) for t in seatings(round)] == [4, 3, 3]
    lines = standings_for(tournament).lines
    # Tables of four hand out 12 points, of three 3 · 2 = 6.
    assert sum(line.points for line in lines) == 12 + 6 + 6
    assert sorted(line.points for line in lines)[-4:] == [4, 4, 4, 6]


def blaue_vierzehn(party, points):
    play(party, {"points": points})
    party.refresh_from_db()
    assert party.status == Party.Status.FINISHED


def test_a_short_table_the_game_is_not_played_at_gives_the_lowest_placed_a_bye(club, committed):
    # Blaue Vierzehn is played by 3 to 6: 5 at tables of four would sit 3 and 2.
    tournament, round = table_tournament(
        club, 5, committed, game="blaue_vierzehn", game_options={"deals": 1}
    )
    assert tournament.game_options == {"deals": 1}
    views = tables_of(round)
    assert [len(v.entrants) for v in views] == [4, 1]
    assert views[1].table.bye and views[1].finished
    first_bye = views[1].entrants[0]
    # Round 1 is drawn by lot: the last drawn sits out.
    assert round.standings[-1] == first_bye.pk
    blaue_vierzehn(views[0].table.party, [0, 10, 13, 33])
    round = close_and_pair(tournament, round, committed)

    lines = {line.entrant.pk: line for line in standings_for(tournament).lines}
    # The bye scores the middle of the scale at a table of four (3), 0 game score.
    assert (lines[first_bye.pk].points, lines[first_bye.pk].score) == (3, 0)
    assert lines[first_bye.pk].byes == 1 and lines[first_bye.pk].won == 0
    views = tables_of(round)
    second_bye = views[1].entrants[0]
    # Now the lowest placed without a bye sits out: the one who came last.
    assert second_bye.pk != first_bye.pk
    assert second_bye.pk == round.standings[-1]
    assert lines[second_bye.pk].points == 0
    assert round.explanation[-1] == {"kind": "bye", "entrant": second_bye.pk}


GOOD = {"meld_points": 600, "natural_canastas": 2, "mixed_canastas": 1, "went_out": True}
POOR = {"meld_points": 300, "hand_points": 40}


def test_canasta_at_tables_of_three_ranks_the_highest_total_first(club, committed):
    tournament, round = table_tournament(club, 6, committed, game="canasta", size=3, rounds=1)
    views = tables_of(round)
    assert [len(v.entrants) for v in views] == [3, 3]
    for view in views:
        for _ in range(3):  # 2,000 a hand for the first seat: 6,000 wins
            play(view.table.party, {"sides": [GOOD, POOR, POOR]})
        view.table.party.refresh_from_db()
        assert view.table.party.status == Party.Status.FINISHED
    rounds.round_close(round=round)

    lines = {line.entrant: line for line in standings_for(tournament).lines}
    for view in views:
        first, second, third = view.entrants
        # The two equal totals share second place: (2 + 0) / 2 = 1 point each.
        assert [lines[e].points for e in view.entrants] == [4, 1, 1]
        assert lines[first].won == 1 and lines[second].place == lines[third].place == 3
        assert lines[first].score > 0 and sum(lines[e].score for e in view.entrants) == 0


def test_pairs_kept_apart_never_share_a_table(club, committed):
    tournament = registration.tournament_create(
        club=club, name="Open", game="chinchon", table_size=4, rounds=2
    )
    players = [MembershipFactory(club=club).player for _ in range(8)]
    entrants = registration.entrant_register(tournament=tournament, players=players)
    for entrant in entrants:
        registration.entrant_check_in(entrant=entrant)
    apart = [(entrants[0], entrants[1]), (entrants[2], entrants[3]), (entrants[4], entrants[5])]
    for first, second in apart:
        registration.keep_apart_add(tournament=tournament, first=first, second=second)
    round = committed(rounds.round_start, tournament=tournament)
    for _ in range(2):
        round.refresh_from_db()
        for table in seatings(round):
            for first, second in apart:
                assert not {first.pk, second.pk} <= set(table)
        if round.number == 1:
            play_round(round)
            round = close_and_pair(tournament, round, committed)


def test_a_withdrawn_entrant_is_not_seated(club, committed):
    tournament, round = table_tournament(club, 9, committed, size=3)
    play_round(round, {3: [0, 50, 100]})
    gone = tables_of(round)[0].entrants[0]
    withdrawals.entrant_withdraw(entrant=gone)
    round = close_and_pair(tournament, round, committed)

    seated = [pk for table in seatings(round) for pk in table]
    assert gone.pk not in seated and len(seated) == 8
    assert [len(t) for t in seatings(round)] == [3, 3, 2]


def test_a_round_closes_only_when_every_table_is_over(club, committed):
    tournament, round = table_tournament(club, 8, committed)
    first, second = tables_of(round)
    play_chinchon(first.table.party, FOUR)

    with pytest.raises(TournamentError, match="table 2"):
        rounds.round_close(round=round)
    play_chinchon(second.table.party, FOUR)
    assert rounds.round_close(round=round).status == Round.Status.CLOSED
    # No card draws: the ties are broken by game score, parties won and lot.
    assert tournament.round_set.get(number=2).draws == []


def test_a_round_the_task_never_paired_is_seated_by_the_catch_up(club, committed):
    tournament, round = table_tournament(club, 8, committed)
    play_round(round)
    rounds.round_close(round=round)
    rounds.round_pair_next(tournament=tournament)  # the task is never sent

    assert tournament.round_set.get(number=2).status == Round.Status.PAIRING
    assert rounds_pair_waiting() == 1
    assert [len(t) for t in seatings(tournament.round_set.get(number=2))] == [4, 4]


def test_an_undone_round_cancels_its_parties_and_seats_again(club, committed):
    tournament, round = table_tournament(club, 8, committed)
    parties = [v.table.party for v in tables_of(round)]
    rounds.round_undo(round=round)
    for party in parties:
        party.refresh_from_db()
        assert party.status == Party.Status.CANCELLED
    committed(rounds.round_pair_next, tournament=tournament)
    round.refresh_from_db()
    assert [len(t) for t in seatings(round)] == [4, 4]


def test_forfeits_are_refused_at_a_table_of_another_game(club, committed):
    _, round = table_tournament(club, 8, committed)
    view = tables_of(round)[0]
    with pytest.raises(TournamentError, match="undo the round"):
        table_forfeit(table=view.table, absent=view.entrants[0])


def test_ties_are_not_drawn_and_no_final_is_added_at_tables(club, committed):
    tournament, round = table_tournament(club, 8, committed)
    play_round(round)
    rounds.round_close(round=round)
    someone = tournament.entrants.first()

    with pytest.raises(TournamentError, match="no cards are drawn"):
        rounds.standings_draw_enter(tournament=tournament, cards={someone.pk: "KH"})
    with pytest.raises(TournamentError, match="no cards are drawn"):
        rounds.tournament_finish(tournament=tournament, final_draw=True)
    with pytest.raises(TournamentError, match="no knockout final"):
        final_stage_add(tournament=tournament, qualifiers=4)
    finished = rounds.tournament_finish(tournament=tournament)
    assert finished.status == Tournament.Status.FINISHED
    assert standings_for(finished).lines[0].points == 6


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "chinchon", "table_size": 5}, "tables of 3, 4 players"),
        ({"game": "chinchon"}, "tables of 3, 4 players"),
        ({"game": "canasta", "table_size": 7}, "tables of 3, 4, 5, 6 players"),
        ({"game": "chinchon", "table_size": 4, "game_options": {"jokers": 2}}, "jokers"),
        ({"game": "chinchon", "table_size": 4, "format": "knockout"}, "or planned ahead"),
        ({"game": "skat", "table_size": 4}, "no game called"),
        ({"table_size": 4}, "Gin Rummy is played two at a table"),
        ({"game_options": {"deck": 48}}, "Gin Rummy is played two at a table"),
    ],
)
def test_a_game_or_table_size_a_tournament_cannot_be_played_at_is_refused(club, fields, message):
    with pytest.raises(TournamentError, match=message):
        registration.tournament_create(club=club, name="Open", **fields)

    assert not Tournament.objects.exists()


def test_a_gin_rummy_tournament_keeps_its_defaults(club):
    tournament = registration.tournament_create(club=club, name="Open")

    assert (tournament.game, tournament.game_options, tournament.table_size) == (
        "gin_rummy",
        {},
        None,
    )
    assert not tournament.plays_at_tables


def test_round_one_needs_one_full_table(club, committed):
    tournament = registration.tournament_create(
        club=club, name="Open", game="chinchon", table_size=4
    )
    players = [MembershipFactory(club=club).player for _ in range(3)]
    registration.entrant_register(tournament=tournament, players=players)
    for entrant in tournament.entrants.all():
        registration.entrant_check_in(entrant=entrant)

    with pytest.raises(TournamentError, match="At least 4 entrants"):
        rounds.round_start(tournament=tournament)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    count=st.integers(min_value=5, max_value=11),
    size=st.sampled_from([3, 4]),
    hands=st.lists(st.permutations([0, 30, 60, 100]), min_size=12, max_size=12),
)
def test_every_entrant_sits_once_a_round_and_the_points_add_up(club, committed, count, size, hands):
    tournament, round = table_tournament(club, count, committed, size=size, rounds=3)
    ids = sorted(tournament.entrants.values_list("pk", flat=True))
    handed_out = 0
    deals = iter(hands * 3)
    for _number in (1, 2, 3):
        views = tables_of(round)
        assert sorted(pk for v in views for pk in (e.pk for e in v.entrants)) == ids
        for view in views:
            if view.table.bye:
                handed_out += size - 1
                continue
            seats = len(view.entrants)
            penalties = list(next(deals))[:seats]
            if max(penalties) < 100:
                penalties[-1] = 100
            play_chinchon(view.table.party, penalties)
            handed_out += seats * (seats - 1)
        rounds.round_close(round=round)
        if round.number < 3:
            committed(rounds.round_pair_next, tournament=tournament)
            round = tournament.round_set.get(number=round.number + 1)

    lines = standings_for(tournament).lines
    assert sum(line.points for line in lines) == handed_out
    assert sum(line.score for line in lines) == 0
    assert all(line.games == 3 for line in lines)


def test_the_explanation_names_shared_places_as_the_standings_do(organizer, client, committed):
    # Two tables of four play the same hand: their first seats share 1st place,
    # their second seats 3rd, and so on down (equal points, game score and wins).
    tournament, round = table_tournament(organizer.club, 8, committed)
    play_round(round)
    second = close_and_pair(tournament, round, committed)
    standings = standings_for(tournament).lines
    assert [(line.place, line.shared) for line in standings[:4]] == [
        (1, True), (1, True), (3, True), (3, True)
    ]  # fmt: skip

    page = client.get(reverse("manage:round-detail", args=[tournament.slug, 2]))

    first_table = page.context["explanation"][0]
    seated = {e.pk for e in tables_of(second)[0].entrants}
    shown = [f"{line.entrant} ({line.place}=)" for line in standings if line.entrant.pk in seated]
    assert first_table.startswith(f"Table 1: {', '.join(shown)}")
    assert "1st" not in first_table and "2nd" not in first_table


@pytest.mark.parametrize(
    "language, one, none",
    [
        (
            "en",
            "would repeat 1 meeting here",
            "so that other tables repeat fewer meetings",
        ),
        (
            "de",
            "hätte dieser Tisch 1 Begegnung wiederholt",
            "damit andere Tische weniger Begegnungen wiederholen",
        ),
    ],
)
def test_a_move_from_the_cut_counts_its_meetings_in_words(
    club, committed, monkeypatch, language, one, none
):
    # Fixed seeds: twelve at tables of three, where round 2 moves players at a
    # table whose cut would repeat one meeting and at one whose cut repeats none.
    seeds = itertools.count(7919)
    monkeypatch.setattr(rounds, "new_seed", lambda: next(seeds))
    tournament, round = table_tournament(club, 12, committed, size=3)
    play_round(round, {3: [0, 50, 100]})
    second = close_and_pair(tournament, round, committed)
    moved = {line["cut_repeats"] for line in second.explanation if line["moved_in"]}
    assert moved == {0, 1}

    with translation.override(language):
        sentences = explanations.round_explanation(
            second, {e.pk: e for e in tournament.entrants.all()}
        )

    assert any(one in sentence for sentence in sentences)
    assert any(none in sentence for sentence in sentences)
    assert not any(" 1 meetings" in s or " 0 meetings" in s for s in sentences)
    assert not any(" 0 Begegnungen" in s for s in sentences)
