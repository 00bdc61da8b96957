"""The seat page's frame (base.html's head and header, the notices, the scripts)
made once per language and kept (`kept.part`), with marks for the seat's few
values; only the hand (_hand.html) is made for each page. The frame was half of
a seat page's time once its entry form, sheet and race were kept."""

from types import SimpleNamespace

from django.contrib.messages import get_messages
from django.template.loader import render_to_string

from scoring.seat import kept


def framed(request, context, addresses) -> str | None:
    """The page as table_detail.html writes it: the hand (_hand.html) made for
    this page, in the frame (the head, the header, the notices, the scripts)
    made once per language and kept (`kept.part`) with marks for the seat's
    few values, among them the messages the page tells. The frame was half of
    the page's time. None when parts are not kept."""
    if not kept.KEPT:
        return None
    # The hand reads nothing of the context processors' (the frame does: the
    # request, the user, the messages), so none is asked for it.
    messages = get_messages(request)
    hand = render_to_string("scoring/seat/_hand.html", {**context, "messages": messages})
    seat, party, game, title = context["seat"], context["party"], context["game"], context["title"]
    # Read as base.html reads them: the messages told are used up.
    told = list(messages) if messages else []
    shows_game = bool(party.label and title != game.name)
    signed_in = request.user.is_authenticated
    namespace = request.resolver_match.namespace

    def marked():  # asked only the first time
        return {
            "request": SimpleNamespace(
                resolver_match=SimpleNamespace(namespace=namespace),
                get_full_path=kept.mark("path"),
            ),
            "user": SimpleNamespace(is_authenticated=signed_in),
            "messages": [_Told(index) for index in range(len(told))],
            "seat": {"player": {"name": kept.mark("name")}},
            "party": {"label": shows_game},
            "game": {"name": kept.mark("game")},
            "title": kept.mark("title"),
            "parts": context["parts"],
            "version": kept.mark("version"),
            "address": kept.addresses(kept.mark("token"), addresses),
            "hand_html": kept.mark("hand"),
        }

    values = {
        "path": request.get_full_path(),
        "name": seat.player.name,
        "game": game.name,
        "title": title,
        "version": context["version"],
        "token": seat.token,
        "hand": hand,  # already safe, as the template made it
    }
    for index, message in enumerate(told):
        values[f"tags{index}"] = message.tags
        values[f"told{index}"] = message
    key = (context["parts"]["script"], namespace, signed_in, shows_game, len(told))
    return str(kept.part("scoring/seat/table_detail.html", key, marked, values))


class _Told:
    """A message as the kept frame is made with: marks for its kind and words."""

    def __init__(self, index):
        self.tags = kept.mark(f"tags{index}")
        self.words = kept.mark(f"told{index}")

    def __str__(self):
        return self.words
