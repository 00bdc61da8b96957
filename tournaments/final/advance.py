"""What the parties decide in the bracket: a match's winner or its next game, the
next round's match, the match for third place, the end. Run after the commit of
every change to a club's scores (`stages_advance`, hooked to
`scoring.changes.after_scores_change`), by the beat's catch-up, and after each
service of the final."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from scoring.results import party_results
from tournaments.engine import knockout as engine
from tournaments.engine.formats import format_of
from tournaments.final.matches import entrants_by_id, game_sides, game_start, plays_third_place
from tournaments.models import (
    FinalStage,
    Match,
    Tournament,
)
from tournaments.records import tournament_changed


def _next_game(stage: FinalStage, match: Match, number: int, entrants) -> None:
    """The match's game ``number``, unless a side has withdrawn: then the other wins
    the match without it (a withdrawn winner who waited for his next match, or one
    who left during a game that its party then decided)."""
    gone = [
        side
        for side, pk in enumerate((match.first_id, match.second_id))
        if entrants[pk].withdrawn_after is not None
    ]
    if not gone:
        game_start(stage, match, number, entrants)
        return
    match.absent = gone[0]
    match.winner_id = (match.second_id, match.first_id)[gone[0]]
    match.save(update_fields=["absent", "winner"])


def advance(stage: FinalStage) -> bool:
    """Decide what the parties have decided: each match whose games give one side
    enough wins gets its winner, or its next game; two neighbouring winners get
    their match in the next round, the semi-finals' losers the match for third
    place; the final decided ends the stage. Returns whether anything changed."""
    tournament = stage.tournament
    matches = list(
        stage.matches.select_related("first__player", "second__player").prefetch_related("games")
    )
    open_games = {
        m.pk: sorted(m.games.all(), key=lambda g: g.number)
        for m in matches
        if m.winner_id is None and m.second_id is not None
    }
    ids = [g.party_id for gs in open_games.values() for g in gs]
    results = party_results(ids, cancelled=False)
    entrants = None
    changed = False
    for match in matches:
        if match.pk not in open_games:
            continue
        won_by = game_sides(match, open_games[match.pk], results)
        if won_by is None:
            continue
        side = engine.match_winner(won_by, stage.best_of)
        if side is None:
            entrants = entrants or entrants_by_id(tournament)
            _next_game(stage, match, len(won_by) + 1, entrants)
        else:
            match.winner_id = (match.first_id, match.second_id)[side]
            match.save(update_fields=["winner"])
        changed = True
    changed |= _next_matches(stage, matches)
    return changed


def _next_matches(stage: FinalStage, matches: list[Match]) -> bool:
    rounds = engine.round_count(len(stage.seeds))
    placed = {(m.round, m.slot): m for m in matches if not m.third_place}
    entrants = None
    made = []
    for round in range(1, rounds):
        for slot in range(0, 2 ** (rounds - round), 2):
            pair = placed.get((round, slot)), placed.get((round, slot + 1))
            following = engine.next_match(slot)[0]
            if None in pair or any(m.winner_id is None for m in pair):
                continue
            if (round + 1, following) in placed:
                continue
            ((first, second),) = engine.next_round([m.winner_id for m in pair])
            match = Match.objects.create(
                stage=stage, round=round + 1, slot=following, first_id=first, second_id=second
            )
            placed[(round + 1, following)] = match
            entrants = entrants or entrants_by_id(stage.tournament)
            _next_game(stage, match, 1, entrants)
            made.append(match)
    third = next((m for m in matches if m.third_place), None)
    if plays_third_place(stage) and third is None:
        semis = placed.get((rounds - 1, 0)), placed.get((rounds - 1, 1))
        # A semi-final that was a bye (3 qualifiers) leaves one loser: he is third.
        if all(m and m.winner_id and m.second_id for m in semis):
            losers = [m.first_id if m.winner_id == m.second_id else m.second_id for m in semis]
            third = Match.objects.create(
                stage=stage,
                round=rounds,
                slot=0,
                third_place=True,
                first_id=losers[0],
                second_id=losers[1],
            )
            entrants = entrants or entrants_by_id(stage.tournament)
            _next_game(stage, third, 1, entrants)
            made.append(third)
    final = placed.get((rounds, 0))
    done = bool(final and final.winner_id) and (third is None or bool(third.winner_id))
    if plays_third_place(stage) and third is None and done:
        semis = placed.get((rounds - 1, 0)), placed.get((rounds - 1, 1))
        done = not all(m and m.second_id for m in semis)
    status = FinalStage.Status.FINISHED if done else FinalStage.Status.PLAYING
    if stage.status != status:
        stage.status = status
        stage.save(update_fields=["status"])
        tournament = stage.tournament
        if not format_of(tournament.format).plays_rounds:
            tournament.status = Tournament.Status.FINISHED if done else Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        made.append(stage)
    return bool(made)


def stage_advance(*, stage: FinalStage) -> FinalStage:
    """What a party's end decides in the bracket (see `advance`); safe to run any
    number of times: a match already decided, a game already started, a match
    already made are left as they are (the stage's row is locked first)."""
    _stage_advance(stage.pk)
    return FinalStage.objects.select_related("tournament__club").get(pk=stage.pk)


@transaction.atomic
def _stage_advance(pk: int) -> bool:
    stage = FinalStage.objects.select_for_update(of=("self",)).select_related("tournament__club")
    stage = stage.get(pk=pk)
    if stage.status != FinalStage.Status.PLAYING or not advance(stage):
        return False
    tournament_changed(stage.tournament_id)
    return True


def stages_advance(club_id: int) -> None:
    """Advance every final the club plays: called after the commit of each change
    to the club's scores (`scoring.changes.after_scores_change`)."""
    playing = FinalStage.objects.filter(
        tournament__club_id=club_id, status=FinalStage.Status.PLAYING
    )
    for stage in playing:
        stage_advance(stage=stage)


def finals_advance_waiting() -> int:
    """The catch-up for an advance that never ran (its after-commit call failed, or
    the process ended between the commit and it): advances every final being
    played, each in its own transaction. Returns how many moved on."""
    playing = FinalStage.objects.filter(status=FinalStage.Status.PLAYING)
    return sum(_stage_advance(pk) for pk in list(playing.values_list("pk", flat=True)))


def game_decided_its_match(party) -> str | None:
    """Why the party's hands may no longer be corrected (`scoring.guards`): it is a
    game of a match already decided by its games, whose winner has gone on."""
    match = Match.objects.filter(games__party_id=party.pk).first()
    if match is None or match.winner_id is None or match.absent is not None:
        return None
    return gettext(
        "This party is a game of a match of the final that has been decided: its result stands."
    )
