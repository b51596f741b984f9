#!/usr/bin/env python3
"""The tool graph's gold sets (issue #34), labelled by hand before the graph's output
for these specs was looked at, by the rule the issue states: an edge A -> B (field F)
exists when a value A returns in a success response is what a caller would naturally
pass as input F of B (path, query, header, cookie or body, required or optional), with
the same resource identity and a compatible type. Values the user supplies are not
edges; an echo of the caller's own input is at most "plausible". Self-edges are left out.

Each identity below lists, from reading the specs' operations and response fields
(tests/data/corpus/dev), the operations that hand it out (sure, or plausible when the
value only echoes an input) and the inputs that take it. This script expands them
into one line per pair: `status  source  target  field`, operations written
`METHOD /path`. Run it to rewrite the .tsv files next to it.
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
    (HERE / f"{name}.tsv").write_text("\n".join(lines) + "\n")
    sure = sum(1 for v in pairs.values() if v == "sure")
    print(f"{name}: {sure} sure, {len(pairs) - sure} plausible")


# elevenlabs.io: ids in paths (voice, sample, history item).
voices = "GET /v1/voices"
write(
    "elevenlabs",
    [
        (
            [voices, "POST /v1/voices/add", "GET /v1/history"],
            ["GET /v1/voices/{voice_id}"],
            [
                ("POST /v1/text-to-speech/{voice_id}", "voice_id"),
                ("POST /v1/text-to-speech/{voice_id}/stream", "voice_id"),
                ("DELETE /v1/voices/{voice_id}", "voice_id"),
                ("GET /v1/voices/{voice_id}", "voice_id"),
                ("POST /v1/voices/{voice_id}/edit", "voice_id"),
                ("DELETE /v1/voices/{voice_id}/samples/{sample_id}", "voice_id"),
                ("GET /v1/voices/{voice_id}/samples/{sample_id}/audio", "voice_id"),
                ("GET /v1/voices/{voice_id}/settings", "voice_id"),
                ("POST /v1/voices/{voice_id}/settings/edit", "voice_id"),
            ],
        ),
        (
            ["GET /v1/history"],
            [],
            [
                ("DELETE /v1/history/{history_item_id}", "history_item_id"),
                ("GET /v1/history/{history_item_id}/audio", "history_item_id"),
            ],
        ),
        # One id into a list of ids.
        (
            [],
            ["GET /v1/history"],
            [
                ("POST /v1/history/delete", "history_item_ids"),
                ("POST /v1/history/download", "history_item_ids"),
            ],
        ),
        (
            [voices, "GET /v1/voices/{voice_id}"],
            [],
            [
                ("DELETE /v1/voices/{voice_id}/samples/{sample_id}", "sample_id"),
                ("GET /v1/voices/{voice_id}/samples/{sample_id}/audio", "sample_id"),
            ],
        ),
        # Settings read back into a synthesis request.
        (
            [],
            ["GET /v1/voices/{voice_id}/settings", "GET /v1/voices/settings/default"],
            [
                ("POST /v1/text-to-speech/{voice_id}", "voice_settings"),
                ("POST /v1/text-to-speech/{voice_id}/stream", "voice_settings"),
            ],
        ),
    ],
)


# nebl.io: a blockchain explorer, keyed by hashes and addresses; mainnet and testnet
# values never cross.
def nebl(net):
    p = "/testnet" if net else ""
    ins = p + "/ins"
    ntp = p + "/ntp1"
    groups = [
        # txid
        (
            [
                f"GET {ins}/addr/{{address}}/utxo",
                f"POST {ins}/tx/send",
                f"GET {ins}/tx/{{txid}}",
                f"GET {ins}/txs",
                f"GET {ntp}/addressinfo/{{address}}",
                f"POST {ntp}/broadcast",
                f"GET {ntp}/transactioninfo/{{txid}}",
                f"GET {ntp}/tokenmetadata/{{tokenid}}",
                f"GET {ntp}/tokenmetadata/{{tokenid}}/{{utxo}}",
                f"GET {ins}/addr/{{address}}",
                f"GET {ins}/block/{{blockhash}}",
            ]
            + ([f"GET {p}/faucet"] if net else []),
            [],
            [
                (f"GET {ins}/rawtx/{{txid}}", "txid"),
                (f"GET {ins}/tx/{{txid}}", "txid"),
                (f"GET {ntp}/transactioninfo/{{txid}}", "txid"),
            ],
        ),
        # block hash
        (
            [
                f"GET {ins}/block-index/{{blockindex}}",
                f"GET {ins}/block/{{blockhash}}",
                f"GET {ins}/tx/{{txid}}",
                f"GET {ins}/txs",
                f"GET {ntp}/transactioninfo/{{txid}}",
            ],
            [],
            [(f"GET {ins}/block/{{blockhash}}", "blockhash"), (f"GET {ins}/txs", "block")],
        ),
        # block height
        (
            [
                f"GET {ins}/block/{{blockhash}}",
                f"GET {ins}/tx/{{txid}}",
                f"GET {ins}/txs",
                f"GET {ntp}/transactioninfo/{{txid}}",
                f"GET {ins}/sync",
                f"GET {ntp}/addressinfo/{{address}}",
            ],
            [],
            [(f"GET {ins}/block-index/{{blockindex}}", "blockindex")],
        ),
        # address
        (
            [
                f"GET {ntp}/stakeholders/{{tokenid}}",
                f"GET {ins}/tx/{{txid}}",
                f"GET {ins}/txs",
                f"GET {ntp}/transactioninfo/{{txid}}",
                f"GET {ntp}/tokenmetadata/{{tokenid}}",
                f"GET {ntp}/tokenmetadata/{{tokenid}}/{{utxo}}",
            ],
            [
                f"GET {ins}/addr/{{address}}/utxo",
                f"GET {ntp}/addressinfo/{{address}}",
                f"GET {ins}/addr/{{address}}",
            ],
            [
                (f"GET {ins}/addr/{{address}}", "address"),
                (f"GET {ins}/addr/{{address}}/balance", "address"),
                (f"GET {ins}/addr/{{address}}/totalReceived", "address"),
                (f"GET {ins}/addr/{{address}}/totalSent", "address"),
                (f"GET {ins}/addr/{{address}}/unconfirmedBalance", "address"),
                (f"GET {ins}/addr/{{address}}/utxo", "address"),
                (f"GET {ntp}/addressinfo/{{address}}", "address"),
                (f"GET {ins}/txs", "address"),
            ]
            + ([(f"GET {p}/faucet", "address")] if net else []),
        ),
        # token id
        (
            [
                f"GET {ntp}/addressinfo/{{address}}",
                f"POST {ntp}/issue",
                f"GET {ntp}/tokenid/{{tokensymbol}}",
                f"GET {ntp}/transactioninfo/{{txid}}",
            ],
            [
                f"GET {ntp}/stakeholders/{{tokenid}}",
                f"GET {ntp}/tokenmetadata/{{tokenid}}",
                f"GET {ntp}/tokenmetadata/{{tokenid}}/{{utxo}}",
            ],
            [
                (f"GET {ntp}/stakeholders/{{tokenid}}", "tokenid"),
                (f"GET {ntp}/tokenmetadata/{{tokenid}}", "tokenid"),
                (f"GET {ntp}/tokenmetadata/{{tokenid}}/{{utxo}}", "tokenid"),
            ],
        ),
        # an unspent output (`someUtxo`)
        (
            [f"GET {ntp}/stakeholders/{{tokenid}}", f"GET {ntp}/tokenmetadata/{{tokenid}}"],
            [],
            [(f"GET {ntp}/tokenmetadata/{{tokenid}}/{{utxo}}", "utxo")],
        ),
    ]
    return groups


write("nebl", nebl(False) + nebl(True))

# twilio IP messaging v1: `Sid` keys in paths, `*_sid` references in results.
S = "/v1/Services/{ServiceSid}"
C = S + "/Channels/{ChannelSid}"
service_scoped = [
    f"GET {S}/Channels", f"POST {S}/Channels",
    f"DELETE {S}/Channels/{{Sid}}", f"GET {S}/Channels/{{Sid}}", f"POST {S}/Channels/{{Sid}}",
    f"GET {C}/Invites", f"POST {C}/Invites", f"DELETE {C}/Invites/{{Sid}}", f"GET {C}/Invites/{{Sid}}",
    f"GET {C}/Members", f"POST {C}/Members",
    f"DELETE {C}/Members/{{Sid}}", f"GET {C}/Members/{{Sid}}", f"POST {C}/Members/{{Sid}}",
    f"GET {C}/Messages", f"POST {C}/Messages",
    f"DELETE {C}/Messages/{{Sid}}", f"GET {C}/Messages/{{Sid}}", f"POST {C}/Messages/{{Sid}}",
    f"GET {S}/Roles", f"POST {S}/Roles",
    f"DELETE {S}/Roles/{{Sid}}", f"GET {S}/Roles/{{Sid}}", f"POST {S}/Roles/{{Sid}}",
    f"GET {S}/Users", f"POST {S}/Users",
    f"DELETE {S}/Users/{{Sid}}", f"GET {S}/Users/{{Sid}}", f"POST {S}/Users/{{Sid}}",
    f"GET {S}/Users/{{UserSid}}/Channels",
]
channel_scoped = [op for op in service_scoped if "{ChannelSid}" in op]
role_holders = [
    f"GET {C}/Invites", f"POST {C}/Invites", f"GET {C}/Invites/{{Sid}}",
    f"GET {C}/Members", f"POST {C}/Members", f"GET {C}/Members/{{Sid}}", f"POST {C}/Members/{{Sid}}",
    f"GET {S}/Users", f"POST {S}/Users", f"GET {S}/Users/{{Sid}}", f"POST {S}/Users/{{Sid}}",
    "GET /v1/Services", "POST /v1/Services", "GET /v1/Services/{Sid}", "POST /v1/Services/{Sid}",
]


def by_sid(list_op, create_op, base, ops, extra=()):
    return (
        [list_op, create_op, *extra],
        [f"{m} {base}/{{Sid}}" for m in ("GET", "POST") if m in ops],
        [(f"{m} {base}/{{Sid}}", "Sid") for m in ops],
    )


write(
    "twilio",
    [
        (
            ["GET /v1/Services", "POST /v1/Services"],
            ["GET /v1/Services/{Sid}", "POST /v1/Services/{Sid}"],
            [(op, "ServiceSid") for op in service_scoped]
            + [(f"{m} /v1/Services/{{Sid}}", "Sid") for m in ("DELETE", "GET", "POST")],
        ),
        (
            [f"GET {S}/Channels", f"POST {S}/Channels", f"GET {S}/Users/{{UserSid}}/Channels"],
            [f"GET {S}/Channels/{{Sid}}", f"POST {S}/Channels/{{Sid}}"],
            [(op, "ChannelSid") for op in channel_scoped]
            + [(f"{m} {S}/Channels/{{Sid}}", "Sid") for m in ("DELETE", "GET", "POST")],
        ),
        by_sid(f"GET {C}/Members", f"POST {C}/Members", f"{C}/Members", ("DELETE", "GET", "POST"),
               extra=[f"GET {S}/Users/{{UserSid}}/Channels"]),
        by_sid(f"GET {C}/Messages", f"POST {C}/Messages", f"{C}/Messages", ("DELETE", "GET", "POST")),
        by_sid(f"GET {C}/Invites", f"POST {C}/Invites", f"{C}/Invites", ("DELETE", "GET")),
        by_sid("GET /v1/Credentials", "POST /v1/Credentials", "/v1/Credentials", ("DELETE", "GET", "POST")),
        (
            [f"GET {S}/Users", f"POST {S}/Users"],
            [f"GET {S}/Users/{{Sid}}", f"POST {S}/Users/{{Sid}}"],
            [(f"{m} {S}/Users/{{Sid}}", "Sid") for m in ("DELETE", "GET", "POST")]
            + [(f"GET {S}/Users/{{UserSid}}/Channels", "UserSid")],
        ),
        (
            [f"GET {S}/Roles", f"POST {S}/Roles", *role_holders],
            [f"GET {S}/Roles/{{Sid}}", f"POST {S}/Roles/{{Sid}}"],
            [(f"{m} {S}/Roles/{{Sid}}", "Sid") for m in ("DELETE", "GET", "POST")]
            + [
                (f"POST {C}/Invites", "RoleSid"),
                (f"POST {C}/Members", "RoleSid"),
                (f"POST {C}/Members/{{Sid}}", "RoleSid"),
                (f"POST {S}/Users", "RoleSid"),
                (f"POST {S}/Users/{{Sid}}", "RoleSid"),
                ("POST /v1/Services/{Sid}", "DefaultChannelCreatorRoleSid"),
                ("POST /v1/Services/{Sid}", "DefaultChannelRoleSid"),
                ("POST /v1/Services/{Sid}", "DefaultServiceRoleSid"),
            ],
        ),
        # A user's identity (not its sid) names it in members and invites.
        (
            [
                f"GET {S}/Users", f"GET {S}/Users/{{Sid}}", f"POST {S}/Users/{{Sid}}",
                f"GET {C}/Members", f"GET {C}/Members/{{Sid}}", f"POST {C}/Members/{{Sid}}",
                f"GET {C}/Invites", f"GET {C}/Invites/{{Sid}}",
            ],
            [f"POST {S}/Users", f"POST {C}/Members", f"POST {C}/Invites"],
            [
                (f"POST {C}/Invites", "Identity"),
                (f"POST {C}/Members", "Identity"),
                (f"GET {C}/Invites", "Identity"),
                (f"GET {C}/Members", "Identity"),
            ],
        ),
        # A message's index as a member's last read one.
        ([], [f"GET {C}/Messages", f"POST {C}/Messages"],
         [(f"POST {C}/Members/{{Sid}}", "LastConsumedMessageIndex")]),
    ],
)
