"""What the final's writes and reads share: the rounds' names, the stage's row
locked, a game started as a two-player party of `scoring`, and who won each game,
read from its party."""

from __future__ import annotations

import dataclasses
from random import Random

from django.utils.translation import gettext

from scoring.engine.rules import RULESETS
from scoring.models import Party
from scoring.services.parties import party_start
from tournaments.engine import knockout as engine
from tournaments.models import (
    Entrant,
    FinalStage,
    Match,
    MatchGame,
    Tournament,
)
from tournaments.records import TournamentError
from tournaments.standings import round_key

__all__ = ["round_key"]


def round_label(key: str) -> str:
    """A round's name (`engine.round_name`'s key, or "third-place") in the reader's
    language."""
    named = {
        engine.FINAL: gettext("Final"),
        engine.SEMI_FINAL: gettext("Semi-final"),
        engine.QUARTER_FINAL: gettext("Quarter-final"),
        engine.THIRD_PLACE: gettext("Match for third place"),
    }
    if key in named:
        return named[key]
    return gettext("Round of %(players)s") % {"players": key.rsplit(" ", 1)[-1]}


def _game_label(stage: FinalStage, match: Match, number: int) -> str:
    """The stored label of a game's party: "Cup · Final · game 2"."""
    name = round_label(round_key(stage, match.round, match.third_place))
    game = gettext("game %(number)s") % {"number": number}
    suffix = f" · {name} · {game}"
    # A label holds 120 characters, and so may the tournament's name alone.
    room = Party._meta.get_field("label").max_length - len(suffix)
    return stage.tournament.name[:room] + suffix


def locked_stage(tournament: Tournament) -> FinalStage:
    stage = FinalStage.objects.select_for_update().filter(tournament=tournament).first()
    if stage is None:
        raise TournamentError(gettext("This tournament has no final."))
    return stage


def plays_third_place(stage: FinalStage) -> bool:
    """Whether the stage plays for third place: wanted, and two semi-final losers
    to play it (not with three qualifiers, where seed 1's semi-final is a bye)."""
    return stage.third_place and engine.third_place_playable(len(stage.seeds))


def entrants_by_id(tournament: Tournament) -> dict[int, Entrant]:
    return {e.pk: e for e in tournament.entrants.select_related("player")}


def game_start(stage: FinalStage, match: Match, number: int, entrants) -> MatchGame:
    """A game of the match: a two-player party under the tournament's rules, its
    seat draw replayable from the stage's seed."""
    tournament = stage.tournament
    rules = dataclasses.replace(RULESETS[tournament.ruleset], target=tournament.target)
    third = "t" if match.third_place else ""
    party = party_start(
        club=tournament.club,
        format="two",
        players=[entrants[match.first_id].player, entrants[match.second_id].player],
        rules=rules,
        confirmation_required=tournament.confirmation_required,
        label=_game_label(stage, match, number),
        rng=Random(f"{stage.seed}-{match.round}{third}-{match.slot}-{number}"),
    )
    return MatchGame.objects.create(match=match, number=number, party=party)


def game_sides(match: Match, games: list[MatchGame], results: dict) -> list[int] | None:
    """The side of the match winning each game in order, or ``None`` while the
    latest game is still played; ``results``: the games' results by party id
    (`scoring.results.party_results`). A party that ends tied goes to the side
    that reached the target (it alone has the game bonus)."""
    sides = []
    side_of = {match.first.player_id: 0, match.second.player_id: 1}
    for game in games:
        result = results.get(game.party_id)
        if result is None or not result.finished:
            return None
        if result.winners:
            party_side = min(result.winners)
        else:
            party_side = max(range(len(result.sides)), key=lambda s: result.game_bonuses[s])
        sides.append(side_of[result.sides[party_side][0]])
    return sides
