"""What the clubs' API modules share: path types and the error responses."""

from typing import Annotated

from ninja import Path
from ninja.responses import codes_4xx

from clubs.api.schemas import ApiErrorOut

Slug = Annotated[str, Path(..., max_length=60, pattern=r"^[-a-zA-Z0-9_]+$")]
# ninja's codes_4xx leaves out 422, the answer to every invalid body.
ERROR_RESPONSES = {codes_4xx | {422}: ApiErrorOut}


def night_body(night) -> dict:
    return {
        "id": night.pk,
        "name": night.name,
        "date": night.date,
        "ruleset": night.ruleset,
        "confirmation_required": night.confirmation_required,
        "party_count": getattr(night, "party_count", 0),
    }
