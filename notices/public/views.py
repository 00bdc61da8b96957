"""What a player is told, chosen on his own page; and turning one kind off from
a message, with no login."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from notices import delivery, selectors, services
from notices.forms import ChoicesForm
from notices.models import Kind
from notices.subscribing import push_answer
from notices.tokens import Expired, read_unsubscribe_token
from seasons.selectors import player_by_link


def choices(request, token):
    """The player's choices, each kind by e-mail and by push, and this phone's
    subscription to push. His address is never shown: only whether the club has one."""
    link = player_by_link(token)
    lines = selectors.choices_of(link.player)
    form = ChoicesForm(request.POST if request.method == "POST" else None, lines=lines)
    if form.is_valid():
        services.choices_set(player=link.player, chosen=form.chosen())
        messages.success(request, _("Your choices are saved."))
        return redirect("public:notices-choose", token)
    context = {
        "link": link,
        "form": form,
        "rows": [(line, form[f"{line.kind}-email"], form[f"{line.kind}-push"]) for line in lines],
        "has_address": bool(link.player.email),
        "push_key": delivery.public_key(),
        "phones": selectors.push_subscribed(link.player),
        "push_url": reverse("public:notices-push", args=[link.token]),
    }
    return render(request, "notices/public/choice_list.html", context)


@require_POST
def push_subscribe(request, token):
    """This phone's subscription to push, or its end (`subscribing.push_answer`)."""
    return push_answer(player=player_by_link(token).player, body=request.body)


# A mail program posts the one-click unsubscribe on its own (RFC 8058): it has no
# CSRF token; the signed token in the address is the key.
@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def turn_off(request, token):
    """GET asks (a link checker opening it turns nothing off); POST turns the kind
    of the message off, by e-mail and push."""
    try:
        found = read_unsubscribe_token(token)
    except Expired:
        return render(request, "notices/public/turn_off.html", {"expired": True}, status=410)
    if found is None or found[1] not in Kind.values:
        return render(request, "notices/public/turn_off.html", {"invalid": True}, status=400)
    player_id, kind = found
    done = request.method == "POST"
    if done and services.kind_turn_off(player_id=player_id, kind=kind) is None:
        return render(request, "notices/public/turn_off.html", {"invalid": True}, status=400)
    context = {"kind": Kind(kind).label, "done": done, "token": token}
    return render(request, "notices/public/turn_off.html", context)
