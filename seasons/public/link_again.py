"""The public "send my link again" page: a player who lost the link to his own page
types his address, and every club's link of a player with that address is mailed
to it. The answer is the same whether the address is known or not, and the mail
is sent by a task, so neither the page nor its time tells who plays where. One
network may ask a few times an hour (a 429 after that); one address is mailed a
few times an hour at most, whoever asks (beyond that nothing is sent, and the
answer is still the same)."""

from django import forms
from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from seasons import tasks
from web.throttle import too_often
from web.validators import PrintableForm


class LinkAgainForm(PrintableForm):
    email = forms.EmailField(label=_("Your e-mail address"), max_length=254)


def player_link_again(request):
    form = LinkAgainForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and too_often(request, what="player-link"):
        detail = _("Too many requests from your network. Wait an hour, then try again.")
        response = render(request, "429.html", {"detail": detail}, status=429)
        response["Retry-After"] = str(settings.ACCOUNT_MAIL_WINDOW)
        return response
    if form.is_valid():
        email = form.cleaned_data["email"].strip().lower()
        if not too_often(request, what="player-link-to", by=email):
            tasks.send_player_links_again(email)
        return render(request, "seasons/public/link_again_sent.html")
    status = 400 if form.is_bound else 200
    return render(request, "seasons/public/link_again.html", {"form": form}, status=status)
