"""A party and its hands, as stored. The rules live in the pure core; these rows
only remember what was entered, by whom, and what the core made of it."""

import hashlib
import re

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.engine.games import FORMAT_GAMES, GAMES

#: The game of a party, a tournament or a season that names none: the first of
#: `GAMES`, Gin Rummy, which every party played before the other games came.
DEFAULT_GAME = next(iter(GAMES))


def game_choices() -> list[tuple[str, str]]:
    """Every game of `GAMES` by its key, with its name in the reader's language: the
    choices of every model field that names a game, asked when read, so a game
    added to `GAMES` needs no migration."""
    return [(key, _(game.name)) for key, game in GAMES.items()]


def game_name(key: str) -> str:
    """A game's name in the reader's language; a key no game has any more, as stored."""
    return str(dict(game_choices()).get(key, key))


class Party(models.Model):
    """Hands played until one side reaches the target (German "Partie")."""

    class Format(models.TextChoices):
        TWO = "two", _("two players")
        ROTATION = "rotation", _("three players in rotation")
        CHOUETTE = "chouette", _("chouette")
        PARTNERS = "partners", _("partnership")

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        # Started by mistake: kept with its hands for the record, counted nowhere.
        CANCELLED = "cancelled", _("cancelled")

    club = models.ForeignKey(
        "clubs.Club", verbose_name=_("club"), on_delete=models.PROTECT, related_name="parties"
    )
    night = models.ForeignKey(
        "clubs.ClubNight",
        verbose_name=_("club night"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="parties",
    )
    label = models.CharField(_("label"), max_length=120, blank=True)
    game = models.CharField(
        _("card game"), max_length=32, choices=game_choices, default=DEFAULT_GAME
    )
    format = models.CharField(_("format"), max_length=16, choices=Format, default=Format.TWO)
    # The rules as they were when the party started (`scoring.engine.rules.Rules.as_dict`;
    # for another game its options as `settle_options` settled them), so later
    # changes to a club's rules never rewrite history.
    rules = models.JSONField(_("rules"))
    target = models.PositiveSmallIntegerField(_("target"), default=100)
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.RUNNING)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer (seat)"), default=1)
    confirmation_required = models.BooleanField(_("opponent confirms each hand"), default=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    # The party this one plays again (the organizer's "Rematch"): one rematch per
    # party, held by the database, so a click sent twice never starts two.
    rematch_of = models.OneToOneField(
        "self",
        verbose_name=_("rematch of"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rematch",
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Moves with every change the party's pages show (a hand, its status, who sits
    # where: `changes.party_changed`, in the change's own transaction). A kept
    # score (`KeptScore`) says at which count it was computed, so one the party
    # has moved on from is never read.
    changes = models.PositiveIntegerField(_("changes"), default=0, editable=False)

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("party")
        verbose_name_plural = _("parties")

    def __str__(self):
        # A game of party formats is told by its format, another by its name.
        if self.game in FORMAT_GAMES:
            return self.label or f"{self.get_format_display()} #{self.pk}"
        return self.label or f"{self.get_game_display()} #{self.pk}"


# A seat link's token as `scoring.services.seats.new_token` makes it: 32 random bytes in
# URL-safe base64 without padding.
SEAT_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")


def is_seat_token(token: str) -> bool:
    return SEAT_TOKEN.fullmatch(token) is not None


def token_digest(token: str) -> str:
    """What the record keeps of a replaced seat link: enough to tell a phone that
    opens it that it was replaced, never the link itself."""
    return hashlib.sha256(token.encode()).hexdigest()


class KeptScore(models.Model):
    """A Gin Rummy party's score as standings and boards read it
    (`scores.PartyScore`), kept so that a board of thousands of parties does not
    settle every party from its hands on every build. ``changes``: the party's
    count it was computed at (`Party.changes`); `scores.party_scores` computes
    again, and keeps, every score whose party has moved on since. Derived data
    only: deleting every row loses nothing."""

    party = models.OneToOneField(
        Party, primary_key=True, on_delete=models.CASCADE, related_name="kept_score"
    )
    changes = models.PositiveIntegerField()
    score = models.JSONField()

    class Meta:
        verbose_name = _("kept score")
        verbose_name_plural = _("kept scores")

    def __str__(self):
        return f"{self.party_id} at {self.changes}"


class Seat(models.Model):
    """A player's place in a party, with the secret link that opens it."""

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        "clubs.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="seats"
    )
    # The side whose column the seat scores in: 0/1 (two players, partnerships,
    # chouette box 0 and team 1) or 0/1/2 (rotation, each player his own account).
    side = models.PositiveSmallIntegerField(_("side"))
    # The seat's number in the core's terms: draw order within the party.
    position = models.PositiveSmallIntegerField(_("position"))
    token = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["party", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["party", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(fields=["party", "player"], name="one_seat_per_player"),
        ]

    def __str__(self):
        return f"{self.player} @ {self.party}"

    def get_absolute_url(self):
        return reverse("seat:table", args=[self.token])


class Hand(models.Model):
    """One deal (German "Spiel"): how it ended and what it scored.

    For partnerships, ``number`` is the round and ``table`` the table within it.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for confirmation")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        VOID = "void", _("void")

    class Ending(models.TextChoices):
        KNOCK = "knock", _("knock")
        GIN = "gin", _("gin")
        BIG_GIN = "big_gin", _("big gin")
        NO_GAME = "no_game", _("no game")
        # A hand of another game (`Party.game`): no knocker, no defender; what it
        # scored is in ``scores``.
        SCORED = "scored", _("scored")

    party = models.ForeignKey(Party, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(_("hand"))
    table = models.PositiveSmallIntegerField(_("table"), default=1)
    status = models.CharField(_("status"), max_length=16, choices=Status)
    ending = models.CharField(_("ending"), max_length=16, choices=Ending)
    dealer = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    knocker = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    defender = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    knocker_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    defender_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    # Optional details: the cards as tapped, the up-card (Oklahoma) and the
    # director's rulings of seed 000 § 14 (missing cards, too many cards, …).
    details = models.JSONField(default=dict, blank=True)
    # What the rules engine made of it.
    kind = models.CharField(max_length=16, blank=True)
    points = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # What the game's engine made of the hand, the same for every game: each side's
    # points (by side number) and its facts (who knocked, who closed, a Chinchón …:
    # `HandScore`), what the statistics and the sheets of every game read. What
    # was entered is kept as the game enters it: a hand of the party formats in
    # the columns above (and its cards and rulings in ``details``), another game's
    # entry as sent, under ``details["entry"]``.
    scores = models.JSONField(null=True, blank=True)
    facts = models.JSONField(default=dict, blank=True)
    # At a table of three or more sides: the positions of the seats that confirmed
    # the entry's current version; emptied when the entry changes.
    confirmations = models.JSONField(default=list, blank=True)
    # A disputed hand keeps the other side's version here, for the table to compare.
    counter = models.JSONField(null=True, blank=True)
    entered_by = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The entry's version: raised by every change, so that a confirmation names the
    # entry its phone showed and cannot approve one that changed since.
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["party", "number", "table"]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = [
            models.UniqueConstraint(
                fields=["party", "number", "table"], name="one_hand_per_number"
            ),
            models.CheckConstraint(
                condition=Q(ending__in=["no_game", "scored"])
                | Q(knocker__isnull=False, defender__isnull=False),
                name="knock_names_both_players",
            ),
        ]

    def __str__(self):
        return f"{self.party} – hand {self.number}"


class AuditRecord(models.Model):
    """Append-only: every entry, confirmation, correction and void of a party.

    Nothing it refers to can be deleted while it exists (``PROTECT``), and on
    PostgreSQL a trigger refuses every UPDATE and DELETE of its rows (migration
    0003), so the record stands even against the admin or a shell."""

    class Action(models.TextChoices):
        START = "start", _("party started")
        ENTER = "enter", _("hand entered")
        CONFIRM = "confirm", _("hand confirmed")
        DISPUTE = "dispute", _("hand disputed")
        CORRECT = "correct", _("hand corrected")
        VOID = "void", _("hand voided")
        RESOLVE = "resolve", _("dispute resolved")
        LINK = "link", _("seat link reissued")
        CANCEL = "cancel", _("party cancelled")
        SWAP = "swap", _("player swapped")

    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="audit")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="audit"
    )
    action = models.CharField(max_length=16, choices=Action)
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.PROTECT)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    address = models.GenericIPAddressField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    # The seat's idempotency key: a double-tapped submit is recorded once. A key
    # belongs to the seat that sent it, so one table's key never touches another's.
    # NULL, not "": records without a key never collide in the unique constraint.
    key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    # What was sent under the key (`scoring.services.hands`): the hand's number and
    # the entry, hashed. The same key with another entry or hand is refused, never
    # answered as a repeat of what it first carried. Empty before keys were bound.
    fingerprint = models.CharField(max_length=64, blank=True, default="")
    # When it was written; an archive brought back (tournaments/archive.py) writes
    # its records once with the times they had, since no row is ever updated.
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")
        constraints = [
            models.UniqueConstraint(fields=["seat", "key"], name="one_record_per_seat_key"),
        ]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.get_action_display()}"
