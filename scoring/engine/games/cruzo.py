"""Cruzo (Shithead): a game of going out, scored by the places.

Seed 003 ("Cruzo (Shithead)", "Spielende"): "Wer zuerst keine Karten mehr auf dem
Tisch liegen hat, gewinnt das Spiel. Nun kann entweder solange weitergespielt
werden, bis nur noch ein Spieler Karten hat, oder es gilt die Platzierung über die
auf dem Tisch verbliebenen Karten zu ermitteln; je weniger das sind, um so
besser." It is played by at least two ("mindestens zwei"). A game's result is
therefore its finishing order, first out first; the engine turns that order into
points and the points of several games into a standing.

Decisions the seed leaves open
------------------------------
- Points per place: the last place scores 0 and each place above one more, so
  the winner of a game of n players scores n − 1. A club may give its own
  scheme: points per place, best first, never more for a worse place; a scheme
  longer than the table is cut to the table's places.
- Placing by the cards left: only the cards still on the table count, the open
  cards and the Bunker, 0 to 6 (three of each), as the seed says; cards in the
  hand do not. Whoever went out ranks above everyone still in, even above a
  player with an empty table but cards in his hand.
- Equal counts share a place: each of them scores the points of the better
  place, and the places they fill after it are skipped (1, 2, 2, 4). The first
  place is never shared: it belongs to whoever went out first.
- A party is an agreed number of games; the most points win, and players tied
  on the most points share the win.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from scoring.engine.games.game import (
    EntryError,
    EntryField,
    Figure,
    FigureKind,
    HandScore,
    Option,
    Outcome,
    after_agreed,
    check_agreed,
    each_alone,
    majority_of_others,
    mean,
    reason,
)
from scoring.engine.games.game import Problem as _

#: Seed 003: "mindestens zwei … Spieler".
MIN_PLAYERS = 2
#: The open cards and the Bunker a player lays out before the game (seed 003).
TABLE_CARDS = 6


def default_scheme(players: int) -> tuple[int, ...]:
    """The club's points per place for a game of ``players`` (seed 003 ranks the
    players, "je weniger [Karten], um so besser", and gives no points): the last
    place 0 and each place above one more."""
    _check_player_count(players)
    return tuple(range(players - 1, -1, -1))


def _check_player_count(players: int) -> None:
    if isinstance(players, bool) or not isinstance(players, int) or players < MIN_PLAYERS:
        raise ValueError(
            _("Cruzo needs at least two players, not %(players)r (seed 003).", players=players)
        )


def _places(order: Sequence) -> list[tuple]:
    """The order as places, each a tuple of the players who share it; checks
    that every player is named once and that the first place is not shared."""
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence):
        raise ValueError(_("Give the finishing order as a list of players, first out first."))
    places = []
    seen: set = set()
    for item in order:
        group = tuple(item) if isinstance(item, (set, frozenset)) else (item,)
        if not group:
            raise ValueError(_("A shared place needs the players who share it."))
        for player in group:
            if player in seen:
                raise ValueError(
                    _("%(player)s is named twice: every player has one place.", player=player)
                )
            seen.add(player)
        places.append(group)
    _check_player_count(len(seen))
    if len(places[0]) > 1:
        raise ValueError(
            _("The first place is not shared: whoever went out first wins the game (seed 003).")
        )
    return places


def place_points(order: Sequence, scheme: Sequence[int] | None = None) -> dict[Hashable, int]:
    """Each player's points for one game from its finishing order.

    ``order``: the players, the first to go out first (seed 003: "Wer zuerst
    keine Karten mehr auf dem Tisch liegen hat, gewinnt das Spiel"), each once.
    Players who share a place (the seed's count of cards left, see
    `finishing_order`) are given together as a set; each scores the points of
    that place, and the places they fill after it are skipped. ``scheme``: the
    points per place, best first; by default `default_scheme`. Raises
    `ValueError` for a player named twice, fewer than two players, a shared
    first place, or a scheme that is too short, negative or gives a worse place
    more than a better one.
    """
    places = _places(order)
    players = sum(len(group) for group in places)
    points = default_scheme(players) if scheme is None else _check_scheme(scheme, players)
    result: dict[Hashable, int] = {}
    place = 0
    for group in places:
        for player in group:
            result[player] = points[place]
        place += len(group)
    return result


def _check_scheme(scheme: Sequence[int], players: int) -> tuple[int, ...]:
    points = tuple(scheme)
    if len(points) < players:
        raise ValueError(
            f"The points scheme names {len(points)} places, but {players} players have a place."
        )
    points = points[:players]
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points):
        raise ValueError("The points for a place must be whole numbers of 0 or more.")
    if any(better < worse for better, worse in pairwise(points)):
        raise ValueError("A worse place cannot score more than a better one.")
    return points


def finishing_order(went_out: Sequence, cards_left: Mapping[Hashable, int]) -> list:
    """The finishing order when the game stops after the first players went out.

    Seed 003: the players who went out rank in the order they went out; then
    "es gilt die Platzierung über die auf dem Tisch verbliebenen Karten zu
    ermitteln; je weniger das sind, um so besser". ``cards_left``: for each player
    still in, the cards on his table (open cards and Bunker, 0 to 6). Players with
    equal counts share a place and are returned together as a frozenset, ready for
    `place_points`. Raises `ValueError` when nobody went out, a player is named
    twice, or a count is not 0 to 6.
    """
    if isinstance(went_out, (str, bytes)) or not isinstance(went_out, Sequence):
        raise ValueError(_("Give the players who went out as a list, first out first."))
    if not went_out:
        raise ValueError(_("The game is won by the first player to go out; nobody went out yet."))
    for player, count in cards_left.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= TABLE_CARDS:
            raise ValueError(
                _(
                    "%(player)s can have 0 to %(most)s cards left on the table "
                    "(three open, three Bunker), not %(count)r.",
                    player=player,
                    most=TABLE_CARDS,
                    count=count,
                )
            )
        if player in went_out:
            raise ValueError(
                _("%(player)s went out and cannot have cards left on the table.", player=player)
            )
    order: list = list(went_out)
    for count in sorted(set(cards_left.values())):
        group = [player for player, left in cards_left.items() if left == count]
        order.append(group[0] if len(group) == 1 else frozenset(group))
    _places(order)
    return order


@dataclass(frozen=True, slots=True)
class Standing:
    """The party so far. ``leaders``: the players with the most points now;
    ``winners``: the same once the party is over, empty before."""

    over: bool
    leaders: frozenset
    winners: frozenset
    games_left: int


def standing(totals: Mapping[Hashable, int], games_played: int, games_agreed: int) -> Standing:
    """Where a party of ``games_agreed`` games stands after ``games_played``.

    Seed 003 scores a single game by its places; over an agreed number of games the
    place points are added up, the most points win, and players tied on the most
    share the win. Raises `ValueError` for fewer than two players, a negative or
    broken total, or more games played than agreed.
    """
    _check_player_count(len(totals))
    check_agreed(totals, games_played, games_agreed, "game")
    most = max(totals.values())
    leaders = frozenset(player for player, total in totals.items() if total == most)
    over = games_played == games_agreed
    return Standing(
        over=over,
        leaders=leaders,
        winners=leaders if over else frozenset(),
        games_left=games_agreed - games_played,
    )


# --------------------------------------------------------------------------- the game


class Cruzo:
    """Cruzo behind `scoring.engine.games.game.Game`, as a placement game: two to
    seven players, each for himself; the most place points are best, after the
    number of games the table agreed (``games``; by default one each).

    A game's entry: ``went_out``, the players who went out, first out first, and
    ``cards_left``, the cards on the table of each player still in
    (`finishing_order`); the places score `default_scheme`."""

    key = "cruzo"
    name = _("Cruzo")
    table_sizes = (2, 3, 4, 5, 6, 7)
    lower_wins = False
    options = {
        "games": Option(
            None,
            label=_("Number of games"),
            help=_(
                "Scored by place: the last place 0 points, each place above one more. "
                "Empty: one game each."
            ),
        )
    }
    figures = {"average_place": FigureKind(_("Average place"), False, "parties")}
    draws_for_ties = False
    fact_words = {"first": _("Out first: %(side)s")}
    formats: Mapping = {}
    confirmations_needed = staticmethod(majority_of_others)
    entry_fields = (
        EntryField("out", "place", required=False, label=_("Order going out"), none=_("still in")),
        EntryField("left", most=TABLE_CARDS, required=False, label=_("Cards left on the table")),
    )
    entry_body = (
        EntryField(
            "went_out", "sides", per_side=False, help="The sides that went out, first out first."
        ),
        EntryField(
            "cards_left",
            most=TABLE_CARDS,
            required=False,
            default={},
            keyed=True,
            help="The cards left on the table of each side still in, by side number.",
        ),
    )

    def entry_from(self, values: Mapping, sides: int, options: Mapping) -> dict:
        """The players who went out in their order, and the cards left of the others."""
        out = values["out"]
        went_out = sorted((n for n in out if out[n] is not None), key=out.get)
        left = {str(n): values["left"][n] for n in out if n not in went_out}
        return {"went_out": went_out, "cards_left": left}

    def values_from(self, entry: Mapping) -> dict:
        out = {n: place for place, n in enumerate(entry.get("went_out") or [], 1)}
        left = {int(n): count for n, count in (entry.get("cards_left") or {}).items()}
        return {"out": dict.fromkeys(left) | out, "left": dict.fromkeys(out) | left}

    def check_values(self, values: Mapping, names: Mapping, options: Mapping) -> list:
        """The players who went out are numbered 1, 2, 3 … without a gap, and each
        player still in has a count of the cards left on the table. Only an entry
        whose every field could be read (each side's place and count, if empty)."""
        if any(n not in values["out"] or n not in values["left"] for n in names):
            return []
        places = sorted(place for place in values["out"].values() if place is not None)
        if places != list(range(1, len(places) + 1)):
            words = _("Number the players who went out 1, 2, 3 … in the order they went out.")
            return [(None, None, words)]
        for n, place in values["out"].items():
            if place is None and values["left"].get(n) is None:
                words = _(
                    "%(name)s did not go out: give the cards left on the table.", name=names[n]
                )
                return [(None, None, words)]
        return []

    def record(self, hands, places, parties) -> dict[str, Figure]:
        """His average place at the table over his finished parties (1 best)."""
        return {"average_place": mean(places)}

    def sides(self, players: int, options: Mapping) -> list[tuple[int, ...]]:
        return each_alone(self, players)

    def hand(self, entry: Mapping, totals: Sequence[int], options: Mapping) -> HandScore:
        went_out = entry.get("went_out")
        left = entry.get("cards_left") or {}
        if not isinstance(left, Mapping):
            raise EntryError(_("Give the cards left on the table by player."))
        left = {int(side): count for side, count in left.items()}
        try:
            order = finishing_order(went_out, left)
        except (ValueError, TypeError) as error:
            raise EntryError(reason(error)) from error
        placed = {side for place in order for side in _group(place)}
        if placed != set(range(len(totals))):
            raise EntryError(_("Every player has a place: went out, or cards left on the table."))
        points = place_points(order)
        return HandScore(tuple(points[side] for side in range(len(totals))), {"first": order[0]})

    def standing(self, hands: Sequence[HandScore], sides: int, options: Mapping) -> Outcome:
        return after_agreed(standing, hands, sides, options.get("games"))


def _group(place) -> tuple:
    return tuple(place) if isinstance(place, frozenset) else (place,)


GAME = Cruzo()
