"""The card draw that orders tied players, through the services: each tie's draw
is its own, whether Knock drew it or the players drew at the venue."""

import pytest
from django.db import transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.cards import DECK, parse_card
from tests.tournaments.conftest import play_out
from tournaments import records, rounds, tables
from tournaments.engine.pairing import tied_groups
from tournaments.engine.standings import group_card_draw
from tournaments.standings import draw_groups, standings_for

pytestmark = pytest.mark.django_db

NAMES = [f"Player {n:02}" for n in range(1, 19)]


@pytest.fixture
def six_ties(started):
    """18 players after round 1: three tables won by gin against 90 (+330), three
    by gin against 50 twice (+380), three forfeits (+100): six ties of three."""
    tournament, round = started(NAMES, forfeit_value=100)
    views = [v for v in tables.round_tables(round) if not v.table.bye]
    for index, view in enumerate(views):
        if index < 3:
            play_out(view.table, view.entrants[0], deadwood=90)
        elif index < 6:
            play_out(view.table, view.entrants[0], deadwood=50)
        else:
            tables.table_forfeit(table=view.table, absent=view.entrants[1])
    rounds.round_close(round=round)
    following = tournament.round_set.get(number=2)
    totals = {line.entrant.pk: line.points for line in standings_for(tournament).lines}
    groups = tied_groups(totals)
    assert [len(g) for g in groups] == [3] * 6
    return tournament, following, groups


def by_tie(draws, groups):
    """Stored draws as {tie's members: [(entrant, cards, by), …] best first}."""
    tie_of = {pk: tuple(sorted(group)) for group in groups for pk in group}
    ties = {}
    for d in draws:
        ties.setdefault(tie_of[d["entrant"]], []).append((d["entrant"], d["cards"], d["by"]))
    return ties


def test_entering_one_ties_venue_cards_changes_no_other_tie(six_ties):
    tournament, following, groups = six_ties
    before = by_tie(following.draws, groups)
    assert len(before) == 6

    @settings(max_examples=25, deadline=None)
    @given(data=st.data())
    def check(data):
        # One tie, or two one after the other: the second must not undo the first.
        chosen = data.draw(
            st.lists(st.sampled_from(groups), min_size=1, max_size=2, unique_by=tuple)
        )
        with transaction.atomic():
            entered = {}
            for group in chosen:
                cards = data.draw(st.permutations(DECK))[: len(group)]
                typed = {pk: str(card) for pk, card in zip(group, cards, strict=False)}
                rounds.standings_draw_enter(tournament=tournament, cards=typed)
                entered[tuple(group)] = typed
            after = by_tie(tournament.round_set.get(number=2).draws, groups)
            transaction.set_rollback(True)
        for group in groups:
            tie = tuple(sorted(group))
            if tuple(group) in entered:
                typed = entered[tuple(group)]
                best_first = sorted(group, key=lambda pk: parse_card(typed[pk]), reverse=True)
                assert after[tie] == [(pk, [typed[pk]], "venue") for pk in best_first]
            else:
                assert after[tie] == before[tie]

    check()


def test_knocks_draw_of_a_tie_depends_on_that_tie_alone(six_ties):
    _, following, groups = six_ties
    ties = by_tie(following.draws, groups)
    for group in groups:
        drawn = [
            (pk, [str(c) for c in cards], "knock")
            for pk, cards in group_card_draw(following.seed, group)
        ]
        assert drawn in ties.values()


def test_draws_stored_before_their_points_were_kept_still_show_and_pair_as_shown(
    six_ties, committed
):
    """A round closed by an earlier Knock stored its draws without the points and
    drew from one sequence for all ties: those cards are the ones shown, and the
    ones the round is paired from."""
    tournament, following, groups = six_ties
    # Cards no generator of today would draw: each tie's members in reverse id order.
    old = []
    for group in groups:
        for rank, pk in enumerate(sorted(group, reverse=True)):
            old.append({"entrant": pk, "cards": [str(DECK[12 - rank])], "by": "knock"})
    following.draws = old
    following.save(update_fields=["draws"])

    entrants = {e.pk: e for e in tournament.entrants.select_related("player")}
    standings = standings_for(tournament)
    shown = draw_groups(
        standings.draws, entrants, {line.entrant.pk: line.points for line in standings.lines}
    )
    assert [g.points for g in shown] == sorted(
        {line.points for line in standings.lines}, reverse=True
    )
    assert all(not g.venue and g.shown.count(",") == 2 for g in shown)

    committed(rounds.round_pair_next, tournament=tournament)
    following.refresh_from_db()
    assert following.standings == [pk for group in groups for pk in sorted(group, reverse=True)]


def test_cards_drawn_at_the_venue_are_kept_in_the_tournaments_record(six_ties, django_user_model):
    tournament, _, groups = six_ties
    director = django_user_model.objects.create_user("director")
    tie = sorted(groups[0])
    typed = dict(zip(tie, ["KH", "2C", "7D"], strict=True))
    rounds.standings_draw_enter(
        tournament=tournament, cards=typed, user=director, address="192.0.2.7"
    )

    record = tournament.records.get(action="venue_draw")
    assert (record.action, record.user, record.address) == ("venue_draw", director, "192.0.2.7")
    names = {e.pk: str(e) for e in tournament.entrants.all()}
    expected = ", ".join(f"{names[pk]} {parse_card(typed[pk])}" for pk in tie)
    assert records.record_text(record) == f"After round 1, cards drawn at the venue: {expected}."


def test_a_refused_venue_draw_leaves_no_record(six_ties):
    tournament, _, groups = six_ties
    first, second, _ = sorted(groups[0])
    with pytest.raises(records.TournamentError):
        rounds.standings_draw_enter(tournament=tournament, cards={first: "KH", second: "KH"})
    assert not tournament.records.filter(action="venue_draw").exists()
