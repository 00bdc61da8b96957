"""The organizer's day, through the services: registration to final standings."""

import pytest
from django.db import IntegrityError, transaction

from scoring.engine.cards import Card
from scoring.models import Party
from scoring.results import party_results
from tests.tournaments.conftest import entrant, play_out, seated
from tournaments import registration, rounds, withdrawals
from tournaments.engine.pairing import tied_groups
from tournaments.engine.standings import group_card_draw
from tournaments.models import Round, Seating, Table, Tournament
from tournaments.records import TournamentError
from tournaments.seating import round_pair
from tournaments.standings import show_cards, standings_for
from tournaments.tables import round_tables, table_forfeit, tables_swap
from tournaments.tasks import pair_round

pytestmark = pytest.mark.django_db


def close_and_pair(tournament, round, committed):
    rounds.round_close(round=round)
    committed(rounds.round_pair_next, tournament=tournament)
    return tournament.round_set.get(number=round.number + 1)


def test_a_tournament_takes_its_rounds_from_the_seed_table_unless_set(started):
    tournament, _ = started(list("ABCDEFGHI"))
    assert tournament.rounds == 4  # 9 to 16 entrants

    fixed, _ = started(list("JKLMN"), rounds=2)
    assert fixed.rounds == 2


def test_round_one_is_drawn_by_lot_from_the_stored_seed_and_each_table_plays_a_party(started):
    tournament, round = started(["Anna", "Ben", "Carl", "Dora", "Ed"])

    tables = round_tables(round)
    assert round.status == Round.Status.PLAYING and round.how == Round.How.LOT
    assert sorted(str(e) for v in tables for e in v.entrants) == [
        "Anna",
        "Ben",
        "Carl",
        "Dora",
        "Ed",
    ]
    games = [v for v in tables if not v.table.bye]
    byes = [v for v in tables if v.table.bye]
    assert len(games) == 2 and len(byes) == 1
    for view in games:
        party = view.table.party
        assert party.format == Party.Format.TWO and party.confirmation_required
        assert {s.player_id for s in party.seats.all()} == {e.player_id for e in view.entrants}
    # The same seed draws the same lots.
    from random import Random

    from tournaments.engine.pairing import first_round_lots

    ids = sorted(e.pk for e in tournament.entrants.all())
    lots = first_round_lots(ids, Random(round.seed))
    assert [(s[0].entrant_id, s[1].entrant_id) for s in _pairs(round)] == lots.pairs
    assert round.explanation[0]["how"] == "lot"


def _pairs(round):
    tables = round.tables.filter(bye=False).order_by("number")
    return [list(Seating.objects.filter(table=t).order_by("side")) for t in tables]


def test_only_checked_in_entrants_are_paired(club, members, committed):
    tournament = registration.tournament_create(club=club, name="Cup")
    registration.entrant_register(tournament=tournament, players=members("A", "B", "C"))
    for name in "AB":
        registration.entrant_check_in(entrant=entrant(tournament, name))

    round = committed(rounds.round_start, tournament=tournament)

    assert sorted(seated(round)[0]) == ["A", "B"]


def test_a_round_cannot_close_before_every_table_is_finished(started):
    _, round = started(list("ABCD"))
    first = round_tables(round)[0]
    play_out(first.table, first.entrants[0])

    with pytest.raises(TournamentError, match="Not every table is finished"):
        rounds.round_close(round=round)


def test_the_swiss_day_standings_byes_forfeits_and_the_next_round(started, committed):
    tournament, round = started(list("ABCDE"), bye_value=50, forfeit_value=120)
    views = [v for v in round_tables(round) if not v.table.bye]
    bye = next(v for v in round_tables(round) if v.table.bye).entrants[0]
    winner = views[0].entrants[0]
    party = play_out(views[0].table, winner)
    no_show = views[1].entrants[1]
    table_forfeit(table=views[1].table, absent=no_show)

    rounds.round_close(round=round)
    standings = standings_for(tournament)

    outcome = party_results([party.pk], cancelled=False)[party.pk]
    margin = outcome.plus_minus[winner.player_id]
    assert margin == 20 + 90 + 20 + 100 + 100  # gin, deadwood, box, game, shutout
    points = {line.entrant.pk: line.points for line in standings.lines}
    assert points[winner.pk] == margin
    assert points[views[0].entrants[1].pk] == -margin
    assert points[bye.pk] == 50
    assert points[views[1].entrants[0].pk] == 120
    assert points[no_show.pk] == -120
    assert [line.place for line in standings.lines] == [1, 2, 3, 4, 5]
    # The no-show's party is cancelled, not deleted: its start stays in the record.
    forfeited = Party.objects.get(pk=views[1].table.party_id)
    assert forfeited.status == Party.Status.CANCELLED
    assert forfeited.audit.filter(action="cancel").exists()

    second = tournament.round_set.get(number=2)
    assert second.status == Round.Status.PENDING
    committed(rounds.round_pair_next, tournament=tournament)
    second.refresh_from_db()
    assert second.status == Round.Status.PLAYING and second.how == Round.How.SWISS
    ranking = [line.entrant.pk for line in standings.lines]
    assert second.standings == ranking
    # The bye goes to the lowest placed without one: the first round's bye is passed over.
    second_bye = second.tables.get(bye=True).seatings.get().entrant
    lowest_without = [pk for pk in ranking if pk != bye.pk][-1]
    assert second_bye.pk == lowest_without
    assert second.explanation[-1]["second"] is None


def test_ties_are_ordered_by_knocks_card_draw_from_the_rounds_seed_and_shown(started, committed):
    tournament, round = started(list("ABCD"))
    for view in round_tables(round):
        play_out(view.table, view.entrants[0])

    rounds.round_close(round=round)

    following = tournament.round_set.get(number=2)
    assert [d["by"] for d in following.draws] == ["knock"] * 4  # two groups of two
    standings = standings_for(tournament)
    assert all(line.draw for line in standings.lines)
    assert [line.place for line in standings.lines] == [1, 2, 3, 4]
    # Each tie draws from the round's seed and its own members: replayable.
    totals = {line.entrant.pk: line.points for line in standings.lines}
    expected = [
        (pk, [str(c) for c in cards], totals[pk])
        for group in tied_groups(totals)
        for pk, cards in group_card_draw(following.seed, group)
    ]
    assert [(d["entrant"], d["cards"], d["points"]) for d in following.draws] == expected


def test_cards_drawn_at_the_venue_replace_knocks_draw(started, committed):
    tournament, round = started(list("ABCD"))
    views = round_tables(round)
    for view in views:
        play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)
    winners = [v.entrants[0] for v in views]
    losers = [v.entrants[1] for v in views]

    rounds.standings_draw_enter(
        tournament=tournament,
        cards={winners[0].pk: "7C", winners[1].pk: "KH", losers[0].pk: "2S", losers[1].pk: "AD"},
    )

    lines = standings_for(tournament).lines
    assert [line.entrant.pk for line in lines] == [
        winners[1].pk,
        winners[0].pk,
        losers[0].pk,
        losers[1].pk,
    ]
    assert lines[0].draw == "K♥"


def test_venue_cards_must_cover_a_whole_tie_and_differ(started):
    tournament, round = started(list("ABCD"))
    views = round_tables(round)
    for view in views:
        play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)
    a, b = views[0].entrants[0], views[1].entrants[0]

    with pytest.raises(TournamentError, match="Everyone tied"):
        rounds.standings_draw_enter(tournament=tournament, cards={a.pk: "KH"})
    with pytest.raises(TournamentError, match="same card"):
        rounds.standings_draw_enter(tournament=tournament, cards={a.pk: "KH", b.pk: "kh"})
    with pytest.raises(TournamentError, match="not a card"):
        rounds.standings_draw_enter(tournament=tournament, cards={a.pk: "XX", b.pk: "KH"})


def test_pairing_twice_never_makes_two_pairings(started):
    tournament, round = started(list("ABCDEF"))
    tables = round.tables.count()

    pair_round.delay(round.pk)
    round_pair(round_id=round.pk)

    assert round.tables.count() == tables
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=tournament, number=1, seed=1)


def test_the_database_refuses_a_second_table_for_an_entrant_in_a_round(started):
    _, round = started(list("ABCD"))
    seating = round.seatings.first()
    extra = Table.objects.create(round=round, number=99)

    with pytest.raises(IntegrityError), transaction.atomic():
        Seating.objects.create(round=round, table=extra, entrant=seating.entrant, side=0)


def test_a_withdrawn_entrant_is_not_paired_again_and_keeps_his_results(started, committed):
    tournament, round = started(list("ABCDEF"))
    views = round_tables(round)
    for view in views:
        play_out(view.table, view.entrants[0])
    quitter = views[0].entrants[0]

    withdrawals.entrant_withdraw(entrant=quitter)
    second = close_and_pair(tournament, round, committed)

    assert quitter.pk not in [s.entrant_id for s in second.seatings.all()]
    assert second.tables.filter(bye=True).count() == 1
    line = next(x for x in standings_for(tournament).lines if x.entrant == quitter)
    assert line.points > 0 and line.withdrawn and line.games == 1


def test_a_late_entrant_starts_at_zero_and_missed_rounds_are_not_byes(started, committed, members):
    tournament, round = started(list("ABCDE"), bye_value=70)
    for view in round_tables(round):
        if not view.table.bye:
            play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)

    (late,) = registration.entrant_register(tournament=tournament, players=members("Late"))
    committed(rounds.round_pair_next, tournament=tournament)

    second = tournament.round_set.get(number=2)
    assert late.joined_round == 2 and late.checked_in
    assert second.seatings.filter(entrant=late).exists()
    assert not second.tables.filter(bye=True).exists()  # six now: nobody sits out
    line = next(x for x in standings_for(tournament).lines if x.entrant == late)
    assert line.points == 0 and line.games == 0


def test_keep_apart_pairs_are_paired_like_a_previous_meeting(started, committed):
    tournament, round = started(list("ABCD"))
    views = round_tables(round)
    for view in views:
        play_out(view.table, view.entrants[0])
    first, second = views[0].entrants[0], views[1].entrants[0]  # the two winners
    registration.keep_apart_add(tournament=tournament, first=second, second=first)

    following = close_and_pair(tournament, round, committed)

    pairs = [{s[0].entrant_id, s[1].entrant_id} for s in _pairs(following)]
    assert {first.pk, second.pk} not in pairs
    assert following.explanation[0]["skipped"][0][1] == "kept_apart"


def test_swapping_two_players_by_hand_warns_of_a_rematch(started, committed):
    tournament, round = started(list("ABCD"))
    views = round_tables(round)
    for view in views:
        play_out(view.table, view.entrants[0])
    second = close_and_pair(tournament, round, committed)
    pairs = _pairs(second)
    # The winners meet, and so do the losers: giving the leader his first-round
    # opponent back brings back both first-round games.
    leader = pairs[0][0].entrant
    a = pairs[0][1].entrant
    b = next(v.entrants[1] for v in views if v.entrants[0] == leader)

    warnings = tables_swap(round=second, first=a, second=b)

    assert len(warnings) == 2 and "rematch" in warnings[0]
    after = _pairs(second)
    assert after[0][1].entrant == b
    assert a in [s.entrant for s in after[1]]
    for table in second.tables.all():
        players = {s.player_id for s in table.party.seats.all()}
        assert players == {s.entrant.player_id for s in table.seatings.all()}
    second.refresh_from_db()
    assert second.explanation[0]["how"] == "by_hand" and second.explanation[0]["rematch"]


def test_a_round_without_hands_can_be_undone_and_paired_again_the_same(started, committed):
    tournament, round = started(list("ABCDE"))
    before = seated(round)
    parties = [t.party_id for t in round.tables.exclude(party=None)]

    rounds.round_undo(round=round)

    round.refresh_from_db()
    assert round.status == Round.Status.PENDING and not round.tables.exists()
    # The undone round's parties are cancelled and take no hands; the record keeps them.
    statuses = set(Party.objects.filter(pk__in=parties).values_list("status", flat=True))
    assert statuses == {Party.Status.CANCELLED}
    committed(rounds.round_pair_next, tournament=tournament)
    round.refresh_from_db()
    assert seated(round) == before


def test_a_round_with_a_hand_cannot_be_undone(started):
    _, round = started(list("ABCD"))
    view = round_tables(round)[0]
    play_out(view.table, view.entrants[0])

    with pytest.raises(TournamentError, match="cannot be undone"):
        rounds.round_undo(round=round)


def test_without_a_rematch_free_pairing_the_round_is_stuck_until_the_organizer_decides(
    started, committed
):
    # Four players, round robin done after three Swiss rounds: no fourth is possible.
    tournament, round = started(list("ABCD"), rounds=4)
    for _ in range(3):
        for view in round_tables(round):
            play_out(view.table, view.entrants[0])
        round = close_and_pair(tournament, round, committed)

    assert round.status == Round.Status.STUCK
    assert "already played everyone else" in round.problem
    assert "A" in round.problem or "B" in round.problem
    with pytest.raises(TournamentError, match="fewest rematches"):
        rounds.round_pair_next(tournament=tournament)

    committed(rounds.round_pair_next, tournament=tournament, fewest_rematches=True)
    round.refresh_from_db()
    assert round.status == Round.Status.PLAYING and round.how == Round.How.FEWEST_REMATCHES
    assert all(line["rematch"] for line in round.explanation)


def test_the_organizer_may_end_a_stuck_tournament(started, committed):
    tournament, round = started(list("ABCD"), rounds=4)
    for _ in range(3):
        for view in round_tables(round):
            play_out(view.table, view.entrants[0])
        round = close_and_pair(tournament, round, committed)

    rounds.tournament_finish(tournament=tournament)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.round_set.count() == 3


def one_round_of_four(started):
    tournament, round = started(list("ABCD"), rounds=1)
    for view in round_tables(round):
        play_out(view.table, view.entrants[0])
    rounds.round_close(round=round)
    return tournament


def test_after_the_last_round_the_final_standings_share_places_on_equal_points(started):
    tournament = one_round_of_four(started)
    assert not tournament.round_set.filter(number=2).exists()

    rounds.tournament_finish(tournament=tournament)

    tournament.refresh_from_db()
    shared = standings_for(tournament)
    assert [line.place for line in shared.lines] == [1, 1, 3, 3]
    assert all(line.shared for line in shared.lines)


def test_a_final_card_draw_gives_everyone_a_place_of_his_own(started):
    tournament = one_round_of_four(started)

    rounds.tournament_finish(tournament=tournament, final_draw=True)

    tournament.refresh_from_db()
    drawn = standings_for(tournament)
    assert [line.place for line in drawn.lines] == [1, 2, 3, 4]
    assert all(line.draw for line in drawn.lines)
    assert tournament.final_seed is not None


def test_a_round_robin_plays_everyone_once_with_a_bye_each_round(club, members, committed):
    tournament = registration.tournament_create(
        club=club, name="Round robin", format=Tournament.Format.ROUND_ROBIN
    )
    registration.entrant_register(tournament=tournament, players=members(*"ABCDE"))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    round = committed(rounds.round_start, tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.rounds == 5

    games, byes = [], []
    for number in range(1, 6):
        round = tournament.round_set.get(number=number)
        assert round.how == Round.How.SCHEDULE
        for view in round_tables(round):
            if view.table.bye:
                byes.append(str(view.entrants[0]))
            else:
                games.append(frozenset(str(e) for e in view.entrants))
                play_out(view.table, view.entrants[1])
        rounds.round_close(round=round)
        if number < 5:
            committed(rounds.round_pair_next, tournament=tournament)

    assert sorted(byes) == list("ABCDE")
    assert len(games) == len(set(games)) == 10
    rounds.tournament_finish(tournament=tournament)
    assert sum(line.points for line in standings_for(tournament).lines) == 0


def test_a_round_robin_takes_no_late_entrant(club, members, committed):
    tournament = registration.tournament_create(club=club, name="RR", format="round_robin")
    registration.entrant_register(tournament=tournament, players=members("A", "B"))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    committed(rounds.round_start, tournament=tournament)

    with pytest.raises(TournamentError, match="no late entrants"):
        registration.entrant_register(tournament=tournament, players=members("C"))


def test_guests_are_entered_from_a_pasted_list(club):
    tournament = registration.tournament_create(club=club, name="Open")

    entered = registration.entrant_register_guests(tournament=tournament, names="Anna\n\n  Ben \n")

    assert [str(e) for e in entered] == ["Anna", "Ben"]
    assert not entered[0].player.memberships.exists()


def test_registering_the_same_player_twice_enters_him_once(club, members):
    tournament = registration.tournament_create(club=club, name="Open")
    (anna,) = members("Anna")

    registration.entrant_register(tournament=tournament, players=[anna])
    registration.entrant_register(tournament=tournament, players=[anna, anna])

    assert tournament.entrants.count() == 1


def test_a_tournament_needs_two_checked_in_entrants_to_start(club, members):
    tournament = registration.tournament_create(club=club, name="Open")
    registration.entrant_register(tournament=tournament, players=members("A", "B"))

    with pytest.raises(TournamentError, match="At least two"):
        rounds.round_start(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


def test_unknown_rules_are_refused(club):
    with pytest.raises(TournamentError, match="no rules called"):
        registration.tournament_create(club=club, name="X", ruleset="poker")


def test_slugs_are_made_unique(club):
    first = registration.tournament_create(club=club, name="Spring Open")
    second = registration.tournament_create(club=club, name="Spring Open")

    assert (first.slug, second.slug) == ("spring-open", "spring-open-2")


def test_card_symbols_are_shown_as_players_read_them():
    assert show_cards(["KH", "TC", "AS", str(Card(2, "D"))]) == "K♥ 10♣ A♠ 2♦"


def test_a_round_robin_set_to_more_rounds_than_its_schedule_has_ends_with_the_schedule(
    club, members, committed
):
    """Rounds set before the field was known (9 for four entrants, whose schedule has
    3): the round after the schedule cannot be paired, so the start cuts the rounds
    to the schedule and the last round closes the tournament's play as usual."""
    tournament = registration.tournament_create(
        club=club, name="Round robin", format=Tournament.Format.ROUND_ROBIN, rounds=9
    )
    registration.entrant_register(tournament=tournament, players=members(*"ABCD"))
    for e in tournament.entrants.all():
        registration.entrant_check_in(entrant=e)
    committed(rounds.round_start, tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.rounds == 3

    for number in range(1, 4):
        round = tournament.round_set.get(number=number)
        assert round.status == Round.Status.PLAYING
        for view in round_tables(round):
            play_out(view.table, view.entrants[1])
        rounds.round_close(round=round)
        if number < 3:
            committed(rounds.round_pair_next, tournament=tournament)
    with pytest.raises(TournamentError):
        rounds.round_pair_next(tournament=tournament)
    rounds.tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert [line.parties for line in standings_for(tournament).lines] == [3] * 4
