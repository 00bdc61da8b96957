from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from web.money import CURRENCIES, DEFAULT_CURRENCY


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    founded = models.PositiveSmallIntegerField(_("founded (year)"), null=True, blank=True)
    # What the club's mails are written in, and the clock its pages show.
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Berlin")
    # What the stakes are paid in: shown with every amount (web.money).
    currency = models.CharField(
        _("currency"),
        max_length=3,
        choices=[(code, f"{code} ({sign})") for code, sign in CURRENCIES.items()],
        default=DEFAULT_CURRENCY,
    )

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
    """A player's place in a club. The role says what they may do there: a guest plays
    and may become a member later; organizers run the club's nights and members; the
    club owner also decides who organizes."""

    class Role(models.TextChoices):
        GUEST = "guest", _("guest")
        MEMBER = "member", _("member")
        ORGANIZER = "organizer", _("organizer")
        OWNER = "owner", _("club owner")

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role, default=Role.MEMBER)
    since = models.DateField(_("member since"), default=timezone.localdate)
    active = models.BooleanField(
        _("active"),
        default=True,
        help_text=_("A deactivated member keeps their parties but is not offered for new ones."),
    )
    listed = models.BooleanField(
        _("listed publicly"),
        default=False,
        help_text=_("The member agreed to be named on the club's public page."),
    )

    class Meta:
        ordering = ["club", "player__name"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["player", "club"], name="one_membership_per_club"),
        ]

    def __str__(self):
        return f"{self.player} – {self.club} ({self.get_role_display()})"

    @property
    def organizes(self) -> bool:
        return self.role in ORGANIZING


#: The roles that run a club: its nights, parties and members.
ORGANIZING = (Membership.Role.ORGANIZER, Membership.Role.OWNER)


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
        return f"{self.name} ({date_format(self.date)})"


class ClubRecord(models.Model):
    """Append-only: what was done to a club's nights and members, and every login.

    Like the parties' audit records, nothing it refers to can be deleted while it
    exists, and on PostgreSQL a trigger refuses every UPDATE and DELETE of its rows
    (migration 0004)."""

    class Action(models.TextChoices):
        NIGHT = "night", _("club night opened")
        CLOSED = "closed", _("club night closed")
        STAKE = "stake", _("stake per point set")
        MEMBER = "member", _("member added")
        ROLE = "role", _("role changed")
        LEFT = "left", _("membership ended")
        DEACTIVATED = "deactivated", _("member deactivated")
        REACTIVATED = "reactivated", _("member reactivated")
        LOGIN = "login", _("logged in")
        LOGIN_FAILED = "login_failed", _("login failed")
        KEY_MADE = "key_made", _("API key made")
        KEY_REVOKED = "key_revoked", _("API key revoked")
        FOUNDED = "founded", _("club created")
        INVITED = "invited", _("organizer invited")
        INVITE_REVOKED = "invite_revoked", _("invitation taken back")
        INVITE_TAKEN = "invite_taken", _("invitation accepted")
        IMPORTED = "imported", _("member list imported")
        EXPORTED = "exported", _("member list exported")
        SETTINGS = "settings", _("club settings changed")

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.PROTECT, related_name="records"
    )
    action = models.CharField(_("action"), max_length=16, choices=Action)
    # Who did it: the organizer, or the person who logged in.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The name typed at a failed login, which may belong to nobody.
    username = models.CharField(_("user name"), max_length=150, blank=True)
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    # What changed, in words that stay true after the rows change: names, dates, roles.
    details = models.JSONField(_("details"), default=dict, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("club record")
        verbose_name_plural = _("club records")

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.get_action_display()}"


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


class FormSubmission(models.Model):
    """An organizer's create form, sent: the one-time key its page carried, claimed
    in the transaction that made the item, and the address of what it made. The
    same form sent again (a double click, a resend after a lost answer, back and
    submit) finds its key taken and is shown that item instead of making another
    (`clubs.submissions`). Keys belong to the login that sent them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    # Where what the form made lives: the page a second sending is sent to.
    location = models.CharField(max_length=300, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_submission_per_key"),
        ]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.location}"


class Invitation(models.Model):
    """The owner's invitation to organize the club, by a link he passes on or by
    e-mail. Only a hash of its key is kept (the link is shown or sent once). It
    works once, until ``expires_at``, and not after the owner takes it back."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="invitations"
    )
    # Empty for an invitation by link; never shown on a public page.
    email = models.EmailField(_("email"), blank=True)
    digest = models.CharField(max_length=64, unique=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    made_at = models.DateTimeField(_("made"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("taken back"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-made_at", "-pk"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self):
        return f"{self.club} ({self.made_at:%Y-%m-%d})"

    def is_open(self, now) -> bool:
        return self.revoked_at is None and self.accepted_at is None and now < self.expires_at
