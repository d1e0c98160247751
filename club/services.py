"""Writes of the club's players: add one (another person of a name the club already has),
change a name, phone or e-mail, and merge two players found to be one. Each owns its
transaction and writes one audit entry of the club (``drives.services.audit`` without a
drive). The couples keep their names as typed that night; only their links move. Players are
made at registration (``drives.services.players_link``), not here."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator, validate_email
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from drives import inputs
from drives.errors import NotFound, ServiceError
from drives.models import Club, Couple, Player
from drives.names import name_key
from drives.services import SYSTEM, Actor, audit

MAX_PHONE = 40
MAX_EMAIL = 120


def _phone(value: Any) -> str:
    text = " ".join(str(value or "").split())
    if len(text) > MAX_PHONE:
        raise ServiceError(
            "bad_phone",
            gettext("A phone number has at most %(max)s characters.") % {"max": MAX_PHONE},
            field="phone",
        )
    return text


def _email(value: Any) -> str:
    text = str(value or "").strip()
    try:
        if text:
            validate_email(text)
        if len(text) > MAX_EMAIL:
            raise ValidationError("too long")
    except ValidationError:
        raise ServiceError(
            "bad_email", gettext("Enter an e-mail address such as mary@example.org."), field="email"
        ) from None
    return text


def player_add(*, club: Club, name: Any, actor: Actor = SYSTEM) -> Player:
    """A new player of the club, even of a name it already has (two people of one name: the
    door then asks which one plays)."""
    name = inputs.check_field(inputs.PLAYER, name, field="name")
    with transaction.atomic():
        player = Player.objects.create(club=club, name=name, key=name_key(name)[:160])
        audit(None, actor, "player.add", club=club, subject=name, new={"id": player.pk})
    return player


def player_update(*, player: Player, actor: Actor, **changes: Any) -> Player:
    """Change a player's ``name``, ``phone``, ``email`` or whether a ``member`` of the club
    (the members' entry price: ``money.selectors.fee_of``), only those given."""
    inputs.refuse_unknown(changes, {"name", "phone", "email", "member"})
    clean: dict[str, Any] = {}
    if "name" in changes:
        clean["name"] = inputs.check_field(inputs.PLAYER, changes["name"], field="name")
    if "phone" in changes:
        clean["phone"] = _phone(changes["phone"])
    if "email" in changes:
        clean["email"] = _email(changes["email"])
    if "member" in changes:
        if not isinstance(changes["member"], bool):
            raise ServiceError("bad_member", gettext("member: true or false."), field="member")
        clean["member"] = changes["member"]
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        old = {k: getattr(player, k) for k in clean if getattr(player, k) != clean[k]}
        new = {k: clean[k] for k in old}
        for field, value in new.items():
            setattr(player, field, value)
        if "name" in new:
            player.key = name_key(player.name)[:160]
        player.save()
        if new:
            audit(
                None,
                actor,
                "player.update",
                club=player.club,
                subject=player.name,
                old={"id": player.pk, **old},
                new=new,
            )
    return player


def player_merge(*, keep: Player, gone: Player, actor: Actor) -> int:
    """``gone`` is ``keep``: every couple naming ``gone`` names ``keep`` instead, ``keep``
    takes the phone or e-mail it lacks, and ``gone`` is deleted. The number of couples
    relinked. Two players of different clubs, or a player with itself, are refused."""
    if keep.club_id != gone.club_id:
        raise NotFound("not_found", gettext("No such player at this club."))
    if keep.pk == gone.pk:
        raise ServiceError(
            "same_player", gettext("Choose two different players: a player is already themselves.")
        )
    with transaction.atomic():
        players = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, gone.pk])
        }
        if len(players) != 2:
            raise NotFound("not_found", gettext("No such player at this club."))
        keep, gone = players[keep.pk], players[gone.pk]
        couples = Couple.objects.filter(Q(member1=gone) | Q(member2=gone))
        relinked = couples.count()
        Couple.objects.filter(member1=gone).update(member1=keep)
        Couple.objects.filter(member2=gone).update(member2=keep)
        for field in ("phone", "email"):
            if not getattr(keep, field):
                setattr(keep, field, getattr(gone, field))
        keep.save()
        gone_id, gone_name = gone.pk, gone.name
        gone.delete()
        audit(
            None,
            actor,
            "player.merge",
            club=keep.club,
            subject=keep.name,
            old={"id": gone_id, "name": gone_name},
            new={"id": keep.pk, "name": keep.name},
            note=f"{gone_name} merged into {keep.name}: {relinked} couples relinked",
        )
    return relinked


PUBLIC_NAMES = tuple(Club.PublicNames.values)


def club_public_names(*, club: Club, public_names: Any, actor: Actor) -> Club:
    """What the club's public pages show of its players' names: ``full``, ``initial`` (a
    first name with the last name's initial, the default) or ``none`` (then a player's page is
    reached only from their own couple's page). Audited when it changes."""
    if public_names not in PUBLIC_NAMES:
        raise ServiceError(
            "bad_field",
            gettext("The names shown are one of %(list)s.") % {"list": ", ".join(PUBLIC_NAMES)},
            field="public_names",
        )
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if club.public_names != public_names:
            old = club.public_names
            club.public_names = public_names
            club.save(update_fields=["public_names"])
            audit(
                None,
                actor,
                "club.update",
                club=club,
                subject=club.name,
                old={"public_names": old},
                new={"public_names": public_names},
            )
    return club


def club_site_update(
    *, club: Club, site_url: Any, site_token: Any, publish_at_close: Any, actor: Actor
) -> Club:
    """The club's site as the hall's laptop knows it (docs/club-site.md): its address (http or
    https), an organizer's API token there (empty: the one kept stays; ``None``: forgotten),
    and whether each night is published at its close (which needs both). Audited, never with
    the token itself."""
    url = str(site_url or "").strip()
    if url:
        try:
            URLValidator(schemes=["http", "https"])(url)
        except ValidationError:
            raise ServiceError(
                "bad_field",
                gettext("The site's address is a web address, like https://club.example.org."),
                field="site_url",
            ) from None
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        token = club.site_token if site_token == "" else str(site_token or "").strip()
        if len(token) > 200:
            raise ServiceError(
                "bad_field", gettext("The token is at most 200 characters."), field="site_token"
            )
        publish = bool(publish_at_close)
        if publish and not (url and token):
            raise ServiceError(
                "bad_field",
                gettext("Publishing at the close needs the site's address and a token."),
                field="publish_at_close",
            )
        old = {"site_url": club.site_url, "token": bool(club.site_token)}
        old["publish_at_close"] = club.publish_at_close
        new = {"site_url": url, "token": bool(token), "publish_at_close": publish}
        changed_token = token != club.site_token
        if old != new or changed_token:
            club.site_url, club.site_token, club.publish_at_close = url, token, publish
            club.save(update_fields=["site_url", "site_token", "publish_at_close"])
            audit(
                None,
                actor,
                "club.site",
                club=club,
                subject=club.name,
                old=old,
                new=new,
                note="token changed" if changed_token and token else "",
            )
    return club
