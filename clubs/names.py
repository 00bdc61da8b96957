"""How a player's name is shown to whom: the one rule every page, export and API
answer follows (tournaments, seasons and clubs alike).

The club's organizers see every name in full. The public sees a member's full
name only when he agreed to be listed (`Membership.listed`); anyone else — a
member who did not agree, a guest, a walk-in without a membership — appears by
his initials, everywhere the same, so that no page can be matched with another
to put a name to initials."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from clubs.models import Club, Membership, Player


def same_name(name: str) -> str:
    """What two names must share to be the same: case and spacing do not count
    ("anna  berg" is "Anna Berg")."""
    return " ".join(name.split()).casefold()


def initials(name: str) -> str:
    """How the public sees a player who has not agreed to be listed: "Ada Lovelace"
    is "A. L."."""
    return " ".join(f"{part[0]}." for part in name.split() if part) or "?"


def shown_name(name: str, *, listed: bool, public: bool) -> str:
    """The rule: the full name for the organizers (``public=False``) and, in public,
    for a member who agreed to be listed; initials for everyone else."""
    return name if listed or not public else initials(name)


@dataclass(frozen=True)
class Named:
    """A player as a page shows him (`shown_name`)."""

    pk: int
    name: str
    listed: bool

    def shown(self, public: bool) -> str:
        return shown_name(self.name, listed=self.listed, public=public)


def listed_ids(club: Club | int, player_ids: Iterable[int] | None = None) -> set[int]:
    """Which of the players agreed to be listed at the club (all of its listed
    members when ``player_ids`` is None): a listed membership that is not a
    guest's. One query."""
    found = Membership.objects.filter(club=club, listed=True).exclude(role=Membership.Role.GUEST)
    if player_ids is not None:
        found = found.filter(player_id__in=set(player_ids))
    return set(found.values_list("player_id", flat=True))


def names_in(club: Club | int, player_ids: Iterable[int]) -> dict[int, Named]:
    """The players' names and whether each agreed to be listed. Two queries."""
    ids = set(player_ids)
    listed = listed_ids(club, ids)
    return {
        pk: Named(pk, name, pk in listed)
        for pk, name in Player.objects.filter(pk__in=ids).values_list("pk", "name")
    }


def shown_names(club: Club | int, players: Iterable[Player], *, public: bool) -> dict[int, str]:
    """Each player's name as ``public`` or the organizers see it, by player id
    (players already read, with their names). One query in public, none else."""
    players = list(players)
    listed = listed_ids(club, [p.pk for p in players]) if public else set()
    return {p.pk: shown_name(p.name, listed=p.pk in listed, public=public) for p in players}
