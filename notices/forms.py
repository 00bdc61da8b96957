import json

from django import forms

from notices.models import Channel, Kind


class ChoicesForm(forms.Form):
    """A box for each kind of notice and each channel: checked, he is told so."""

    def __init__(self, *args, lines, **kwargs):
        super().__init__(*args, **kwargs)
        for line in lines:
            for channel in Channel:
                self.fields[f"{line.kind}-{channel}"] = forms.BooleanField(
                    required=False,
                    initial=getattr(line, channel),
                    label=f"{line.label}: {channel.label}",
                )

    def chosen(self) -> dict[str, dict[str, bool]]:
        return {
            kind: {channel: self.cleaned_data[f"{kind}-{channel}"] for channel in Channel}
            for kind in Kind
        }


def subscription_from(body: bytes) -> dict:
    """What a page's script sent about this phone's push subscription: the Push
    API's subscription (``endpoint`` and ``keys``), or ``{"endpoint", "off": true}``.
    ValueError (KeyError, TypeError) for anything else."""
    sent = json.loads(body)
    endpoint = str(sent["endpoint"])
    if sent.get("off"):
        return {"endpoint": endpoint, "off": True}
    keys = sent["keys"]
    return {"endpoint": endpoint, "p256dh": str(keys["p256dh"]), "auth": str(keys["auth"])}
