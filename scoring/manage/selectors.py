"""Reads for the organizer's pages: a club night's tables at a glance and its
results, and a party with every hand and its audit log. Each loads its rows in a
fixed number of queries, however many parties, hands or records there are, and
works out the rest in Python."""

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from clubs.models import ClubNight
from clubs.templatetags.organizers import organizer_name
from scoring.labels import ruleset_label
from scoring.manage.keepings import page_of
from scoring.manage.table_states import TABLE_STATES
from scoring.models import AuditRecord, Hand, Party, Seat
from scoring.selectors import choice_label, ruling_texts


def _seats():
    return Seat.objects.select_related("player").order_by("position")


def night_for_manage(pk: int) -> ClubNight:
    return get_object_or_404(ClubNight.objects.select_related("club"), pk=pk)


def party_for_manage(pk: int) -> Party:
    # A tournament's table too: its page links back to the round (`party_round`).
    return get_object_or_404(
        Party.objects.select_related("club", "night", "tournament_table__round__tournament"),
        pk=pk,
    )


def hand_for_manage(pk: int) -> Hand:
    return get_object_or_404(
        # The party page again, when a decision is refused: with the way back.
        Hand.objects.select_related(
            "party__club",
            "party__night",
            "party__tournament_table__round__tournament",
            "knocker",
            "defender",
        ),
        pk=pk,
    )


def seat_for_manage(pk: int) -> Seat:
    return get_object_or_404(Seat.objects.select_related("party__club", "player"), pk=pk)


def party_seats(party: Party) -> list[Seat]:
    return list(_seats().filter(party=party))


#: The states of a table on the night page, in the order they are shown: what
#: needs the organizer first.
def night_glance(*, night) -> dict:
    """Every table (party) of a club night and where it stands: a hand disputed,
    an entry waiting for confirmation (since when), waiting for the next entry,
    finished, or cancelled; disputes first, then the longest waiting. With the
    count of tables in each state. Four queries, however many tables."""
    parties = night.parties.order_by("started_at", "pk").prefetch_related(
        Prefetch("seats", queryset=_seats()),
        Prefetch(
            "hands",
            queryset=Hand.objects.select_related("winner", "entered_by__player").order_by(
                "number", "table"
            ),
        ),
    )
    rows = [_table_row(party) for party in parties]
    rows.sort(key=lambda row: (TABLE_STATES.index(row["state"]), row["since"], row["party"].pk))
    counts = dict.fromkeys(TABLE_STATES, 0)
    for row in rows:
        counts[row["state"]] += 1
    return {"rows": rows, "counts": counts, "disputes": counts["disputed"]}


def _table_row(party: Party) -> dict:
    seats, hands = list(party.seats.all()), list(party.hands.all())
    return {"party": party, "seats": seats, **page_of(party).table_row(party, seats, hands)}


def seated_players(*, night) -> dict[int, Party]:
    """The players already seated at a running party of the night, with that
    party: one query."""
    seats = Seat.objects.filter(
        party__night=night, party__status=Party.Status.RUNNING
    ).select_related("party")
    return {seat.player_id: seat.party for seat in seats}


def party_round(party: Party):
    """The tournament round whose table the party is, or None (a club night's
    party, or a table given up by a forfeit). No query after `party_for_manage`."""
    try:
        return party.tournament_table.round
    except ObjectDoesNotExist:
        return None


def party_page(*, party: Party) -> dict:
    """The party page: seats, the sheet and every hand as its keeping shows them
    (``part``, `scoring.manage.keepings`), each decided hand with the reason given,
    and the audit log. Three queries, however many hands."""
    part = page_of(party)
    seats = party_seats(party)
    hands = list(
        party.hands.select_related(
            "winner__player",
            "knocker__player",
            "defender__player",
            "dealer__player",
            "entered_by__player",
            "confirmed_by__player",
            "decided_by__player",
        ).order_by("number", "table")
    )
    page = part.read(party, seats, hands)
    audit = audit_log(party=party, names={seat.position: seat.player.name for seat in seats})
    # The reason of the latest decision on each hand, shown on the hand.
    decided = (AuditRecord.Action.CORRECT, AuditRecord.Action.RESOLVE, AuditRecord.Action.VOID)
    reasons = {
        entry["record"].hand_id: entry["record"].reason
        for entry in audit
        if entry["record"].action in decided
    }
    for row in page["hands"]:
        row["reason"] = reasons.get(row["hand"].pk, "") if row["hand"].decided_by_id else ""
    return {
        **page,
        "part": part,
        "seats": seats,
        "audit": part.audit(audit, page),
        "round": party_round(party),
        # A wrong player is swapped before the first hand, while the night is open;
        # a tournament's tables (no night) are changed on the round's page.
        "swappable": not hands
        and party.status == Party.Status.RUNNING
        and party.night_id is not None
        and party.night.closed_at is None,
    }


def audit_log(*, party: Party, names: dict) -> list[dict]:
    """The party's audit records, oldest first, each with who acted (an organizer
    by name, never by login, or a seat's player) and its before and after written
    out."""
    records = party.audit.select_related("user__player", "seat__player").order_by("at", "pk")
    return [
        {"record": record, "who": _who(record), **_written(record, names)} for record in records
    ]


def _written(record: AuditRecord, names: dict) -> dict:
    """A record's before and after in words; what the party's own records keep
    (a replaced link's digest, a status) is said, not shown."""
    action = AuditRecord.Action
    if record.action == action.LINK:
        return {"before": "", "after": _link(record)}
    if record.action == action.SWAP:
        before, after = record.before or {}, record.after or {}
        return {
            "before": before.get("player", ""),
            "after": _("%(new)s takes the seat of %(old)s, with a new link")
            % {"new": after.get("player", ""), "old": before.get("player", "")},
        }
    if record.action == action.CANCEL:
        before, after = record.before or {}, record.after or {}
        return {
            "before": choice_label(Party.Status, before.get("status")),
            "after": choice_label(Party.Status, after.get("status")),
        }
    return {"before": describe(record.before, names), "after": describe(record.after, names)}


def _link(record: AuditRecord) -> str:
    # The seat is on the record; the words are the reader's, not the writer's.
    return _("a new link for %(name)s") % {"name": record.seat.player.name if record.seat else "–"}


def _who(record: AuditRecord) -> str:
    if record.user_id:
        # A login made at sign-up is its owner's e-mail address (`organizer_name`).
        return organizer_name(record.user)
    if record.seat_id:
        return _("%(name)s (seat)") % {"name": record.seat.player.name}
    return ""


def describe(snapshot: dict | None, names: dict) -> str:
    """A stored snapshot as one line a person reads: a hand (``services._snapshot``)
    or the start of a party (its card draw and rules)."""
    if not snapshot:
        return ""
    if "draws" in snapshot:
        draws = ", ".join(f"{name} {card}" for name, card in snapshot["draws"].items())
        rules = ruleset_label((snapshot.get("rules") or {}).get("name", ""))
        return _("Card draw: %(draws)s · rules: %(rules)s") % {"draws": draws, "rules": rules}
    number = snapshot.get("number")
    if snapshot.get("table", 1) > 1:
        number = f"{number}/{snapshot['table']}"
    parts = [_("Hand %(number)s") % {"number": number}]
    parts.append(choice_label(Hand.Status, snapshot.get("status")))
    parts.append(choice_label(Hand.Ending, snapshot.get("ending")))
    if snapshot.get("knocker") is not None:
        parts.append(_("knocker %(name)s") % {"name": names.get(snapshot["knocker"], "?")})
        parts.append(
            _("deadwood %(knocker)s : %(defender)s")
            % {
                "knocker": _dash(snapshot.get("knocker_deadwood")),
                "defender": _dash(snapshot.get("defender_deadwood")),
            }
        )
    if snapshot.get("winner") is not None:
        parts.append(f"{names.get(snapshot['winner'], '?')} +{snapshot.get('points', 0)}")
    parts.extend(ruling_texts(snapshot.get("details") or {}))
    return " · ".join(part for part in parts if part)


def _dash(value) -> str:
    return "–" if value is None else str(value)
