"""Archives written by an older Knock, read into the shape of the version an export
writes now (`export.VERSION`): each older version's step, in turn, on the archive's
plain data before the schema reads it. The archive keeps the version it names, so
that what only an older version holds is still checked (`references`).

- Version 1 held Gin Rummy only: it is version 2 without the other games.
- Version 2 wrote a party of a game of party formats without its game (Gin Rummy,
  the party's default) and a hand of another game with the engine's facts inside
  its details. Version 3 names every party's game and keeps a hand's facts beside
  its details, as every hand does.

A step changes copies of what it changes, never the data it was given, and leaves
what it does not understand (a party that is no object, …) to the schema to
refuse."""

from scoring.models import DEFAULT_GAME


def read_as_current(data: dict) -> dict:
    """``data`` (an archive of a known version) in the current shape."""
    for version, step in STEPS:
        if data["version"] <= version:
            data = step(data)
    return data


def _from_version_2(data: dict) -> dict:
    parties = data.get("parties")
    if not isinstance(parties, list):
        return data
    return {**data, "parties": [_party_of_version_2(party) for party in parties]}


def _party_of_version_2(party):
    if not isinstance(party, dict):
        return party
    party = {"game": DEFAULT_GAME, **party}
    if isinstance(party.get("hands"), list):
        party["hands"] = [_facts_beside_details(hand) for hand in party["hands"]]
    return party


def _facts_beside_details(hand):
    details = hand.get("details") if isinstance(hand, dict) else None
    if not isinstance(details, dict) or "facts" not in details or "facts" in hand:
        return hand
    details = dict(details)
    return {**hand, "facts": details.pop("facts"), "details": details}


#: The step that reads an archive of each older version as the next one would.
STEPS = ((2, _from_version_2),)
