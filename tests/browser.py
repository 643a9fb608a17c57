"""A real browser for the `interview ui` tests (and `bench/ui.py`): Debian's `chromium`, headless,
driven by Selenium through Debian's `chromium-driver` (no browser download: it works offline).

`.ci/run` installs both where missing; a test that cannot start them skips, except under
`INTERVIEW_REQUIRE_SERVICES=1`, where it fails (see `tests.services.unavailable`).
"""

from __future__ import annotations

import glob
import os
import shutil

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver", "/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver")


class NoBrowser(RuntimeError):
    """Chromium, its driver or Selenium is missing."""


def _first(names) -> str | None:
    for name in names:
        found = shutil.which(name) or (name if os.path.isfile(name) else None)
        if found:
            return found
    return None


def chromium(width: int = 1280, height: int = 900):
    """A headless Chromium (a Selenium `WebDriver`) whose console log can be read back."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise NoBrowser("selenium is not installed (pip install -e '.[dev]')") from None
    browser, driver = _first(BROWSERS), _first(DRIVERS)
    if browser is None or driver is None:
        raise NoBrowser("chromium and its driver are not installed (apt-get install chromium "
                        "chromium-driver); found: "
                        f"browser {browser}, driver {driver or glob.glob('/usr/lib/chromium*')}")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--no-first-run", "--disable-extensions", "--lang=en-US",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(options=options, service=Service(driver))
    except Exception as error:  # noqa: BLE001 - any start-up failure means: no browser here
        raise NoBrowser(f"chromium did not start: {str(error).splitlines()[0]}") from None


def console_errors(driver) -> list[str]:
    """The browser console's errors since the last call (a refused script or style, a 404)."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry.get("level") == "SEVERE"]
