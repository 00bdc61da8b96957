"""What the tournaments' API modules share: path types, error responses, bodies."""

import dataclasses
from typing import Annotated

from ninja import Path

from tournaments.final import bracket
from web.api_errors import ORGANIZER_WRITE

Slug = Annotated[str, Path(..., max_length=60, pattern=r"^[-a-zA-Z0-9_]+$")]
Number = Annotated[int, Path(..., ge=1, le=32767)]
Id = Annotated[int, Path(..., ge=1, le=2_147_483_647)]
# Every refusal an organizer's action with a body can give: for an endpoint that
# has not yet said which of them it answers (the others name theirs, from
# web.api_errors).
ERROR_RESPONSES = ORGANIZER_WRITE


def tournament_body(tournament) -> dict:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "club": tournament.club.slug,
        "date": tournament.date,
        "format": tournament.format,
        "status": tournament.status,
        "rounds": tournament.rounds,
        "game": tournament.game,
        "table_size": tournament.table_size,
        "options": tournament.game_options,
        "public_pairings": tournament.public_pairings,
        "public_standings": tournament.public_standings,
        "public_results": tournament.public_results,
    }


def round_body(round, places=None, ids=None) -> dict:
    """A round of the board (`board.RoundLine`); with ``places`` (`Board.places`),
    its tables too, each player with his place in the standings now, and each
    table's id from ``ids`` (`published.table_ids`)."""
    body = {
        "number": round.number,
        "status": round.status,
        "started_at": round.started_at,
        "deadline": round.deadline,
    }
    if places is not None:
        body["tables"] = [
            {
                **dataclasses.asdict(t),
                "id": (ids or {}).get((round.number, t.number)),
                "sides": [
                    {**dataclasses.asdict(s), "place": places.get(s.entrant)} for s in t.sides
                ],
            }
            for t in round.tables
        ]
    return body


def bracket_body(stage, *, public: bool, parties: bool = False) -> dict:
    """A final as `BracketOut`, the names as ``public`` or the organizers see them;
    ``parties``: with the game being played (the organizer's answers: its seat
    links are his)."""

    def side(entrant, name, seed, wins):
        if entrant is None:
            return None
        return {"entrant": entrant.pk, "name": name, "seed": seed, "wins": wins}

    def match(view):
        m = view.match
        return {
            "id": m.pk if m else None,
            "round": view.round,
            "slot": view.slot,
            "third_place": view.third_place,
            "status": view.status,
            "first": side(view.first, view.names[0], view.seeds[0], view.wins[0]),
            "second": side(view.second, view.names[1], view.seeds[1], view.wins[1]),
            "winner": view.winner.pk if view.winner else None,
            "absent": view.absent.pk if view.absent else None,
            "withdrew": view.withdrew,
            "party": view.party_id if parties else None,
        }

    return {
        "qualifiers": stage.qualifiers,
        "best_of": stage.best_of,
        "third_place": stage.third_place,
        "seeding": stage.seeding,
        "status": stage.status,
        "rounds": [
            {
                "number": r.number,
                "key": r.key,
                "name": r.name,
                "matches": [match(v) for v in r.matches],
            }
            for r in bracket.bracket(stage, public=public)
        ],
    }


def plan_body(view) -> dict:
    """An evening planned ahead (`planned.PlanView`) as the API gives it; ``None``
    (nothing planned, or not yet) as no rounds."""
    if view is None:
        return {
            "plans_ahead": False,
            "rounds": [],
            "repeats": 0,
            "pairs_again": 0,
            "pairs_never": 0,
            "least": 0,
        }
    return {
        "plans_ahead": True,
        "rounds": [
            {
                "number": round_["number"],
                "paired": round_["played"],
                "tables": [
                    {
                        "number": table["number"],
                        "entrants": [seat.pk for seat in table["players"]],
                        "names": [seat.name for seat in table["players"]],
                    }
                    for table in round_["tables"]
                ],
                "byes": [seat.pk for seat in round_["byes"]],
            }
            for round_ in view.rounds
        ],
        "repeats": view.meetings.repeats,
        "pairs_again": view.meetings.again,
        "pairs_never": view.meetings.never,
        "least": view.least,
    }
