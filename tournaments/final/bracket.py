"""Reads of the final: the bracket round by round, who is still in, the final
standings."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from scoring.selectors import party_sheets
from tournaments.engine import knockout as engine
from tournaments.engine.formats import format_of
from tournaments.final.games import (
    entrants_by_id,
    game_sides,
    plays_third_place,
    round_key,
    round_label,
)
from tournaments.models import (
    Entrant,
    FinalStage,
    Match,
    MatchGame,
    Tournament,
)
from tournaments.standings import StandingsLine, standings_for


@dataclass(frozen=True)
class MatchView:
    """A match as the pages show it. ``first``/``second``: the entrants (``None``
    for a place not yet decided, and ``second`` for a bye); ``seeds`` theirs;
    ``wins`` the games each side won; ``games`` the games' party ids in order;
    ``party_id`` the game being played (its seat links are the organizer's)."""

    round: int
    slot: int
    third_place: bool
    match: Match | None
    first: Entrant | None
    second: Entrant | None
    seeds: tuple[int | None, int | None]
    wins: tuple[int, int]
    games: tuple[int, ...]
    party_id: int | None
    winner: Entrant | None
    absent: Entrant | None

    @property
    def status(self) -> str:
        """ "waiting" (not drawn yet), "bye", "playing", "forfeit" or "decided"."""
        if self.match is None:
            return "waiting"
        if self.second is None and self.match.second_id is None:
            return "bye"
        if self.absent is not None:
            return "forfeit"
        return "decided" if self.winner is not None else "playing"


@dataclass(frozen=True)
class BracketRound:
    number: int
    key: str  # `engine.round_name`'s key, or "third-place"
    matches: list[MatchView]

    @property
    def name(self) -> str:
        return round_label(self.key)


def bracket(stage: FinalStage) -> list[BracketRound]:
    """The bracket round by round, every place shown (matches not yet drawn are
    "waiting"), the match for third place last. Six queries, whatever its size."""
    if not stage.seeds:
        return []
    matches = list(
        stage.matches.select_related("first__player", "second__player", "winner__player")
    )
    games = defaultdict(list)
    for game in MatchGame.objects.filter(match__stage=stage).order_by("number"):
        games[game.match_id].append(game)
    sheets = party_sheets([g.party_id for gs in games.values() for g in gs], cancelled=False)
    seed_of = {pk: n for n, pk in enumerate(stage.seeds, start=1)}
    rounds = engine.round_count(len(stage.seeds))
    placed = {(m.round, m.slot, m.third_place): m for m in matches}

    def view(round, slot, third):
        match = placed.get((round, slot, third))
        if match is None:
            empty = (None, None, None, (None, None), (0, 0), (), None, None, None)
            return MatchView(round, slot, third, *empty)
        wins = [0, 0]
        party_id = None
        played = games[match.pk]
        if match.second_id is not None:
            for game in played:
                state = sheets.get(game.party_id)
                if state is None or not state.finished:
                    party_id = game.party_id
            finished = [g for g in played if g.party_id in sheets and sheets[g.party_id].finished]
            sides = game_sides(match, finished, sheets) or []
            for side in sides:
                wins[side] += 1
        absent = None
        if match.absent is not None:
            absent = (match.first, match.second)[match.absent]
        return MatchView(
            round,
            slot,
            third,
            match,
            match.first,
            match.second,
            (seed_of.get(match.first_id), seed_of.get(match.second_id)),
            tuple(wins),
            tuple(g.party_id for g in played),
            party_id,
            match.winner,
            absent,
        )

    result = [
        BracketRound(r, round_key(stage, r), [view(r, s, False) for s in range(2 ** (rounds - r))])
        for r in range(1, rounds + 1)
    ]
    if plays_third_place(stage):
        result.append(BracketRound(rounds, engine.THIRD_PLACE, [view(rounds, 0, True)]))
    return result


def still_in(stage: FinalStage, rounds: list[BracketRound]) -> list[Entrant]:
    """The players the final has not placed yet and who have not withdrawn: in a
    match being played, waiting for their next opponent, or a semi-final's loser
    before the match for third place. They are the ones who can withdraw."""
    if stage.status != FinalStage.Status.PLAYING:
        return []
    total = engine.round_count(len(stage.seeds))
    last: dict[int, tuple[MatchView, Entrant]] = {}
    for r in rounds:  # in order of play, the match for third place last
        for m in r.matches:
            for entrant in (m.first, m.second):
                if entrant is not None:
                    last[entrant.pk] = (m, entrant)
    found = []
    for m, entrant in last.values():
        if entrant.withdrawn_after is not None:
            continue
        if m.status == "playing":
            found.append(entrant)
        elif m.winner is not None and m.winner.pk == entrant.pk:
            if not m.third_place and m.round < total:  # his next match is not drawn yet
                found.append(entrant)
        elif not m.third_place and m.round == total - 1 and plays_third_place(stage):
            found.append(entrant)  # a semi-final lost: third place is still to play
    return sorted(found, key=lambda e: stage.seeds.index(e.pk))


def final_stage_of(tournament: Tournament) -> FinalStage | None:
    """The tournament's final, or ``None``; no query when the tournament was read
    with it (the selectors' ``select_related("final_stage")``)."""
    return getattr(tournament, "final_stage", None)


def final_stage_for_manage(slug: str) -> FinalStage:
    return get_object_or_404(
        FinalStage.objects.select_related("tournament__club"), tournament__slug=slug
    )


def match_for_manage(slug: str, pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("stage__tournament__club", "first__player", "second__player"),
        stage__tournament__slug=slug,
        pk=pk,
    )


@dataclass(frozen=True)
class FinalLine:
    """One line of the final standings: ``reached`` the knockout round's key an
    entrant went out in ("final" for the runner-up; "champion"; "" for those who did
    not qualify), ``line`` his line of the qualifying standings (``None`` in a
    knockout tournament)."""

    place: int
    shared: bool
    entrant: Entrant
    reached: str
    line: StandingsLine | None


CHAMPION = "champion"


def reached_label(key: str) -> str:
    """How far an entrant came (`FinalLine.reached`), in the reader's language."""
    if key == CHAMPION:
        return gettext("Winner")
    return round_label(key) if key else ""


def final_standings(tournament: Tournament) -> list[FinalLine]:
    """The final standings: once the final is decided, its players first, by how far
    they came (`engine.final_places`; the semi-finals' losers share third unless
    they played for it), then everyone else as the qualifying standings place them.
    Before that, the qualifying standings alone."""
    stage = final_stage_of(tournament)
    lines = []
    if format_of(tournament.format).plays_rounds:
        lines = standings_for(tournament).lines
    by_entrant = {line.entrant.pk: line for line in lines}
    if stage is None or stage.status != FinalStage.Status.FINISHED:
        return [FinalLine(x.place, x.shared, x.entrant, "", x) for x in lines]
    matches = list(stage.matches.all())
    entrants = entrants_by_id(tournament)
    reached = dict.fromkeys(stage.seeds, 1)
    champion = third_winner = third_loser = None
    rounds = engine.round_count(len(stage.seeds))
    for m in matches:
        if m.third_place:
            third_winner = m.winner_id
            third_loser = m.first_id if m.winner_id == m.second_id else m.second_id
            continue
        for pk in (m.first_id, m.second_id):
            if pk is not None:
                reached[pk] = max(reached[pk], m.round)
        if m.round == rounds:
            champion = m.winner_id
    groups = engine.final_places(stage.seeds, reached, third_winner, third_loser, champion)
    result = []
    for group in groups:
        place = len(result) + 1
        for pk in group:
            if pk == champion:
                key = CHAMPION
            elif pk in (third_winner, third_loser):
                key = engine.THIRD_PLACE
            else:
                key = round_key(stage, reached[pk])
            result.append(FinalLine(place, len(group) > 1, entrants[pk], key, by_entrant.get(pk)))
    qualified = set(stage.seeds)
    rest = [x for x in lines if x.entrant.pk not in qualified]
    previous = None
    for x in rest:
        tied = previous is not None and x.shared and x.place == previous.place
        place = result[-1].place if tied else len(result) + 1
        if tied and not result[-1].shared:
            result[-1] = dataclasses.replace(result[-1], shared=True)
        result.append(FinalLine(place, tied, x.entrant, "", x))
        previous = x
    return result
