#!/usr/bin/env python3
"""Gold sets, round 3 (issue #61): three dev-corpus specs drawn by draw.py (seed
20261206) and labelled by hand from the spec text alone, before the graph was run on
them, by the same rule as label.py: an edge A -> B (field F) exists when a value A
returns in a success response is what a caller would naturally pass as input F of B
(path, query, header, cookie or body, required or optional), with the same resource
identity and a compatible type. Values the user supplies are not edges; an echo of the
caller's own input is at most "plausible". Self-edges are left out. Only fields that a
success response schema actually declares count as returned values.

Each identity below lists the operations that hand it out (sure, or plausible when the
value only echoes an input or the flow is weaker) and the inputs that take it. The
script expands them into one line per pair, `status  source  target  field`, exactly as
label.py does, and writes the .tsv files next to it. The functions are restated here
rather than imported, because importing label.py would rewrite its own .tsv files.
"""

from pathlib import Path

HERE = Path(__file__).parent


def expand(groups):
    pairs = {}
    for sure, plausible, consumers in groups:
        for status, producers in (("plausible", plausible), ("sure", sure)):
            for source in producers:
                for target, field in consumers:
                    if source == target:
                        continue
                    key = (source, target, field)
                    # A pair sure by any producer field is sure.
                    if pairs.get(key) != "sure":
                        pairs[key] = status
    return pairs


def write(name, groups):
    pairs = expand(groups)
    lines = [f"{status}\t{s}\t{t}\t{f}" for (s, t, f), status in sorted(pairs.items())]
    # An empty gold set is an empty file, not one blank line.
    (HERE / f"{name}.tsv").write_text("".join(line + "\n" for line in lines))
    sure = sum(1 for v in pairs.values() if v == "sure")
    print(f"{name}: {sure} sure, {len(pairs) - sure} plausible")


# ---------------------------------------------------------------------------------
# sportsdata.io CS:GO v3 stats (sportsdata.io_csgo-v3-stats.json): 18 GETs, all under
# /{format}/ (format is an xml/json enum the user picks, never an edge). Ids are
# integers in responses and strings in paths; the path descriptions name the same ids
# ("Unique FantasyData Team ID", "RoundIDs can be found in the Competitions and
# Competition Details endpoints", ...).
F = "/{format}"
memberships_active = f"GET {F}/ActiveMemberships"
memberships_hist = f"GET {F}/HistoricalMemberships"
memberships_team = f"GET {F}/MembershipsByTeam/{{teamid}}"
memberships_team_hist = f"GET {F}/HistoricalMembershipsByTeam/{{teamid}}"
box_score = f"GET {F}/BoxScore/{{gameid}}"
box_scores = f"GET {F}/BoxScores/{{date}}"
competition = f"GET {F}/CompetitionDetails/{{competitionid}}"
competitions = f"GET {F}/Competitions"
games_by_date = f"GET {F}/GamesByDate/{{date}}"
player = f"GET {F}/Player/{{playerid}}"
players = f"GET {F}/Players"
players_team = f"GET {F}/PlayersByTeam/{{teamid}}"
schedule = f"GET {F}/Schedule/{{roundid}}"
season_teams = f"GET {F}/SeasonTeams/{{seasonid}}"
standings = f"GET {F}/Standings/{{roundid}}"
teams = f"GET {F}/Teams"

write(
    "sportsdata",
    [
        # GameId: Game objects (GamesByDate, Schedule, CompetitionDetail.Games[],
        # BoxScore.Game) and Leaderboard.GameId in box scores.
        (
            [games_by_date, schedule, competition, box_scores],
            [],
            [(box_score, "gameid")],
        ),
        # TeamId: Membership.TeamId, Team.TeamId, SeasonTeam.TeamId (and .Team.TeamId),
        # Standing.TeamId, CompetitionDetail.Teams[].TeamId, Game.TeamAId/TeamBId,
        # Leaderboard.TeamId/OpponentId. The by-team membership lists only echo the
        # teamid they were asked for.
        (
            [
                memberships_active, memberships_hist, teams, season_teams, standings,
                competition, games_by_date, schedule, box_score, box_scores,
            ],
            [memberships_team, memberships_team_hist],
            [
                (memberships_team_hist, "teamid"),
                (memberships_team, "teamid"),
                (players_team, "teamid"),
            ],
        ),
        # PlayerId: Membership.PlayerId, Player.PlayerId (Players, PlayersByTeam,
        # CompetitionDetail.Teams[].Players[]), Leaderboard.PlayerId in box scores.
        # Memberships by team hand out the team's players, not an echo.
        (
            [
                memberships_active, memberships_hist, memberships_team, memberships_team_hist,
                players, players_team, competition, box_score, box_scores,
            ],
            [],
            [(player, "playerid")],
        ),
        # CompetitionId: Competition.CompetitionId (and Seasons[].CompetitionId).
        ([competitions], [], [(competition, "competitionid")]),
        # RoundId: Season.Rounds[].RoundId (Competitions, CompetitionDetails), Game.RoundId
        # (GamesByDate, CompetitionDetail.Games[], BoxScore.Game). Schedule's games and
        # Standings' rows carry the roundid they were asked for: an echo.
        (
            [competitions, competition, games_by_date, box_score, box_scores],
            [schedule, standings],
            [(schedule, "roundid"), (standings, "roundid")],
        ),
        # SeasonId: Season.SeasonId and Round.SeasonId (Competitions, CompetitionDetails).
        # Game.Season is a year, not a SeasonId, so games are not producers.
        ([competitions, competition], [], [(season_teams, "seasonid")]),
        # A game's Day as "the date of the game(s)": not a resource key, and Day is an
        # unformatted string (the path wants 2018-01-13), so plausible only.
        (
            [],
            [games_by_date, schedule, competition, box_score, box_scores],
            [(box_scores, "date"), (games_by_date, "date")],
        ),
    ],
)


# ---------------------------------------------------------------------------------
# watchful.li (watchful.li_api.json): 59 operations over sites, tags, audits, logs,
# extensions, feedbacks and SSO users; every key is an integer `id` in the path.
# Bare-string responses (metadata, log types, deletes, actions) declare no field and
# produce nothing.
site_item = [
    "DELETE /sites/{id}", "GET /sites/{id}", "PUT /sites/{id}",
    "GET /sites/{id}/audits", "POST /sites/{id}/audits",
    "POST /sites/{id}/backupnow", "GET /sites/{id}/backupprofiles", "GET /sites/{id}/backups",
    "POST /sites/{id}/backupstart", "POST /sites/{id}/backupstep",
    "GET /sites/{id}/extensions", "POST /sites/{id}/extensions",
    "GET /sites/{id}/logs", "POST /sites/{id}/logs",
    "DELETE /sites/{id}/monitor", "POST /sites/{id}/monitor",
    "GET /sites/{id}/scanner", "GET /sites/{id}/seo",
    "GET /sites/{id}/tags", "POST /sites/{id}/tags",
    "POST /sites/{id}/updatejoomla", "GET /sites/{id}/uptime",
    "GET /sites/{id}/validate", "GET /sites/{id}/validatedebug",
    "GET /reports/sites/{id}",
]
# Site.siteid / Log.idx_site / Extension.idx_site / SsoUsers.lastLoginSite handed out.
site_sure = [
    "GET /sites", "POST /sites", "GET /tags/{id}/sites", "GET /logs", "GET /extensions",
    "GET /ssousers", "GET /ssousers/{id}",
]
# Operations on one site that return the Site, its Logs or its Extensions: the siteid /
# idx_site they carry is the path id the caller gave. The SSO user create/update return
# the lastLoginSite the caller put in the body.
site_echo = [
    "GET /sites/{id}", "PUT /sites/{id}", "POST /sites/{id}/backupnow",
    "POST /sites/{id}/backupstart", "POST /sites/{id}/backupstep", "POST /sites/{id}/tags",
    "GET /sites/{id}/logs", "POST /sites/{id}/logs", "GET /sites/{id}/validate",
    "GET /sites/{id}/validatedebug", "GET /sites/{id}/extensions",
    "POST /ssousers", "PUT /ssousers/{id}",
]
tag_sure = ["GET /tags", "POST /tags", "GET /sites/{id}/tags"]
tag_echo = ["GET /tags/{id}", "PUT /tags/{id}"]
sso_sure = ["GET /ssousers", "POST /ssousers"]
sso_echo = ["GET /ssousers/{id}", "PUT /ssousers/{id}"]

write(
    "watchful",
    [
        # Site id into every /sites/{id}/... operation, the site report and the log
        # export's `site` filter ("Site id of the log").
        (site_sure, site_echo, [(op, "id") for op in site_item] + [("GET /logs/export", "site")]),
        # One site id into a comma-separated list of site ids (as label.py does for
        # one id into a list of ids): plausible.
        ([], site_sure + site_echo, [("GET /sites", "siteids"), ("GET /extensions", "siteids")]),
        # SsoUsers.lastLoginSite ("Site Id of the last remote login") is a body field of
        # the SSO user create/update; a caller setting it is unusual: plausible.
        (
            [],
            site_sure + site_echo,
            [("POST /ssousers", "lastLoginSite"), ("PUT /ssousers/{id}", "lastLoginSite")],
        ),
        # GET /reports/tags/{id}: the path says tags, its summary and description
        # ("Find sites by ID", "Returns a report based on a site ID") are copied from
        # the site operations. Read as a tag id (below); a site id only plausible.
        ([], site_sure + site_echo, [("GET /reports/tags/{id}", "id")]),
        # Tag id: Tag.id from the tag list, the tag create and a site's tags; into the
        # tag item operations, the tag report, the Tag body's `id` of the tag update and
        # of "add tags for a specific website" (POST /sites/{id}/tags, whose path id is
        # a site id: same field name, different identity). Not POST /tags' body id: a
        # create does not take an existing tag's id.
        (
            tag_sure,
            tag_echo,
            [
                ("DELETE /tags/{id}", "id"), ("GET /tags/{id}", "id"), ("PUT /tags/{id}", "id"),
                ("GET /tags/{id}/sites", "id"), ("GET /reports/tags/{id}", "id"),
                ("POST /sites/{id}/tags", "id"),
            ],
        ),
        # Audit id: the audit list, a site's audits and the audit create. POST /feedbacks
        # also declares the Audit schema for its 200, but it creates a feedback (a
        # copy-paste in the spec), so it is not a producer.
        (
            ["GET /audits", "GET /sites/{id}/audits", "POST /sites/{id}/audits"],
            ["GET /audits/{id}"],
            [("DELETE /audits/{id}", "id"), ("GET /audits/{id}", "id")],
        ),
        # Log id (Log.id_log): every operation returning the Log schema; validate
        # "return[s] the new logs", validatedebug declares the same Log schema.
        (
            [
                "GET /logs", "GET /sites/{id}/logs", "POST /sites/{id}/logs",
                "GET /sites/{id}/validate", "GET /sites/{id}/validatedebug",
            ],
            [],
            [("DELETE /logs/{id}", "id")],
        ),
        # SSO user id: list and create; into the item operations and the update body's id.
        (
            sso_sure,
            sso_echo,
            [
                ("DELETE /ssousers/{id}", "id"), ("GET /ssousers/{id}", "id"),
                ("PUT /ssousers/{id}", "id"),
            ],
        ),
        # The Watchful account (SsoUsers.userid) and Joomla group (SsoUsers.groupid) of
        # an existing SSO user, reused when creating or updating one: plausible.
        (
            [],
            sso_sure + sso_echo,
            [
                ("POST /ssousers", "userid"), ("PUT /ssousers/{id}", "userid"),
                ("POST /ssousers", "groupid"), ("PUT /ssousers/{id}", "groupid"),
            ],
        ),
        # Not labelled: /extensions/{id}/ignore|unignore|update take an extension id,
        # but the Extension schema declares no id (only idx_site, a site id), so nothing
        # hands it out. Feedback ids have no consumer.
    ],
)


# ---------------------------------------------------------------------------------
# circl.lu hashlookup (circl.lu_hashlookup.json): 11 operations, none of which
# declares a response schema (every success response is a bare description,
# "Success"), and no request body is declared. No response field exists, so there is
# no pair: an empty gold set. Flows that only the descriptions suggest (children /
# parents of a SHA-1 fed back into the SHA-1 lookups, a lookup's other hashes, a
# session name) are listed in README-r3.md and left out.
write("circl", [])
