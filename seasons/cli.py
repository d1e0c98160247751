"""``manage.py drive season …``: a club's seasons from the command line (docs/cli.md).

    list CLUB                            the club's seasons
    create CLUB --name N --from D --to D a season (--publish to open its public page)
    edit CLUB SEASON [--name/--from/--to/--publish/--unpublish]
    add CLUB SEASON DRIVE…               drives into the season (all or nothing)
    remove CLUB SEASON DRIVE             a drive out of it
    standings CLUB SEASON [--json]       the players' season standings
    jar CLUB SEASON [--json]             the cookie jar from drive to drive
    merge CLUB SEASON NAME INTO          two spellings of one person
    unmerge CLUB SEASON NAME
    split CLUB SEASON DRIVE NAME AS_NAME two people of one name
    unsplit CLUB SEASON DRIVE NAME

A club is named by its slug (or its name); a drive by its slug. Changes go through
``seasons.services`` with the channel ``cli``; a refusal is one line on stderr, exit code 1.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from drives import inputs
from drives.models import AuditEntry, Club, Drive
from drives.services import Actor
from seasons import selectors, services
from seasons.models import Season

HELP = "a club's seasons: list, create, edit, add, remove, standings, jar, merge, split"
CLI = Actor(channel=AuditEntry.Channel.CLI)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    subs = parser.add_subparsers(dest="season_command", required=True, metavar="ACTION")

    def season_parser(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = subs.add_parser(name, help=help_text)
        sub.add_argument("club", help="the club's slug or name")
        sub.add_argument("season", help="the season's slug")
        return sub

    listing = subs.add_parser("list", help="the club's seasons")
    listing.add_argument("club", help="the club's slug or name")

    create = subs.add_parser("create", help="make a season; prints its slug")
    create.add_argument("club", help="the club's slug or name")
    create.add_argument("--name", required=True)
    create.add_argument("--from", dest="starts", required=True, metavar="YYYY-MM-DD")
    create.add_argument("--to", dest="ends", required=True, metavar="YYYY-MM-DD")
    create.add_argument("--publish", action="store_true", help="open the public standings")

    edit = season_parser("edit", "change the name, dates, publication or rules")
    edit.add_argument("--name")
    edit.add_argument("--from", dest="starts", metavar="YYYY-MM-DD")
    edit.add_argument("--to", dest="ends", metavar="YYYY-MM-DD")
    edit.add_argument("--publish", dest="published", action="store_true", default=None)
    edit.add_argument("--unpublish", dest="published", action="store_false")
    rules = edit.add_argument_group("the season's rules")
    rules.add_argument("--best", dest="best_count", metavar="N", help="the best N nights count")
    rules.add_argument("--of", dest="nights_planned", metavar="M", help="of the first M nights")
    rules.add_argument("--qualify", dest="qualify_nights", metavar="N", help="nights to qualify")
    rules.add_argument("--scoring", choices=["wins", "points"])
    rules.add_argument(
        "--points", dest="place_points", metavar="10,8,6", help="points of 1st, 2nd, 3rd… place"
    )
    rules.add_argument("--ties", dest="tie_break", choices=["shared", "nights_won", "best_night"])
    rules.add_argument("--improved", dest="improved_nights", metavar="K", help="0: none")
    rules.add_argument("--final", dest="final_size", metavar="N", help="0: no final")

    add = season_parser("add", "add drives to the season (all or nothing)")
    add.add_argument("drives", nargs="+", metavar="DRIVE")
    remove = season_parser("remove", "take a drive out of the season")
    remove.add_argument("drive", metavar="DRIVE")

    for name, text in (("standings", "the players' standings"), ("jar", "the cookie jar")):
        sub = season_parser(name, text)
        sub.add_argument("--json", action="store_true", help="as JSON, for scripts")

    merge = season_parser("merge", "count NAME as INTO (two spellings of one person)")
    merge.add_argument("name")
    merge.add_argument("into")
    unmerge = season_parser("unmerge", "undo the merges of NAME")
    unmerge.add_argument("name")
    split = season_parser("split", "at DRIVE, count NAME as AS_NAME (another person)")
    split.add_argument("drive", metavar="DRIVE")
    split.add_argument("name")
    split.add_argument("as_name")
    unsplit = season_parser("unsplit", "undo a split")
    unsplit.add_argument("drive", metavar="DRIVE")
    unsplit.add_argument("name")


def _club(value: str) -> Club:
    club = Club.objects.filter(slug=value).first() or Club.objects.filter(name=value).first()
    if club is None:
        raise CommandError(f"No club {value!r}.")
    return club


def _season(options: dict[str, Any]) -> Season:
    club = _club(options["club"])
    season = Season.objects.select_related("club").filter(club=club, slug=options["season"])
    found = season.first()
    if found is None:
        raise CommandError(f"No season {options['season']!r} in {club.name}.")
    return found


def _drive(season: Season, slug: str) -> Drive:
    inputs.DRIVE_SLUG.check(slug)
    drive = Drive.objects.filter(slug=slug, club_id=season.club_id).first()
    if drive is None:  # another club's drive is no drive, as everywhere else
        raise CommandError(f"No drive {slug!r}.")
    return drive


def _json(command: BaseCommand, data: Any) -> None:
    command.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))


def _whole(value: str) -> int | str:
    """A number as typed, or the text (the season's rule refuses it with its words)."""
    return int(value) if value.strip().lstrip("-").isdigit() else value


def _rules(options: dict[str, Any]) -> dict[str, Any]:
    """The rules given on the command line; ``--best none`` and ``--of none`` unset them."""
    out: dict[str, Any] = {}
    for name in ("best_count", "nights_planned", "qualify_nights", "improved_nights", "final_size"):
        value = options.get(name)
        if value is not None:
            none = name in ("best_count", "nights_planned") and value.lower() == "none"
            out[name] = None if none else _whole(value)
    for name in ("scoring", "tie_break"):
        if options.get(name) is not None:
            out[name] = options[name]
    if options.get("place_points") is not None:
        parts = options["place_points"].replace(",", " ").split()
        out["place_points"] = [_whole(p) for p in parts]
    return out


def handle(command: BaseCommand, options: dict[str, Any]) -> None:
    action = options["season_command"]
    out = command.stdout
    if action == "list":
        for season in selectors.seasons_of(_club(options["club"])):
            public = "published" if season.published else "members only"
            out.write(f"{season.slug}\t{season.name}\t{season.starts} – {season.ends}\t{public}")
        return
    if action == "create":
        season = services.season_create(
            club=_club(options["club"]),
            actor=CLI,
            name=options["name"],
            starts=options["starts"],
            ends=options["ends"],
            published=options["publish"],
        )
        out.write(season.slug)
        return
    season = _season(options)
    if action == "edit":
        fields = {
            k: options[k] for k in ("name", "starts", "ends", "published") if options[k] is not None
        }
        fields |= _rules(options)
        services.season_update(season=season, actor=CLI, **fields)
        out.write(f"{season.name}: {season.starts} – {season.ends}.")
        for words in selectors.rules_words(season):
            out.write(words)
    elif action == "add":
        with transaction.atomic():
            for slug in options["drives"]:
                services.season_add_drive(season=season, drive=_drive(season, slug), actor=CLI)
        out.write(f"{len(options['drives'])} drive(s) in {season.name}.")
    elif action == "remove":
        drive = _drive(season, options["drive"])
        services.season_remove_drive(season=season, drive=drive, actor=CLI)
        out.write(f"{drive.slug} is no longer in {season.name}.")
    elif action == "standings":
        view = selectors.season_view(season)
        rows = selectors.standings_rows(view)
        if options["json"]:
            _json(
                command, {"season": selectors.season_summary(season, view.drives), "players": rows}
            )
            return
        out.write(f"{season.name}: {len(view.drives)} drive(s), {len(rows)} player(s)")
        out.write(
            "place  player                          drives  wins  score  best  average  prizes"
        )
        for r in rows:
            place = "-" if r["place"] is None else r["place"]  # not qualified yet
            out.write(
                f"{place:>5}  {r['player'][:30]:<30}  {r['drives']:>6}  {r['wins']:>4}  "
                f"{r['score']:>5}  {r['best']:>4}  {r['average']:>7}  {r['prizes']:>6}"
            )
    elif action == "jar":
        jar = selectors.season_jar(selectors.season_drives(season))
        if options["json"]:
            _json(command, jar)
            return
        for row in jar["drives"]:
            if not row["enabled"]:
                out.write(f"{row['date']}  {row['drive']}: no cookie jar")
                continue
            out.write(
                f"{row['date']}  {row['drive']}: in {row['carried_in']}, jar {row['pot']}, "
                f"{row['status']}, out {row['carried_out'] or '-'}"
            )
    elif action == "merge":
        services.player_merge(season=season, name=options["name"], into=options["into"], actor=CLI)
        out.write(f"{options['name']} now counts as {options['into']}.")
    elif action == "unmerge":
        services.player_unmerge(season=season, name=options["name"], actor=CLI)
        out.write(f"{options['name']}'s merges are undone.")
    elif action == "split":
        drive = _drive(season, options["drive"])
        services.player_split(
            season=season,
            drive=drive,
            name=options["name"],
            as_name=options["as_name"],
            actor=CLI,
        )
        out.write(f"At {drive.slug}, {options['name']} now counts as {options['as_name']}.")
    elif action == "unsplit":
        drive = _drive(season, options["drive"])
        services.player_unsplit(season=season, drive=drive, name=options["name"], actor=CLI)
        out.write(f"At {drive.slug}, {options['name']} counts as themselves again.")
