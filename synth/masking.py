"""Server-side masking before any prompt (contract §2.3): seven categories, «CATEGORY» tokens.

Two rule sets: our own (personal data with checksums, the families where we do better) and
gitleaks' default rules read as data (`synth.gitleaks`, `synth.gitleaks_select`), found in one
Hyperscan pass. Findings carry (category, start, end, severity) and never the matched text.
Checksums and entropy (`synth.mask_checks`) gate the rules that would otherwise hit ordinary
numbers and words. Overlaps resolve greedily: earliest start (a password in a URL first), then
the longer span, then the higher severity.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from ingest.errors import SubmitRejected
from ingest.events import Event
from synth import gitleaks_select
from synth.mask_checks import (  # noqa: F401 - luhn_ok, iban_ok, entropy: the masker's API too
    _digits_at_least,
    _high_entropy,
    _mixed_classes,
    card_span,
    dni_ok,
    entropy,
    iban_ok,
    luhn_ok,
)
from synth.prefilter import RuleFilter

LOW, MEDIUM, HIGH = 1, 2, 3
TOKENS = {
    "email": "«EMAIL»",
    "phone": "«PHONE»",
    "credit_card": "«CARD»",
    "iban": "«IBAN»",
    "national_id": "«ID»",
    "api_key": "«API_KEY»",
    "secret": "«SECRET»",
    "url_password": "«SECRET»",
}
URGENT = 4  # a password in a URL: wins a tie of start over a longer span (see the rule)
SEVERITY = {"email": LOW, "phone": MEDIUM, "url_password": URGENT}


@dataclass(frozen=True, slots=True)
class Finding:
    category: str
    start: int
    end: int
    severity: int


@dataclass(frozen=True, slots=True)
class Rule:
    category: str
    pattern: re.Pattern[str]
    anchors: tuple[str, ...] = ()  # skip the regex unless one occurs (case-sensitive)
    gate: Callable[[str], bool] | None = None
    value_group: str | None = None  # mask only this group
    narrow: Callable[[str], tuple[int, int] | None] | None = None  # the span inside the match
    prefilter: str | None = None  # a wider pattern for Hyperscan, where the exact one is slow

    @property
    def severity(self) -> int:
        return SEVERITY.get(self.category, HIGH)


def _rule(category, pattern, anchors=(), gate=None, value_group=None, narrow=None,
          prefilter=None) -> Rule:
    # ASCII classes: secrets are ASCII, and the Hyperscan prefilter must see what Python sees.
    return Rule(category, re.compile(pattern, re.ASCII), tuple(anchors), gate, value_group, narrow,
                prefilter)


_DIGITS = tuple("0123456789")
RULES: tuple[Rule, ...] = (
    _rule("email", r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b", ["@"]),
    _rule(
        "phone",
        r"(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){1,4}[ .-]?\d{2,4}(?![\w])",
        ["+"],
        gate=_digits_at_least(8),
    ),
    # Numbers inside identifiers (hex digests, ids) are not phone numbers, cards or SSNs: the
    # patterns below refuse a letter or digit right before or after them.
    _rule("phone", r"(?<![\w-])(?:\(\d{3}\) ?|\d{3}-)\d{3}-\d{4}(?![\w-])", ["-"]),
    _rule("phone", r"(?<![\w.])0\d{3,4} ?\d{5,6}(?![\w.])", ["0"]),
    _rule(
        "credit_card",
        r"(?<![\w-])(?:4\d{3}|5[1-5]\d{2}|2[2-7]\d{2}|3[47]\d{2}|6011|65\d{2}|30[0-5]\d|3[68]\d{2})"
        r"(?:[ -]?\d){9,15}(?![\w]|-\w)",  # never the head of a UUID or a longer id
        _DIGITS,
        narrow=card_span,
    ),
    _rule(
        "iban",
        r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b",
        gate=iban_ok,
    ),
    # SSN: with its separators; nine bare digits (log ids, counters) only after an SSN keyword.
    _rule(
        "national_id",
        r"(?<![\w-])(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}(?![\w-])",
        _DIGITS,
    ),
    _rule(
        "national_id",
        r"(?i)\b(?:ssn|social security(?: number)?|sozialversicherungs\w*)\W{0,20}"
        r"(?P<v>(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4})(?!\d)",
        ["ssn", "SSN", "ocial", "OCIAL"],
        value_group="v",
        prefilter=r"(?i)ssn|social security|sozialversicherungs",
    ),
    _rule(
        "national_id",
        r"\b(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b",
    ),
    _rule("national_id", r"(?<![\w-])9\d{2}([- ])(?:7\d|8[0-8])\1\d{4}(?![\w-])", ["9"]),
    _rule("national_id", r"\b\d{8}[A-HJ-NP-TV-Z]\b", _DIGITS, gate=dni_ok),
    # api_key: provider prefixes
    _rule("api_key", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}\b", ["A"]),
    _rule("api_key", r"\bAIza[0-9A-Za-z_-]{35}", ["AIza"]),
    _rule("api_key", r"\bya29\.[0-9A-Za-z_-]{20,}", ["ya29."]),
    _rule("api_key", r"\bgh[pousr]_[A-Za-z0-9]{36,}", ["gh"]),
    _rule("api_key", r"\bgithub_pat_[A-Za-z0-9_]{82}", ["github_pat_"]),
    _rule("api_key", r"\bglpat-[A-Za-z0-9_-]{20,}", ["glpat-"]),
    _rule("api_key", r"\bxox[baprs]-[A-Za-z0-9-]{10,}", ["xox"]),
    _rule("api_key", r"\bxapp-\d-[A-Za-z0-9-]{20,}", ["xapp-"]),
    _rule("api_key", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}", ["_live_", "_test_"]),
    _rule("api_key", r"\bsk-ant-[A-Za-z0-9_-]{20,}", ["sk-ant-"]),
    # Never in a hyphenated word (`task-runner-for-background-jobs`, `sk-learn-compat-for-x`)...
    _rule("api_key", r"(?<![\w-])sk-(?![a-z]+(?:-[a-z]+)+(?![\w-]))(?:proj-)?[A-Za-z0-9_-]{20,}",
          ["sk-"], prefilter=r"sk-[A-Za-z0-9_-]{20,}"),
    # ... but a vendor's own prefix is a key whatever follows (`sk-proj-` and 60 lowercase letters).
    _rule("api_key", r"(?<![\w-])sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}",
          ["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"]),
    # HashiCorp Vault service, batch and recovery tokens; any value of VAULT_TOKEN (legacy `s.`).
    _rule("api_key", r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}", ["hvs.", "hvb.", "hvr."]),
    _rule("secret", r"(?i)vault_?token[\"']?\s*[:=]\s*[\"']?(?P<v>[A-Za-z0-9._-]{16,})",
          value_group="v", prefilter=r"(?i)vault_?token"),
    # Discord bot token: base64 of the bot's id (a 17-20 digit snowflake: M, N or O first), a
    # timestamp, an HMAC.
    _rule("api_key", r"(?<![\w.-])[MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}"
                     r"(?![\w.-])", ["."], gate=_high_entropy),
    _rule("api_key", r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}", ["SG."]),
    _rule("api_key", r"\b(?:SK|AC)[0-9a-fA-F]{32}\b", ["SK", "AC"]),
    _rule("api_key", r"\bnpm_[A-Za-z0-9]{36}", ["npm_"]),
    _rule("api_key", r"\bdop_v1_[a-f0-9]{64}", ["dop_v1_"]),
    _rule("api_key", r"\bpypi-[A-Za-z0-9_-]{16,}", ["pypi-"]),
    _rule("api_key", r"\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}", ["sq0"]),
    _rule("api_key", r"\bshp(?:at|ss|pa|ca)_[a-fA-F0-9]{32}", ["shp"]),
    _rule("api_key", r"\bkey-[A-Za-z0-9]{32}\b", ["key-"]),
    _rule("api_key", r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}", [":AA"]),
    _rule("api_key", r"\bEAACEdEose0cBA[A-Za-z0-9]+", ["EAACEdEose0cBA"]),
    # Beyond the reference's list: families the common scanners (gitleaks) cover.
    _rule("api_key", r"\bhf_[A-Za-z0-9]{30,}\b", ["hf_"]),  # Hugging Face (letters and digits)
    _rule("api_key", r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]+",
          ["hooks.slack.com"]),
    _rule("secret", r"(?i)AccountKey=(?P<v>[A-Za-z0-9+/]{40,}={0,2})", ["ccountKey=", "CCOUNTKEY="],
          value_group="v"),
    _rule("secret", r"\"private_key_id\"\s*:\s*\"(?P<v>[0-9a-f]{40})\"", ["private_key_id"],
          value_group="v"),
    # A DER key or certificate in base64 pasted without its BEGIN/END lines (MIIE..., MIIC...).
    _rule("secret", r"(?<![A-Za-z0-9+/])MII[A-Za-z0-9+/]{60,}={0,2}", ["MII"], gate=_high_entropy),
    # A password after its word in prose or an assignment, whatever its punctuation:
    # `mysql root pw My5qlR00tPw_9x`, `password = "Zq!9@x#T%a8bYc2dEf3g"`, `password is ...`.
    _rule(
        "secret",
        # On one line, and never a path, variable or placeholder (`pwd` then `/home/Dev2`).
        r"(?i)\b(?<![/.\\-])(?:pw|pwd|passwd|password|passphrase|passcode)(?:[ \t]+is)?[\"']?[ \t]*[:= \t]"
        r"[ \t]*[\"']?(?![/~.$%{<(\[])(?P<v>[^\s\"'`,;]{8,128})",
        gate=_mixed_classes,
        value_group="v",
        prefilter=r"(?i)(?:pw|pwd|passwd|password|passphrase|passcode)",
    ),
    # A password in a URL, any scheme, the user name empty or not (`redis://:pw@cache:6379`):
    # the password goes, the host stays (a reader needs it), so it beats the longer e-mail-shaped
    # span `pw@db.internal.example` from the same start.
    _rule(
        "url_password",
        r"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^:@/\s]*:(?P<v>[^@\s/]{3,})@(?=[A-Za-z0-9\[])",
        ["://"],
        gate=lambda value: not gitleaks_select.GLOBAL_ALLOW.allows(value, value, value),
        value_group="v",  # the gate: no placeholder (`${DB_PASS}`, `{{ .pw }}`, `%PW%`)
    ),
    # A password glued to `-p` of the MySQL clients (`mysql -u root -pS3cr3t prod`).
    _rule(
        "secret",
        r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mariadb(?:-dump)?)\b"
        r"[^\n|;&]{0,200}?[ \t]-p['\"]?(?P<v>[^\s'\"`]{3,})",
        ["mysql", "mariadb"],
        value_group="v",
        prefilter=r"(?:mysql|mariadb)[^\n]*-p[^\s]",
    ),
    # Doppler tokens of every kind (personal, service, service account, CLI, SCIM, audit);
    # gitleaks' rule knows `dp.pt.` only.
    _rule("api_key", r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9._-]{30,}", ["dp."]),
    _rule("secret", r"\"auth\"\s*:\s*\"(?P<v>[A-Za-z0-9+/]{12,}={0,2})\"", ['"auth"'],
          gate=_high_entropy, value_group="v"),
    # secret
    # The reference masks the PEM header only; the key material after it is the secret, so a
    # whole block (bounded, and with literal or escaped newlines, as in JSON) goes when it closes.
    _rule(
        "secret",
        r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]{0,8192}?-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----)?",
        ["-----BEGIN"],
        prefilter=r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY",
    ),
    _rule("secret", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", ["eyJ"]),
    _rule("secret", r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{20,}", ["earer", "EARER"]),
    _rule(
        "secret",
        r"(?i)aws_secret_access_key[\"']?\s*[:=]\s*[\"']?(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
        ["ecret_access", "ECRET_ACCESS"],
        gate=_high_entropy,
        value_group="v",
    ),
    _rule(
        "secret",
        # The key name may be glued to a prefix (DATADOG_API_KEY, PostHogAPIKey).
        r"(?:\b|(?<=_)|(?<=[a-z])(?=[A-Z]))(?i:client_secret|access_token|auth_token|api[_-]?key|"
        r"apikey|secret|token|passwd|password|pwd)[\"']?\s*[:=]\s*[\"']?(?P<v>[A-Za-z0-9+/_-]{16,})",
        ["=", ":"],
        gate=_high_entropy,
        value_group="v",
        prefilter=r"(?i)(?:client_secret|access_token|auth_token|api[_-]?key|apikey|secret|token|"
                  r"passwd|password|pwd)[\"']?\s*[:=]\s*[\"']?[A-Za-z0-9+/_-]{16,}",
    ),
)


_FILTER: RuleFilter | None = None


def _filter() -> RuleFilter:
    """One automaton: our rules' patterns, then what picks gitleaks' (`synth.gitleaks_select`)."""
    global _FILTER
    if _FILTER is None:
        _FILTER = RuleFilter([rule.prefilter or rule.pattern.pattern for rule in RULES]
                             + list(gitleaks_select.FILTER_PATTERNS))
        gitleaks_select.prepare()
    return _FILTER


def scan(text: str, *, prefilter: bool = True) -> list[Finding]:
    """Every finding of every rule (ours, then gitleaks'), overlaps not yet resolved.
    `prefilter=False` runs every rule whose anchors or keywords occur (the path without
    Hyperscan); the findings are the same."""
    findings: list[Finding] = []
    possible = _filter().candidates(text) if prefilter else None
    if possible is not None and not possible:
        return findings  # no rule of either set can match: most texts
    if possible is not None:
        selected = [RULES[index] for index in sorted(possible) if index < len(RULES)]  # ties:
        # the earlier rule
    else:
        selected = [rule for rule in RULES
                    if not rule.anchors or any(anchor in text for anchor in rule.anchors)]
    for rule in selected:
        for match in rule.pattern.finditer(text):
            if rule.value_group:
                start, end = match.span(rule.value_group)
                matched = match.group(rule.value_group)
            else:
                start, end = match.span()
                matched = match.group(0)
            if rule.gate is not None and not rule.gate(matched):
                continue
            if rule.narrow is not None:
                span = rule.narrow(matched)
                if span is None:
                    continue
                start, end = start + span[0], start + span[1]
            findings.append(Finding(rule.category, start, end, rule.severity))
    masked = [(finding.start, finding.end) for finding in findings] if findings else []
    for category, start, end in gitleaks_select.findings(text, possible, len(RULES), masked):
        # after ours: a tie goes to our rule
        findings.append(Finding(category, start, end, HIGH))
    return findings


def resolve_overlaps(findings: list[Finding]) -> list[Finding]:
    ordered = sorted(findings, key=lambda f: (f.start, f.severity != URGENT, -(f.end - f.start),
                                              -f.severity))
    kept: list[Finding] = []
    for finding in ordered:
        if kept and finding.start < kept[-1].end:
            continue
        kept.append(finding)
    return kept


def mask_text(text: str) -> tuple[str, int]:
    """(masked text, number of spans masked)."""
    findings = resolve_overlaps(scan(text))
    for finding in reversed(findings):
        text = text[: finding.start] + TOKENS[finding.category] + text[finding.end :]
    return text, len(findings)


@functools.lru_cache(maxsize=4096)
def _mask_id(value: str) -> tuple[str, int]:
    """`mask_text` of an id; a trail repeats its session ids on every event, so they are cached."""
    return mask_text(value)


def mask_event(event: Event, max_content: int = 8000, max_field: int = 200) -> tuple[Event, int]:
    """Mask content (after truncation), tool, outcome and the session id; absent fields stay
    absent. A session id is kept with its tokens masked (an OpenClaw session key may hold the
    sender's phone number): it only groups events, so the masked one groups them the same."""
    content, found = mask_text(event.content[:max_content])
    tool = outcome = session_id = None
    if event.tool is not None:
        tool, count = mask_text(event.tool[:max_field])
        found += count
    if event.outcome is not None:
        outcome, count = mask_text(event.outcome[:max_field])
        found += count
    if event.session_id is not None:
        session_id, count = _mask_id(event.session_id)
        found += count
    masked = Event(
        seq=event.seq,
        ts=event.ts,
        session_id=session_id,
        role=event.role,
        kind=event.kind,
        content=content,
        tool=tool,
        outcome=outcome,
    )
    return masked, found


def mask_events(events) -> tuple[list[Event], int]:
    masked: list[Event] = []
    total = 0
    for event in events:
        copy, found = mask_event(event)
        masked.append(copy)
        total += found
    return masked, total


def check_window_ids(ids: dict[str, str | None]) -> None:
    """Refuse (422 naming the field) an id the mask would change: ids are stored and shown as
    sent (memories, recall, MCP), and `node_id` is the watermark's key, which a client reads back
    by its own value, so masking them is no answer. `ids`: field name → value."""
    for name, value in ids.items():
        if value is None:
            continue
        masked, found = _mask_id(value)
        if found:
            categories = sorted(set(re.findall("«[A-Z_]+»", masked)))
            raise SubmitRejected(422, f"{name}: holds what the masking layer hides "
                                      f"({', '.join(categories)}); ids are stored and shown as "
                                      "sent: send one without credentials or personal data")
