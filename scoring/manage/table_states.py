"""Where a night's table stands, for every game: the state the night's glance
sorts by and the hand it waits on (`selectors.night_glance`)."""

from scoring.models import Hand, Party

#: A table's states, in the order the glance lists them: disputes first.
TABLE_STATES = ("disputed", "confirming", "entering", "finished", "cancelled")


def table_state(party: Party, over: bool, open_hands: list, hands: list) -> tuple:
    """``(state, hand, since)``: cancelled or finished (since then), a hand
    disputed or waiting for confirmation (since it last changed), or waiting for
    the next entry since the last hand was counted (or the start). ``open_hands``:
    the hands pending or disputed, in the order the table shows them."""
    disputed = [hand for hand in open_hands if hand.status == Hand.Status.DISPUTED]
    if party.status == Party.Status.CANCELLED:
        return "cancelled", None, party.finished_at or party.started_at
    if over:
        return "finished", None, party.finished_at or party.started_at
    if disputed:
        return "disputed", disputed[0], disputed[0].updated_at
    if open_hands:
        return "confirming", open_hands[0], open_hands[0].updated_at
    return "entering", None, max((h.updated_at for h in hands), default=party.started_at)
