"""Deployment suite: a household's first minutes, in headless Chromium on another device's address.

Run by Tests/ServerTests/DeploymentSuiteTests.swift against two servers in a network namespace. On a fresh data
directory, a person opens the server, is sent to /welcome, types the setup code the server printed (first a wrong
one, which comes back on its field with the rest kept and the passwords empty), creates the owner, signs in and
lands on the home page. On the demo household served to the network, the README's published password is refused
and the one the server printed signs in. Every page fails the run on a console error or a CSP violation.

Environment:
  BASE_URL        the fresh server (http://10.203.7.2:8080)
  SETUP_CODE      the setup code it printed
  DEMO_URL        the demo household served on every interface (none: only the first run is tried)
  DEMO_PASSWORD   the password it printed for maya.home.test
  BROWSER_ARGS    JSON list of extra Chromium flags, such as --host-resolver-rules=...
  BROWSER_HOME    HOME for Chromium, whose $HOME/.pki/nssdb trusts the test's CA
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from selenium.webdriver.common.by import By  # noqa: E402

from browser import Watched, main, wait  # noqa: E402

BASE = os.environ["BASE_URL"].rstrip("/")
SETUP_CODE = os.environ["SETUP_CODE"]
DEMO = os.environ.get("DEMO_URL", "").rstrip("/")
DEMO_PASSWORD = os.environ.get("DEMO_PASSWORD", "")
BROWSER_ARGS = json.loads(os.environ.get("BROWSER_ARGS") or "[]")
BROWSER_HOME = os.environ.get("BROWSER_HOME") or None
OWNER_PASSWORD = "our kitchen table"


class FirstRun(unittest.TestCase):
    def setUp(self):
        self.watched = Watched(["--no-proxy-server", *BROWSER_ARGS], BROWSER_HOME, width=390, height=844)
        self.d = self.watched.driver
        self.problems = []

    def tearDown(self):
        self.watched.quit()

    def step(self, where, expected=None):
        """Collects the page's console errors and CSP violations; `expected` names the one error status this step's
        answer carries on purpose (Chromium logs a refused form's 4xx as a console error)."""
        found = self.watched.problems(where)
        if expected:
            refused = [p for p in found if expected in p]
            self.assertEqual(len(refused), 1, f"{where}: expected one console line with {expected!r}, got {found}")
            found = [p for p in found if expected not in p]
        self.problems += found
        print(f"  ok: {where} ({self.d.current_url})", flush=True)

    def field(self, name):
        return self.d.find_element(By.ID, name)

    def type_into(self, name, text):
        element = self.field(name)
        element.clear()
        element.send_keys(text)

    def described_by(self, name):
        """The texts of the elements the field's aria-describedby names, as a screen reader would read them."""
        return self.d.execute_script(
            "const f = document.getElementById(arguments[0]);"
            "return (f.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean)"
            ".map(id => document.getElementById(id)).filter(Boolean).map(e => e.innerText)", name)

    def sign_in_with(self, handle_text, password):
        wait(lambda: self.d.find_elements(By.ID, "handle"), 15, "the sign-in form")
        self.type_into("handle", handle_text)
        self.d.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
        wait(lambda: self.d.find_elements(By.ID, "password"), 15, "the authorization server's password page")
        self.step("the password page")
        self.field("password").send_keys(password)
        self.d.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name=deny])").click()

    def test_1_owner_made_at_welcome_with_the_printed_code(self):
        d = self.d
        d.get(BASE + "/")
        wait(lambda: d.current_url == BASE + "/welcome" and d.find_elements(By.ID, "setupCode"), 15, "/welcome")
        label = d.find_element(By.CSS_SELECTOR, "label[for=setupCode]")
        self.assertEqual(label.text, "Setup code")
        hint = " ".join(self.described_by("setupCode"))
        self.assertIn("printed it when it started", hint)
        self.assertIn("setup-code", hint)
        self.step("the first-run page asks for the setup code")

        # A typo in the code: the form comes back with the error on the code's field.
        self.type_into("setupCode", "wrong-code-here-0")
        self.type_into("name", "ana")
        self.type_into("displayName", "Ana Costa")
        self.type_into("password", OWNER_PASSWORD)
        self.type_into("confirm", OWNER_PASSWORD)
        self.field("password").submit()
        wait(lambda: self.field("setupCode").get_attribute("aria-invalid") == "true", 15, "the code's field marked wrong")
        self.assertIn("setup code is not right", " ".join(self.described_by("setupCode")))
        self.assertTrue(self.d.find_element(By.ID, "setupCode-error").is_displayed())
        self.assertEqual(self.field("name").get_attribute("value"), "ana")
        self.assertEqual(self.field("displayName").get_attribute("value"), "Ana Costa")
        self.assertEqual(self.field("password").get_attribute("value"), "", "a password came back")
        self.assertEqual(self.field("confirm").get_attribute("value"), "", "a password came back")
        self.assertNotIn(OWNER_PASSWORD, d.page_source)
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "#name[aria-invalid], #password[aria-invalid]"), [])
        self.step("a wrong setup code", expected="status of 403")

        # The code as the server printed it.
        self.type_into("setupCode", SETUP_CODE)
        self.type_into("password", OWNER_PASSWORD)
        self.type_into("confirm", OWNER_PASSWORD)
        button = d.find_element(By.CSS_SELECTOR, "[data-account-form] button[type=submit]")
        self.assertTrue(button.is_enabled())
        button.click()
        wait(lambda: "/login" in d.current_url, 15, "the sign-in page after the owner was made")
        self.assertEqual(self.field("handle").get_attribute("value"), "ana.home.test")
        self.step("the owner made")
        self.sign_in_with("ana.home.test", OWNER_PASSWORD)
        who = wait(lambda: d.current_url.rstrip("/") == BASE and d.find_elements(By.CSS_SELECTOR, "[data-signed-in-as]"), 20,
                   "the home page, signed in")
        self.assertEqual(who[0].text, "@ana.home.test")
        self.step("signed in as the owner, on the home page")

        d.get(BASE + "/welcome")
        wait(lambda: d.current_url.rstrip("/") == BASE, 15, "/welcome leading home once the owner exists")
        self.step("no second owner")
        self.assertEqual(self.problems, [], "console errors or CSP violations:\n  " + "\n  ".join(self.problems))

    def test_2_demo_on_the_network_has_no_published_password(self):
        if not DEMO:
            return
        d = self.d
        d.get(DEMO + "/login")
        self.sign_in_with("maya.home.test", "maya-stories")
        error = wait(lambda: d.find_elements(By.ID, "signin-error"), 15, "the published password refused")
        self.assertIn("Wrong username or password", error[0].text)
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "[data-signed-in-as]"), [])
        self.step("the README's password refused on the network", expected="status of 401")
        self.field("password").send_keys(DEMO_PASSWORD)
        d.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name=deny])").click()
        who = wait(lambda: d.find_elements(By.CSS_SELECTOR, "[data-signed-in-as]"), 20, "signed in with the printed password")
        self.assertEqual(who[0].text, "@maya.home.test")
        self.step("the printed password signs in")
        self.assertEqual(self.problems, [], "console errors or CSP violations:\n  " + "\n  ".join(self.problems))


if __name__ == "__main__":
    main("the first run")
