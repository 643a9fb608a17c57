"""The labelled multi-session set of `bench/consolidation.py`: 60 projects ("stories"), each three
or four sessions of memories as the interview writes them (decisions with a rationale, outcomes
marked `[success]`/`[failure]`, blockers, preferences, facts, episodes), with what is true at the
end labelled.

    python bench/quality/consolidation/make_set.py    # rewrites set.json beside it

Every story mixes the cases consolidation must get right, each written in words of its own
(paraphrase templates, several subjects and options per story):
- a decision restated in a later session (a duplicate: one current memory);
- a decision reversed in a later session (the earlier one superseded), sometimes after a
  restatement (the three-session case: restated in session 2, reversed in session 3);
- a preference changed (the same two things in the other order, or a third one);
- a blocker resolved by a later outcome, and one a failed attempt leaves open;
- a figure measured again (the earlier measure superseded);
- near-misses that must NOT merge: the same option chosen for another subject, the same figure
  of another component, a fix of another component, episodes of similar work.

Labels per memory: `sid` (memories stating the same thing share it), `subject` (memories about
the same subject share it: a supersede or resolve link is right only within one) and the status
of its statement at the end (`current`, `superseded`, `closed`). Deterministic (seeded).

The split (shared by every labelled set of this project): a story is in TEST iff
int(sha1(story).hexdigest(), 16) % 3 == 0, else DEV. Thresholds are chosen on dev only.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
STORIES = 60

SUBJECTS = [  # (subject, options)
    ("job queue", ["Redis Streams", "Postgres SKIP LOCKED", "RabbitMQ", "Amazon SQS"]),
    ("session store", ["Redis", "Postgres", "DynamoDB", "signed cookies"]),
    ("search index", ["Elasticsearch", "Tantivy", "Meilisearch", "pgvector"]),
    ("CI runner", ["GitHub Actions", "Buildkite", "GitLab CI", "Jenkins"]),
    ("config format", ["TOML", "YAML", "JSON5", "HCL"]),
    ("HTTP client", ["httpx", "requests", "aiohttp", "urllib3"]),
    ("database access layer", ["SQLAlchemy Core", "Peewee", "raw SQL with psycopg", "Django ORM"]),
    ("frontend bundler", ["Vite", "webpack", "esbuild", "Parcel"]),
    ("deploy target", ["Fly.io", "Kubernetes", "Nomad", "a single VM with systemd"]),
    ("logging library", ["structlog", "loguru", "the stdlib logging module", "Eliot"]),
    ("auth provider", ["Auth0", "Keycloak", "Ory Kratos", "Cognito"]),
    ("feature flag service", ["LaunchDarkly", "Unleash", "Flagsmith", "a flags table"]),
    ("object storage", ["S3", "MinIO", "Cloudflare R2", "GCS"]),
    ("cache layer", ["Memcached", "Redis", "an in-process LRU", "Varnish"]),
    ("ID scheme", ["UUIDv7", "ULID", "Snowflake IDs", "bigserial keys"]),
    ("package manager", ["uv", "Poetry", "pip-tools", "PDM"]),
    ("linter", ["ruff", "flake8", "pylint", "mypy strict mode"]),
    ("metrics backend", ["Prometheus", "InfluxDB", "Datadog", "VictoriaMetrics"]),
    ("PDF renderer", ["WeasyPrint", "wkhtmltopdf", "Playwright print", "ReportLab"]),
    ("email provider", ["Postmark", "SendGrid", "Amazon SES", "Mailgun"]),
]
RATIONALES = ["we already run it in production", "the team knows it well", "it is the cheapest "
              "option at our volume", "it has the fewest moving parts", "its latency was lowest in "
              "the spike", "it avoids one more service to operate"]
# Phrasings: (dev, test). Test stories are written only in phrasings the sweep never saw.
CHOSEN = (["Use {o} for the {s}", "We will run the {s} on {o}", "The {s} goes on {o}",
           "Decided on {o} for the {s}", "For the {s} we take {o}"],
          ["Pick {o} as the {s}", "Adopt {o} for the {s}", "Going with {o} for the {s}"])
RESTATED = (["Keep the {s} on {o}, as decided earlier", "{o} stays the {s}",
             "Confirmed again: the {s} runs on {o}", "As agreed, the {s} is {o}",
             "Reaffirmed {o} as the {s}", "Nothing changed: the {s} is still {o}"],
            ["Still using {o} for the {s}", "The {s} remains {o}",
             "No change here: {o} is still our {s}"])
REVERSED = (["Switch the {s} from {old} to {o}", "Replace {old} with {o} for the {s}",
             "Move the {s} to {o}; {old} is dropped", "Dropping {old}; the {s} becomes {o}",
             "The {s} is now {o}, not {old}", "{o} replaces {old} as the {s}",
             "We pick {o} for the {s} over {old} from now on"],
            ["Use {o} for the {s} instead of {old}", "The {s} moves off {old} onto {o}",
             "We are abandoning {old}: the {s} will use {o}"])
PREFERRED = (["Prefers {a} over {b} in {c}", "Wants {a} rather than {b} for {c}",
              "Would rather have {a} than {b} in {c}", "Chooses {a} over {b} for {c}"],
             ["Likes {a}, not {b}, for {c}", "Asks for {a} instead of {b} in {c}"])
MEASURED = (["{m} of the {c} service is {v} {u}", "Measured {m} of the {c} service: {v} {u}",
             "Benchmark: {m} of the {c} service at {v} {u}"],
            ["The {c} service {m} is {v} {u}", "{m} for the {c} service came out at {v} {u}"])
REMEASURED = (["{m} of the {c} service measured again: {v} {u}",
               "After the fix, {m} of the {c} service is {v} {u}",
               "New measurement of the {c} service {m}: {v} {u}",
               "{m} of the {c} service improved to {v} {u}"],
              ["Re-measured the {c} service {m}: now {v} {u}",
               "The {c} service {m} dropped to {v} {u} in the latest run"])
PREFERENCES = [("tabs", "spaces", "Go files"), ("squash merges", "merge commits", "pull requests"),
               ("small focused commits", "large batched commits", "this repository"),
               ("f-strings", "str.format", "log messages"), ("dataclasses", "plain dicts",
               "internal records"), ("pytest fixtures", "setUp methods", "new tests"),
               ("snake_case", "camelCase", "JSON field names"), ("dark mode", "light mode",
               "the dashboard"), ("early returns", "nested ifs", "request handlers"),
               ("Markdown", "reStructuredText", "the docs")]
COMPONENTS = ["login", "checkout", "billing", "search", "upload", "export", "signup", "invoice",
              "webhook", "report"]
PROBLEMS = [("test", "is flaky on CI", (["Fixed the flaky {c} test on CI",
                                           "The flaky {c} test passes reliably on CI now",
                                           "Pinned the random seed; the {c} test is green "
                                           "on every CI run"],
                                          ["The {c} test is stable on CI after pinning the seed"]),
             "the flaky {c} test"),
            ("migration", "fails on the staging database",
             (["The {c} migration now runs on staging",
               "Patched the {c} migration so the staging database accepts it",
               "Reordered the {c} migration steps; it applies cleanly on staging"],
              ["Rewrote the {c} migration; it passes on the staging database"]),
             "the {c} migration on staging"),
            ("endpoint", "returns HTTP 500 for empty payloads",
             (["The {c} endpoint returns 400 instead of 500 for empty payloads",
               "Validation added: the {c} endpoint rejects empty payloads with 400",
               "A guard clause makes the {c} endpoint answer 400 to empty bodies"],
              ["Empty payloads to the {c} endpoint now get a 400"]), "the {c} endpoint 500s"),
            ("job", "times out after 30 minutes",
             (["The {c} job finishes in 4 minutes after the batching fix",
               "The {c} job no longer times out; it takes 4 minutes with batching",
               "Split the {c} job into chunks of 500 rows; it completes in 4 minutes"],
              ["Batching fixed the {c} job timeout: it runs in 4 minutes"]),
             "the {c} job timeout")]
METRICS = [("p99 latency", "ms", (120, 95, 310, 80)), ("cold start", "s", (4.2, 1.8, 6.5, 2.9)),
           ("cache hit rate", "%", (62, 81, 47, 90)), ("bundle size", "kB", (812, 540, 990, 610)),
           ("test suite runtime", "min", (14, 9, 22, 6)), ("error rate", "%", (1.4, 0.3, 2.2, 0.7))]
EPISODES = (["Worked on the {c} page layout", "Reviewed the {c} pull request",
             "Paired on the {c} data model"],
            ["Investigated slow queries in {c}", "Wrote docs for the {c} API",
             "Cleaned up dead code in {c}"])


def split_of(story: str) -> str:
    return "test" if int(hashlib.sha1(story.encode()).hexdigest(), 16) % 3 == 0 else "dev"


class Story:
    def __init__(self, name: str, rng: random.Random) -> None:
        self.name, self.rng = name, rng
        self.phrasing = 1 if split_of(name) == "test" else 0
        self.sessions: list[list[dict]] = [[], [], [], []]
        self.count = 0

    def add(self, session: int, kind: str, content: str, sid: str, subject: str,
            status: str) -> None:
        self.count += 1
        self.sessions[session].append({"key": f"{self.name}-{self.count}", "type": kind,
                                       "content": content, "sid": sid, "subject": subject,
                                       "status": status})

    def say(self, templates, **values) -> str:
        text = self.rng.choice(templates[self.phrasing]).format(**values)
        return text[0].upper() + text[1:]

    def decision(self, subject, option, template=CHOSEN, **values) -> str:
        why = self.rng.choice(RATIONALES)
        return f"{self.say(template, s=subject, o=option, **values)} — rationale: {why}"


def make_story(index: int, rng: random.Random) -> dict:
    name = f"proj-{index:02d}-" + ("api", "web", "etl", "cli", "ml", "ops", "app")[index % 7]
    story = Story(name, rng)
    subjects = rng.sample(SUBJECTS, 4)
    # 1. Restated, then (in half the stories) reversed: the three-session case.
    (s1, opts1), (s2, opts2), (s3, opts3), (s4, opts4) = subjects
    first, second = rng.sample(opts1, 2)
    reversed_1 = index % 2 == 0
    status = "superseded" if reversed_1 else "current"
    story.add(0, "decision", story.decision(s1, first), f"{s1}:{first}", s1, status)
    story.add(1, "decision", story.decision(s1, first, RESTATED), f"{s1}:{first}", s1, status)
    if reversed_1:
        story.add(2, "decision", story.decision(s1, second, REVERSED, old=first),
                  f"{s1}:{second}", s1, "current")
    # 2. Reversed without a restatement.
    old, new = rng.sample(opts2, 2)
    story.add(0, "decision", story.decision(s2, old), f"{s2}:{old}", s2, "superseded")
    story.add(rng.choice([2, 3]), "decision", story.decision(s2, new, REVERSED, old=old),
              f"{s2}:{new}", s2, "current")
    # 3. Only restated (twice, in other words).
    pick = rng.choice(opts3)
    for session in (0, 2, 3)[: rng.choice([2, 3])]:
        template = CHOSEN if session == 0 else RESTATED
        story.add(session, "decision", story.decision(s3, pick, template), f"{s3}:{pick}", s3,
                  "current")
    # Near-miss: the option of subject 1 chosen for another subject (never one statement).
    story.add(rng.choice([1, 3]), "decision", story.decision(s4, first), f"{s4}:{first}", s4,
              "current")
    # 4. A preference changed.
    a, b, c = rng.choice(PREFERENCES)
    story.add(0, "preference", story.say(PREFERRED, a=a, b=b, c=c), f"pref:{a}>{b}", f"pref:{c}",
              "superseded")
    if index % 3 == 1:  # said again before it changed
        story.add(1, "preference", story.say(PREFERRED, a=a, b=b, c=c), f"pref:{a}>{b}",
                  f"pref:{c}", "superseded")
    story.add(rng.choice([2, 3]), "preference", story.say(PREFERRED, a=b, b=a, c=c),
              f"pref:{b}>{a}", f"pref:{c}", "current")
    # 5. A blocker resolved; another one a failed attempt leaves open; a fix elsewhere.
    comps = rng.sample(COMPONENTS, 4)
    problem, fixed_problem = rng.sample(PROBLEMS, 2)
    noun, issue, fixes, short = problem
    fix = fixes
    story.add(0, "task", f"The {comps[0]} {noun} {issue}, which blocks the release",
              f"task:{comps[0]}:{noun}", f"{comps[0]}:{noun}", "closed")
    story.add(rng.choice([1, 2]), "outcome", "[success] " + story.say(fix, c=comps[0]),
              f"fix:{comps[0]}:{noun}", f"{comps[0]}:{noun}", "current")
    noun2, issue2, fix2, short2 = fixed_problem
    story.add(1, "task", f"The {comps[1]} {noun2} {issue2}", f"task:{comps[1]}:{noun2}",
              f"{comps[1]}:{noun2}", "current")
    story.add(2, "outcome", f"[failure] Tried a retry wrapper for {short2.format(c=comps[1])}; "
              "it still fails", f"try:{comps[1]}:{noun2}", f"{comps[1]}:{noun2}", "current")
    story.add(3, "outcome", "[success] " + story.say(fix, c=comps[2]), f"fix:{comps[2]}:{noun}",
              f"{comps[2]}:{noun}", "current")
    # 6. A figure measured again; the same figure of another component (a near-miss).
    metric, unit, values = rng.choice(METRICS)
    v1, v2 = values[0], values[1]
    kind = rng.choice(["outcome", "fact"])
    prefix = "[success] " if kind == "outcome" else ""
    story.add(0, kind, prefix + story.say(MEASURED, m=metric, c=comps[0], v=v1, u=unit),
              f"m:{comps[0]}:{metric}:{v1}", f"m:{comps[0]}:{metric}", "superseded")
    story.add(rng.choice([2, 3]), kind, prefix + story.say(REMEASURED, m=metric, c=comps[0], v=v2,
                                                            u=unit),
              f"m:{comps[0]}:{metric}:{v2}", f"m:{comps[0]}:{metric}", "current")
    story.add(1, kind, prefix + story.say(MEASURED, m=metric, c=comps[3], v=v1, u=unit),
              f"m:{comps[3]}:{metric}:{v1}", f"m:{comps[3]}:{metric}", "current")
    # 7. Episodes of similar work on different components.
    for session, comp in zip((0, 1, 2), rng.sample(COMPONENTS, 3)):
        story.add(session, "episode", story.say(EPISODES, c=comp), f"ep:{session}:{comp}",
                  f"ep:{session}:{comp}", "current")
    sessions = [{"session": f"s{i + 1}", "day": 1 + 3 * i, "memories": memories}
                for i, memories in enumerate(story.sessions) if memories]
    return {"story": name, "split": split_of(name), "sessions": sessions}


def make_set(count: int = STORIES, seed: int = 25) -> dict:
    rng = random.Random(seed)
    stories = [make_story(index, rng) for index in range(count)]
    return {"about": "bench/quality/consolidation/make_set.py; split: sha1(story) % 3 == 0 is test",
            "stories": stories}


if __name__ == "__main__":
    data = make_set()
    (HERE / "set.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    test = sum(story["split"] == "test" for story in data["stories"])
    memories = sum(len(s["memories"]) for story in data["stories"] for s in story["sessions"])
    print(f"{len(data['stories'])} stories ({test} test), {memories} memories")
