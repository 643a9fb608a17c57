"""`interview ui` in a real browser: headless Chromium (Debian's, through Selenium) against the
real command on a loopback port, over a lake a real run wrote."""

from __future__ import annotations

import json
from pathlib import Path

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

from tests.browser import console_errors
from tests.jobs.ui.conftest import HOSTILE, PUSHED_NODE, lake_copy


def rows(lake, sql: str) -> list[tuple]:
    from sinks.lake import Lake

    with Lake(lake, create=False) as opened:
        return opened.con.execute(sql).fetchall()


def texts(page, css: str) -> list[str]:
    return [element.text for element in page.find_elements(By.CSS_SELECTOR, css)]


def follow(page, element, title: str, *, enter: bool = False) -> None:
    """Click `element` (or press Enter in it) and wait for the page it leads to (its title
    starts with `title`)."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    element.send_keys(Keys.RETURN) if enter else element.click()
    WebDriverWait(page, 30).until(lambda driver: driver.title.startswith(title))


def clean(page) -> None:
    """The page ran our script, and nothing was refused or missing (a CSP violation, a 404)."""
    assert page.execute_script("return document.documentElement.dataset.js") == "on"
    assert console_errors(page) == []


def test_every_page_opens_and_a_memory_leads_to_its_evidence(ui_lake, start_ui, page):
    lake, trails = ui_lake
    ui = start_ui("--lake", str(lake))
    page.get(ui.url)
    assert page.title.startswith("Projects")
    projects = texts(page, "table.projects tbody td:first-child")
    assert {"spotter", "todo-app", "webshop"} <= set(projects)
    clean(page)

    follow(page, page.find_element(By.LINK_TEXT, "spotter"), "spotter")
    bars = page.find_elements(By.CSS_SELECTOR, ".chart svg rect")
    assert bars and all(bar.get_attribute("class").startswith("t-") for bar in bars)
    items = page.find_elements(By.CSS_SELECTOR, "ol.memories li.memory")
    [(count,)] = rows(lake, "SELECT count(*) FROM memories m JOIN (SELECT DISTINCT node_id, "
                            "project FROM nodes) n USING (node_id) WHERE n.project = 'spotter'")
    assert len(items) == count > 0
    assert "newest first" in page.find_element(By.CSS_SELECTOR, "p.count").text
    clean(page)

    bar = page.find_element(By.CSS_SELECTOR, ".chart svg a")
    day, shown = bar.find_element(By.TAG_NAME, "title").get_attribute("textContent").split(": ")
    href = page.execute_script("return arguments[0].getAttribute('href')", bar)
    page.get(ui.url + href)  # a bar opens its day's memories
    assert len(page.find_elements(By.CSS_SELECTOR, "li.memory")) >= int(shown.split()[0])
    assert {h.text for h in page.find_elements(By.CSS_SELECTOR, "section.day h3")} == {day}
    page.get(f"{ui.url}/project?name=spotter&limit=2")
    first = texts(page, "li.memory")
    assert len(first) == 2 and page.find_elements(By.CSS_SELECTOR, "a[rel=prev]") == []
    follow(page, page.find_element(By.CSS_SELECTOR, "a[rel=next]"), "spotter")
    assert "offset=2" in page.current_url and texts(page, "li.memory")[0] not in first
    assert "memories 3–4 of" in page.find_element(By.CSS_SELECTOR, "p.count").text
    page.get(f"{ui.url}/project?name=spotter")

    worked_on = page.find_element(By.PARTIAL_LINK_TEXT, "Worked on:")
    content = worked_on.text
    follow(page, worked_on, "Episode")
    assert page.find_element(By.CSS_SELECTOR, "blockquote.content").text == content
    where = texts(page, "ol.evidence .where code")
    assert where, page.page_source
    path, line = where[0].rsplit(":", 1)
    assert Path(path).is_relative_to(trails) and int(line) >= 1
    record = json.loads(Path(path).read_text().splitlines()[int(line) - 1])
    assert record["type"] in ("user", "assistant")
    evidence = page.find_element(By.CSS_SELECTOR, "ol.evidence pre").text
    assert content.removeprefix("Worked on: ")[:30] in evidence
    assert texts(page, "dl.facts dd code")  # the memory id, node, session, trail
    clean(page)

    follow(page, page.find_element(By.LINK_TEXT, "Operations"), "Operations")
    nodes = texts(page, "table.nodes tbody td:first-child")
    assert PUSHED_NODE in nodes and len(nodes) >= 7
    assert "done" in page.find_element(By.XPATH, "//h2[starts-with(., 'Inbox')]"
                                       "/following-sibling::p[1]").text
    assert texts(page, "table.runs tbody td:nth-child(3)")[0] == "finished"
    clean(page)


def test_a_pushed_window_is_the_evidence_of_its_memories(ui_lake, start_ui, page):
    lake, _ = ui_lake
    [(memory_id,)] = rows(lake, f"SELECT memory_id FROM memories WHERE node_id = '{PUSHED_NODE}' "
                                "AND memory_type = 'episode'")
    ui = start_ui("--lake", str(lake))
    page.get(f"{ui.url}/memory?id={memory_id}")
    where = texts(page, "ol.evidence .where code")
    assert where and all(text.startswith("pushed window (inbox) (seq ") for text in where)
    follow(page, page.find_element(By.CSS_SELECTOR, ".memory-page p a"), "(no project")
    clean(page)


def test_search_with_type_and_date_filters_from_the_page(ui_lake, start_ui, page):
    lake, _ = ui_lake
    ui = start_ui("--lake", str(lake))
    page.get(f"{ui.url}/search")
    box = page.find_element(By.NAME, "q")
    box.send_keys("login form validation")
    page.find_element(By.CSS_SELECTOR, "input[name=type][value=decision]").click()
    follow(page, box, "Search: login form validation", enter=True)
    hits = page.find_elements(By.CSS_SELECTOR, "ol.results li.memory")
    assert hits and all(hit.find_element(By.CLASS_NAME, "badge").text == "decision"
                        for hit in hits)
    assert "login form" in hits[0].text
    assert "words #" in hits[0].find_element(By.CLASS_NAME, "score").text
    clean(page)

    page.get(f"{ui.url}/search?q=login+form+validation&since=2030-01-01")
    assert texts(page, "ol.results li") == [] and "No memory matches" in page.page_source
    page.get(f"{ui.url}/search?q=login&type=gossip")
    assert "unknown memory type(s) ['gossip']" in page.find_element(By.CLASS_NAME, "error").text
    page.get(f"{ui.url}/search?q=login&since=last+tuesday")
    assert "is not a date" in page.find_element(By.CLASS_NAME, "error").text


def test_untrusted_memory_text_stays_text(ui_lake, start_ui, page):
    lake, _ = ui_lake
    [(memory_id, content)] = rows(lake, "SELECT memory_id, content FROM memories WHERE content "
                                        "LIKE 'Worked on: %<script>%'")
    ui = start_ui("--lake", str(lake))
    for path in ("/project?name=webshop", f"/memory?id={memory_id}",
                 "/search?q=login+form+script"):
        page.get(ui.url + path)
        assert content[:60] in page.find_element(By.TAG_NAME, "main").text
        assert page.execute_script("return window.__pwned") is None
        assert len(page.find_elements(By.TAG_NAME, "script")) == 1  # ours, in the head
        assert page.find_elements(By.CSS_SELECTOR, "main img") == []
        try:
            raise AssertionError(f"an alert opened: {page.switch_to.alert.text}")
        except NoAlertPresentException:
            pass
        clean(page)
    page.get(f"{ui.url}/memory?id={memory_id}")
    evidence = page.find_element(By.CSS_SELECTOR, "ol.evidence pre").text
    assert HOSTILE in evidence and "alice@example.org" not in evidence and "«EMAIL»" in evidence


def test_forget_from_the_page_with_allow_forget(ui_lake, start_ui, page, tmp_path):
    lake = lake_copy(ui_lake, tmp_path)
    [(memory_id, content)] = rows(lake, "SELECT memory_id, content FROM memories WHERE node_id "
                                        "LIKE '%:short' AND content LIKE 'Decided:%'")
    ui = start_ui("--lake", str(lake), "--allow-forget")
    page.get(f"{ui.url}/memory?id={memory_id}")
    follow(page, page.find_element(By.XPATH, "//button[starts-with(., 'Forget this memory')]"),
           "Forget: preview")
    assert "takes 1 memory (of 1 window) out" in page.find_element(By.CLASS_NAME,
                                                                  "warning").text
    [shown] = texts(page, "table.preview tbody td:nth-child(3)")
    assert shown.startswith(content[:100])
    clean(page)
    follow(page, page.find_element(By.ID, "confirm-forget"), "Forgotten")
    assert "Forgot 1 memory of 1 window" in page.find_element(By.CLASS_NAME, "done").text
    assert rows(lake, f"SELECT count(*) FROM memories WHERE memory_id = '{memory_id}'") == [(0,)]
    assert rows(lake, "SELECT memories, windows FROM forgets") == [(1, 1)]

    page.get(f"{ui.url}/memory?id={memory_id}")
    assert "no memory" in page.find_element(By.CLASS_NAME, "error").text
    page.get(f"{ui.url}/project?name=spotter")
    assert content[:60] not in page.find_element(By.TAG_NAME, "main").text
    page.get(f"{ui.url}/forget?id={memory_id}")
    assert "Nothing matches" in page.find_element(By.CLASS_NAME, "empty").text


def test_forget_is_off_without_allow_forget(ui_lake, start_ui, page):
    import httpx

    lake, _ = ui_lake
    [(memory_id,)] = rows(lake, "SELECT memory_id FROM memories LIMIT 1")
    ui = start_ui("--lake", str(lake))
    page.get(f"{ui.url}/memory?id={memory_id}")
    assert page.find_elements(By.XPATH, "//button[starts-with(., 'Forget')]") == []
    assert page.find_elements(By.LINK_TEXT, "Forget") == []
    page.get(f"{ui.url}/forget?id={memory_id}")
    assert "forgetting is off" in page.find_element(By.CLASS_NAME, "error").text
    refused = httpx.post(f"{ui.url}/forget", data={"id": memory_id, "expect": "1", "csrf": "x"})
    assert refused.status_code == 403
    assert rows(lake, f"SELECT count(*) FROM memories WHERE memory_id = '{memory_id}'") == [(1,)]
