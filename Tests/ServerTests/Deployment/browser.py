"""Headless Chromium for the deployment suite, watched for console errors and CSP violations on every page.

Every document gets a `securitypolicyviolation` listener before its own scripts run (CDP
`Page.addScriptToEvaluateOnNewDocument`), which keeps each violation in `window.__cspViolations`. Chromium also logs
every violation as a console error, and its browser log (`goog:loggingPrefs`) outlives navigations, so a violation
in a page that is already gone (a blocked redirect, a page left at once) is still caught. `Watched.problems(where)`
drains both.
"""
import json
import os
import time
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CSP_RECORDER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const v = {directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber,
             page: document.location.href};
  window.__cspViolations.push(v);
}, true);
"""


def wait(predicate, timeout=10.0, message="condition"):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            last = predicate()
        except Exception as error:  # a page mid-navigation answers scripts with errors
            last = error
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {message} (last: {last!r})")


class Watched:
    """One Chromium profile; `problems` lists what went wrong on the pages seen since the last call."""

    def __init__(self, extra_args=(), home=None, width=1280, height=900):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    f"--window-size={width},{height}", "--autoplay-policy=no-user-gesture-required",
                    "--no-first-run", "--no-default-browser-check", *extra_args]:
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        environment = dict(os.environ)
        if home:
            # Chromium on Linux reads trusted certificates from $HOME/.pki/nssdb.
            environment["HOME"] = home
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=environment), options=options)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CSP_RECORDER})
        self.warnings = []

    def quit(self):
        self.driver.quit()

    def problems(self, where):
        """Console errors and CSP violations since the last call, each naming the step it was found in."""
        found = []
        try:
            for v in self.driver.execute_script("return window.__cspViolations || []") or []:
                found.append(f"{where}: CSP violation of {v['directive']} (blocked {v['blocked']!r}) on {v['page']}")
        except Exception as error:
            found.append(f"{where}: could not read the CSP recorder: {error}")
        for entry in self.driver.get_log("browser"):
            text = f"{where}: console {entry['level']} [{entry.get('source', '')}] {entry['message']}"
            if entry["level"] == "SEVERE":
                found.append(text)
            elif entry["level"] == "WARNING":
                self.warnings.append(text)
        try:
            self.driver.execute_script("window.__cspViolations = []")
        except Exception:
            pass
        return found


def main(what):
    """Runs the calling script's tests, says how long `what` took, and prints OK (which the Swift side looks for)
    only when every test passed."""
    started = time.time()
    program = unittest.main(module="__main__", exit=False, verbosity=2)
    print(f"{what} took {time.time() - started:.1f} s")
    if program.result.wasSuccessful():
        print("OK")
    raise SystemExit(0 if program.result.wasSuccessful() else 1)


def decoded(driver, selector):
    """The image `selector` names has loaded and decoded: complete with a natural width."""
    return driver.execute_script(
        "const i = document.querySelector(arguments[0]);"
        "return !!i && !i.hidden && i.complete && i.naturalWidth > 0 && (i.currentSrc || i.src);", selector)


def page_origins(driver):
    """Origins of every link, form and image of the current page, as the browser resolved them."""
    return json.loads(driver.execute_script(
        "const o = (u) => { try { return new URL(u, location.href).origin } catch (_) { return 'unparsable:' + u } };"
        "return JSON.stringify({"
        " links: [...document.querySelectorAll('a[href]')].map(a => [a.getAttribute('href'), o(a.href)]),"
        " forms: [...document.querySelectorAll('form[action]')].map(f => [f.getAttribute('action'), o(f.action)]),"
        " images: [...document.images].filter(i => i.src).map(i => [i.getAttribute('src'), o(i.src)])})"))
