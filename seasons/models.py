"""What a club keeps of its seasons: ratings (derived from the confirmed parties,
recomputable at any time) and the seasons the organizer defines."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A player's rating in a club, as the fold over the club's finished parties
    leaves it (`seasons.engine.ratings`). Derived: ``manage.py rebuild_ratings``
    makes it again from the parties, and must make the same."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    parties = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_rating_per_club"),
        ]

    def __str__(self):
        return f"{self.player} – {self.club}"


class RatingChange(models.Model):
    """A player's rating after one party: the rating's history, and where a later
    correction rewinds to. Ordered like the fold: by when the party finished."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    party = models.ForeignKey("scoring.Party", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    finished_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    won = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["party", "player"], name="one_change_per_party"),
        ]
        indexes = [
            models.Index(fields=["club", "finished_at", "party"], name="change_order"),
            models.Index(fields=["player", "club", "finished_at"], name="change_history"),
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
