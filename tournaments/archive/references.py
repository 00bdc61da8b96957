"""What the parts of an archive say about each other, checked before anything is
written: every reference names something the archive holds (a seat's player, a
seating's entrant and table, a hand's seats, an audit record's hand, a game's
party), nothing is held twice where the database keeps one, each party sits as
its format seats it, and every party belongs to a table or a game of the
tournament (or to the night), so none is left running with nothing around it.

Each problem is a `Problem`: the field, as the schema's paths name it, and the
rule, in the reader's language."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext

from scoring.engine.formats import FORMATS
from scoring.models import Hand
from tournaments.archive.schema import NightArchive, PartyIn, TournamentArchive


@dataclass(frozen=True)
class Problem:
    field: str
    message: str


class _Found:
    def __init__(self):
        self.problems: list[Problem] = []

    def add(self, field: str, message: str) -> None:
        self.problems.append(Problem(field, message))

    def twice(self, field: str) -> None:
        self.add(field, gettext("is in the archive twice"))


def _duplicates(values) -> set:
    return {value for value, count in Counter(values).items() if count > 1}


def problems_of(archive: TournamentArchive | NightArchive) -> list[Problem]:
    """Every reference of ``archive`` that does not hold (empty: the archive is whole)."""
    found = _Found()
    players = {p.key for p in archive.players}
    for i in sorted(_duplicates(p.key for p in archive.players)):
        found.twice(f"players.key={i}")
    # Members and guests of one name are one player of the club (in any case).
    names = [p.name.casefold() for p in archive.players if p.role is not None]
    for name in sorted(_duplicates(names)):
        found.add("players", gettext("two players are named “%(name)s”") % {"name": name})
    for i in sorted(_duplicates(p.key for p in archive.parties)):
        found.twice(f"parties.key={i}")
    for i, party in enumerate(archive.parties):
        _party(found, f"parties.{i}", party, players)
    if isinstance(archive, TournamentArchive):
        _tournament(found, archive, players)
    return found.problems


def _party(found: _Found, at: str, party: PartyIn, players: set) -> None:
    party_format = FORMATS[party.format]
    count = len(party.seats)
    if count not in party_format.sizes:
        sizes = ", ".join(map(str, party_format.sizes))
        found.add(
            f"{at}.seats",
            gettext("a party of this format seats %(sizes)s players, not %(count)s")
            % {"sizes": sizes, "count": count},
        )
        return
    sides = party_format.seating(count).sides
    positions = {s.position for s in party.seats}
    if positions != set(range(count)):
        found.add(f"{at}.seats", gettext("the seats' positions must run from 0 without a gap"))
        return
    for j, seat in enumerate(party.seats):
        if seat.player not in players:
            found.add(f"{at}.seats.{j}.player", gettext("names a player the archive does not hold"))
        if seat.side != sides[seat.position]:
            found.add(
                f"{at}.seats.{j}.side",
                gettext("the seat in position %(position)s plays for side %(side)s")
                % {"position": seat.position, "side": sides[seat.position]},
            )
    if _duplicates(s.player for s in party.seats):
        found.add(f"{at}.seats", gettext("a player has one seat in a party"))
    lineup: dict[int, list[int]] = {}
    for seat in party.seats:
        lineup.setdefault(seat.side, []).append(seat.position)
    tables = party_format.table_count(lineup)
    hands = set()
    for j, hand in enumerate(party.hands):
        here = f"{at}.hands.{j}"
        if (hand.number, hand.table) in hands:
            found.twice(here)
        hands.add((hand.number, hand.table))
        if hand.table > tables:
            found.add(
                f"{here}.table",
                gettext("this party plays at %(tables)s table(s)") % {"tables": tables},
            )
        seats = {
            "dealer": hand.dealer,
            "knocker": hand.knocker,
            "defender": hand.defender,
            "winner": hand.winner,
            "entered_by": hand.entered_by,
            "confirmed_by": hand.confirmed_by,
        }
        if hand.counter is not None:
            counter = hand.counter
            seats |= {
                "counter.seat": counter.seat,
                "counter.knocker": counter.knocker,
                "counter.winner": counter.winner,
                "counter.defender": counter.defender,
            }
        for name, position in seats.items():
            if position is not None and position not in positions:
                found.add(f"{here}.{name}", gettext("names a seat the archive does not hold"))
        if hand.ending != Hand.Ending.NO_GAME and (hand.knocker is None or hand.defender is None):
            found.add(here, gettext("a hand that was not a no-game names its knocker and defender"))
    keys = set()
    for j, record in enumerate(party.audit):
        here = f"{at}.audit.{j}"
        if record.hand is not None and tuple(record.hand) not in hands:
            found.add(f"{here}.hand", gettext("names a hand the archive does not hold"))
        if record.seat is not None and record.seat not in positions:
            found.add(f"{here}.seat", gettext("names a seat the archive does not hold"))
        if record.seat is not None and record.key is not None:
            if (record.seat, record.key) in keys:
                found.twice(f"{here}.key")
            keys.add((record.seat, record.key))


def _tournament(found: _Found, archive: TournamentArchive, players: set) -> None:
    entrants = {e.key: e for e in archive.entrants}
    for key in sorted(_duplicates(e.key for e in archive.entrants)):
        found.twice(f"entrants.key={key}")
    for i, entrant in enumerate(archive.entrants):
        if entrant.player not in players:
            found.add(f"entrants.{i}.player", gettext("names a player the archive does not hold"))
    if _duplicates(e.player for e in archive.entrants):
        found.add("entrants", gettext("a player enters a tournament once"))
    pairs = set()
    for i, pair in enumerate(archive.keep_apart):
        for j, key in enumerate(pair):
            if key not in entrants:
                found.add(
                    f"keep_apart.{i}.{j}", gettext("names an entrant the archive does not hold")
                )
        if pair[0] == pair[1] or frozenset(pair) in pairs:
            found.add(f"keep_apart.{i}", gettext("a pair kept apart is two entrants, named once"))
        pairs.add(frozenset(pair))
    _draws(found, "tournament.final_draws", archive.tournament.final_draws, entrants)
    numbers = [r.number for r in archive.rounds]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        found.add("rounds", gettext("the rounds are numbered 1, 2, 3 … without a gap"))
    for i, round in enumerate(archive.rounds):
        _round(found, f"rounds.{i}", round, entrants)
    parties = {p.key: p for p in archive.parties}
    used = Counter()
    tables = _tables(found, archive, set(numbers), parties, used)
    _seatings(found, archive, tables, entrants, parties)
    if archive.final is not None:
        _final(found, archive, entrants, parties, used)
    for i, party in enumerate(archive.parties):
        if used[party.key] == 0:
            found.add(f"parties.{i}", gettext("belongs to no table and no game of the final"))
        elif used[party.key] > 1:
            found.add(f"parties.{i}", gettext("belongs to more than one table or game"))


def _draws(found: _Found, at: str, draws, entrants: dict) -> None:
    for j, draw in enumerate(draws):
        if draw.entrant not in entrants:
            found.add(f"{at}.{j}.entrant", gettext("names an entrant the archive does not hold"))


def _round(found: _Found, at: str, round, entrants: dict) -> None:
    for j, key in enumerate(round.standings):
        if key not in entrants:
            found.add(f"{at}.standings.{j}", gettext("names an entrant the archive does not hold"))
    for key in round.points:
        if int(key) not in entrants:
            found.add(f"{at}.points.{key}", gettext("names an entrant the archive does not hold"))
    _draws(found, f"{at}.draws", round.draws, entrants)
    for j, line in enumerate(round.explanation):
        named = [line.first, line.second, *(key for key, _ in line.skipped)]
        if any(key is not None and key not in entrants for key in named):
            found.add(
                f"{at}.explanation.{j}", gettext("names an entrant the archive does not hold")
            )


def _tables(found: _Found, archive, rounds: set, parties: dict, used: Counter) -> dict:
    tables = {}
    for i, table in enumerate(archive.tables):
        here = f"tables.{i}"
        place = (table.round, table.number)
        if table.round not in rounds:
            found.add(f"{here}.round", gettext("names a round the archive does not hold"))
        if place in tables:
            found.twice(here)
        tables[place] = table
        if table.bye and (table.party is not None or table.absent is not None):
            found.add(here, gettext("a bye has no party and no one absent"))
        if table.party is not None:
            used[table.party] += 1
            _two_player_party(found, f"{here}.party", table.party, parties)
    return tables


def _two_player_party(found: _Found, at: str, key: int, parties: dict) -> None:
    if key not in parties:
        found.add(at, gettext("names a party the archive does not hold"))
    elif len(parties[key].seats) != 2:  # its format was checked with its seats
        found.add(at, gettext("a tournament's game is a party of two players"))


def _seatings(found: _Found, archive, tables: dict, entrants: dict, parties: dict) -> None:
    seated: dict[tuple, dict[int, int]] = {place: {} for place in tables}
    in_round = set()
    for i, seating in enumerate(archive.seatings):
        here = f"seatings.{i}"
        place = tuple(seating.table)
        if place not in tables:
            found.add(f"{here}.table", gettext("names a table the archive does not hold"))
            continue
        if seating.entrant not in entrants:
            found.add(f"{here}.entrant", gettext("names an entrant the archive does not hold"))
        if seating.side in seated[place]:
            found.twice(f"{here}.side")
        if (place[0], seating.entrant) in in_round:
            found.add(here, gettext("an entrant sits at one table a round"))
        in_round.add((place[0], seating.entrant))
        seated[place][seating.side] = seating.entrant
    for i, table in enumerate(archive.tables):
        sides = seated[(table.round, table.number)]
        wanted = {0} if table.bye else {0, 1}
        if set(sides) != wanted:
            message = (
                gettext("a bye seats one entrant, on side 0")
                if table.bye
                else gettext("a table seats two entrants, on sides 0 and 1")
            )
            found.add(f"tables.{i}", message)
        elif table.party in parties and all(e in entrants for e in sides.values()):
            _same_players(
                found, f"tables.{i}.party", parties[table.party], sides.values(), entrants
            )


def _same_players(found: _Found, at: str, party, keys, entrants: dict) -> None:
    if {s.player for s in party.seats} != {entrants[key].player for key in keys if key}:
        found.add(at, gettext("the party's players are not the entrants at its table"))


def _final(found: _Found, archive, entrants: dict, parties: dict, used: Counter) -> None:
    final = archive.final
    for j, key in enumerate(final.seeds):
        if key not in entrants:
            found.add(f"final.seeds.{j}", gettext("names an entrant the archive does not hold"))
    if _duplicates(final.seeds):
        found.add("final.seeds", gettext("an entrant has one seed"))
    places = set()
    for i, match in enumerate(final.matches):
        here = f"final.matches.{i}"
        place = (match.round, match.slot, match.third_place)
        if place in places:
            found.twice(here)
        places.add(place)
        for name in ("first", "second", "winner"):
            key = getattr(match, name)
            if key is not None and key not in entrants:
                found.add(f"{here}.{name}", gettext("names an entrant the archive does not hold"))
        if match.winner is not None and match.winner not in (match.first, match.second):
            found.add(f"{here}.winner", gettext("the winner of a match is one of its players"))
        if match.absent is not None and match.second is None:
            found.add(f"{here}.absent", gettext("a bye has no one absent"))
        if match.games and (match.first is None or match.second is None):
            found.add(f"{here}.games", gettext("a match is played once both players are known"))
        if _duplicates(g.number for g in match.games):
            found.add(f"{here}.games", gettext("a game is played once"))
        for j, game in enumerate(match.games):
            used[game.party] += 1
            _two_player_party(found, f"{here}.games.{j}.party", game.party, parties)
            both = (match.first, match.second)
            if game.party in parties and all(key in entrants for key in both):
                _same_players(found, f"{here}.games.{j}.party", parties[game.party], both, entrants)
