"""What the clubs' API modules share: path types and bodies."""

from typing import Annotated

from ninja import Path

Slug = Annotated[str, Path(..., max_length=60, pattern=r"^[-a-zA-Z0-9_]+$")]


def night_body(night) -> dict:
    return {
        "id": night.pk,
        "name": night.name,
        "date": night.date,
        "ruleset": night.ruleset,
        "confirmation_required": night.confirmation_required,
        "party_count": getattr(night, "party_count", 0),
    }
