"""Why each table of a round was made, in the reader's language: the sentences the
organizer's round page shows from the explanation the pairing stored
(`engine.explain`, `seating`), with places and points as the round was paired."""

from __future__ import annotations

from django.utils.translation import get_language, gettext, ngettext

from tournaments.engine.explain import (
    HAD_BYE,
    KEPT_APART,
    PLAYED,
    STRANDS,
    Line,
    describe,
    english_ordinal,
)
from tournaments.models import Entrant, Round
from tournaments.standings import points_at, round_places


def _phrases() -> dict[str, str]:
    """The explanation's phrases in the reader's language (see `engine.explain`)."""
    return {
        "pair": gettext("{first} plays {second}"),
        "bye": gettext("{first} has the bye"),
        "lot": gettext("drawn by lot"),
        "schedule": gettext("round-robin schedule"),
        "by_hand": gettext("paired by hand"),
        "lowest": gettext("lowest placed without one"),
        PLAYED: gettext("{other} already played {leader}"),
        KEPT_APART: gettext("{other} is kept apart from {leader}"),
        STRANDS: gettext("{other} would leave others without a new opponent"),
        HAD_BYE: gettext("{other} already had one"),
        "rematch": gettext("a rematch: no pairing without one was possible"),
        "join": "; ",
    }


def round_explanation(round: Round, entrants: dict[int, Entrant]) -> list[str]:
    """One sentence per table, e.g. "Anna (1., +212) plays Ben (3., +90): Carl
    (2., +150) already played Anna". Places and points are those the round was
    paired from (`round_places`); ``entrants`` maps ids to entrants (names loaded)."""
    place = round_places(round)
    points = points_at(round)

    def name(pk):
        return str(entrants[pk]) if pk in entrants else "?"

    def label(pk):
        if pk not in place:
            return name(pk)
        return gettext("%(name)s (%(place)s, %(points)+d)") % {
            "name": name(pk),
            "place": ordinal(place[pk]),
            "points": points.get(pk, 0),
        }

    phrases = _phrases()
    return [
        _table_sentence(line, name, lot=round.how == Round.How.LOT)
        if "kind" in line
        else describe(Line.from_dict(line), name=name, label=label, phrases=phrases)
        for line in round.explanation
    ]


def _table_sentence(line: dict, name, lot: bool) -> str:
    """One table of a round at tables (or one bye) in words: who sits there with
    their places, who met before, and who moved from the plain cut of the
    standings and why (`engine.tables.explain`, stored by `seating`)."""
    if line["kind"] == "schedule":
        return _schedule_sentence(line, name)
    if line["kind"] == "planned":
        return gettext("Table %(number)s: %(seats)s, as planned for the evening.") % {
            "number": line["number"],
            "seats": ", ".join(name(pk) for pk in line["seats"]),
        }
    if line["kind"] == "planned_bye":
        return gettext(
            "%(name)s sits out, as planned: a smaller table could not play this game."
        ) % {"name": name(line["entrant"])}
    if line["kind"] == "schedule_bye":
        return gettext(
            "%(name)s sits out: players of the round-robin schedule's table withdrew, "
            "and too few are left to play this game."
        ) % {"name": name(line["entrant"])}
    if line["kind"] == "bye":
        return gettext(
            "%(name)s sits out: the lowest placed without a bye, as a smaller table "
            "could not play this game."
        ) % {"name": name(line["entrant"])}
    if lot:
        seats = ", ".join(name(pk) for pk in line["seats"])
        return gettext("Table %(number)s: %(seats)s, drawn by lot.") % {
            "number": line["number"],
            "seats": seats,
        }
    # As the standings show them: a shared place "3=", its sharers in their order.
    shared = line.get("shared") or [False] * len(line["seats"])
    seated = sorted(
        zip(line["seats"], line["places"], shared, strict=True),
        key=lambda seat: (seat[1], name(seat[0])),
    )
    seats = ", ".join(
        f"{name(pk)} ({place}=)" if equal else f"{name(pk)} ({ordinal(place)})"
        for pk, place, equal in seated
    )
    parts = [gettext("Table %(number)s: %(seats)s") % {"number": line["number"], "seats": seats}]
    for first, second, times in line["met_before"]:
        parts.append(
            ngettext(
                "%(first)s and %(second)s met once before",
                "%(first)s and %(second)s met %(times)s times before",
                times,
            )
            % {"first": name(first), "second": name(second), "times": times}
        )
    if line["moved_in"] or line["moved_away"]:
        moved = {
            "in": ", ".join(name(pk) for pk in line["moved_in"]),
            "away": ", ".join(name(pk) for pk in line["moved_away"]),
            "count": line["cut_repeats"],
        }
        # A table whose own cut repeats nothing changes for the other tables' sake.
        if not line["cut_repeats"]:
            parts.append(
                gettext("%(in)s in place of %(away)s, so that other tables repeat fewer meetings")
                % moved
            )
        else:
            parts.append(
                ngettext(
                    "%(in)s in place of %(away)s: the tables by the standings alone "
                    "would repeat %(count)s meeting here",
                    "%(in)s in place of %(away)s: the tables by the standings alone "
                    "would repeat %(count)s meetings here",
                    line["cut_repeats"],
                )
                % moved
            )
    return "; ".join(parts) + "."


def _schedule_sentence(line: dict, name) -> str:
    """A round robin's table in words: its seats, that it is the schedule's table,
    and who withdrew from it (it plays short)."""
    seats = ", ".join(name(pk) for pk in line["seats"])
    words = {"number": line["number"], "seats": seats}
    if not line["absent"]:
        return gettext("Table %(number)s: %(seats)s, the round-robin schedule's table.") % words
    return ngettext(
        "Table %(number)s: %(seats)s, the round-robin schedule's table, one short: "
        "%(absent)s withdrew.",
        "Table %(number)s: %(seats)s, the round-robin schedule's table, short: "
        "%(absent)s withdrew.",
        len(line["absent"]),
    ) % {**words, "absent": ", ".join(name(pk) for pk in line["absent"])}


def ordinal(n: int) -> str:
    if get_language() and not get_language().startswith("en"):
        return f"{n}."
    return english_ordinal(n)
