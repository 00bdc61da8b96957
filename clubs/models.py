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

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("club night")
        verbose_name_plural = _("club nights")

    def __str__(self):
        return f"{self.name} ({self.date:%Y-%m-%d})"


class ApiToken(models.Model):
    """An organizer's personal key to the API. Only a hash of the key is kept:
    the key itself is shown once, when it is made. It acts for its user, so it
    reaches the clubs he organizes and nothing else, until it is revoked."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    name = models.CharField(_("name"), max_length=80)
    digest = models.CharField(max_length=64, unique=True)
    # The key's first characters, so its owner can tell his keys apart.
    prefix = models.CharField(_("begins with"), max_length=12)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self):
        return f"{self.name} ({self.prefix}…)"
