import pytest

from ingest.scrub import REDACTED, scrub


@pytest.mark.parametrize(
    "text, secret",
    [
        ("key sk-abcdefghijklmnopqrstuvwxyz123", "sk-abcdefghijklmnopqrstuvwxyz123"),
        ("mc_0123456789abcdefXYZ here", "mc_0123456789abcdefXYZ"),
        ("ghp_" + "a" * 36, "ghp_" + "a" * 36),
        ("github_pat_" + "B" * 30, "github_pat_" + "B" * 30),
        ("xoxb-123456789012-abc", "xoxb-123456789012-abc"),
        ("AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
        ("Authorization: Bearer abcdefghijklmnop1234", "abcdefghijklmnop1234"),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
         "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        ("password=Sup3rS3cretValue_0123456", "Sup3rS3cretValue_0123456"),
        ("eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKK", "eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKK"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "MIIE"),
        # Issue 28 item 6: a vendor prefix is a key whatever follows; Vault; Hugging Face.
        ("OPENAI_API_KEY=sk-proj-" + "abcdefghij" * 6, "sk-proj-abcdefghij"),
        ("export VAULT_TOKEN=hvs.CAESIJ1kYk9Xq2Lm8vB4nR8tW3zQ", "hvs.CAESIJ1kYk9Xq2Lm8vB4nR8tW3zQ"),
        ("huggingface-cli login --token hf_q8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL",
         "hf_q8Zr2LmX9vT4kP7wN1sBaC3dE5fG7hJ9kL"),
    ],
)
def test_secret_is_redacted(text, secret):
    out = scrub(text)
    assert secret not in out
    assert REDACTED in out


@pytest.mark.parametrize(
    "text",
    [
        "password=changeme",
        "the token is short",
        "commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
        "uuid 1af7fc5e-8455-4414-9ccd-011d40f70b2a",
        "skip the sk- prefix discussion",
    ],
)
def test_ordinary_text_is_kept(text):
    assert scrub(text) == text


def test_assignment_keeps_the_key_name():
    assert scrub("api_key: 'abcdefghijklmnopqrstu'") == f"api_key: '{REDACTED}'"


@pytest.mark.parametrize("key", ["PASSWORD", "Api_Key", "\u017fecret", "API_\u212aEY", "BEARER"])
def test_caseless_rules_catch_every_spelling_the_pattern_matches(key):
    value = "Zq9" * 8
    text = f"{key} {value}" if key == "BEARER" else f"{key}={value}"
    assert value not in scrub(text)
