from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    founded = models.PositiveSmallIntegerField(_("founded (year)"), null=True, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("public:club-detail", args=[self.slug])


class Player(models.Model):
    """A person who plays; may have a login (organizers do)."""

    name = models.CharField(_("name"), max_length=120)
    email = models.EmailField(_("email"), blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self):
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("member")
        ORGANIZER = "organizer", _("organizer")

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role, default=Role.MEMBER)
    since = models.DateField(_("member since"), default=timezone.localdate)

    class Meta:
        ordering = ["club", "player__name"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "club"], name="one_membership_per_club"),
        ]

    def __str__(self):
        return f"{self.player} – {self.club} ({self.get_role_display()})"


class ClubNight(models.Model):
    """An evening of parties at a club. Its settings are copied onto each party."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="nights"
    )
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"), default=timezone.localdate)
    confirmation_required = models.BooleanField(
        _("opponent confirms each hand"),
        default=True,
        help_text=_("A hand entered at one seat counts once the other side confirms it."),
    )
    ruleset = models.CharField(_("rules"), max_length=40, default="classic")
    # Seed 000: the winner is paid the difference "nach dem vereinbarten Schlüssel";
    # a club that plays for money agrees on so much per point. Empty: not for money.
    stake = models.DecimalField(
        _("stake per point"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("What one point of a party's difference is worth; empty: not for money."),
    )
    # A closed night takes no new parties and its results are final.
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")

    def __str__(self):
        return f"{self.name} ({self.date:%Y-%m-%d})"
