"""The final's public page and its slide on the wall screen: the bracket, updating
by itself like the standings (the same version and live stream: the stored
board's, built anew after every knockout service and every hand at the club)."""

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments import board, published, stored_board
from tournaments.final import bracket


def bracket_html(tournament, version, *, screen=False) -> str:
    """The bracket's HTML, rendered once per board version and language and kept
    in the cache; empty while the tournament has no final that has started, or
    keeps its pairings to itself."""

    # The bracket is the final's pairings: shown where the pairings are.
    if not tournament.public_pairings:
        return ""

    def render_part():
        stage = bracket.final_stage_of(tournament)
        if stage is None or stage.status == "planned":
            return ""
        context = {
            "tournament": tournament,
            "stage": stage,
            "bracket": bracket.bracket(stage, public=True),
        }
        if screen:
            return render_to_string("tournaments/public/_final_slide.html", context)
        html = render_to_string("tournaments/_bracket.html", context)
        if stage.status == "finished" and tournament.public_standings:
            context = {"places": bracket.places(tournament, public=True)}
            html += render_to_string("tournaments/_final_places.html", context)
        return html

    kind = "screen" if screen else "page"
    key = f"bracket-{kind}-html:{tournament.pk}:{get_language()}"
    # Our own template's output, escaped when it was rendered.
    return mark_safe(board.cached(key, version, render_part))


def final_detail(request, slug):
    tournament = published.public_tournament(slug)
    # The bracket is rendered from the final's own rows: no board built for it.
    version = stored_board.board_shown(tournament, cold=False).version
    html = bracket_html(tournament, version)
    if not html:
        raise Http404
    context = {"tournament": tournament, "version": version or "", "bracket_html": html}
    return render(request, "tournaments/public/final_detail.html", context)
