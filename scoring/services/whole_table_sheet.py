"""The sheet of a party of another game (Chinchón, Canasta, Blaue Vierzehn, Cruzo):
what its seat page and its night's results will show. A read, kept beside the
writes of `scoring.services.hands` because both derive the party's totals the
same way, from its confirmed hands through the game's engine (never stored)."""

from dataclasses import dataclass

from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.game import (
    Game,
    HandScore,
    Outcome,
    margins,
    places,
    side_totals,
)
from scoring.models import Hand, Party, Seat


def game_of(party: Party) -> Game:
    """The engine of the party's game (`GAMES`)."""
    return GAMES[party.game]


def hand_score(hand: Hand) -> HandScore:
    """What a stored hand scored, as the engine gave it."""
    return HandScore(tuple(hand.scores), hand.facts)


def confirmed_scores(hands) -> list[HandScore]:
    """The scores of the confirmed hands, in order: only these count."""
    return [hand_score(h) for h in hands if h.status == Hand.Status.CONFIRMED]


def side_count(seats) -> int:
    return 1 + max(seat.side for seat in seats)


@dataclass(frozen=True)
class GameSheet:
    """A party of another game as it stands.

    ``sides``: each side's seats (by side number); ``totals``: each side's total
    over the confirmed hands; ``hands``: every hand row, in order (pending and
    disputed ones included, for the table to see); ``outcome``: over, the winning
    sides, the sides out (La Conga); ``places`` and ``margins`` by side, as the
    standings and the seasons will take them; ``lower_wins`` for the columns'
    reading."""

    party: Party
    game: Game
    options: dict
    sides: list[list[Seat]]
    totals: list[int]
    hands: list[Hand]
    outcome: Outcome
    places: list[int]
    margins: list[int]
    lower_wins: bool


def game_sheet(party: Party) -> GameSheet:
    """The sheet of ``party`` in two queries, however many hands."""
    seats = list(party.seats.select_related("player").order_by("position"))
    hands = list(
        party.hands.select_related(
            "entered_by__player", "confirmed_by__player", "decided_by__player"
        ).order_by("number", "table")
    )
    return sheet_of(party, seats, hands)


def sheet_of(party: Party, seats: list[Seat], hands: list[Hand]) -> GameSheet:
    """The sheet from the party's seats (in seat order) and hands (in order), as
    loaded: no query."""
    game = game_of(party)
    count = side_count(seats)
    scored = confirmed_scores(hands)
    totals = side_totals(scored, count)
    return GameSheet(
        party=party,
        game=game,
        options=party.rules,
        sides=[[s for s in seats if s.side == side] for side in range(count)],
        totals=totals,
        hands=hands,
        outcome=game.standing(scored, count, party.rules),
        places=places(totals, game.lower_wins),
        margins=margins(totals, game.lower_wins),
        lower_wins=game.lower_wins,
    )


def plays_other_game(party: Party) -> bool:
    """Whether the party is played at one whole table (its sheet is `game_sheet`'s),
    not at the tables of two of a game of party formats: the one question the
    pages ask before they choose which reads to show it with."""
    return other_game(party.game)


def other_game(key: str) -> bool:
    """Whether ``key`` names one of the other games (a key of `ENTRY_GAMES`)."""
    return key in ENTRY_GAMES
