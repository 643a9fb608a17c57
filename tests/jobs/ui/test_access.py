"""Who may use `interview ui`: a key beyond loopback (read to read, write to forget, the key's
tenant only), the Host check on loopback, and forms that cannot be forged (CSRF token, Origin)."""

from __future__ import annotations

import html
import re

import httpx
from click.testing import CliRunner
from selenium.webdriver.common.by import By

from tests.browser import console_errors
from tests.jobs.ui.conftest import lake_copy
from tests.jobs.ui.test_browser import clean, follow, rows, texts

KEYS = {  # name: (key, tenant, capabilities)
    "reader": ("ti_ui_reader", "local", ["read"]),
    "writer": ("ti_ui_writer", "local", ["write", "read"]),
    "beta": ("ti_ui_beta", "beta", ["write", "read"]),
}


def keyed_config(path):
    from jobs.http.auth import hash_key

    lines = []
    for name, (key, tenant, capabilities) in KEYS.items():
        lines += ["[[server.keys]]", f'sha256 = "{hash_key(key)}"', f'tenant = "{tenant}"',
                  "capabilities = [" + ", ".join(f'"{c}"' for c in capabilities) + "]",
                  f'name = "{name}"', ""]
    path.write_text("\n".join(lines))
    return path


def sign_in(page, key: str, title: str) -> None:
    box = page.find_element(By.NAME, "key")
    box.send_keys(key)
    follow(page, box, title, enter=True)


def test_beyond_loopback_a_read_key_reads_and_a_write_key_forgets(ui_lake, start_ui, page,
                                                                  tmp_path):
    lake = lake_copy(ui_lake, tmp_path)
    [(memory_id,)] = rows(lake, "SELECT memory_id FROM memories WHERE node_id LIKE '%:short' "
                                "AND content LIKE 'Decided:%'")
    config = keyed_config(tmp_path / "keys.toml")
    own = start_ui("--lake", str(lake), host="0.0.0.0", config=config)  # each key: its tenant
    beta = httpx.get(f"{own.url}/", headers={"X-API-Key": KEYS["beta"][0]})
    assert beta.status_code == 200 and "No memories" in beta.text and "spotter" not in beta.text
    local = httpx.get(f"{own.url}/", headers={"X-API-Key": KEYS["reader"][0]})
    assert local.status_code == 200 and "spotter" in local.text

    ui = start_ui("--lake", str(lake), "--allow-forget", "--tenant", "local", host="0.0.0.0",
                  config=config)
    assert "a key needed: 3 from config" in ui.line and "tenant local" in ui.line

    anonymous = httpx.get(f"{ui.url}/project?name=spotter")
    assert anonymous.status_code == 303
    assert anonymous.headers["location"] == "/login?next=%2Fproject%3Fname%3Dspotter"
    assert httpx.get(f"{ui.url}/", headers={"X-API-Key": "ti_nobody"}).status_code == 401
    assert httpx.get(f"{ui.url}/", headers={"X-API-Key": KEYS["reader"][0]}).status_code == 200
    refused = httpx.get(f"{ui.url}/", headers={"X-API-Key": KEYS["beta"][0]})
    assert refused.status_code == 403
    assert "not authorized to read tenant 'local'" in html.unescape(refused.text)

    page.get(f"{ui.url}/project?name=spotter")
    assert page.title.startswith("Sign in")
    sign_in(page, "ti_nobody", "Sign in")
    assert "Invalid API key" in page.find_element(By.CLASS_NAME, "error").text
    sign_in(page, KEYS["beta"][0], "Sign in")
    assert "not authorized to read tenant 'local'" in page.find_element(By.CLASS_NAME,
                                                                       "error").text
    console_errors(page)  # the 401 and the 403 just seen
    sign_in(page, KEYS["reader"][0], "spotter")  # back where it was going
    assert texts(page, "ol.memories li.memory")
    cookie = page.get_cookie("interview_ui")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert KEYS["reader"][0] not in cookie["value"]
    clean(page)
    page.get(f"{ui.url}/forget?id={memory_id}")
    assert "read-only" in page.find_element(By.CLASS_NAME, "error").text

    follow(page, page.find_element(By.XPATH, "//button[.='Sign out']"), "Sign in")
    page.get(f"{ui.url}/")
    assert page.title.startswith("Sign in")
    sign_in(page, KEYS["writer"][0], "Projects")
    page.get(f"{ui.url}/forget?id={memory_id}")
    follow(page, page.find_element(By.ID, "confirm-forget"), "Forgotten")
    assert rows(lake, f"SELECT count(*) FROM memories WHERE memory_id = '{memory_id}'") == [(0,)]


def test_beyond_loopback_without_configured_keys_the_lake_key_opens_it(ui_lake, start_ui,
                                                                         tmp_path):
    lake = lake_copy(ui_lake, tmp_path)
    ui = start_ui("--lake", str(lake), host="0.0.0.0")
    assert f"1 from {lake / 'server.key'}" in ui.line
    key = (lake / "server.key").read_text().strip()
    assert httpx.get(f"{ui.url}/ops").status_code == 303
    assert httpx.get(f"{ui.url}/ops", headers={"X-API-Key": key}).status_code == 200


def test_on_loopback_other_hosts_and_forged_forms_are_refused(ui_lake, start_ui, tmp_path):
    lake = lake_copy(ui_lake, tmp_path)
    [(memory_id,)] = rows(lake, "SELECT memory_id FROM memories WHERE node_id LIKE '%:short' "
                                "AND content LIKE 'Decided:%'")
    ui = start_ui("--lake", str(lake), "--allow-forget")
    port = ui.url.rsplit(":", 1)[1]
    rebound = httpx.get(f"{ui.url}/", headers={"Host": f"attacker.example:{port}"})
    assert rebound.status_code == 400 and "loopback" in rebound.text
    home = httpx.get(f"{ui.url}/", headers={"Host": f"localhost:{port}"})
    assert home.status_code == 200
    assert "script-src 'self'" in home.headers["content-security-policy"]
    assert home.headers["x-frame-options"] == "DENY"

    preview = httpx.get(f"{ui.url}/forget", params={"id": memory_id})
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', preview.text).group(1)
    form = {"id": memory_id, "expect": "1"}
    assert httpx.post(f"{ui.url}/forget", data=form).status_code == 403  # no token
    forged = httpx.post(f"{ui.url}/forget", data={**form, "csrf": "0" * 64})
    assert forged.status_code == 403 and "token" in forged.text
    elsewhere = httpx.post(f"{ui.url}/forget", data={**form, "csrf": token},
                           headers={"Origin": "http://attacker.example"})
    assert elsewhere.status_code == 403 and "another site" in elsewhere.text
    changed = httpx.post(f"{ui.url}/forget", data={**form, "expect": "2", "csrf": token})
    assert changed.status_code == 409 and "selection changed" in changed.text
    assert rows(lake, f"SELECT count(*) FROM memories WHERE memory_id = '{memory_id}'") == [(1,)]
    done = httpx.post(f"{ui.url}/forget", data={**form, "csrf": token},
                      headers={"Origin": ui.url})
    assert done.status_code == 200 and "Forgot <b>1 memory</b>" in done.text
    assert rows(lake, f"SELECT count(*) FROM memories WHERE memory_id = '{memory_id}'") == [(0,)]


def test_a_missing_lake_is_one_clear_error(tmp_path):
    from jobs.cli import main

    result = CliRunner().invoke(main, ["ui", "--lake", str(tmp_path / "nowhere"), "--port", "0"])
    assert result.exit_code == 1
    assert "no lake at" in result.output and "interview run" in result.output


def test_beyond_loopback_healthz_tells_a_stranger_only_ok(start_ui, tmp_path):
    """Issue 41 item 6: `/healthz` is the probe's; the lake's location (a Postgres catalog's
    host and database, a folder's absolute path) is for a caller with a key, as `serve`'s."""
    from tests.jobs.ui.conftest import push_one_window

    lake = tmp_path / "lake"
    push_one_window(lake)
    ui = start_ui("--lake", str(lake), host="0.0.0.0", config=keyed_config(tmp_path / "keys.toml"))
    stranger = httpx.get(f"{ui.url}/healthz")
    assert stranger.status_code == 200 and stranger.json() == {"status": "ok"}
    assert str(lake) not in stranger.text
    wrong = httpx.get(f"{ui.url}/healthz", headers={"X-API-Key": "ti_not_a_key"})
    assert wrong.json() == {"status": "ok"}
    known = httpx.get(f"{ui.url}/healthz", headers={"X-API-Key": KEYS["reader"][0]}).json()
    assert known["status"] == "ok" and str(lake.name) in known["lake"]
    on_loopback = start_ui("--lake", str(lake))  # this machine: the page is open, and so is this
    assert "lake" in httpx.get(f"{on_loopback.url}/healthz").json()
