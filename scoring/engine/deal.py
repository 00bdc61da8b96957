"""Who deals, who plays and where everyone sits.

Seed 000 and seed 002: before a party every player draws a card; king is high,
ace low, and equal ranks are ordered ♣ < ♦ < ♥ < ♠ (the order of `Card`). The
loser of a hand deals the next one; after a no-game the same dealer deals again
(seed 000 § 12, seed 002 "No game"). The draws for three players, chouette and
partnerships are below. Randomness comes in as ``rng`` (a `random.Random`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from random import Random

from scoring.engine.cards import DECK, Card, parse_card
from scoring.engine.hands import hand_winner, read_hands

#: Seed 000 "Sind vier Spieler beteiligt…" and "zu sechst": two teams of two or three.
PARTNERSHIP_SIZES = (4, 6)


@dataclass(frozen=True, slots=True)
class NextHand:
    """The two players of a hand: the dealer, the forehand (who plays first), and
    the players who sit this hand out (in the order they would come in)."""

    dealer: Hashable
    forehand: Hashable
    sitting_out: tuple = ()

    @property
    def players(self) -> tuple:
        """The two players at the table, forehand first."""
        return (self.forehand, self.dealer)


@dataclass(frozen=True, slots=True)
class ChouetteStart:
    """A chouette party's line-up: the box (Alleinspieler) and his opponents in the
    order they take the table. ``team[0]`` plays and deals the first hand."""

    box: Hashable
    team: tuple

    @property
    def dealer(self) -> Hashable:
        """The partner who meets the box first deals (seed 000 "zu dritt" 2)."""
        return self.team[0]


@dataclass(frozen=True, slots=True)
class PartnershipSeating:
    """Two teams and the seats. ``teams[0]`` drew the high cards, ``teams[1]`` the
    low ones, each in draw order; ``seats`` runs clockwise from the highest card."""

    teams: tuple[tuple, tuple]
    seats: tuple


def draw_cards(players: Iterable[Hashable], rng: Random) -> dict:
    """Each player draws one card from one shuffled deck (seed 000, "Vor Beginn einer
    Partie zieht jeder Spieler eine Karte"). Returns ``{player: Card}``."""
    players = list(players)
    if len(set(players)) != len(players):
        raise ValueError("Every player draws once: a player is named twice.")
    if not 1 <= len(players) <= len(DECK):
        raise ValueError(f"Between 1 and {len(DECK)} players can draw, not {len(players)}.")
    return dict(zip(players, rng.sample(DECK, len(players)), strict=True))


def order_by_draw(draws: Mapping[Hashable, Card | str]) -> list:
    """The players, highest card first: king high, ace low, equal ranks ordered
    ♣ < ♦ < ♥ < ♠ (seed 000). Cards may be given as `Card` or text."""
    cards = {player: parse_card(card) for player, card in draws.items()}
    if len(set(cards.values())) != len(cards):
        raise ValueError("Two players cannot draw the same card: the draw is from one deck.")
    return sorted(cards, key=cards.__getitem__, reverse=True)


def first_dealer(draws: Mapping[Hashable, Card | str]) -> Hashable:
    """Two players: the lower card deals the first hand, the higher card is forehand
    (seed 000, "Der Spieler, der die niedrigere Karte gezogen hat … mischt";
    seed 002, "Vor Beginn einer Partie")."""
    if len(draws) != 2:
        raise ValueError(f"The first dealer is drawn between two players, not {len(draws)}.")
    return order_by_draw(draws)[-1]


def dealer_for_hand(first_dealer: int, hands: Sequence[object], n: int | None = None) -> int:
    """The side (0 or 1) that deals hand ``n`` (1-based; default: the next hand).

    The loser of a hand deals the next one (seed 000 "Der Verlierer eines Spiels
    teilt", seed 002 "Partie"); after a no-game, or a hand that scored nothing, the
    same dealer deals again (seed 000 § 12, seed 002 "No game"). ``hands`` are
    party-sheet entries as for `scoring.engine.settlement.settle_party`; only the first
    ``n - 1`` are used.
    """
    if type(first_dealer) is not int or first_dealer not in (0, 1):
        raise ValueError(f"The first dealer must be side 0 or 1, not {first_dealer!r}.")
    entries = read_hands(hands)
    if n is None:
        n = len(entries) + 1
    if type(n) is not int or not 1 <= n <= len(entries) + 1:
        raise ValueError(f"Hand {n} cannot be dealt after {len(entries)} hands.")
    dealer = first_dealer
    for entry in entries[: n - 1]:
        winner = hand_winner(entry)
        if winner is not None:
            dealer = 1 - winner
    return dealer


def rotation_start(draws: Mapping[Hashable, Card | str]) -> NextHand:
    """Three players who rotate: the lowest card sits out the first hand, the second
    highest deals and the highest is forehand (seed 000, "Gin Rummy zu dritt" 1)."""
    if len(draws) != 3:
        raise ValueError(f"The rotation is for three players, not {len(draws)}.")
    highest, second, lowest = order_by_draw(draws)
    return NextHand(dealer=second, forehand=highest, sitting_out=(lowest,))


def rotation_turns(hands: Sequence[object], first_players: Sequence[int] = (0, 1)) -> list:
    """The table of every hand of a three-player rotation, and of the next one.

    Seed 000, "Gin Rummy zu dritt" 1: the loser of a hand sits out, the winner plays
    the player who sat out, and that player deals. ``first_players`` is
    ``(forehand, dealer)`` of the first hand (see `rotation_start`); the third player
    sits out. After a no-game, or a hand that scored nothing, the same two play again
    and the same dealer deals (seed 000 § 12). ``hands`` items are ``None`` or
    ``(player, points)``; a hand credited to the player sitting out raises
    `ValueError`. Returns ``len(hands) + 1`` `NextHand` items.
    """
    forehand, dealer = _check_first_players(first_players)
    (out,) = {0, 1, 2} - {forehand, dealer}
    turn = NextHand(dealer=dealer, forehand=forehand, sitting_out=(out,))
    turns = [turn]
    for number, entry in enumerate(read_hands(hands, players=3), start=1):
        if entry is not None and entry[0] not in turn.players:
            raise ValueError(
                f"Hand {number}: player {entry[0]} sat out that hand; "
                f"players {turn.forehand} and {turn.dealer} were at the table."
            )
        winner = hand_winner(entry)
        if winner is not None:
            (loser,) = set(turn.players) - {winner}
            turn = NextHand(dealer=turn.sitting_out[0], forehand=winner, sitting_out=(loser,))
        turns.append(turn)
    return turns


def chouette_start(draws: Mapping[Hashable, Card | str]) -> ChouetteStart:
    """Chouette: the highest card is the box and plays alone against the others; of
    them the higher card deals and plays first (seed 000 "zu dritt" 2, seed 002
    "Chouette"). With more than three players the team takes the table in draw order."""
    if len(draws) < 3:
        raise ValueError(f"A chouette needs at least three players, not {len(draws)}.")
    box, *team = order_by_draw(draws)
    return ChouetteStart(box=box, team=tuple(team))


def chouette_turns(hands: Sequence[object], *, box: Hashable, team: Sequence[Hashable]) -> list:
    """The table of every hand of a chouette party, and of the next one.

    Seed 000 "zu dritt" 2 and seed 002 "Chouette": the first partner plays until he
    loses a hand, then the next partner takes over (after the last, the first again).
    ``hands`` items are ``None`` or ``(side, points)`` with side 0 the box and 1 the
    team. The loser deals the next hand: when the team loses, the partner who comes
    in deals; after a no-game the same dealer deals again (seed 000 § 12). Returns
    ``len(hands) + 1`` `NextHand` items (forehand, dealer: the box and the partner).
    """
    team = check_chouette(box, team)
    captain = 0

    def turn(dealer: Hashable) -> NextHand:
        forehand = team[captain] if dealer == box else box
        waiting = team[captain + 1 :] + team[:captain]
        return NextHand(dealer=dealer, forehand=forehand, sitting_out=waiting)

    current = turn(team[0])
    turns = [current]
    for entry in read_hands(hands):
        winner = hand_winner(entry)
        if winner == 0:
            captain = (captain + 1) % len(team)
            current = turn(team[captain])
        elif winner == 1:
            current = turn(box)
        turns.append(current)
    return turns


def check_chouette(box: Hashable, team: Sequence[Hashable]) -> tuple:
    """The team as a tuple, after checking it has two or more players and not the box."""
    team = tuple(team)
    if len(team) < 2:
        raise ValueError("A chouette team has at least two players.")
    if len(set(team)) != len(team) or box in team:
        raise ValueError("The box and the team members must be different players.")
    return team


def partnership_seating(draws: Mapping[Hashable, Card | str]) -> PartnershipSeating:
    """Four or six players in two teams (seed 000, "Sind vier Spieler beteiligt…").

    The higher half of the draw plays against the lower half. The highest card picks
    his seat, his partner sits opposite, the third highest on his left and the lowest
    on his right: clockwise, the seats alternate high, low, high, low. Six players
    follow the same scheme (seed 000, "zu sechst"): clockwise H1, L1, H2, L2, H3, L3,
    where the low team sits in draw order starting on the highest's left.
    """
    if len(draws) not in PARTNERSHIP_SIZES:
        raise ValueError(f"Partnerships are for four or six players, not {len(draws)}.")
    order = order_by_draw(draws)
    size = len(order) // 2
    high, low = tuple(order[:size]), tuple(order[size:])
    seats = tuple(player for pair in zip(high, low, strict=True) for player in pair)
    return PartnershipSeating(teams=(high, low), seats=seats)


def partnership_tables(
    teams: Sequence[Sequence[Hashable]], round_number: int, dealing_team: int = 1
) -> tuple:
    """Who plays whom in round ``round_number`` (1-based), one `NextHand` per table.

    Seed 000, "Sind vier Spieler beteiligt…": in the first round each player of the
    low team deals and plays the opponent on his right; after every round the
    partners change opponents, so each plays his right and his left opponent in turn.
    With ``teams`` in draw order as `partnership_seating` gives them, low player ``j``
    plays high player ``j + round_number - 1`` (modulo the team size). For teams of
    two that is exactly the seed's alternation; for teams of three it also brings
    each player to the opponent across the table, so everyone meets everyone.

    ``dealing_team`` (0 or 1) deals at every table: the low team (1) in the first
    round, then the team that lost the last round (`dealer_for_hand` over the round
    entries of `scoring.engine.settlement.partnership_round`).
    """
    high, low = (tuple(team) for team in teams)
    if len(high) != len(low) or len(high) * 2 not in PARTNERSHIP_SIZES:
        raise ValueError("Partnerships are two teams of two or two teams of three.")
    if type(round_number) is not int or round_number < 1:
        raise ValueError(f"Rounds are numbered from 1, not {round_number!r}.")
    if type(dealing_team) is not int or dealing_team not in (0, 1):
        raise ValueError(f"The dealing team must be 0 or 1, not {dealing_team!r}.")
    tables = []
    for j, low_player in enumerate(low):
        high_player = high[(j + round_number - 1) % len(high)]
        if dealing_team == 1:
            tables.append(NextHand(dealer=low_player, forehand=high_player))
        else:
            tables.append(NextHand(dealer=high_player, forehand=low_player))
    return tuple(tables)


def _check_first_players(first_players: Sequence[int]) -> tuple[int, int]:
    pair = tuple(first_players)
    if (
        len(pair) != 2
        or len(set(pair)) != 2
        or not all(type(p) is int and 0 <= p <= 2 for p in pair)
    ):
        raise ValueError(
            f"The first hand is played by two different players of 0, 1 and 2, not {pair!r}."
        )
    return pair
