"""What the tournaments' API modules share: path types, error responses, bodies."""

import dataclasses
from typing import Annotated

from ninja import Path

from config.api_errors import ORGANIZER_WRITE

Slug = Annotated[str, Path(..., max_length=60, pattern=r"^[-a-zA-Z0-9_]+$")]
Number = Annotated[int, Path(..., ge=1, le=32767)]
Id = Annotated[int, Path(..., ge=1, le=2_147_483_647)]
# Every refusal an organizer's action with a body can give: for an endpoint that
# has not yet said which of them it answers (the others name theirs, from
# config.api_errors).
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
        "public_pairings": tournament.public_pairings,
        "public_standings": tournament.public_standings,
        "public_results": tournament.public_results,
    }


def round_body(round, *, tables: bool = True) -> dict:
    body = {
        "number": round.number,
        "status": round.status,
        "started_at": round.started_at,
        "deadline": round.deadline,
    }
    if tables:
        body["tables"] = [
            {**dataclasses.asdict(t), "sides": [dataclasses.asdict(s) for s in t.sides]}
            for t in round.tables
        ]
    return body
