"""A party started, cancelled, its player changed at a seat, played again; and the
two checks every write of a party's hands makes first (not cancelled, its night
open)."""

import secrets
from random import Random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring import changes, errors
from scoring.engine.deal import draw_cards, order_by_draw
from scoring.engine.formats import FORMATS, WrongPlayerCount
from scoring.engine.games import GAMES
from scoring.engine.games.game import EntryError as GameEntryError
from scoring.engine.games.game import check_table, settle_options
from scoring.engine.rules import RULESETS, Rules
from scoring.models import DEFAULT_GAME, AuditRecord, Party, Seat, token_digest
from scoring.services.seating import check_seating
from scoring.services.seats import new_token


@transaction.atomic
def party_start(
    *,
    club,
    players: list,
    game: str = DEFAULT_GAME,
    options: dict | None = None,
    format: str | None = None,
    rules: Rules | str | None = None,
    night=None,
    confirmation_required: bool | None = None,
    label: str = "",
    rng: Random | None = None,
    user=None,
    address=None,
    anyway: bool = False,
    rematch_of: Party | None = None,
) -> Party:
    """Starts a party of ``game`` for every game: how the players come to their
    seats is the game's (`Game.formats`). A game of party formats (``format``,
    ``rules``: a ruleset's name or `Rules`) draws cards for the seats and the first
    deal (seed 000: the lower card deals; for three, chouette and partnerships the
    draw decides who sits out, who is the box, and the teams). Another game seats
    the players in the order given (the first deals first), puts them into its
    sides (`Game.sides`) and keeps its ``options`` settled over its defaults. Rules
    and confirmation not given come from the club night, else the classic rules
    with confirmation.

    At a club night, a player already seated at one of its running parties is
    refused (`errors.AlreadySeated`) unless the organizer says it is meant
    (``anyway``): the night's row is locked first, so the same party started twice
    at once is started once. ``rematch_of``: the party this one plays again."""
    if game not in GAMES:
        raise errors.EntryError(gettext("There is no game called %(name)r.") % {"name": game})
    engine = GAMES[game]
    night = check_seating(night, players, anyway=anyway)
    if confirmation_required is None:
        confirmation_required = night.confirmation_required if night else True
    start = {
        "club": club,
        "night": night,
        "label": label,
        "game": game,
        "confirmation_required": confirmation_required,
        "rematch_of": rematch_of,
    }
    if engine.formats:
        party, after = _drawn(start, players, format or "two", rules, night, rng)
    else:
        if format is not None or rules is not None:
            raise errors.EntryError(
                gettext("%(game)s has no formats: its players sit in the order given.")
                % {"game": engine.name}
            )
        party, after = _in_order(start, engine, players, options)
    changes.night_changed(party.night_id)
    changes.party_started(party.pk)
    AuditRecord.objects.create(
        party=party, action=AuditRecord.Action.START, user=user, address=address, after=after
    )
    return party


def _drawn(start: dict, players: list, format: str, rules, night, rng) -> tuple[Party, dict]:
    """A party of a format: seats and the first deal by a draw of cards."""
    if rules is None:
        rules = night.ruleset if night else "classic"
    if isinstance(rules, str):
        if rules not in RULESETS:
            raise errors.EntryError(
                gettext("There are no rules called %(name)r.") % {"name": rules}
            )
        rules = RULESETS[rules]
    if format not in FORMATS:
        raise errors.EntryError(gettext("There is no format called %(name)r.") % {"name": format})
    party_format = FORMATS[format]
    try:
        seating = party_format.seating(len(players))
    except WrongPlayerCount as error:
        sizes = gettext(" or ").join(str(n) for n in error.sizes)
        raise errors.EntryError(
            gettext("This format is played by %(sizes)s players, not %(count)d.")
            % {"sizes": sizes, "count": len(players)}
        ) from None
    rules = party_format.rules(rules, len(players))
    # The seed goes into the record, so the draw can be shown and replayed.
    seed = None if rng else secrets.randbits(64)
    rng = rng or Random(seed)
    draws = draw_cards([p.pk for p in players], rng)
    order = order_by_draw(draws)  # best card first
    by_pk = {p.pk: p for p in players}
    party = Party.objects.create(
        **start,
        format=format,
        rules=rules.as_dict(),
        target=rules.target,
        first_dealer=seating.first_dealer,
    )
    Seat.objects.bulk_create(
        Seat(party=party, player=by_pk[pk], side=seating.sides[i], position=i, token=new_token())
        for i, pk in enumerate(order)
    )
    after = {
        "draws": {str(by_pk[pk]): str(draws[pk]) for pk in order},
        "seed": seed,
        "rules": rules.as_dict(),
    }
    return party, after


def _in_order(start: dict, engine, players: list, options) -> tuple[Party, dict]:
    """A party of a game without formats: the players in the order given, the
    game's options settled over its defaults."""
    try:
        check_table(engine, len(players))
        settled = settle_options(engine, options)
        sides = engine.sides(len(players), settled)
    except GameEntryError as error:
        raise errors.refused(error) from error
    side_of = {seat: side for side, seats in enumerate(sides) for seat in seats}
    party = Party.objects.create(**start, rules=settled, first_dealer=0)
    Seat.objects.bulk_create(
        Seat(party=party, player=player, side=side_of[i], position=i, token=new_token())
        for i, player in enumerate(players)
    )
    after = {
        "game": engine.key,
        "options": settled,
        "seats": [player.name for player in players],
        "sides": [list(seats) for seats in sides],
    }
    return party, after


def check_not_cancelled(party: Party) -> None:
    if party.status == Party.Status.CANCELLED:
        raise errors.PartyCancelled(
            gettext("This party was cancelled by the organizer: it takes no more hands.")
        )


def check_night_open(party: Party) -> None:
    """A closed night's results are final: its parties are not changed any more."""
    if party.night_id and party.night.closed_at is not None:
        raise errors.NightClosed(
            gettext("%(night)s is closed: its results are final.") % {"night": party.night.name}
        )


def _locked_party(party: Party) -> Party:
    """The party row locked (every write to it queues here). Only its own row:
    PostgreSQL refuses FOR UPDATE on the nullable join to the night."""
    return Party.objects.select_for_update().get(pk=party.pk)


@transaction.atomic
def party_cancel(
    *, party: Party, user, reason: str, address=None, forfeit: dict | None = None
) -> Party:
    """Cancels a party started by mistake (or a tournament table that will not be
    played). A reason is required and goes into the party's record; its hands and
    its start stay there, but the party counts nowhere any more: not in the night's
    results, not in any outcome, and its seats take no hands. The record is
    append-only, so a party is never deleted. A club night's party only while the
    night is open: a closed night's results are final.

    ``forfeit``: the table was not played because a player did not come
    (``{"absent": <player id>, "points": <forfeit value>}``); kept in the record so
    that the seats' phones can say what became of the party instead of "cancelled"."""
    if not (reason or "").strip():
        raise errors.EntryError(gettext("Give a reason: a cancelled party stays in the record."))
    party = _locked_party(party)
    check_not_cancelled(party)
    check_night_open(party)
    before = {"status": party.status}
    party.status = Party.Status.CANCELLED
    party.finished_at = timezone.now()
    party.save(update_fields=["status", "finished_at"])
    # The party leaves every figure and standing it was part of.
    changes.scores_changed(party.club_id)
    changes.party_changed(party.pk)
    changes.night_changed(party.night_id)
    AuditRecord.objects.create(
        party=party,
        action=AuditRecord.Action.CANCEL,
        user=user,
        address=address,
        before=before,
        after={"status": party.status, **({"forfeit": forfeit} if forfeit else {})},
        reason=reason.strip(),
    )
    return party


@transaction.atomic
def party_forfeit_taken_back(*, party: Party, user=None, address=None) -> Party:
    """A forfeit taken back: the table is played after all, as a new party with new
    seat links (the tournament starts it). This party stays cancelled; its record
    says the forfeit was taken back, so an old seat link shows that and not the
    forfeit. Nothing happens to a party that was not given up by a forfeit."""
    party = _locked_party(party)
    if party.status != Party.Status.CANCELLED:
        return party
    changes.party_changed(party.pk)
    AuditRecord.objects.create(
        party=party,
        action=AuditRecord.Action.CANCEL,
        user=user if user is not None and user.is_authenticated else None,
        address=address,
        before={"status": party.status},
        after={"status": party.status, "forfeit_taken_back": True},
        reason=gettext("The forfeit was taken back: the table is played with new seat links."),
    )
    return party


def night_party_cancel(*, party: Party, user, reason: str, address=None) -> Party:
    """The night's housekeeping cancels a party (the party page, the organizer's API):
    only a party of a club night. A tournament's tables are cancelled by its round
    (a forfeit, a swap, an undone round), which keeps its board in step."""
    if party.night_id is None:
        raise errors.WrongDecision(gettext("Only a party of a club night can be cancelled here."))
    return party_cancel(party=party, user=user, reason=reason, address=address)


@transaction.atomic
def party_seat_swap(*, seat: Seat, player, user, address=None) -> Seat:
    """Puts another club member in a seat before the party's first hand: the wrong
    player was ticked. The seat keeps its place in the draw; it gets a new link, so
    the phone of the player who left no longer opens the table."""
    party = _locked_party(seat.party)
    if party.night_id is None:
        # A tournament's boards name their entrants: its tables are changed there.
        raise errors.WrongDecision(
            gettext("Only a party of a club night has its players swapped here.")
        )
    check_not_cancelled(party)
    check_night_open(party)
    if party.hands.exists():
        raise errors.WrongDecision(
            gettext("Hand 1 is already entered: a player can only be swapped before it.")
        )
    seat = Seat.objects.select_related("player").get(pk=seat.pk)
    # Only whom the party's start would offer: the club's active members and guests.
    if not party.club.memberships.filter(player=player, active=True).exists():
        raise errors.EntryError(
            gettext("%(name)s is not a member of the club.") % {"name": player.name}
        )
    if party.seats.filter(player=player).exists():
        raise errors.EntryError(
            gettext("%(name)s already has a seat at this party.") % {"name": player.name}
        )
    before_token = seat.token
    before = {
        "player": seat.player.name,
        "position": seat.position,
        "replaced_link": token_digest(before_token),
    }
    seat.player = player
    seat.token = new_token()
    seat.save(update_fields=["player", "token"])
    changes.party_changed(party.pk)
    changes.seats_changed([before_token])
    changes.night_changed(party.night_id)
    AuditRecord.objects.create(
        party=party,
        action=AuditRecord.Action.SWAP,
        seat=seat,
        user=user,
        address=address,
        before=before,
        after={"player": player.name, "position": seat.position},
    )
    return seat


@transaction.atomic
def party_rematch(
    *, party: Party, user, address=None, rng: Random | None = None
) -> tuple[Party, bool]:
    """A new party at the same night with the same players and format (or game and
    options): at Gin Rummy they draw their seats again; at another game they keep
    the table and the deal passes on, the second seat dealing first (partners stay
    opposite). Only once the party is over (or cancelled), and once: the party's
    row is locked first, and a click sent again is answered with the rematch
    already made. Returns the rematch and whether this call started it."""
    party = _locked_party(party)
    if party.night_id is None:
        raise errors.WrongDecision(gettext("Only a party of a club night has a rematch here."))
    made = Party.objects.filter(rematch_of=party).first()
    if made is not None:
        return made, False
    if party.status == Party.Status.RUNNING:
        raise errors.WrongDecision(
            gettext("This party is still running: a rematch starts once it is over.")
        )
    players = [seat.player for seat in party.seats.select_related("player").order_by("position")]
    # At a game of formats the players draw their seats again; at another they keep
    # the table and the deal passes on, the second seat dealing first.
    drawn = bool(GAMES[party.game].formats)
    rematch = party_start(
        club=party.club,
        night=party.night,
        game=party.game,
        players=players if drawn else players[1:] + players[:1],
        **({"format": party.format, "rng": rng} if drawn else {"options": party.rules}),
        confirmation_required=party.confirmation_required,
        label=party.label,
        user=user,
        address=address,
        # The same players, who have just finished playing each other.
        anyway=True,
        rematch_of=party,
    )
    return rematch, True
