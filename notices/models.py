"""What a player is told, how he chose to be told it, and the phones he lets
Knock push to."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    """What a player can be told; each he turns on or off by itself."""

    TABLE = "table", _("my table and seat link when a round is paired or a party starts")
    CHANGE = "change", _("a change of my table (swap, forfeit, my opponent withdrawn)")
    SHEET = "sheet", _("my party's sheet when it ends")
    STANDINGS = "standings", _("the final standings of my tournaments")
    DIGEST = "digest", _("a season digest")


class Channel(models.TextChoices):
    EMAIL = "email", _("e-mail")
    PUSH = "push", _("push to my phone")


#: How a player is told what he never chose about: by e-mail of his own games,
#: and no digest unless he asks for it.
DEFAULTS = {
    Kind.TABLE: {Channel.EMAIL: True, Channel.PUSH: True},
    Kind.CHANGE: {Channel.EMAIL: True, Channel.PUSH: True},
    Kind.SHEET: {Channel.EMAIL: True, Channel.PUSH: True},
    Kind.STANDINGS: {Channel.EMAIL: True, Channel.PUSH: True},
    Kind.DIGEST: {Channel.EMAIL: False, Channel.PUSH: False},
}


class Choice(models.Model):
    """A player's own choice for one kind of notice; without a row, `DEFAULTS`."""

    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="notice_choices"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind)
    email = models.BooleanField(_("by e-mail"))
    push = models.BooleanField(_("by push"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="one_choice_per_kind"),
        ]

    def __str__(self):
        return f"{self.player} · {self.kind}"


class PushSubscription(models.Model):
    """A phone's browser that lets Knock push to it (the Push API's subscription):
    where to send, and the keys the message is encrypted for."""

    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.player} · {self.endpoint[:40]}"


class Notice(models.Model):
    """One message to one player by one channel: written once, with its text, and
    sent by a task. Its key names what it tells (the party started, the player):
    told again (a task run twice), it is the same notice and is sent once."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        # The mail server refused the address for good.
        BOUNCED = "bounced", _("bounced")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="notices")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(_("kind"), max_length=16, choices=Kind)
    channel = models.CharField(_("channel"), max_length=8, choices=Channel)
    key = models.CharField(max_length=120)
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("text"))
    link = models.CharField(_("link"), max_length=500, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status, default=Status.QUEUED)
    error = models.TextField(_("error"), blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # When a worker last claimed it: a notice "being sent" long after was left by
    # a worker killed mid-send, and the catch-up sends it again (notices/catchup.py).
    tried_at = models.DateTimeField(_("last tried"), null=True, blank=True)
    created_at = models.DateTimeField(_("written"), auto_now_add=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["key", "channel"], name="one_notice_per_key"),
        ]
        indexes = [models.Index(fields=["club", "-created_at"], name="notice_club_latest")]

    def __str__(self):
        return f"{self.key} · {self.channel}"
