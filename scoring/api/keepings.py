"""What the API reads and takes of a party's hands, by how they are kept
(`scoring.services.keeping`): the one set of operations (`scoring.api.seat`,
`scoring.api.organizer`) asks the part its keeping names (`kept`), never which
game the party is, as the seat page (`scoring.seat.views.READINGS`) and the
organizer's party page (`scoring.manage.keepings`) do.

- `FormatTablesApi`: tables of two within a party's rounds (Gin Rummy's
  formats): a hand is told by its knock (`HandEntryIn`, `DecideIn`'s
  ``result``); the party is its format's sheet and settlement (`SeatTableOut`,
  `PartyDetailOut`).
- `WholeTableApi`: one whole table: a hand is the game's own ``entry``
  (`GameEntryIn`, `GameDecideIn`); the party is each side's total and place
  (`GameTableOut`, `GamePartyForOrganizerOut`).

Each part answers with its own party's body, so a hand of the other kind could
be written but not told: it is refused (422) before anything is read or written."""

from django.utils.translation import gettext

from scoring import entries, errors, selectors
from scoring.api.common import Seats, party_body, result_of
from scoring.api.entry_schemas import HandEntryIn
from scoring.api.schemas import GameDecideIn
from scoring.api.whole_table_schemas import GameEntryIn
from scoring.engine.games import GAMES
from scoring.services.keeping import FormatTables, WholeTable, keeping_for
from scoring.services.whole_table_sheet import game_sheet
from scoring.whole_table import game_seat_view


def kept(party, body=None, *, only=None):
    """The API's part for ``party``'s keeping. A ``body`` (a hand's entry or an
    organizer's decision) of the other keeping's kind is refused, as is a party
    not kept ``only`` so (the aliases under ``/game``, kept for older clients)."""
    keeping = keeping_for(party)
    part = KEEPINGS[keeping]
    if (body is not None and not part.takes(body)) or only not in (None, keeping):
        raise errors.WrongGame(
            gettext("This party plays %(game)s: enter its hands as %(game)s hands.")
            % {"game": party.get_game_display()}
        )
    return part


def changed_entry(error: errors.EntryChanged) -> dict:
    """What a 409 ``entry_changed`` adds to its body: the entry as it now stands."""
    return {"hand": kept(error.hand.party).changed(error.hand)}


def _link(request, seat) -> dict:
    """A seat with the link its organizer hands out."""
    link = request.build_absolute_uri(seat.get_absolute_url())
    return {**Seats.ref(seat), "token": seat.token, "link": link}


# --- Tables of two: the format's sheet and settlement ---------------------------------


def sheet_body(sheet: dict, seats: Seats) -> dict:
    rows = []
    rounds = []
    for row in sheet["rows"]:
        hand = row["hand"]
        running = [cell["running"] for cell in row["cells"]]
        if hand is None:  # a partnership round's net, written in the team's column
            written = [(side, c["points"]) for side, c in enumerate(row["cells"]) if c["points"]]
            side, points = written[0] if written else (None, 0)
            rounds.append(
                {"round": row["round"], "winner_side": side, "points": points, "running": running}
            )
            continue
        winner = seats.by_id.get(hand.winner_id)
        rows.append(
            {
                "number": hand.number,
                "table": hand.table,
                "status": hand.status,
                "kind": hand.kind,
                "winner_side": winner.side if winner else None,
                "points": hand.points,
                "running": None if None in running else running,
            }
        )
    return {
        "sides": sheet["headers"],
        "rows": rows,
        "rounds": rounds,
        "points": sheet["points"],
        "boxes": sheet["boxes"],
        "needed": sheet["needed"],
    }


def settlement_body(state, names: list[str]) -> dict | None:
    if not state.finished:
        return None
    view = selectors.settlement_view(state)
    return {
        "sides": [
            {
                "side": side,
                "name": names[side],
                "points": total.points,
                "boxes": total.boxes,
                "box_bonus": total.box_bonus,
                "game_bonus": total.game_bonus,
                "shutout_bonus": total.shutout_bonus,
                "total": total.total,
            }
            for side, total in enumerate(view["totals"])
        ],
        # A rotation has no single winner, only payments: both are None.
        "winner_side": state.outcome.winner,
        "margin": state.outcome.margin,
        "payments": [
            {"payer": payer, "payee": payee, "amount": amount}
            for payer, payee, amount in view["payments"]
        ],
    }


def table_body(seat, view: dict) -> dict:
    state = view["state"]
    seats = Seats(state.seats)
    open_hand, dealer, players = view["open_hand"], view["dealer"], view["players"]
    # A seat sitting this hand out (rotation, chouette) follows the hand played
    # without it, as its page does: who plays and deals it, and its entry.
    sits_out = bool(state.tables) and state.table_of(seat.position) is None
    if sits_out:
        played = state.tables[0]
        players = [seats.by_position[position] for position in played.players]
        dealer = seats.by_position[played.dealer]
        open_hand = state.open_hands.get(1)
    return {
        "party": party_body(seat.party),
        "seat": seats.ref(seats.by_id[seat.pk]),
        "seats": [Seats.with_player(s) for s in state.seats],
        "number": None if state.finished else state.number,
        "sits_out": sits_out,
        "dealer": seats.ref(dealer),
        "players": [seats.ref(player) for player in players],
        "open_hand": seats.hand(open_hand) if open_hand else None,
        "can_confirm": view["can_confirm"],
        "sheet": sheet_body(view["sheet"], seats),
        "settlement": settlement_body(state, view["sheet"]["headers"]),
        "version": view["version"],
    }


def party_detail_body(request, party) -> dict:
    state, hands = selectors.state_for(party)
    sheet = selectors.sheet_rows(state, hands)
    seats = Seats(state.seats)
    return {
        "party": party_body(party),
        "seats": [_link(request, seat) for seat in state.seats],
        "number": None if state.finished else state.number,
        "sheet": sheet_body(sheet, seats),
        "hands": [seats.hand(hand) for hand in hands],
        "settlement": settlement_body(state, sheet["headers"]),
        "version": selectors.version(state, hands),
    }


# --- One whole table: each side's total and place -------------------------------------


def _game_hand(hand) -> dict:
    return {
        "number": hand.number,
        "status": hand.status,
        "scores": hand.scores,
        "entry": hand.details.get("entry"),
        "facts": hand.facts,
        "entered_by": hand.entered_by.position if hand.entered_by_id else None,
        "confirmations": hand.confirmations,
        "version": hand.version,
        "counter": hand.counter,
    }


def _counter(counter, by_position) -> dict | None:
    if not counter:
        return None
    return {
        "seat": Seats.ref(by_position.get(counter.get("seat"))),
        "entry": counter.get("entry"),
        "scores": counter.get("scores"),
    }


class FormatTablesApi:
    """A party whose format seats tables of two (see the module docstring)."""

    @staticmethod
    def takes(body) -> bool:
        return not isinstance(body, GameEntryIn | GameDecideIn)

    entry = staticmethod(result_of)

    @staticmethod
    def decided(decision, hand, party):
        """The result a decision gives ``hand``: one of a dispute's versions, the
        right one, or none (a void)."""
        if decision.version is not None:
            return entries.result_of_version(hand, decision.version)
        return None if decision.result is None else result_of(decision.result, party)

    @staticmethod
    def table(seat) -> dict:
        return table_body(seat, selectors.seat_view(seat))

    @staticmethod
    def entered(seat, hand) -> dict:
        """An entry's answer: its ``hand`` and the ``table``, read once."""
        view = selectors.seat_view(seat)
        seats = Seats(view["state"].seats)
        return {"hand": seats.hand(hand) if hand else None, "table": table_body(seat, view)}

    @staticmethod
    def changed(hand) -> dict:
        state, _ = selectors.state_for(hand.party)
        return Seats(state.seats).hand(hand)

    party = staticmethod(party_detail_body)


class WholeTableApi:
    """A party that seats everyone at one table (see the module docstring)."""

    @staticmethod
    def takes(body) -> bool:
        # A decision without a result (a void, a version accepted) reads alike for both.
        return not isinstance(body, HandEntryIn) and getattr(body, "result", None) is None

    @staticmethod
    def entry(body: GameEntryIn, party) -> dict:
        return body.entry_of(GAMES[party.game])

    @staticmethod
    def decided(decision, hand, party) -> dict | None:
        """The entry a decision gives ``hand``: the right one, one of its two
        entries (``version``), or none (a void)."""
        entry = getattr(decision, "entry", None)
        if decision.version == "entered":
            entry = WholeTable.entry_of(hand)
        elif decision.version == "counter":
            entry = (hand.counter or {}).get("entry")
        if entry is None and decision.action != "void":
            raise errors.EntryError(gettext("Give the right entry, or the version to accept."))
        return entry

    @staticmethod
    def table(seat) -> dict:
        view = game_seat_view(seat)
        sheet, party = view.sheet, view.seat.party
        outcome = sheet.outcome
        return {
            "party": {
                "id": party.pk,
                "club": party.club.name,
                "label": party.label,
                "game": party.game,
                "name": sheet.game.name,
                "status": party.status,
                "confirmation_required": party.confirmation_required,
                "options": party.rules,
            },
            "seat": {
                "position": view.seat.position,
                "side": view.seat.side,
                "player": view.seat.player.name,
            },
            "lower_wins": sheet.lower_wins,
            "sides": [
                {
                    "side": side,
                    "players": [s.player.name for s in seats],
                    "total": sheet.totals[side],
                    "place": sheet.places[side],
                    "out": side in outcome.out,
                    "winner": side in outcome.winners,
                    "hint": view.hints[side] if view.hints else None,
                }
                for side, seats in enumerate(sheet.sides)
            ],
            "hands": [_game_hand(hand) for hand in sheet.hands],
            "number": None if view.over else view.number,
            "open_hand": _game_hand(view.open_hand) if view.open_hand else None,
            "can_confirm": view.can_confirm,
            "may_enter": view.may_enter,
            "confirmations_needed": view.still_needed,
            "over": view.over,
            "winners": sorted(outcome.winners),
            "version": selectors.party_version(party),
        }

    @classmethod
    def entered(cls, seat, hand) -> dict:
        return {"hand": _game_hand(hand) if hand else None, "table": cls.table(seat)}

    changed = staticmethod(_game_hand)

    @staticmethod
    def party(request, party) -> dict:
        """The party as `GamePartyForOrganizerOut` reads it (`game_sheet`)."""
        sheet = game_sheet(party)
        seats = sorted((seat for side in sheet.sides for seat in side), key=lambda s: s.position)
        by_position = {seat.position: seat for seat in seats}
        over = party.status == party.Status.FINISHED
        return {
            "party": party_body(party),
            "game": party.game,
            "options": party.rules,
            "seats": [_link(request, seat) for seat in seats],
            "sides": [[seat.position for seat in side] for side in sheet.sides],
            "totals": sheet.totals,
            "lower_wins": sheet.lower_wins,
            "hands": [
                {
                    "id": hand.pk,
                    "number": hand.number,
                    "status": hand.status,
                    "scores": hand.scores,
                    "entry": hand.details.get("entry"),
                    "entered_by": Seats.ref(hand.entered_by),
                    "counter": _counter(hand.counter, by_position),
                }
                for hand in sheet.hands
            ],
            "over": over,
            "winners": sorted(sheet.outcome.winners) if over else [],
            "places": sheet.places if over else [],
            "margins": sheet.margins if over else [],
        }


#: The API's part for each keeping of a party's hands.
KEEPINGS = {FormatTables: FormatTablesApi, WholeTable: WholeTableApi}
