"""The local scrub (contract §5.4): defense in depth on the client, precision over recall.

Each match becomes the literal token ``[REDACTED_SECRET]``. For key=value assignments only the
value is replaced, so the reader still sees which setting held a secret. The server-side masking
in ``synth.masking`` runs again on everything before a prompt is built.
"""

from __future__ import annotations

import re

REDACTED = "[REDACTED_SECRET]"

# (anchor literals that must occur in the text, pattern). The anchors let us skip a pattern with
# one `in` test instead of a regex scan: most trail text holds no secret at all.
_RULES: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    (("-----BEGIN",), re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]{0,8192}?-----END [A-Z0-9 ]*PRIVATE KEY-----"
    )),
    # Never in a hyphenated word: not after a letter or hyphen (`fix-cask-point-at-private-repo`),
    # and not lowercase words joined by hyphens (`sk-learn-compat-for-new-release`).
    # A vendor's own prefix is a key whatever follows (`sk-proj-` and 60 lowercase letters).
    (("sk-proj-", "sk-svcacct-", "sk-admin-"),
     re.compile(r"(?<![\w-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}")),
    (("sk-",), re.compile(r"(?<![\w-])sk-(?![a-z]+(?:-[a-z]+)+(?![\w-]))[A-Za-z0-9_-]{20,}")),
    (("hvs.", "hvb.", "hvr."), re.compile(r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}")),  # HashiCorp Vault
    (("hf_",), re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),  # Hugging Face
    (("mc_", "mca_", "mci_"), re.compile(r"\bmc[ai]?_[A-Za-z0-9_-]{16,}")),
    (("gh",), re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}")),
    (("github_pat_",), re.compile(r"github_pat_[A-Za-z0-9_]{20,}")),
    (("xox",), re.compile(r"xox[a-z]-[A-Za-z0-9-]{10,}")),
    (("AKIA",), re.compile(r"\bAKIA[A-Z0-9]{16}\b")),
    (("eyJ",), re.compile(r"eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{5,}")),
)
# Value-only rules, anchored on the case-folded text (folding maps what (?i) matches, the long s
# and the Kelvin sign included, to the plain letters of the anchors): group "v" is replaced, the
# key stays.
_VALUE_RULES: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = (
    # `Bearer` and the token after any run of whitespace (two spaces, a tab), as contract §5.4.
    (("bearer",), re.compile(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9._~+/=-]{16,})")),
    (("secret",), re.compile(
        r"(?i)aws[_-]?secret[_-]?access[_-]?key\s*[=:]\s*[\"']?(?P<v>[A-Za-z0-9/+=]{39,41})"
    )),
    (("key", "token", "secret", "password"), re.compile(
        r"(?i)\b(?:api[_-]?key|apikey|token|secret|password)[\"']?\s*[=:]\s*[\"']?"
        r"(?P<v>[A-Za-z0-9_.-]{20,})"
    )),
    # The key name glued to a prefix (DATADOG_API_KEY, PostHogAPIKey): a value with a digit only,
    # so code such as `savedApiKey = localStorage.getItem(...)` is left alone.
    (("key", "token", "secret", "password"), re.compile(
        r"(?:(?<=_)|(?<=[a-z])(?=[A-Z]))(?i:api[_-]?key|apikey|token|secret|password)"
        r"[\"']?\s*[=:]\s*[\"']?(?P<v>(?=[A-Za-z_.-]*\d)[A-Za-z0-9_.-]{20,})"
    )),
)


def _has_anchor(text: str, anchors: tuple[str, ...]) -> bool:
    return any(anchor in text for anchor in anchors)


def scrub(text: str) -> str:
    """Replace client-side credential patterns in `text`, applying the rules in order."""
    for anchors, pattern in _RULES:
        if _has_anchor(text, anchors):
            text = pattern.sub(REDACTED, text)
    lowered = text.casefold()
    for anchors, pattern in _VALUE_RULES:
        if _has_anchor(lowered, anchors):
            text = pattern.sub(_replace_value, text)
            lowered = text.casefold()
    return text


def _replace_value(match: re.Match[str]) -> str:
    start, end = match.span("v")
    whole_start = match.start()
    whole = match.group(0)
    return whole[: start - whole_start] + REDACTED + whole[end - whole_start :]
