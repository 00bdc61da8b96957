"""What a seat of a party of another game (Chinchón, Canasta, Blaue Vierzehn,
Cruzo) sees, read once for its page and its API: the sheet (`game_sheet`, two
queries however many hands), the hand being played, and what this seat may do
with it."""

from dataclasses import dataclass

from scoring.models import Hand, Seat
from scoring.services.hands import confirmations_needed
from scoring.services.whole_table_sheet import GameSheet, game_sheet


@dataclass(frozen=True)
class GameSeatView:
    """``seat`` as loaded with the sheet (with its player); ``names``: each side's
    players' names; ``number``: the hand being played; ``open_hand``: its row once
    entered (pending or disputed); ``ours``: this seat's side entered it;
    ``still_needed``: confirmations it still waits for; ``hints``: what the game
    says of each side's next hand (Canasta: the first meld's minimum), if any."""

    seat: Seat
    sheet: GameSheet
    names: list[str]
    seats: list[Seat]
    number: int
    open_hand: Hand | None
    ours: bool
    can_confirm: bool
    still_needed: int
    may_enter: bool
    hints: list[int]

    @property
    def over(self) -> bool:
        return self.sheet.outcome.over

    def name_at(self, position) -> str:
        return next((s.player.name for s in self.seats if s.position == position), "")


def game_seat_view(seat: Seat) -> GameSeatView:
    """What ``seat`` sees of its party and may do next."""
    sheet = game_sheet(seat.party)
    seats = sorted((s for side in sheet.sides for s in side), key=lambda s: s.position)
    seat = next(s for s in seats if s.pk == seat.pk)
    open_hand = next(
        (h for h in sheet.hands if h.status in (Hand.Status.PENDING, Hand.Status.DISPUTED)), None
    )
    number = open_hand.number if open_hand else 1 + max((h.number for h in sheet.hands), default=0)
    pending = open_hand is not None and open_hand.status == Hand.Status.PENDING
    confirmations = open_hand.confirmations if pending else []
    ours = pending and open_hand.entered_by.side == seat.side
    can_confirm = pending and not ours and seat.position not in confirmations
    still = (
        confirmations_needed(sheet.party, seats, open_hand.entered_by) - len(confirmations)
        if pending
        else 0
    )
    over = sheet.outcome.over
    hints = getattr(sheet.game, "hints", None)
    return GameSeatView(
        seat=seat,
        sheet=sheet,
        names=[" · ".join(s.player.name for s in side) for side in sheet.sides],
        seats=seats,
        number=number,
        open_hand=open_hand,
        ours=ours,
        can_confirm=can_confirm,
        still_needed=still,
        may_enter=not over
        and seat.party.status != seat.party.Status.CANCELLED
        and (open_hand is None or ours or can_confirm),
        hints=hints(sheet.totals) if hints and not over else [],
    )
