"""Settling a party: hand points, boxes, game and shutout bonuses, and who pays whom.

Seed 000 ("Eine Partie setzt sich … zusammen", "Beispiel einer Abrechnung") and
seed 002 ("Partie", "Abrechnung"): a party runs until a side reaches the target;
then every side adds a box bonus per hand won, the side that reached the target
first adds the game bonus, and a shutout bonus goes to the winner when the loser
wrote nothing. Seed 001 doubles the winner's hand points instead (``"double"``).
The loser pays the difference of the totals.

A party sheet is a list of entries, one per hand: ``None`` for a no-game, or
``(side, points)``. An entry with 0 points (a hand that scored nothing, such as a
tie without undercut) counts like a no-game: it wins no box, the same dealer deals
again, and under ``"double"`` it spoils a shutout like a no-game does.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from scoring.engine.deal import (
    ChouetteStart,
    check_chouette,
    chouette_turns,
    dealer_for_hand,
    rotation_turns,
)
from scoring.engine.hands import Entry, hand_winner, read_hands
from scoring.engine.rules import SHUTOUT_BONUS, SHUTOUT_DOUBLE, Rules

#: Seed 000: four players (teams of two) play to 125, six (teams of three) to 150.
PARTNERSHIP_TARGETS = {2: 125, 3: 150}


class PartyOver(ValueError):
    """A hand entered after the party was already decided."""


@dataclass(frozen=True, slots=True)
class SideTotal:
    """One side's column. ``total`` is the sum of the other amounts.

    ``shutout_bonus`` holds the shutout in either style: the bonus (seed 000), or,
    under ``"double"`` (seed 001), the extra hand points the doubling adds.
    """

    points: int
    boxes: int
    box_bonus: int = 0
    game_bonus: int = 0
    shutout_bonus: int = 0
    total: int = field(init=False)

    def __post_init__(self) -> None:
        total = self.points + self.box_bonus + self.game_bonus + self.shutout_bonus
        object.__setattr__(self, "total", total)


@dataclass(frozen=True, slots=True)
class Settlement:
    """A two-sided party. ``winner`` is ``None`` while the party runs and when the
    totals are equal; ``margin`` is what the loser pays: 0 in both those cases.
    ``first_to_target`` is the side that reached the target (and got the game bonus)."""

    sides: tuple[SideTotal, SideTotal]
    finished: bool
    winner: int | None
    margin: int
    first_to_target: int | None = None


@dataclass(frozen=True, slots=True)
class SheetRow:
    """The sheet after one hand: running points and boxes, points still needed."""

    number: int
    entry: Entry
    points: tuple[int, ...]
    boxes: tuple[int, ...]
    needed: tuple[int, ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class RotationSettlement:
    """Three players in rotation: their columns and the payments ``(payer, payee, amount)``."""

    players: tuple[SideTotal, SideTotal, SideTotal]
    payments: list[tuple[int, int, int]]
    finished: bool
    first_to_target: int | None = None


@dataclass(frozen=True, slots=True)
class ChouetteSettlement:
    """A chouette: the party between the box (side 0) and the team (side 1), the
    partner who played each hand, and the payments ``(payer, payee, amount)``."""

    box: Hashable
    team: tuple
    party: Settlement
    captains: tuple
    payments: list[tuple[Hashable, Hashable, int]]


@dataclass(frozen=True, slots=True)
class PartnershipSettlement:
    """Two teams: the party over the rounds, each round's entry for the team column,
    and the team that deals the next round."""

    party: Settlement
    rounds: tuple[Entry, ...]
    dealing_team: int


def settle_party(rules: Rules, hands: Sequence[object]) -> Settlement:
    """Settle a two-sided party (seed 000 "Abrechnung", seed 002 "Abrechnung").

    ``hands``: ``None`` for a no-game or ``(side, points)``. The party is finished
    as soon as a side reaches ``rules.target``; a further hand raises `PartyOver`.
    Once finished, each side adds ``rules.box_bonus`` per hand won, the side that
    reached the target first adds ``rules.game_bonus``, and:

    - ``"bonus"``: ``rules.shutout_bonus`` when the other side wrote nothing;
    - ``"double"`` (seed 001): when that side won every hand and no hand was a
      no-game, its hand points count twice; the extra is ``shutout_bonus``.

    The side with the higher total wins (not necessarily the one that reached the
    target, seed 000 "Anmerkung"), and the loser pays the difference, ``margin``.
    Seed 000's sheet: 23, 27 to A; 32 to B; 35 to A; 10 to B; 19 to A settles
    A 104 + 80 + 100 = 284 against B 42 + 40 = 82, margin 202.
    """
    return _settle(rules, read_hands(hands), "hand")


def score_sheet(rules: Rules, hands: Sequence[object], sides: int = 2) -> list[SheetRow]:
    """The running sheet of a party, one row per hand (seed 000, "Beispiel einer
    Abrechnung"): points and boxes so far, and the points each side still needs to
    reach the target. ``sides``: 2, or 3 for a rotation, where each player keeps his
    own column. A hand after the party is over raises `PartyOver`."""
    rows = []
    points, boxes = [0] * sides, [0] * sides
    finished = False
    for number, entry in enumerate(read_hands(hands, players=sides), start=1):
        if finished:
            raise _party_over("hand", number)
        side = hand_winner(entry)
        if side is not None:
            points[side] += entry[1]
            boxes[side] += 1
            finished = points[side] >= rules.target
        needed = tuple(max(rules.target - p, 0) for p in points)
        rows.append(SheetRow(number, entry, tuple(points), tuple(boxes), needed, finished))
    return rows


def settle_rotation(
    rules: Rules, hands: Sequence[object], first_players: Sequence[int] = (0, 1)
) -> RotationSettlement:
    """Settle three players who rotate (seed 000, "Gin Rummy zu dritt" 1).

    Each player keeps his own column: hand points, a box per hand won, the game bonus
    for the first to reach the target. Who is at the table follows
    `scoring.engine.deal.rotation_turns` (``first_players`` = forehand and dealer of the first
    hand); a hand credited to the player sitting out raises `ValueError`.

    Payments, once finished: every two players settle the difference of their totals,
    the lower paying the higher, so the highest collects from both others and the
    second is paid by the lowest; equal totals pay nothing. A player with no points
    also pays ``rules.shutout_bonus``, but only to the player who reached the target
    first. That bonus is a payment, not part of any total (in the seed B pays A
    262 − 37, not 362 − 37). Under ``"double"`` the first to the target doubles his
    hand points when he won every hand and no hand was a no-game, and no separate
    bonus is paid.

    Seed example: A 102 points in three hands, B 17 in one, C none: A 262, B 37,
    C 0; B pays A 225, C pays A 362, C pays B 37.
    """
    entries = read_hands(hands, players=3)
    points, boxes, first = _tally(rules, entries, 3, "hand")
    rotation_turns(hands, first_players)  # every scorer must have been at the table
    players = _totals(rules, entries, points, boxes, first, shutout_in_total=False)
    if first is None:
        return RotationSettlement(players, [], False, None)
    totals = [player.total for player in players]
    order = sorted(range(3), key=lambda p: (-totals[p], p))
    payments = []
    for rank, payee in enumerate(order):
        for payer in order[rank + 1 :]:
            amount = totals[payee] - totals[payer]
            if rules.shutout == SHUTOUT_BONUS and payee == first and points[payer] == 0:
                amount += rules.shutout_bonus
            if amount > 0:
                payments.append((payer, payee, amount))
    return RotationSettlement(players, payments, True, first)


def settle_chouette(
    rules: Rules,
    hands: Sequence[object],
    *,
    box: Hashable = 0,
    team: Sequence[Hashable] = (1, 2),
) -> ChouetteSettlement:
    """Settle a chouette: one player, the box, against a team of two or more
    (seed 000 "zu dritt" 2, seed 002 "Chouette").

    The team keeps one column: ``hands`` items are ``None`` or ``(side, points)``
    with side 0 the box and side 1 the team, settled as `settle_party`. The partner
    at the table plays until he loses a hand, then the next one takes over
    (`scoring.engine.deal.chouette_turns`; ``captains`` lists who played each hand). At the
    end the box collects the margin from every team member, or pays it to every
    one: "an beide Gegner den Gewinn aus … von beiden Gegnern den Gewinn ein".
    """
    team = check_chouette(box, team)
    party = settle_party(rules, hands)
    turns = chouette_turns(hands, box=box, team=team)
    captains = tuple(next(p for p in turn.players if p != box) for turn in turns[:-1])
    if party.winner == 0:
        payments = [(member, box, party.margin) for member in team]
    elif party.winner == 1:
        payments = [(box, member, party.margin) for member in team]
    else:
        payments = []
    return ChouetteSettlement(box, team, party, captains, payments)


def chouette_next_party(
    rules: Rules,
    hands: Sequence[object],
    *,
    box: Hashable = 0,
    team: Sequence[Hashable] = (1, 2),
) -> ChouetteStart:
    """The line-up of the next chouette party (seed 000 "zu dritt" 2, seed 002).

    If the box won the last hand he stays box and meets the player who sat out last,
    who deals. If he lost it, the winner of the last hand becomes the box and meets
    his former partner, who deals, while the former box sits out. With more than two
    partners "the player who sat out" is the next partner in turn after the one who
    played the last hand; the others follow in their old order, and a player who
    leaves the table (the last partner, or the former box) joins the end of the line.
    Raises `ValueError` while the party is not finished.
    """
    team = check_chouette(box, team)
    party = settle_party(rules, hands)
    if not party.finished:
        raise ValueError("The chouette party is not over yet: the next box is not known.")
    last_hand = chouette_turns(hands, box=box, team=team)[-2]
    captain = next(p for p in last_hand.players if p != box)
    i = team.index(captain)
    following = team[i + 1 :] + team[:i]
    last_entry = read_hands(hands)[-1]
    if hand_winner(last_entry) == 0:
        return ChouetteStart(box=box, team=(*following, captain))
    return ChouetteStart(box=captain, team=(*following, box))


def partnership_rules(rules: Rules, team_size: int) -> Rules:
    """The rules of a partnership party: the target is 125 points for teams of two
    and 150 for teams of three (seed 000, "Sind vier Spieler beteiligt…", "zu
    sechst"); everything else as ``rules``. A partnership party should store these
    rules when it starts; `settle_partnership` uses the target it is given."""
    if team_size not in PARTNERSHIP_TARGETS:
        raise ValueError(f"Partnership teams have two or three players, not {team_size!r}.")
    return rules.but(target=PARTNERSHIP_TARGETS[team_size])


def partnership_round(tables: Sequence[object]) -> Entry:
    """The team column's entry for one round (seed 000, "Die Abrechnung eines einzelnen
    Spiels erfolgt durch Addition der beiden Resultate").

    ``tables``: one result per table, ``None`` (no-game at that table) or
    ``(side, points)``. The round's entry is the net of the tables for the side ahead:
    A loses 18 and his partner B wins 25, so the team writes 7 (and wins the round's
    box). A round whose net is 0 is written like a no-game: no box for anyone, and
    the same team deals again.
    """
    net = 0
    for entry in read_hands(tables, noun="Table"):
        if entry is not None:
            net += entry[1] if entry[0] == 0 else -entry[1]
    if net == 0:
        return None
    return (0, net) if net > 0 else (1, -net)


def settle_partnership(
    rules: Rules,
    rounds: Sequence[Sequence[object]],
    *,
    team_size: int = 2,
    first_dealing_team: int = 1,
) -> PartnershipSettlement:
    """Settle two teams who play at ``team_size`` tables at once (seed 000, "Sind vier
    Spieler beteiligt…" and "zu sechst").

    Each round holds one result per table (``None`` or ``(side, points)``, side 0 or 1
    the team); the team column gets `partnership_round`'s net and is then settled like
    any party (`settle_party`): boxes per round won, game bonus, shutout. The target
    is ``rules.target``: pass `partnership_rules` for the seed's 125 or 150. A no-game
    at one table is that table's result for the round; the table does not replay.
    The team that lost a round deals the next one at every table ("Das nächste Spiel
    teilen also die Spieler C und D"); the low team (side 1 in
    `scoring.engine.deal.partnership_seating`) deals the first.
    """
    if team_size not in PARTNERSHIP_TARGETS:
        raise ValueError(f"Partnership teams have two or three players, not {team_size!r}.")
    entries = []
    for number, tables in enumerate(rounds, start=1):
        if isinstance(tables, str | bytes) or _length(tables) != team_size:
            raise ValueError(
                f"Round {number}: write one result for each of the {team_size} tables."
            )
        try:
            entries.append(partnership_round(tables))
        except ValueError as error:
            raise ValueError(f"Round {number}: {error}") from error
    party = _settle(rules, entries, "round")
    dealing_team = dealer_for_hand(first_dealing_team, entries)
    return PartnershipSettlement(party, tuple(entries), dealing_team)


def _settle(rules: Rules, entries: list[Entry], noun: str) -> Settlement:
    points, boxes, first = _tally(rules, entries, 2, noun)
    sides = _totals(rules, entries, points, boxes, first, shutout_in_total=True)
    if first is None or sides[0].total == sides[1].total:
        return Settlement(sides, first is not None, None, 0, first)
    winner = 0 if sides[0].total > sides[1].total else 1
    margin = sides[winner].total - sides[1 - winner].total
    return Settlement(sides, True, winner, margin, first)


def _tally(
    rules: Rules, entries: list[Entry], size: int, noun: str
) -> tuple[list[int], list[int], int | None]:
    """Hand points and boxes per side, and the side that reached the target."""
    points, boxes = [0] * size, [0] * size
    first = None
    for number, entry in enumerate(entries, start=1):
        if first is not None:
            raise _party_over(noun, number)
        side = hand_winner(entry)
        if side is None:
            continue
        points[side] += entry[1]
        boxes[side] += 1
        if points[side] >= rules.target:
            first = side
    return points, boxes, first


def _totals(
    rules: Rules,
    entries: list[Entry],
    points: list[int],
    boxes: list[int],
    first: int | None,
    *,
    shutout_in_total: bool,
) -> tuple[SideTotal, ...]:
    """The columns; bonuses only once a side has reached the target."""
    if first is None:
        return tuple(SideTotal(p, b) for p, b in zip(points, boxes, strict=True))
    shutout = 0
    if rules.shutout == SHUTOUT_DOUBLE:
        if all(hand_winner(entry) == first for entry in entries):
            shutout = points[first]
    elif shutout_in_total and all(p == 0 for side, p in enumerate(points) if side != first):
        shutout = rules.shutout_bonus
    return tuple(
        SideTotal(
            points=p,
            boxes=b,
            box_bonus=b * rules.box_bonus,
            game_bonus=rules.game_bonus if side == first else 0,
            shutout_bonus=shutout if side == first else 0,
        )
        for side, (p, b) in enumerate(zip(points, boxes, strict=True))
    )


def _length(items: object) -> int | None:
    try:
        return len(items)  # type: ignore[arg-type]
    except TypeError:
        return None


def _party_over(noun: str, number: int) -> PartyOver:
    return PartyOver(
        f"The party was decided after {noun} {number - 1}; {noun} {number} cannot be added."
    )
