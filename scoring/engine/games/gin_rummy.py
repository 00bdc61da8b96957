"""Gin Rummy (seeds 000–002) behind the same `Game` as the other games.

The rules stay where the contract binds them: the cards (`scoring.engine.cards`),
the melds (`melds`), one hand (`hands.score_hand`), the settlement (`settlement`)
and the party formats (`formats`: two players, three in rotation, chouette,
partnerships). This module only asks them, so that the rest of Knock can ask
Gin Rummy what it asks every game.

A Gin Rummy party's options are its format and its ruleset; what a party keeps
(`Party.rules`) is the whole `Rules` the format made of the ruleset
(`Game.hand` and `Game.standing` read either). Sides are the format's: two
players or two teams (chouette: the box and the team), or three players each on
their own in a rotation.

A hand's entry names its ``ending`` (knock, gin, big gin, no game), the knocking
and the defending side (``knocker``, ``defender``: at two sides the defender is
the other), both deadwood counts, and where the rules or the director ask for
them the ``up_card`` (Oklahoma) and the rulings of seed 000 § 14. The hand's
facts say what the engine made of it (``kind``, ``winner``, ``knocker``,
``defender``, ``points``, ``knocker_deadwood``) — what the statistics read."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields

from scoring.engine.cards import InvalidCard, parse_card
from scoring.engine.formats import FORMATS, WrongPlayerCount
from scoring.engine.games.game import (
    EntryError,
    Figure,
    FigureKind,
    HandScore,
    Option,
    Outcome,
    check_table,
    mean,
    ranked_winners,
    reason,
)
from scoring.engine.games.game import Problem as _
from scoring.engine.hands import BIG_GIN, GIN, KNOCK, UNDERCUT, check_entry, score_hand
from scoring.engine.rules import RULESETS, Rules
from scoring.engine.settlement import partnership_round, settle_party, settle_rotation

#: The director's rulings of seed 000 § 14 an entry may carry (`score_hand`'s).
RULINGS = (
    "knocker_missing_cards",
    "defender_missing_cards",
    "defender_too_many_cards",
    "illegal_knock_accepted",
)
ENDINGS = (KNOCK, GIN, BIG_GIN, "no_game")
_RULE_FIELDS = frozenset(field.name for field in fields(Rules))


def rules_of(options: Mapping) -> Rules:
    """The rules a party plays by: those it kept (a `Rules` as a dict), or its
    ``ruleset`` as the format adapts it (partnerships play to 125 or 150)."""
    if "knock_limit" in options:
        return Rules.from_dict({k: v for k, v in options.items() if k in _RULE_FIELDS})
    return RULESETS[options.get("ruleset", "classic")]


def format_of(options: Mapping, players: int):
    """The party's format: the one chosen, else the first that ``players`` play
    (two: one against one; three: rotation; four and six: partnerships; five:
    chouette)."""
    chosen = options.get("format")
    if chosen is not None:
        return FORMATS[chosen]
    # Four and six play in partnerships (seed 000, "Sind vier Spieler beteiligt…",
    # "zu sechst"); a chouette is what five can play.
    preferred = ("two", "rotation", "partners", "chouette")
    return next(FORMATS[key] for key in preferred if players in FORMATS[key].sizes)


class GinRummy:
    """Gin Rummy as a club scores it: hand points, a box per hand won, the game
    and the shutout bonus (seed 000 "Abrechnung"); the highest total wins."""

    key = "gin_rummy"
    name = _("Gin Rummy")
    table_sizes = tuple(sorted({size for f in FORMATS.values() for size in f.sizes}))
    lower_wins = False
    options = {
        "format": Option(None, choices=(None, *FORMATS)),
        "ruleset": Option("classic", choices=tuple(RULESETS)),
    }
    figures = {
        "gins": FigureKind(_("Hands won with gin"), True, "hands"),
        "knocks_won": FigureKind(_("Knocks won"), True, "hands"),
        "undercuts_made": FigureKind(_("Undercuts made"), True, "hands"),
        "undercuts_suffered": FigureKind(_("Undercuts suffered"), True, "hands"),
        "deadwood_when_knocking": FigureKind(_("Deadwood when knocking"), False, "hands"),
    }
    # Seed 000: entrants tied on plus/minus points draw cards.
    draws_for_ties = True
    #: The party formats, each seating its own tables within the party.
    formats = FORMATS

    def sides(self, players: int, options: Mapping) -> list[tuple[int, ...]]:
        """The format's seating: positions in draw order, grouped by side."""
        check_table(self, players)
        try:
            seating = format_of(options, players).seating(players)
        except WrongPlayerCount as error:
            sizes = ", ".join(str(n) for n in error.sizes)
            raise EntryError(
                _(
                    "This format is played by %(sizes)s players, not %(players)s.",
                    sizes=sizes,
                    players=players,
                )
            ) from error
        count = 1 + max(seating.sides)
        return [
            tuple(seat for seat, side in enumerate(seating.sides) if side == n)
            for n in range(count)
        ]

    def hand(self, entry: Mapping, totals: Sequence[int], options: Mapping) -> HandScore:
        """One hand's points: the winning side writes what `score_hand` gives, the
        other sides nothing (a no-game: nothing for anyone)."""
        ending = entry.get("ending")
        if ending not in ENDINGS:
            raise EntryError(_("A hand ends with a knock, gin, big gin or no game."))
        count = len(totals)
        if ending == "no_game":
            return HandScore((0,) * count, {"kind": "no_game", "winner": None})
        knocker, defender = entry.get("knocker"), entry.get("defender")
        if defender is None and count == 2 and knocker in (0, 1):
            defender = 1 - knocker
        if not all(_is_side(s, count) for s in (knocker, defender)) or knocker == defender:
            raise EntryError(_("Name the knocker and the defender: two players at the table."))
        rules = rules_of(options)
        rulings = {name: entry[name] for name in RULINGS if entry.get(name)}
        try:
            up_card = parse_card(entry["up_card"]) if entry.get("up_card") else None
            check_entry(
                rules,
                ending=ending,
                knocker_points=entry.get("knocker_deadwood"),
                defender_points=entry.get("defender_deadwood"),
                up_card=up_card,
                **{k: v for k, v in rulings.items() if k != "illegal_knock_accepted"},
            )
            score = score_hand(
                rules,
                knocker_points=entry.get("knocker_deadwood"),
                defender_points=entry.get("defender_deadwood"),
                gin=ending == GIN,
                big_gin=ending == BIG_GIN,
                knock_limit=rules.knock_limit_for(up_card.value) if up_card else None,
                **rulings,
            )
        except (InvalidCard, ValueError) as error:
            raise EntryError(reason(error)) from error
        winner = {"knocker": knocker, "defender": defender}.get(score.winner)
        scores = [0] * count
        if winner is not None:
            scores[winner] = score.points
        facts = {
            "kind": score.kind,
            "winner": winner if score.points else None,
            "knocker": knocker,
            "defender": defender,
            "knocker_deadwood": entry.get("knocker_deadwood"),
        }
        return HandScore(tuple(scores), facts)

    def standing(self, hands: Sequence[HandScore], sides: int, options: Mapping) -> Outcome:
        """The settlement of the hands in order (`settle_party`; three sides:
        `settle_rotation`; a partnership round's tables, which share the ``round``
        of their facts, netted by `partnership_round`): over once a side reaches
        the target, the highest total winning, bonuses included."""
        rules = rules_of(options)
        if sides == 3:
            settled = settle_rotation(rules, [_entry(hand) for hand in hands])
            totals = [player.total for player in settled.players]
            winners = ranked_winners(totals, False) if settled.finished else frozenset()
            return Outcome(settled.finished, winners)
        entries = [
            partnership_round([_entry(h) for h in tables]) if len(tables) > 1 else _entry(tables[0])
            for tables in _rounds(hands)
        ]
        settled = settle_party(rules, entries)
        if not settled.finished:
            return Outcome(False)
        if settled.winner is None:
            return Outcome(True, frozenset((0, 1)))
        return Outcome(True, frozenset((settled.winner,)))

    def record(self, hands, places, parties) -> dict[str, Figure]:
        """His gins of the hands he played that someone ended (a no-game says
        nothing of his play); his knocks that won, of his knocks; the undercuts he
        made as defender and suffered as knocker (seed 000 § 9); his mean deadwood
        when knocking."""
        ended = [h for h in hands if h.facts.get("kind") in (KNOCK, UNDERCUT, GIN, BIG_GIN)]
        knocks = [h for h in ended if h.facts["kind"] in (KNOCK, UNDERCUT)]
        mine = [h for h in knocks if h.facts.get("knocker") == h.side]
        defended = [h for h in knocks if h.facts.get("defender") == h.side]
        gins = sum(
            h.facts["kind"] in (GIN, BIG_GIN) and h.facts.get("knocker") == h.side for h in ended
        )
        return {
            "gins": Figure(gins, len(ended)),
            "knocks_won": Figure(sum(h.facts["kind"] == KNOCK for h in mine), len(mine)),
            "undercuts_made": Figure(
                sum(h.facts["kind"] == UNDERCUT for h in defended), len(defended)
            ),
            "undercuts_suffered": Figure(sum(h.facts["kind"] == UNDERCUT for h in mine), len(mine)),
            "deadwood_when_knocking": mean(
                [
                    h.facts["knocker_deadwood"]
                    for h in mine
                    if h.facts.get("knocker_deadwood") is not None
                ]
            ),
        }

    def confirmations_needed(self, sides: Sequence[Sequence[int]], entering: int) -> int:
        """One player of the other side at the table (seed 000: the opponent)."""
        return 1


def _is_side(value: object, count: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count


def _entry(hand: HandScore):
    """A hand as the settlement's sheet reads it: ``None`` or ``(side, points)``."""
    for side, points in enumerate(hand.scores):
        if points:
            return (side, points)
    return None


def _rounds(hands: Sequence[HandScore]) -> list[list[HandScore]]:
    """The hands by round: the tables of one partnership round carry the same
    ``round`` in their facts; any other hand is a round of its own."""
    rounds: list[list[HandScore]] = []
    for hand in hands:
        number = hand.facts.get("round")
        if rounds and number is not None and rounds[-1][0].facts.get("round") == number:
            rounds[-1].append(hand)
        else:
            rounds.append([hand])
    return rounds


GAME = GinRummy()
