import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.events import Event
from synth.masking import iban_ok, luhn_ok, mask_event, mask_text


@pytest.mark.parametrize(
    "text, token, secret",
    [
        ("mail jane.doe@example.com now", "«EMAIL»", "jane.doe@example.com"),
        ("call +44 20 7946 0958 today", "«PHONE»", "+44 20 7946 0958"),
        ("call (415) 555-2671 today", "«PHONE»", "(415) 555-2671"),
        ("call 415-555-2671 today", "«PHONE»", "415-555-2671"),
        ("ring 01632 960001 please", "«PHONE»", "01632 960001"),
        ("card 4111 1111 1111 1111 ok", "«CARD»", "4111 1111 1111 1111"),
        ("card 5500-0000-0000-0004 ok", "«CARD»", "5500-0000-0000-0004"),
        ("amex 378282246310005 ok", "«CARD»", "378282246310005"),
        ("iban GB82 WEST 1234 5698 7654 32 ok", "«IBAN»", "GB82 WEST 1234 5698 7654 32"),
        ("iban DE89370400440532013000 ok", "«IBAN»", "DE89370400440532013000"),
        ("ssn 123-45-6789 ok", "«ID»", "123-45-6789"),
        ("nino QQ 12 34 56 C", None, None),  # QQ is not an issued prefix... Q is disallowed
        ("nino AB 12 34 56 C ok", "«ID»", "AB 12 34 56 C"),
        ("itin 912-78-1234 ok", "«ID»", "912-78-1234"),
        ("dni 12345678Z ok", "«ID»", "12345678Z"),
        ("key AKIAIOSFODNN7EXAMPLE ok", "«API_KEY»", "AKIAIOSFODNN7EXAMPLE"),
        ("key AIzaSyA-1234567890abcdefghijklmnopqrstu ok", "«API_KEY»", "AIzaSyA-1234567890abcdefghijklmnopqrstu"),
        ("tok ya29.a0AfH6SMBx1234567890abcdef ok", "«API_KEY»", "ya29.a0AfH6SMBx1234567890abcdef"),
        ("gh ghp_" + "a1B2" * 9 + " ok", "«API_KEY»", "ghp_" + "a1B2" * 9),
        ("gh github_pat_" + "A" * 82 + " ok", "«API_KEY»", "github_pat_" + "A" * 82),
        ("gl glpat-abcdefghij0123456789 ok", "«API_KEY»", "glpat-abcdefghij0123456789"),
        ("slack xoxb-1234567890-abcdef ok", "«API_KEY»", "xoxb-1234567890-abcdef"),
        ("slack xapp-1-A0123456789-abcdefghijkl ok", "«API_KEY»", "xapp-1-A0123456789-abcdefghijkl"),
        ("stripe sk_live_abcdefghijklmnop1234 ok", "«API_KEY»", "sk_live_abcdefghijklmnop1234"),
        ("ant sk-ant-api03-abcdefghijklmnopqrstuvwx ok", "«API_KEY»", "sk-ant-api03-abcdefghijklmnopqrstuvwx"),
        ("oai sk-abcdefghijklmnopqrstuvwxyz ok", "«API_KEY»", "sk-abcdefghijklmnopqrstuvwxyz"),
        ("sg SG." + "a" * 22 + "." + "b" * 43 + " ok", "«API_KEY»", "SG." + "a" * 22 + "." + "b" * 43),
        ("twilio SK" + "0123456789abcdef" * 2 + " ok", "«API_KEY»", "SK" + "0123456789abcdef" * 2),
        ("npm npm_" + "a" * 36 + " ok", "«API_KEY»", "npm_" + "a" * 36),
        ("do dop_v1_" + "ab" * 32 + " ok", "«API_KEY»", "dop_v1_" + "ab" * 32),
        ("pypi pypi-AgEIcHlwaS5vcmcCJDA ok", "«API_KEY»", "pypi-AgEIcHlwaS5vcmcCJDA"),
        ("square sq0atp-abcdefghijklmnopqrstuv ok", "«API_KEY»", "sq0atp-abcdefghijklmnopqrstuv"),
        ("shop shpat_" + "a1" * 16 + " ok", "«API_KEY»", "shpat_" + "a1" * 16),
        ("mg key-" + "a" * 32 + " ok", "«API_KEY»", "key-" + "a" * 32),
        ("tg 123456789:AA" + "b" * 33 + " ok", "«API_KEY»", "123456789:AA" + "b" * 33),
        ("fb EAACEdEose0cBAabc123 ok", "«API_KEY»", "EAACEdEose0cBAabc123"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaA==", "«SECRET»", "-----BEGIN OPENSSH PRIVATE KEY-----"),
        ("jwt eyJhbGciOiJ.eyJzdWIiOiJ.SflKxwRJSMe ok", "«SECRET»", "eyJhbGciOiJ.eyJzdWIiOiJ.SflKxwRJSMe"),
        ("Authorization: bearer abcdefghijklmnopqrstuvwx", "«SECRET»", "abcdefghijklmnopqrstuvwx"),
        ("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "«SECRET»",
         "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        ("client_secret: 'q8Zr2LmX9vT4kP7wN1sB'", "«SECRET»", "q8Zr2LmX9vT4kP7wN1sB"),
        ("SSN: 123456789 on file", "«ID»", "123456789"),
        ("HF_TOKEN=hf_" + "abcdefghijklmnopqrstuvwxyzABCDEFGH", "«API_KEY»", "hf_abcdefghij"),
        ("AccountName=a;AccountKey=" + "Ab1+" * 21 + "xy==;EndpointSuffix", "«SECRET»", "Ab1+Ab1+"),
        ("DATABASE_URL=postgres://app:Sup3r-secret@db:5432/prod", "«SECRET»", "Sup3r-secret"),
        ('{"auths": {"r.io": {"auth": "dXNlcjpTM2NyM3RQYXNzIQ=="}}}', "«SECRET»", "dXNlcjpTM2NyM3RQYXNzIQ=="),
        ('"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADAN\\n-----END PRIVATE KEY-----\\n"',
         "«SECRET»", "MIIEvQIBADAN"),
        ("hook https://hooks.slack.com/services/T0123ABC/B0456DEF/abcdEFGHijkl", "«API_KEY»", "abcdEFGHijkl"),
        # Issue 18 item 2: families and shapes that reached the model before.
        ("SENDGRID_API_KEY=SG." + "aB3" * 7 + "c." + "Xy9_" * 10 + "abc", "«API_KEY»", "Xy9_Xy9_"),
        ("AccountKey=" + "q8Xb2vL9mN3pR7sT1uW4yZ6aC8eG0iK2oM4qS6uW8yA0cE2gI4kM6oQ8sU0wY2aC4eG6iK8mO0qS2u"
         "W4yA6cE8gI0kM2oQ==;EndpointSuffix=core.windows.net", "«SECRET»", "q8Xb2vL9mN3pR7sT"),
        ('"private_key_id": "4f2a9c1e7b3d5f8a0c2e4b6d8f1a3c5e7b9d0f2a",', "«SECRET»", "4f2a9c1e7b3d"),
        ("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NX",
         "«SECRET»", "MIIEvQIBADANBgkqhkiG9w0BAQEF"),
        ("the mysql root pw My5qlR00tPw_9x for staging", "«SECRET»", "My5qlR00tPw_9x"),
        ('password = "Zq!9@x#T%a8bYc2dEf3g"', "«SECRET»", "Zq!9@x#T%a8bYc2dEf3g"),
        ("the password is Hunter2!Xq9#Lm now", "«SECRET»", "Hunter2!Xq9#Lm"),
        # Issue 28 item 6: stored in clear before on every path (mask, the server's inbox).
        ("export VAULT_TOKEN=hvs.CAESIJ1kYk9Xq2Lm8vB4nR8tW3zQ_pE7uYx0aS6dF9gH2jK", "«", "hvs.CAES"),
        ("vault login hvs.q8Zr2LmX9vT4kP7wN1sBaC3d", "«API_KEY»", "hvs.q8Zr2LmX9vT4kP7wN1sBaC3d"),
        ("VAULT_TOKEN=s.Q8zR2lMx9VT4kp7Wn1SbAc3D", "«SECRET»", "s.Q8zR2lMx9VT4kp7Wn1SbAc3D"),
        ("client.run('MTA1NzQ4OTk5NjkxNTk4MDQ0OA.GyT3cA.Kq8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL')",
         "«API_KEY»", "MTA1NzQ4OTk5NjkxNTk4MDQ0OA.GyT3cA.Kq8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL"),
        ("HF_TOKEN=hf_q8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL", "«", "hf_q8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL"),
        ("login --token hf_q8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL", "«API_KEY»", "hf_q8Zr2"),
        ("key sk-proj-" + "abcdefghij" * 6 + " leaked", "«API_KEY»", "sk-proj-abcdefghij"),
        ("sk-svcacct-" + "x" * 40, "«API_KEY»", "sk-svcacct-xxxx"),
    ],
)
def test_each_category(text, token, secret):
    masked, found = mask_text(text)
    if token is None:
        assert found == 0 and masked == text
        return
    assert token in masked
    assert secret not in masked


@pytest.mark.parametrize(
    "text",
    [
        "password=changeme",
        "password=aaaaaaaaaaaaaaaaaaaa",  # long but no entropy
        "card 4111 1111 1111 1112",  # Luhn fails
        "iban GB82 WEST 1234 5698 7654 33",  # mod-97 fails
        "dni 12345678A",  # wrong control letter
        "ssn 000-12-3456",
        "ssn 666-12-3456",
        "commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
        "uuid 1af7fc5e-8455-4414-9ccd-011d40f70b2a",
        "version 2.1.39 and recall@10 0.87",
        "ordinary prose about tokens and secrets in general",
        "INFO request 221171715 done",  # nine bare digits without an SSN keyword
        "commit 90cea7a24129199532290b5cd33e9f",  # card-like digits inside a digest
        "hash 4c3bfea050c21d48f7eb06852102364c79780d",
        "the password is required for the login form",
        "set PASSWORD=${DB_PASSWORD} in .env",
        "$ pwd\n/home/Dev/Projects2",
        "pwd /home/Dev/Projects2 here",
        "the password reset flow sends a Magic-Link2 e-mail",
        "sk-learn-compat-for-new-release and task-runner-for-background-jobs",
        "from transformers import AutoModelForCausalLM; hf_hub_download(repo_id='a/b')",
        "see docs.example.io/api/v2.1/Messages.createMessage.html",
        "vault kv get -field=password secret/app  # VAULT_TOKEN from the agent",
    ],
)
def test_negatives_stay(text):
    assert mask_text(text) == (text, 0)


def test_the_assignment_keeps_its_key():
    assert mask_text("password=Xy7kP2qLm9vB4nR8tW") == ("password=«SECRET»", 1)


def test_overlaps_prefer_the_longer_span():
    masked, found = mask_text("sk-ant-api03-abcdefghijklmnopqrstuvwx")
    assert masked == "«API_KEY»" and found == 1


def test_gates():
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert iban_ok("GB82WEST12345698765432") and not iban_ok("GB82WEST12345698765433")


def test_event_fields_masked_and_absent_stay_absent():
    event = Event(1, "t", None, "user", "prompt", "mail a@b.io " + "x" * 9000, tool="jane@x.org")
    masked, found = mask_event(event)
    # truncated to 8000 first, then masked: the token may be longer than what it replaced
    assert masked.content == "mail «EMAIL» " + "x" * (8000 - len("mail a@b.io "))
    assert masked.tool == "«EMAIL»" and masked.outcome is None
    assert found == 2


def test_a_session_id_is_masked_and_ids_that_hold_a_secret_are_refused():
    """Issue 28 item 10: ids reached memories, recall and MCP as sent."""
    from ingest.errors import SubmitRejected
    from synth.masking import check_window_ids

    event = Event(1, "t", "agent:main:whatsapp:+15551234567", "user", "prompt", "hello")
    masked, found = mask_event(event)
    assert masked.session_id == "agent:main:whatsapp:«PHONE»" and found == 1
    check_window_ids({"node_id": "cc:-home-me-repo:1af7fc5e-8455-4414-9ccd-011d40f70b2a",
                      "agent_id": "claude-code@laptop", "fleet_id": None})
    with pytest.raises(SubmitRejected) as refused:
        check_window_ids({"node_id": "n", "agent_id": "jane.doe@example.com"})
    assert refused.value.status_code == 422
    assert refused.value.detail.startswith("agent_id: holds what the masking layer hides («EMAIL»)")


_SECRETS = st.sampled_from([
    "AKIAIOSFODNN7EXAMPLE", "ghp_" + "Zz09" * 9, "sk-ant-api03-abcdefghijklmnopqrstuvwx",
    "xoxb-1234567890-abcdef", "jane.doe@example.com", "4111 1111 1111 1111",
    "eyJhbGciOiJ.eyJzdWIiOiJ.SflKxwRJSMe",
])


@given(prefix=st.text(max_size=40), secret=_SECRETS, suffix=st.text(max_size=40))
def test_planted_secret_never_survives(prefix, secret, suffix):
    masked, _ = mask_text(f"{prefix} {secret} {suffix}")
    assert secret not in masked


@given(st.text(max_size=200))
def test_masking_is_idempotent(text):
    once, _ = mask_text(text)
    twice, _ = mask_text(once)
    assert twice == once


# -- the Hyperscan prefilter never changes what is found -----------------------------------------
from synth.masking import RULES, scan  # noqa: E402
from synth.prefilter import RuleFilter, hyperscan  # noqa: E402

_FRAGMENTS = st.sampled_from([
    "AKIA" + "ABCDEFGHIJKLMNOP", "4111 1111 1111 1111", "DE89 3704 0044 0532 0130 00", "123-45-6789",
    "SSN: 123456789", "+44 20 7946 0958", "(555) 123-4567", "12345678Z", "ghp_" + "a" * 36,
    "sk-ant-" + "x" * 24, "password=Zx9!kQ2#rT7$wP4@", "user@example.com", "eyJhbGciOi.eyJzdWIiOi.abcdefgh12",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "postgres://u:hunter22@db",
    "AB 12 34 56 C", "900-70-1234", "Bearer abcdefghijklmnopqrstuvwxyz", "é", "—", "٣٤٥", "\u00a0", " ",
])


@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=12)), max_size=12).map("".join))
def test_prefiltered_scan_finds_exactly_what_every_rule_finds(text):
    assert sorted(scan(text), key=repr) == sorted(scan(text, prefilter=False), key=repr)


def test_prefilter_on_the_benchmark_corpus_and_the_fixture_trails():
    from bench.masking import build_corpus
    from tests.trails import fixture_trails

    texts = [row["text"] for row in build_corpus(3000, seed=11)]
    texts += [line for name, path in fixture_trails().items() if name.endswith(".jsonl") for line in
              path.read_text(errors="replace").splitlines()[:400]]
    differing = [t[:80] for t in texts if sorted(scan(t), key=repr) != sorted(scan(t, prefilter=False), key=repr)]
    assert differing == []


@pytest.mark.skipif(hyperscan is None, reason="no hyperscan wheel on this platform")
def test_prefilter_names_only_rules_that_can_match():
    rule_filter = RuleFilter([rule.prefilter or rule.pattern.pattern for rule in RULES])
    assert rule_filter.candidates("nothing to see here") == frozenset()
    hits = rule_filter.candidates("mail me at dev@example.com")
    assert hits and all(RULES[i].category in {"email", "secret", "api_key"} for i in hits)
