"""The organizer's pages of a club's seasons, ratings and players: selector →
permission → form → one service call → message → redirect."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Club, Player
from clubs.permissions import organizer_required
from clubs.submissions import AlreadySent, key_of, submit_once, to_first
from seasons import erasure, player_pages, selectors, services
from seasons.data import data_file, player_data
from seasons.engine.season import SchemeError
from seasons.forms import EraseForm, MergeForm, ReopenForm, SchemeForm, SeasonForm
from seasons.services import SeasonRefused
from web.client import client_address


@dataclass(frozen=True)
class ClubPlayer:
    club: Club
    player: Player


def _club_player(slug: str, pk: int) -> ClubPlayer:
    club = selectors.club_by_slug(slug)
    return ClubPlayer(club, player_pages.club_player(club, pk, public=False))


def _season(pk: int):
    return selectors.season_by_id(pk)


@login_required
@organizer_required(selectors.club_by_slug)
def player_list(request, club):
    """Every player of the club, each linked to his page: the rated ones by rating
    (in the game asked for, ``?game=``; by default the game the club plays most),
    then the members and guests who have not played a party here yet."""
    game = selectors.rating_game(request.GET.get("game"))
    context = {
        "club": club,
        **_ratings(selectors.rating_board(club=club, public=False, game=game)),
        "unrated": selectors.unrated_members(club=club),
    }
    return render(request, "seasons/manage/player_list.html", context)


@login_required
@organizer_required(_club_player)
def player_detail(request, found):
    context = player_pages.player_page(club=found.club, player=found.player, public=False)
    context["public"] = False
    context["link"] = selectors.player_link(club=found.club, player=found.player)
    if selectors.guest_membership(club=found.club, player=found.player):
        context["merge"] = MergeForm(members=selectors.merge_candidates(club=found.club))
    context["erased"] = erasure.erased(club=found.club, player=found.player)
    return render(request, "seasons/manage/player_detail.html", context)


@login_required
@require_POST
@organizer_required(_club_player)
def player_data_download(request, found):
    """Everything the club keeps about the player (DSGVO Art. 15), recorded."""
    erasure.player_data_sent(
        club=found.club, player=found.player, user=request.user, address=client_address(request)
    )
    return data_file(player_data(club=found.club, player=found.player))


@login_required
@require_http_methods(["GET", "POST"])
@organizer_required(_club_player)
def player_erase(request, found):
    """Asks first: the organizer types the player's name (GET shows the page, a
    POST with the name erases). Nothing is erased by opening a link."""
    club, player = found.club, found.player
    form = EraseForm(request.POST if request.method == "POST" else None, name=player.name)
    if form.is_valid():
        try:
            name = erasure.player_erase(
                club=club, player=player, user=request.user, address=client_address(request)
            )
        except erasure.ErasureRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(
                request,
                _("The player is erased: the results stay, under the name %(name)s.")
                % {"name": name},
            )
            return redirect("manage:season-player", slug=club.slug, pk=player.pk)
    context = {"club": club, "player": player, "form": form}
    return render(request, "seasons/manage/player_erase.html", context)


@login_required
@require_POST
@organizer_required(_club_player)
def player_link_issue(request, found):
    try:
        services.player_link_issue(
            club=found.club,
            player=found.player,
            user=request.user,
            address=client_address(request),
        )
    except SeasonRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("manage:season-player", slug=found.club.slug, pk=found.player.pk)
    messages.success(
        request,
        _("A new personal link for %(name)s: the old one no longer works.")
        % {"name": found.player.name},
    )
    return redirect("manage:season-player", slug=found.club.slug, pk=found.player.pk)


@login_required
@require_POST
@organizer_required(_club_player)
def guest_merge(request, found):
    """A guest who joined: his parties, tournaments and rating go to the member."""
    form = MergeForm(request.POST, members=selectors.merge_candidates(club=found.club))
    if not form.is_valid():
        messages.error(request, _("Choose the member the guest became."))
        return redirect("manage:season-player", slug=found.club.slug, pk=found.player.pk)
    member = form.cleaned_data["member"]
    try:
        moved = services.guest_merge(
            club=found.club,
            guest=found.player,
            member=member,
            user=request.user,
            address=client_address(request),
        )
    except SeasonRefused as refusal:
        messages.error(request, str(refusal))
        return redirect("manage:season-player", slug=found.club.slug, pk=found.player.pk)
    messages.success(
        request,
        _("%(guest)s's %(count)s parties are now %(member)s's.")
        % {"guest": found.player.name, "count": moved, "member": member.name},
    )
    return redirect("manage:season-player", slug=found.club.slug, pk=member.pk)


@login_required
@organizer_required(selectors.club_by_slug)
def season_list(request, club):
    """The club's seasons, and the form that defines a new one."""
    form = SeasonForm(
        request.POST if request.method == "POST" else None, game=selectors.main_game(club)
    )
    if form.is_valid():
        try:
            season = submit_once(
                user=request.user,
                key=key_of(request),
                make=lambda: services.season_create(
                    club=club,
                    user=request.user,
                    address=client_address(request),
                    **form.cleaned_data,
                ),
                location=lambda made: reverse("manage:season-detail", args=[made.pk]),
            )
        except AlreadySent as sent:
            return to_first(request, sent)
        except SeasonRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, _("Season “%(name)s” defined.") % {"name": season.name})
            return redirect("manage:season-detail", pk=season.pk)
    context = {
        "club": club,
        "form": form,
        "seasons": selectors.season_list(club=club, public=False),
    }
    return render(request, "seasons/manage/season_list.html", context)


@login_required
@organizer_required(_season)
def season_detail(request, season):
    """The season table, its settings, closing and reopening, and a preview: the
    last season's table under another scheme, before choosing it."""
    form = SeasonForm.for_season(season, request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            services.season_change(
                season=season,
                user=request.user,
                address=client_address(request),
                **form.cleaned_data,
            )
        except SeasonRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(request, _("Season saved."))
            return redirect("manage:season-detail", pk=season.pk)
    context = {
        "club": season.club,
        "form": form,
        "reopen": ReopenForm(),
        **selectors.season_page(season, public=False),
    }
    context.update(_preview(request, season))
    return render(request, "seasons/manage/season_detail.html", context)


def _preview(request, season) -> dict:
    # The preview asks the season form's questions on the same page: its own ids
    # keep every label tied to its own field.
    auto_id = "preview_%s"
    if "scheme" not in request.GET:
        return {
            "preview_form": SchemeForm(
                initial={"scheme": "places", "place_points": "10-8-6-5-4-3-2-1"},
                auto_id=auto_id,
            )
        }
    form = SchemeForm(request.GET, auto_id=auto_id)
    tried = selectors.previous_season(season) or season
    if not form.is_valid():
        return {"preview_form": form}
    try:
        scheme = services.scheme_of(form.cleaned_data)
    except SchemeError as error:
        form.add_error(None, str(error))
        return {"preview_form": form}
    return {
        "preview_form": form,
        "preview_season": tried,
        "preview_now": selectors.season_page(tried, public=False)["rows"],
        "preview": selectors.season_page(tried, public=False, scheme=scheme)["rows"],
    }


@login_required
@require_http_methods(["GET", "POST"])
@organizer_required(_season)
def season_close(request, season):
    """Asks first (GET), as every action that fixes results does; closes (POST)."""
    if request.method == "GET":
        context = {"season": season, "club": season.club}
        return render(request, "seasons/manage/season_close.html", context)
    try:
        services.season_close(season=season, user=request.user, address=client_address(request))
    except SeasonRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("Season closed: its table no longer changes."))
    return redirect("manage:season-detail", pk=season.pk)


@login_required
@require_POST
@organizer_required(_season)
def season_reopen(request, season):
    form = ReopenForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason: reopening a season is kept in the record."))
        return redirect("manage:season-detail", pk=season.pk)
    try:
        services.season_reopen(
            season=season,
            user=request.user,
            reason=form.cleaned_data["reason"],
            address=client_address(request),
        )
    except SeasonRefused as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("Season reopened: its table follows the parties again."))
    return redirect("manage:season-detail", pk=season.pk)


def _ratings(board: dict) -> dict:
    return {
        "ratings": board["ratings"],
        "rating_game": board["game"],
        "rated_games": board["games"],
    }
