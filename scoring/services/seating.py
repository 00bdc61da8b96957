"""What every party's start checks of its players and its night, whatever the game
(`parties.party_start`)."""

from django.utils.translation import gettext

from clubs.models import ClubNight
from scoring import errors
from scoring.models import Party, Seat


def check_seating(night, players, *, anyway: bool = False):
    """What every party's start checks of its players and its night, whatever the
    game: each player takes one seat; a closed night takes no new parties; a player
    already seated at a running party of the night is refused unless the organizer
    says it is meant (``anyway``). Returns the night with its row locked (or
    ``None``), so the same party started twice at once is started once."""
    if night is not None:
        night = ClubNight.objects.select_for_update().get(pk=night.pk)
        if night.closed_at is not None:
            raise errors.NightClosed(
                gettext("%(night)s is closed: it takes no new parties.") % {"night": night.name}
            )
        if not anyway:
            _refuse_seated(night, players)
    if len({p.pk for p in players}) != len(players):
        raise errors.EntryError(gettext("A player can only take one seat in a party."))
    return night


def _refuse_seated(night, players) -> None:
    seated = (
        Seat.objects.filter(
            party__night=night, party__status=Party.Status.RUNNING, player__in=players
        )
        .select_related("player", "party")
        .order_by("player__name", "party_id")
    )
    where = ", ".join(
        gettext("%(name)s at %(party)s") % {"name": seat.player.name, "party": seat.party}
        for seat in seated
    )
    if where:
        raise errors.AlreadySeated(
            gettext(
                "Already seated at a running party of this night: %(where)s. Start the "
                "party anyway only if they really play two parties at once."
            )
            % {"where": where},
            where=where,
        )
