"""The organizer's forms for the member list and the club's organizers. They only
validate: the services write."""

from django import forms
from django.conf import settings
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership
from web.validators import PrintableForm, unprintable

#: The roles the member list gives: who organizes is the owner's decision.
PLAYING_CHOICES = [
    (Membership.Role.MEMBER, _("Member")),
    (Membership.Role.GUEST, _("Guest")),
]


class MemberSearchForm(PrintableForm):
    q = forms.CharField(label=_("Name or email"), required=False, max_length=120)
    inactive = forms.BooleanField(label=_("Show deactivated members too"), required=False)


class MemberForm(PrintableForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    email = forms.EmailField(label=_("Email (optional)"), required=False)
    role = forms.ChoiceField(
        label=_("Plays as"),
        choices=PLAYING_CHOICES,
        initial=Membership.Role.MEMBER,
        widget=forms.RadioSelect,
    )
    listed = forms.BooleanField(
        label=_("Agreed to be listed on the club's public page"), required=False
    )

    def __init__(self, *args, organizes: bool = False, **kwargs):
        """``organizes``: the member runs the club, so their role is not this form's."""
        super().__init__(*args, **kwargs)
        if organizes:
            del self.fields["role"]

    @classmethod
    def for_membership(cls, membership: Membership, data=None) -> "MemberForm":
        initial = {
            "name": membership.player.name,
            "email": membership.player.email,
            "role": membership.role,
            "listed": membership.listed,
        }
        return cls(data, initial=initial, organizes=membership.organizes)


class GuestForm(PrintableForm):
    """A walk-in guest at the door: a name is enough."""

    name = forms.CharField(label=_("Guest's name"), max_length=120)


class InviteForm(PrintableForm):
    member = forms.ModelChoiceField(label=_("Committee member"), queryset=None)
    username = forms.CharField(
        label=_("User name for the new login"),
        max_length=150,
        required=False,
        validators=[UnicodeUsernameValidator()],
        help_text=_("Not needed when the member already has a login."),
    )

    def __init__(self, *args, members, **kwargs):
        """``members``: the active members who may be made organizers."""
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members
        self.fields["member"].label_from_instance = lambda membership: membership.player.name


class ClubForm(PrintableForm):
    """A new club. The address is suggested from the name as it is typed
    (static/js/club-slug.js) and checked by the service."""

    name = forms.CharField(label=_("Club name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address of its pages"),
        max_length=60,
        required=False,
        help_text=_(
            "Small letters, digits and dashes, as in /clubs/cafe-pik/. Left empty: made "
            "from the name."
        ),
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    time_zone = forms.ChoiceField(label=_("Time zone"))

    def __init__(self, *args, time_zones, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["time_zone"].choices = [(zone, zone) for zone in time_zones]


class ClubSettingsForm(PrintableForm):
    """What a club's organizers change about it: the language its mails are written
    in, and the currency of its stakes."""

    language = forms.ChoiceField(
        label=_("Language"),
        choices=settings.LANGUAGES,
        help_text=_("The mails to the club's players are written in it."),
    )
    currency = forms.ChoiceField(
        label=_("Currency"),
        choices=Club._meta.get_field("currency").choices,
        help_text=_("Every stake and amount of the club's nights is shown in it."),
    )


class InvitationForm(PrintableForm):
    email = forms.EmailField(
        label=_("Their email (optional)"),
        required=False,
        help_text=_("Left empty: you get a link to pass on yourself."),
    )


class RosterUploadForm(PrintableForm):
    """A member list to import: the file is read by `clubs.roster`, which refuses
    what is not a member list (and any row with a control character in it)."""

    file = forms.FileField(
        label=_("Member list (.csv, .xlsx or .ods)"),
        help_text=_(
            "Columns: name, email, role (member or guest), member since, active, listed "
            "publicly — in English or German; only the name is needed."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,.ods"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        # The name goes into the club's record: what no text field takes is left out.
        upload.name = "".join(c for c in upload.name if not unprintable(c))[:200] or "upload"
        return upload
