"""What the organizer's party page shows of a party's hands, by how they are kept
(`scoring.services.keeping`): the one page (`scoring.manage.views.party_detail`)
asks the part its keeping names, never which game the party is.

- `FormatTablesPage`: a game of party formats (tables of two within a round): the
  format's sheet with its boxes and settlement, each hand's knock and deadwood,
  decided in `HandDecisionForm`.
- `WholeTablePage`: a game played at one whole table: each side's points per hand
  and the totals, places and margins once over, a hand decided in the game's
  own entry form (`scoring.entry_forms`, the players'), beside `DecisionForm`.

Each part reads from the seats and hands the page has loaded: no query of its own."""

from django.utils.translation import gettext as _

from scoring.engine.games import GAMES
from scoring.entry_forms import entry_form_for
from scoring.labels import ruleset_label
from scoring.manage.forms import DISPUTED, Decision, DecisionForm, HandDecisionForm
from scoring.manage.table_states import table_state
from scoring.models import Hand, Party, Seat
from scoring.option_fields import option_words
from scoring.selectors import choice_label, dispute_versions, settlement_view, sheet_rows
from scoring.services.keeping import FormatTables, WholeTable, keeping_for
from scoring.services.whole_table_sheet import GameSheet, sheet_of
from scoring.sheet import party_state


def page_of(party: Party):
    """The part of the party page that the keeping of ``party``'s hands names."""
    return PAGES[keeping_for(party)]


def _confirming(party: Party, words: str) -> str:
    return words if party.confirmation_required else _("hands count when entered")


class FormatTablesPage:
    sheet_template = "scoring/manage/format_tables/_sheet.html"
    hand_template = "scoring/manage/format_tables/_hand.html"

    @staticmethod
    def read(party: Party, seats: list[Seat], hands: list[Hand]) -> dict:
        """The format's sheet and, once over, its settlement; each hand with the
        seats that may be named its knocker and, when disputed, both versions."""
        state = party_state(party, seats, hands)
        names = {seat.position: seat.player.name for seat in seats}
        by_position = {seat.position: seat for seat in seats}
        disputed = Hand.Status.DISPUTED
        return {
            "state": state,
            "sheet": sheet_rows(state, hands),
            **(settlement_view(state) if state.finished else {}),
            "meta": [
                party.get_format_display(),
                party.get_status_display(),
                _("rules: %(rules)s, to %(target)s")
                % {"rules": ruleset_label(party.rules.get("name", "")), "target": party.target},
                _confirming(party, _("the opponent confirms each hand")),
            ],
            "hands": [
                {
                    "hand": hand,
                    "players": hand_players(hand, seats, state),
                    "confirmers": _confirmers(hand, by_position),
                    "versions": dispute_versions(hand, names) if hand.status == disputed else [],
                }
                for hand in hands
            ],
        }

    @staticmethod
    def table_row(party: Party, seats: list[Seat], hands: list[Hand]) -> dict:
        """The party as a table on the night's page (`night_glance`)."""
        state = party_state(party, seats, hands)
        sheet = sheet_rows(state, hands)
        open_hands = sorted(state.open_hands.values(), key=lambda hand: hand.table)
        key, hand, since = table_state(party, state.finished, open_hands, hands)
        return {
            "state": key,
            "since": since,
            "hand": hand,
            "number": state.number,
            "points": list(zip(sheet["headers"], sheet["points"], strict=True)),
            "payments": settlement_view(state)["payments"] if state.finished else [],
        }

    @staticmethod
    def audit(entries: list[dict], page: dict) -> list[dict]:
        return entries

    @staticmethod
    def forms(row: dict, page: dict, data=None) -> dict:
        """The hand's decision form, starting from the hand as it stands; with
        ``data`` (a decision refused), as sent, its message beside the form it
        came from."""
        hand = row["hand"]
        if data is None:
            form = HandDecisionForm.for_hand(hand, row["players"])
            return {"form": form, "decision": form}
        auto_id = f"hand-{hand.pk}-%s"
        form = HandDecisionForm(data, hand=hand, players=row["players"], auto_id=auto_id)
        return {"form": form, "decision": form, "errors_at": _errors_at(form, row)}

    @staticmethod
    def checked(forms: dict) -> list:
        return [forms["form"]]

    @staticmethod
    def arguments(hand: Hand, forms: dict) -> dict:
        return forms["form"].service_arguments()

    @staticmethod
    def said(decision: str, label: str, decided: Hand) -> str:
        return f"{label}: {decided.get_status_display()}."

    @staticmethod
    def rematch_started() -> str:
        return _("Rematch started: the seats are drawn again.")


def _errors_at(decision: DecisionForm, row: dict) -> str:
    """Which of a hand's forms a refused decision came from, for its message to
    stand beside it: the void's, the versions' while the hand is disputed, else
    the result's."""
    sent = decision.data.get("decision")
    if sent == Decision.VOID:
        return "void"
    if row["versions"] and sent in (Decision.ENTERED, Decision.COUNTER):
        return "resolve"
    return "correct"


def hand_players(hand: Hand, seats: list[Seat], state) -> list[Seat]:
    """Who may be named the hand's knocker: its two players when recorded, the
    open hand's table, else (an old no-game) every seat; the service checks."""
    by_position = {seat.position: seat for seat in seats}
    if hand.knocker_id and hand.defender_id:
        positions = sorted((hand.knocker.position, hand.defender.position))
    elif hand.number == state.number and hand.table <= len(state.tables):
        positions = sorted(state.tables[hand.table - 1].players)
    else:
        positions = sorted(by_position)
    return [by_position[p] for p in positions]


class WholeTablePage:
    sheet_template = "scoring/manage/whole_table/_sheet.html"
    hand_template = "scoring/manage/whole_table/_hand.html"

    @staticmethod
    def read(party: Party, seats: list[Seat], hands: list[Hand]) -> dict:
        """The sheet (sides, every hand with each side's points, the totals), who
        confirmed each hand, places and margins once over, and each disputed
        hand's two entries side by side, scored. The totals, places and margins
        are the game's engine's (`scoring.services.whole_table_sheet`)."""
        sheet = sheet_of(party, seats, hands)
        names = [_names(side) for side in sheet.sides]
        by_position = {seat.position: seat for seat in seats}
        over = party.status == Party.Status.FINISHED
        wins = _("the lowest total wins") if sheet.lower_wins else _("the highest total wins")
        return {
            "sheet": sheet,
            "names": names,
            "meta": [
                party.get_game_display(),
                party.get_status_display(),
                *filter(None, [options_text(party)]),
                wins,
                _confirming(party, _("the other players confirm each hand")),
            ],
            "hands": [_hand_row(hand, names, by_position) for hand in hands],
            "standings": [
                {"name": names[side], "total": total, "place": place, "margin": margin}
                for side, (total, place, margin) in enumerate(
                    zip(sheet.totals, sheet.places, sheet.margins, strict=True)
                )
            ]
            if over
            else [],
            "winners": _winners(sheet) if over else "",
            "out": {names[side] for side in sheet.outcome.out},
        }

    @staticmethod
    def table_row(party: Party, seats: list[Seat], hands: list[Hand]) -> dict:
        """The party as a table on the night's page, in the shape of
        `FormatTablesPage.table_row`'s, and once over who won."""
        sheet = sheet_of(party, seats, hands)
        open_hands = [h for h in hands if h.status in (Hand.Status.PENDING, Hand.Status.DISPUTED)]
        over = party.status == Party.Status.FINISHED
        state, hand, since = table_state(party, over, open_hands, hands)
        following = 1 + max((h.number for h in hands), default=0)
        return {
            "state": state,
            "since": since,
            "hand": hand,
            "number": following if hand is None else hand.number,
            "points": [
                (_names(side), total) for side, total in zip(sheet.sides, sheet.totals, strict=True)
            ],
            "payments": [],
            "winners": _winners(sheet) if state == "finished" else "",
        }

    @staticmethod
    def audit(entries: list[dict], page: dict) -> list[dict]:
        """The audit log with a hand of the game and its start written in the
        game's terms: each side's points, who sits where."""
        for entry in entries:
            record = entry["record"]
            for when in ("before", "after"):
                snapshot = getattr(record, when)
                if isinstance(snapshot, dict) and ("scores" in snapshot or "game" in snapshot):
                    entry[when] = _described(snapshot, page["names"], page["sheet"].party)
        return entries

    @staticmethod
    def forms(row: dict, page: dict, data=None) -> dict:
        """The game's entry form of the hand, filled with the entry first made, and
        the decision's form (``data``: what the organizer sent). A void hand is
        not decided again."""
        hand = row["hand"]
        if data is None and hand.status == Hand.Status.VOID:
            return {}
        sheet = page["sheet"]
        form_class = entry_form_for(sheet.party)
        auto_id = f"hand-{hand.pk}-%s"
        decision = DecisionForm(data, auto_id=auto_id)
        form = form_class(
            data if decision.carries_result() else None,
            sides=sheet.sides,
            out=sheet.outcome.out,
            options=sheet.options,
            hand_fields=False,
            initial=form_class.initial_from(hand.details.get("entry") or {}),
            auto_id=auto_id,
        )
        return {"form": form, "decision": decision, "errors_at": _errors_at(decision, row)}

    @staticmethod
    def checked(forms: dict) -> list:
        decision = forms["decision"]
        return [forms["form"], decision] if decision.carries_result() else [decision]

    @staticmethod
    def arguments(hand: Hand, forms: dict) -> dict:
        form, decision = forms["form"], forms["decision"]
        chosen = decision.cleaned_data["decision"]
        if chosen == Decision.VOID:
            entry = None
        elif decision.carries_result():
            entry = form.entry()
        else:
            entry = WholeTable.entry_of(hand) if chosen == "entered" else _counter_entry(hand)
        return {
            "entry": entry if chosen == Decision.VOID else entry or {},
            "reason": decision.cleaned_data["reason"],
            "disputed": DISPUTED.get(chosen),
        }

    @staticmethod
    def said(decision: str, label: str, decided: Hand) -> str:
        done = {Decision.VOID: _("%(hand)s: voided."), Decision.CORRECT: _("%(hand)s: corrected.")}
        return done.get(decision, _("%(hand)s: decided.")) % {"hand": label}

    @staticmethod
    def rematch_started() -> str:
        return _("Rematch started: the next player deals first.")


def _counter_entry(hand: Hand):
    return (hand.counter or {}).get("entry")


def _names(seats) -> str:
    return " · ".join(seat.player.name for seat in seats)


def _winners(sheet: GameSheet) -> str:
    return ", ".join(_names(sheet.sides[side]) for side in sorted(sheet.outcome.winners))


def options_text(party: Party) -> str:
    """The options the party was started with, in the club's words."""
    known = GAMES[party.game].options
    parts = []
    for option, value in (party.rules or {}).items():
        label, _help, choices = (
            option_words(party.game, option) if option in known else (option, "", None)
        )
        if choices is not None:
            parts.append(str(choices.get(value, value)))
        elif value is not None:
            parts.append(f"{label}: {value}")
    return " · ".join(parts)


def _hand_row(hand: Hand, names: list[str], by_position: dict) -> dict:
    row = {"hand": hand, "confirmers": _confirmers(hand, by_position), "versions": []}
    if hand.status == Hand.Status.DISPUTED:
        counter = hand.counter or {}
        other = counter.get("scores") or []
        row["versions"] = [
            {"key": "entered", "who": hand.entered_by.player.name if hand.entered_by else ""},
            {"key": "counter", "who": _seat_name(by_position, counter.get("seat"))},
        ]
        row["compare"] = [
            {
                "name": name,
                "entered": _at(hand.scores, side),
                "counter": _at(other, side),
                "differs": _at(hand.scores, side) != _at(other, side),
            }
            for side, name in enumerate(names)
        ]
    return row


def _confirmers(hand: Hand, by_position: dict) -> list[str]:
    """Who confirmed the hand, in the order they did (``Hand.confirmations``: at a
    table of three or more, every one of them, not only the last, ``confirmed_by``);
    while it waits, those so far. None once the organizer decided it unconfirmed."""
    if hand.confirmed_by_id is None and hand.status != Hand.Status.PENDING:
        return []
    names = [_seat_name(by_position, position) for position in hand.confirmations]
    if not names and hand.confirmed_by_id is not None:
        names = [hand.confirmed_by.player.name]
    return names


def _at(scores, side):
    return scores[side] if scores and side < len(scores) else None


def _described(snapshot: dict, names: list[str], party: Party) -> str:
    if "game" in snapshot:
        seated = ", ".join(str(name) for name in snapshot.get("seats") or [])
        return _("%(game)s · seats: %(seats)s") % {
            "game": party.get_game_display(),
            "seats": seated,
        }
    parts = [
        _("Hand %(number)s") % {"number": snapshot.get("number")},
        choice_label(Hand.Status, snapshot.get("status")),
    ]
    scores = snapshot.get("scores") or []
    parts += [f"{name} {points}" for name, points in zip(names, scores, strict=False)]
    return " · ".join(part for part in parts if part)


def _seat_name(by_position: dict, position) -> str:
    seat = by_position.get(position)
    return seat.player.name if seat else ""


PAGES = {FormatTables: FormatTablesPage, WholeTable: WholeTablePage}
