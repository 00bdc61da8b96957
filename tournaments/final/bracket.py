"""Reads of the final: the bracket round by round, who is still in, the final
standings."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from clubs.names import shown_names
from scoring.results import party_results
from tournaments.engine import knockout as engine
from tournaments.final.matches import (
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
from tournaments.standings import CHAMPION, FinalLine, final_standings

__all__ = ["CHAMPION", "FinalLine", "final_standings"]


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
    names: tuple[str | None, str | None] = (None, None)  # as the reader may see them

    @property
    def withdrew(self) -> bool:
        """The side that did not play the match had withdrawn (not a no-show)."""
        return self.absent is not None and self.absent.withdrawn_after is not None

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


def bracket(stage: FinalStage, *, public: bool) -> list[BracketRound]:
    """The bracket round by round, every place shown (matches not yet drawn are
    "waiting"), the match for third place last; the players' names as ``public``
    or the organizers see them (`clubs.names`). Seven queries, whatever its size."""
    if not stage.seeds:
        return []
    matches = list(
        stage.matches.select_related("first__player", "second__player", "winner__player")
    )
    players = [e.player for m in matches for e in (m.first, m.second) if e is not None]
    names = shown_names(stage.tournament.club_id, players, public=public)
    games = defaultdict(list)
    for game in MatchGame.objects.filter(match__stage=stage).order_by("number"):
        games[game.match_id].append(game)
    results = party_results([g.party_id for gs in games.values() for g in gs], cancelled=False)
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
                result = results.get(game.party_id)
                if result is None or not result.finished:
                    party_id = game.party_id
            finished = [g for g in played if g.party_id in results and results[g.party_id].finished]
            sides = game_sides(match, finished, results) or []
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
            tuple(names[e.player_id] if e else None for e in (match.first, match.second)),
        )

    found = [
        BracketRound(r, round_key(stage, r), [view(r, s, False) for s in range(2 ** (rounds - r))])
        for r in range(1, rounds + 1)
    ]
    if plays_third_place(stage):
        found.append(BracketRound(rounds, engine.THIRD_PLACE, [view(rounds, 0, True)]))
    return found


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


def reached_label(key: str) -> str:
    """How far an entrant came (`FinalLine.reached`), in the reader's language."""
    if key == CHAMPION:
        return gettext("Winner")
    return round_label(key) if key else ""


def places(tournament, *, public: bool) -> list[tuple[FinalLine, str]]:
    """The final standings' lines, each with how far its player came, for the
    final's pages and the organizer's standings (`_final_places.html`)."""
    return [
        (line, reached_label(line.reached)) for line in final_standings(tournament, public=public)
    ]
