"""What the parts of an archive say about each other, checked before anything is
written: every reference names something the archive holds (a seat's player, a
seating's entrant and table, a hand's seats, an audit record's hand, a game's
party), nothing is held twice where the database keeps one, and every party
belongs to a table or a game of the tournament (or to the night), so none is
left running with nothing around it.

Every party is checked on one path; what differs is asked of how its hands are
kept (`scoring.services.keeping.keeping_for`: `_FormatTables`, `_WholeTable`).
A party of a game of party formats sits as its format seats it, each hand at one
of the round's tables, and its scores and facts are what its columns say. A
party of a game without formats is asked of its game's engine
(`scoring.engine.games`): its options are the game's, its seats sit as the game
seats them, and each hand's entry is one the game accepts, scoring what the
archive says it scored.
A tournament of another game has the settings a new one would be allowed
(`tournaments.registration.game_settings`), and each of its tables seats as many
as its table size allows, in the order the table's party seats them.

Each problem is a `Problem`: the field, as the schema's paths name it, and the
rule, in the reader's language.

Kept as one module over 600 lines on purpose: its checks read one another's
findings (what a seat, a table or a party turned out to be) in one pass, and a
split by part would pass that state between modules."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.utils.translation import gettext

from scoring.engine.formats import FORMATS
from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.engine.games.game import EntryError as GameEntryError
from scoring.engine.games.game import HandScore, check_table, settle_options, side_totals
from scoring.errors import translated
from scoring.models import Hand, Party, Seat
from scoring.services.keeping import FormatTables, WholeTable, as_stored, format_scores, keeping_for
from tournaments.archive.parties import HandIn, PartyIn, tables_in_round
from tournaments.archive.schema import (
    ByeLineIn,
    NightArchive,
    PlannedLineIn,
    ScheduleLineIn,
    TableLineIn,
    TournamentArchive,
)
from tournaments.records import GameSettingsError
from tournaments.registration import game_settings


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
    games = {party.game for party in archive.parties}
    if isinstance(archive, TournamentArchive):
        games.add(archive.tournament.game)
    # Version 1 was written before any game kept whole tables.
    later = sorted(GAMES[game].name for game in games & ENTRY_GAMES.keys())
    if archive.version == 1 and later:
        found.add(
            "version",
            gettext("an archive of version 1 cannot hold a party of %(game)s")
            % {"game": ", ".join(later)},
        )
    if isinstance(archive, TournamentArchive):
        _tournament(found, archive, players)
    return found.problems


def _party(found: _Found, at: str, party: PartyIn, players: set) -> None:
    """A party of any game: seated as its keeping seats it (`_FormatTables`,
    `_WholeTable`), every seat, hand and record naming seats the party has, and
    each hand scoring what its keeping says it scores."""
    start = len(found.problems)
    keeping = _KEEPINGS[keeping_for(Party(game=party.game))]
    side_of = keeping.seating(found, at, party)
    if side_of is None:
        return
    positions = {s.position for s in party.seats}
    if positions != set(range(len(party.seats))):
        found.add(f"{at}.seats", gettext("the seats' positions must run from 0 without a gap"))
        return
    for j, seat in enumerate(party.seats):
        if seat.player not in players:
            found.add(f"{at}.seats.{j}.player", gettext("names a player the archive does not hold"))
        if seat.side != side_of[seat.position]:
            found.add(
                f"{at}.seats.{j}.side",
                gettext("the seat in position %(position)s plays for side %(side)s")
                % {"position": seat.position, "side": side_of[seat.position]},
            )
    if _duplicates(s.player for s in party.seats):
        found.add(f"{at}.seats", gettext("a player has one seat in a party"))
    sides = 1 + max(side_of.values())
    hands = set()
    for j, hand in enumerate(party.hands):
        here = f"{at}.hands.{j}"
        if (hand.number, hand.table) in hands:
            found.twice(here)
        hands.add((hand.number, hand.table))
        _hand(found, here, hand, side_of, sides)
        keeping.hand(found, here, hand, party)
    _audit(found, at, party, hands, positions)
    if len(found.problems) == start:
        keeping.scores(found, at, party, sides)


#: The seats a hand's columns name (`tournaments.archive.parties.COLUMNS`), and
#: those the other version of a dispute names.
HAND_SEATS = ("dealer", "knocker", "defender", "winner")
COUNTER_SEATS = ("seat", "knocker", "defender", "winner")
#: The seats an audit record's snapshots name (`tournaments.archive.parties`).
SNAPSHOT_SEATS = ("knocker", "winner", "position")


def _hand(found: _Found, here: str, hand: HandIn, side_of: dict, sides: int) -> None:
    """What a hand of any game says of the party's seats and sides."""
    seats = {name: getattr(hand, name) for name in (*HAND_SEATS, "entered_by", "confirmed_by")}
    counter = hand.counter
    if counter is not None:
        seats |= {f"counter.{name}": getattr(counter, name, None) for name in COUNTER_SEATS}
    for name, position in seats.items():
        if position is not None and position not in side_of:
            found.add(f"{here}.{name}", gettext("names a seat the archive does not hold"))
    for j, position in enumerate(hand.confirmations):
        if position not in side_of:
            found.add(
                f"{here}.confirmations.{j}", gettext("names a seat the archive does not hold")
            )
        elif hand.entered_by in side_of and side_of[position] == side_of[hand.entered_by]:
            found.add(
                f"{here}.confirmations.{j}",
                gettext("the entering side does not confirm its own entry"),
            )
    if _duplicates(hand.confirmations):
        found.add(f"{here}.confirmations", gettext("a seat confirms an entry once"))
    counter_scores = getattr(counter, "scores", None)
    for name, scores in (("scores", hand.scores), ("counter.scores", counter_scores)):
        if scores is not None and len(scores) != sides:
            found.add(
                f"{here}.{name}",
                gettext("holds one score for each of the party's %(sides)s sides")
                % {"sides": sides},
            )


def _audit(found: _Found, at: str, party, hands: set, positions: set) -> None:
    keys = set()
    for j, record in enumerate(party.audit):
        here = f"{at}.audit.{j}"
        if record.hand is not None and tuple(record.hand) not in hands:
            found.add(f"{here}.hand", gettext("names a hand the archive does not hold"))
        if record.seat is not None and record.seat not in positions:
            found.add(f"{here}.seat", gettext("names a seat the archive does not hold"))
        for name, snapshot in (("before", record.before), ("after", record.after)):
            for field in SNAPSHOT_SEATS:
                position = getattr(snapshot, field, None)
                if position is not None and position not in positions:
                    found.add(
                        f"{here}.{name}.{field}", gettext("names a seat the archive does not hold")
                    )
        if record.seat is not None and record.key is not None:
            if (record.seat, record.key) in keys:
                found.twice(f"{here}.key")
            keys.add((record.seat, record.key))


class _FormatTables:
    """A party of a game of party formats (`scoring.services.keeping.FormatTables`):
    seated as its format seats it, each hand at one of the format's tables of the
    round, knocker and defender named, its scores and facts what its columns say."""

    @staticmethod
    def seating(found: _Found, at: str, party: PartyIn) -> dict | None:
        party_format = FORMATS[party.format]
        count = len(party.seats)
        if count not in party_format.sizes:
            sizes = ", ".join(map(str, party_format.sizes))
            found.add(
                f"{at}.seats",
                gettext("a party of this format seats %(sizes)s players, not %(count)s")
                % {"sizes": sizes, "count": count},
            )
            return None
        return dict(enumerate(party_format.seating(count).sides))

    @staticmethod
    def hand(found: _Found, here: str, hand: HandIn, party: PartyIn) -> None:
        tables = tables_in_round(FORMATS[party.format], len(party.seats))
        if hand.table > tables:
            found.add(
                f"{here}.table",
                gettext("this party plays at %(tables)s table(s)") % {"tables": tables},
            )
        if hand.ending != Hand.Ending.NO_GAME and (hand.knocker is None or hand.defender is None):
            found.add(here, gettext("a hand that was not a no-game names its knocker and defender"))

    @staticmethod
    def scores(found: _Found, at: str, party: PartyIn, sides: int) -> None:
        """Each hand's scores and facts, where the archive gives them (version 3),
        are what the party formats keep for its columns (`format_scores`)."""
        seats = [Seat(pk=s.position + 1, side=s.side) for s in party.seats]

        def pk(position):
            return None if position is None else position + 1

        for j, hand in enumerate(party.hands):
            row = Hand(
                number=hand.number,
                ending=hand.ending,
                kind=hand.kind,
                points=hand.points,
                knocker_deadwood=hand.knocker_deadwood,
                knocker_id=pk(hand.knocker),
                defender_id=pk(hand.defender),
                winner_id=pk(hand.winner),
            )
            scores, facts = format_scores(row, seats)
            if hand.scores is not None and hand.scores != scores:
                found.add(
                    f"{at}.hands.{j}.scores",
                    gettext("the game scores this entry %(scores)s")
                    % {"scores": ", ".join(map(str, scores))},
                )
            if hand.facts is not None and hand.facts != as_stored(facts):
                found.add(
                    f"{at}.hands.{j}.facts", gettext("are not what the game finds in the entry")
                )


def _refusal(error: GameEntryError) -> str:
    """The engine's refusal in the reader's language."""
    return " ".join(translated(problem) for problem in error.problems)


class _WholeTable:
    """A party of a game without formats (`scoring.services.keeping.WholeTable`),
    as its game's engine sees it (see the module's docstring)."""

    @staticmethod
    def seating(found: _Found, at: str, party: PartyIn) -> dict | None:
        engine = GAMES[party.game]
        try:
            check_table(engine, len(party.seats))
        except GameEntryError as error:
            found.add(f"{at}.seats", _refusal(error))
            return None
        try:
            settled = settle_options(engine, party.rules)
        except GameEntryError as error:
            found.add(f"{at}.rules", _refusal(error))
            return None
        if settled != party.rules:
            # A party's options are copied onto it as the game settled them, all of them.
            found.add(
                f"{at}.rules",
                gettext("names each of the game's options as it settles them: %(options)s")
                % {"options": ", ".join(sorted(settled))},
            )
            return None
        try:
            sides = engine.sides(len(party.seats), settled)
        except GameEntryError as error:
            found.add(f"{at}.seats", _refusal(error))
            return None
        return {seat: side for side, seats in enumerate(sides) for seat in seats}

    @staticmethod
    def hand(found: _Found, here: str, hand: HandIn, party: PartyIn) -> None:
        """Nothing beyond every hand's: the schema kept its columns empty."""

    @staticmethod
    def scores(found: _Found, at: str, party: PartyIn, sides: int) -> None:
        """Each hand's entry scored by the game against the confirmed totals before
        it, as `scoring.services.hands` scored it: the archive's scores and facts
        must be the engine's. A confirmed or waiting hand never comes after the
        party's end.

        A void hand counts nowhere, and the services do not check it again when a
        hand before it is corrected later: its entry may no longer fit the totals
        before it. It is taken when the game accepts it there or at the party's
        start."""
        engine, rules = GAMES[party.game], party.rules
        counted = (Hand.Status.CONFIRMED, Hand.Status.PENDING)
        # The confirmed hands before the one being checked (the numbers are unique:
        # checked before this).
        before: list[HandScore] = []
        for j, hand in sorted(enumerate(party.hands), key=lambda item: item[1].number):
            here = f"{at}.hands.{j}"
            totals = side_totals(before, sides)
            over = hand.status in counted and _over(engine, before, sides, rules)
            if hand.status == Hand.Status.CONFIRMED:
                before.append(HandScore(tuple(hand.scores), hand.facts))
            if over:
                found.add(here, gettext("comes after the end of the party"))
                continue
            tries = [totals] if hand.status != Hand.Status.VOID else [totals, [0] * sides]
            versions = [(here, "details.", hand.details.entry, hand.scores, hand.facts)]
            if hand.counter is not None:
                counter = hand.counter
                versions.append(
                    (f"{here}.counter", "", counter.entry, counter.scores, counter.facts)
                )
            for where, inner, entry, scores, facts in versions:
                scored = _entry_scored(engine, entry, tries, rules)
                if isinstance(scored, str):
                    found.add(
                        f"{where}.{inner}entry",
                        gettext("the game refuses this entry: %(why)s") % {"why": scored},
                    )
                elif list(scored.scores) != scores:
                    found.add(
                        f"{where}.scores",
                        gettext("the game scores this entry %(scores)s")
                        % {"scores": ", ".join(map(str, scored.scores))},
                    )
                elif as_stored(dict(scored.facts)) != facts:
                    found.add(f"{where}.facts", gettext("are not what the game finds in the entry"))
        try:
            engine.standing(before, sides, rules)
        except Exception:  # whatever the engine makes of it, never a 500
            found.add(f"{at}.hands", gettext("the game cannot tell where the party stands"))


#: What is checked by how the party's hands are kept.
_KEEPINGS = {FormatTables: _FormatTables, WholeTable: _WholeTable}


def _over(engine, before, sides: int, rules) -> bool:
    try:
        return engine.standing(before, sides, rules).over
    except Exception:  # reported once, for the party's hands
        return False


def _entry_scored(engine, entry, tries, rules) -> HandScore | str:
    """What the game scores ``entry`` at the first of the totals ``tries`` it
    accepts it at, or why it refuses it (at the first)."""
    refusal = None
    for totals in tries:
        try:
            return engine.hand(entry, totals, rules)
        except GameEntryError as error:
            refusal = refusal or _refusal(error)
        except Exception:  # a malformed entry the engine did not foresee
            refusal = refusal or gettext("the game cannot read it")
    return refusal


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
    info = archive.tournament
    try:
        game_settings(info.game, info.game_options, info.table_size, info.format)
    except GameSettingsError as error:
        found.add("tournament.game", str(error))
    _draws(found, "tournament.final_draws", archive.tournament.final_draws, entrants)
    for i, planned in enumerate(info.plan):
        named = [key for table in planned.tables for key in table] + planned.byes
        if any(key not in entrants for key in named):
            found.add(f"tournament.plan.{i}", gettext("names an entrant the archive does not hold"))
    numbers = [r.number for r in archive.rounds]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        found.add("rounds", gettext("the rounds are numbered 1, 2, 3 … without a gap"))
    for i, round in enumerate(archive.rounds):
        _round(found, f"rounds.{i}", round, entrants)
    parties = {p.key: p for p in archive.parties}
    used = Counter()
    tables = _tables(found, archive, set(numbers), parties, used)
    _seatings(found, archive, tables, entrants, parties)
    # A final is a bracket of matches of two: a game at tables has none.
    if archive.final is not None and info.game in ENTRY_GAMES:
        found.add("final", gettext("a tournament of another game has no final"))
    elif archive.final is not None:
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
        named = _named(line)
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
        if archive.tournament.game not in ENTRY_GAMES:
            if table.party is not None:
                _two_player_party(found, f"{here}.party", table.party, parties)
            continue
        # A table of another game plays its party to the end: nobody is marked
        # absent there (`tournaments.tables.check_two_at_a_table`).
        if table.absent is not None:
            found.add(f"{here}.absent", gettext("nobody is absent at a table of another game"))
        if table.party is None and not table.bye:
            found.add(f"{here}.party", gettext("a table of another game plays a party"))
        elif table.party is not None and table.party not in parties:
            found.add(f"{here}.party", gettext("names a party the archive does not hold"))
        elif table.party is not None and parties[table.party].game != archive.tournament.game:
            found.add(f"{here}.party", gettext("the party plays another game than the tournament"))
    return tables


def _named(line) -> list:
    """The entrants an explanation line names."""
    if isinstance(line, ByeLineIn):
        return [line.entrant]
    if isinstance(line, ScheduleLineIn):
        return [*line.seats, *line.absent]
    if isinstance(line, PlannedLineIn):
        return list(line.seats)
    if isinstance(line, TableLineIn):
        met = [key for first, second, _ in line.met_before for key in (first, second)]
        return [*line.seats, *met, *line.moved_away, *line.moved_in]
    return [line.first, line.second, *(key for key, _ in line.skipped)]


def _two_player_party(found: _Found, at: str, key: int, parties: dict) -> None:
    if key not in parties:
        found.add(at, gettext("names a party the archive does not hold"))
    elif parties[key].game in ENTRY_GAMES:
        found.add(at, gettext("the party plays another game than the tournament"))
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
    sizes = _table_sizes(archive.tournament)
    for i, table in enumerate(archive.tables):
        sides = seated[(table.round, table.number)]
        if sizes and not table.bye:
            _seated_at_table(found, f"tables.{i}", table, sides, sizes, entrants, parties)
            continue
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


def _table_sizes(tournament) -> list[int]:
    """How many a table of a tournament of another game seats: its table size, or
    one fewer where the entrants do not divide, if the game is played so
    (`tournaments.seating`). Empty for a game of party formats (Gin Rummy: two at
    a table), whose hands are not its own entry (`ENTRY_GAMES`)."""
    if tournament.game not in ENTRY_GAMES or tournament.table_size is None:
        return []
    played = GAMES[tournament.game].table_sizes
    size = tournament.table_size
    return [n for n in (size, size - 1) if n in played]


def _seated_at_table(found: _Found, at: str, table, sides: dict, sizes, entrants, parties):
    """A table of another game: its entrants on the seats from 0, as many as a
    table of the tournament seats, and its party's players sit in their order."""
    if len(sides) not in sizes or set(sides) != set(range(len(sides))):
        found.add(
            at,
            gettext("a table seats %(sizes)s entrants, on the seats from 0 without a gap")
            % {"sizes": " / ".join(map(str, sizes))},
        )
        return
    party = parties.get(table.party)
    if party is None or not all(key in entrants for key in sides.values()):
        return
    seated = [entrants[sides[seat]].player for seat in range(len(sides))]
    if [s.player for s in sorted(party.seats, key=lambda s: s.position)] != seated:
        found.add(
            f"{at}.party",
            gettext("the party's players are not the entrants at its table, in their seats"),
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
