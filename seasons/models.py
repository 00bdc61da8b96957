"""What a club keeps of its seasons: ratings (derived from the confirmed parties,
recomputable at any time) and the seasons the organizer defines."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models import DEFAULT_GAME, game_choices

#: A season that counts the parties of every game.
ALL_GAMES = "all"


def season_games() -> list[tuple[str, str]]:
    """What a season counts: one game (`game_choices`), or all of them."""
    return [*game_choices(), (ALL_GAMES, _("all games"))]


class Rating(models.Model):
    """A player's rating in a club, as the fold over the club's finished parties
    leaves it (`seasons.engine.ratings`). Derived: ``manage.py rebuild_ratings``
    makes it again from the parties, and must make the same."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="ratings")
    # One rating per game: a Chinchón party says nothing of a player's Gin Rummy.
    game = models.CharField(max_length=32, choices=game_choices, default=DEFAULT_GAME)
    mu = models.FloatField()
    sigma = models.FloatField()
    parties = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player", "game"], name="one_rating_per_club_and_game"
            ),
        ]

    def __str__(self):
        return f"{self.player} – {self.club}"


class RatingChange(models.Model):
    """A player's rating after one party: the rating's history, and where a later
    correction rewinds to. Ordered like the fold: by when the party finished."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    party = models.ForeignKey("scoring.Party", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=32, choices=game_choices, default=DEFAULT_GAME)
    finished_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    won = models.BooleanField(default=False)
    # The player's result of the party as its settlement pays, kept with the rating
    # so that the season table and the player's page read one row per party: his
    # plus/minus, his side's boxes (hands won), the shutouts, and what each
    # opponent paid him (negative: he paid), as [[player id, amount], …].
    plus_minus = models.IntegerField(default=0)
    boxes = models.PositiveSmallIntegerField(default=0)
    shutout_made = models.BooleanField(default=False)
    shutout_suffered = models.BooleanField(default=False)
    games = models.JSONField(default=list)
    # The player's place at the table (1 best; shared places are equal): what a
    # season of all games scores, and a Cruzo player's average place.
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["party", "player"], name="one_change_per_party"),
        ]
        indexes = [
            models.Index(fields=["club", "finished_at", "party"], name="change_order"),
            models.Index(fields=["player", "club", "finished_at"], name="change_history"),
            models.Index(fields=["club", "game", "finished_at"], name="change_game_order"),
        ]

    def __str__(self):
        return f"{self.player_id} after party {self.party_id}"


class RatingLedger(models.Model):
    """How far a club's ratings have read the parties' audit record: every change
    to a hand or a party writes one, so what came after this is what to fold in."""

    club = models.OneToOneField("clubs.Club", on_delete=models.CASCADE, related_name="+")
    audit_through = models.BigIntegerField(default=0)

    def __str__(self):
        return f"ratings of club {self.club_id} through record {self.audit_through}"


class Season(models.Model):
    """A club's season (German "Saison"): its events between two dates, scored by
    the club's scheme into the season table ("Rangliste"). A closed season keeps
    its table as it was: a later correction changes it only if the organizer
    reopens the season."""

    class Counts(models.TextChoices):
        BOTH = "both", _("club nights and tournaments")
        NIGHTS = "nights", _("club nights")
        TOURNAMENTS = "tournaments", _("tournaments")

    class Scheme(models.TextChoices):
        PLUS_MINUS = "plus_minus", _("sum of plus/minus points")
        PLACES = "places", _("points by place per event")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    starts = models.DateField(_("from"))
    ends = models.DateField(_("to"))
    counts = models.CharField(
        _("events that count"), max_length=16, choices=Counts, default=Counts.BOTH
    )
    # The game whose parties and tournaments count, or all games (scored by place
    # only: plus/minus points of different games do not add up).
    game = models.CharField(
        _("game"),
        max_length=32,
        choices=season_games,
        default=DEFAULT_GAME,
    )
    scheme = models.CharField(
        _("scoring"), max_length=16, choices=Scheme, default=Scheme.PLUS_MINUS
    )
    # Points for 1st, 2nd, … place of each event (the "places" scheme).
    place_points = models.JSONField(_("points by place"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(
        _("best events that count"),
        null=True,
        blank=True,
        help_text=_("Only a player's best N events count; empty: all of them."),
    )
    minimum_events = models.PositiveSmallIntegerField(_("events needed to be ranked"), default=0)
    published = models.BooleanField(_("public"), default=False)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # The table as it stood when the season closed (`seasons.engine.season` lines).
    frozen = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-starts", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")), name="season_dates_in_order"
            ),
        ]

    def __str__(self):
        return self.name


class PlayerLink(models.Model):
    """A player's personal link to his own page at a club (no login, like a seat
    link). A new one replaces the old, which then stops working."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_link_per_player"),
        ]

    def __str__(self):
        return f"link of {self.player_id} at {self.club_id}"


class SeasonRecord(models.Model):
    """Append-only: what organizers did to a club's seasons and personal links, and
    to a player's data (downloaded, erased: `seasons.erasure`)."""

    class Action(models.TextChoices):
        CREATED = "created", _("season created")
        CHANGED = "changed", _("season changed")
        CLOSED = "closed", _("season closed")
        REOPENED = "reopened", _("season reopened")
        LINK = "link", _("personal link issued")
        MERGED = "merged", _("guest merged into a member")
        DATA_SENT = "data_sent", _("player's data downloaded")
        ERASED = "erased", _("player erased")

    club = models.ForeignKey("clubs.Club", on_delete=models.PROTECT, related_name="+")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.PROTECT, related_name="records"
    )
    action = models.CharField(max_length=16, choices=Action)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    address = models.GenericIPAddressField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"
