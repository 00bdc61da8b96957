"""The API of a club's organizers: ``/api/parties/<id>…``. Django's session login
(`clubs.permissions.OrganizerAuth`, which checks the CSRF token on unsafe
methods), and the user must organize the party's club."""

from ninja import Router

from clubs.permissions import OrganizerAuth, require_organizer
from config.client import client_address
from scoring import entries, selectors, services
from scoring.api.common import ERROR_RESPONSES, Id, audit_body, party_detail_body, result_of
from scoring.api.schemas import AuditOut, DecideIn, DecideOut, PartyDetailOut

router = Router(auth=OrganizerAuth(), tags=["parties"])


@router.get("/parties/{party_id}", response={200: PartyDetailOut, **ERROR_RESPONSES})
def party_detail(request, party_id: Id):
    """The whole party for its organizer: seats with their links, the sheet, and
    every hand with who entered, confirmed or decided it."""
    return party_detail_body(request, _organized_party(request, party_id))


@router.get("/parties/{party_id}/audit", response={200: list[AuditOut], **ERROR_RESPONSES})
def party_audit(request, party_id: Id):
    """Every entry, confirmation, dispute, correction and void, oldest first."""
    party = _organized_party(request, party_id)
    return [audit_body(record) for record in selectors.party_audit(party)]


@router.post(
    "/parties/{party_id}/hands/{hand_id}/decide", response={200: DecideOut, **ERROR_RESPONSES}
)
def party_hand_decide(request, party_id: Id, hand_id: Id, decision: DecideIn):
    """Correct, resolve or void a hand, with a reason that goes into the record. A
    dispute is resolved with the right result, or by accepting one of its versions."""
    party = _organized_party(request, party_id)
    hand = selectors.party_hand(party, hand_id)
    if decision.version is not None:
        result = entries.result_of_version(hand, decision.version)
    elif decision.result is not None:
        result = result_of(decision.result, party.rules)
    else:
        result = None
    hand = services.hand_decide(
        hand=hand,
        user=request.auth,
        result=result,
        reason=decision.reason,
        address=client_address(request),
        # A correction of a disputed hand must look at both versions: resolve it.
        disputed={"resolve": True, "correct": False}.get(decision.action),
    )
    detail = party_detail_body(request, selectors.party_by_id(party_id))
    decided = next(h for h in detail["hands"] if h["id"] == hand.pk)
    return {"action": decision.action, "hand": decided, "party": detail}


def _organized_party(request, party_id: int):
    party = selectors.party_by_id(party_id)
    require_organizer(request.auth, party.club)
    return party
