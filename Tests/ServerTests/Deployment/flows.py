"""Deployment suite: a household member's flows in headless Chromium, on the origin one topology serves.

Run by Tests/ServerTests/DeploymentSuiteTests.swift once per topology. Open the strip; sign in (through the
authorization server's own page); post a photo through the create form, its preview decoded; see the new story
in the strip and the viewer, as the poster and as a visitor; see it in the kiosk; delete it; sign out. Every page
fails the run on a console error or a CSP violation, and every link, form and image must stay on the origin the
browser used (or the remote hatk's, for images). With FLOW=origins the household's flow is only what depends on
the origin (the strip, signing in with its cookies, the create form's page, signing out): posting, viewing and
deleting behave the same on every origin, and run in the topologies that name FLOW=full.

Environment:
  BASE_URL         the origin the browser opens (http://10.203.7.2:8080, https://stories.test:8443, ...)
  HANDLE, PASSWORD the member who signs in
  PHOTO            the photo to post
  BROWSER_ARGS     JSON list of extra Chromium flags, such as --host-resolver-rules=...
  BROWSER_HOME     HOME for Chromium, whose $HOME/.pki/nssdb trusts the test's CA
  SECURE           "1": the origin must be a secure context, and cookies __Host- and Secure
  SIGN_IN_ORIGIN   the origin of the page that asks for the password (default BASE_URL)
  IMAGE_ORIGINS    JSON list of other origins images may come from
  FAKE_HATK        the fake hatk: after sign-out its report must show no DPoP failure and a revoked token
  HOSTILE_HOST     host:port to send raw requests with hostile Host and X-Forwarded-* headers to
  OTHER_ORIGIN     another origin that reaches the same server: a browser opening it lands on BASE_URL
  FLOW             "full" (the default) or "origins"
"""
import json
import os
import socket
import sys
import unittest
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from selenium.webdriver.common.by import By  # noqa: E402

from browser import Watched, decoded, main, page_origins, wait  # noqa: E402

BASE = os.environ.get("BASE_URL", "http://127.0.0.1:8080").rstrip("/")
HANDLE = os.environ.get("HANDLE", "ada.home.test")
PASSWORD = os.environ.get("PASSWORD", "")
PHOTO = os.path.abspath(os.environ.get("PHOTO", ".build/demo-photos/rocket.jpg"))
BROWSER_ARGS = json.loads(os.environ.get("BROWSER_ARGS") or "[]")
BROWSER_HOME = os.environ.get("BROWSER_HOME") or None
SECURE = os.environ.get("SECURE") == "1"
SIGN_IN_ORIGIN = os.environ.get("SIGN_IN_ORIGIN", BASE).rstrip("/")
IMAGE_ORIGINS = {BASE, "null"} | set(json.loads(os.environ.get("IMAGE_ORIGINS") or "[]"))
FAKE_HATK = os.environ.get("FAKE_HATK", "").rstrip("/")
HOSTILE_HOST = os.environ.get("HOSTILE_HOST", "")
OTHER_ORIGIN = os.environ.get("OTHER_ORIGIN", "").rstrip("/")
FULL = os.environ.get("FLOW", "full") == "full"
# A household server keeps its stories to the signed-in (`--visibility household`, the default); the front of a remote
# hatk shows what is public on the network.
PRIVATE = os.environ.get("VISIBILITY", "public" if FAKE_HATK else "household") == "household"


class Flows(unittest.TestCase):
    def setUp(self):
        self.browsers = []
        self.problems = []

    def tearDown(self):
        for b in self.browsers:
            for warning in b.warnings:
                print("  note:", warning)
            b.quit()

    def browser(self):
        b = Watched(BROWSER_ARGS, BROWSER_HOME)
        self.browsers.append(b)
        return b

    def step(self, b, where):
        """After each page: collect its console errors and CSP violations, and check where its URLs point (on our
        own pages; a remote authorization server's page is its own business)."""
        d = b.driver
        self.problems += b.problems(where)
        if d.current_url.startswith(BASE + "/"):
            found = page_origins(d)
            for kind in ("links", "forms"):
                for raw, origin in found[kind]:
                    if origin != BASE and not (kind == "forms" and origin == SIGN_IN_ORIGIN):
                        self.problems.append(f"{where}: {kind[:-1]} {raw!r} leads to {origin}, not {BASE}")
            for raw, origin in found["images"]:
                if origin not in IMAGE_ORIGINS:
                    self.problems.append(f"{where}: image {raw!r} comes from {origin}")
        print(f"  ok: {where} ({d.current_url})", flush=True)

    def waiting(self, b, where, predicate, timeout=15, message=None):
        """`wait`, but a timeout also reports what the page logged, which usually says why."""
        try:
            return wait(predicate, timeout, message or where)
        except AssertionError as error:
            logged = b.problems(where)
            url = b.driver.current_url
            text = b.driver.execute_script("return document.body ? document.body.innerText.slice(0, 600) : ''")
            raise AssertionError(f"{error}\n  at {url}\n  page text: {text!r}\n  logged: "
                                 + "\n    ".join(self.problems + logged)) from None

    def assert_clean(self):
        self.assertEqual(self.problems, [], "console errors, CSP violations or foreign URLs:\n  " + "\n  ".join(self.problems))

    # The flows, in order.

    def test_1_household_flows(self):
        member = self.browser()
        d = member.driver

        d.get(BASE + "/")
        if PRIVATE:
            self.waiting(member, "the front door", lambda: d.find_elements(By.CSS_SELECTOR, "[data-front-door]"))
            self.assert_nothing_of_the_household(d)
        else:
            self.waiting(member, "the strip", lambda: d.find_elements(By.CSS_SELECTOR, "[data-strip]"))
        self.assertEqual(d.execute_script("return location.origin"), BASE)
        if SECURE:
            self.assertTrue(d.execute_script("return window.isSecureContext"), f"{BASE} is not a secure context")
        self.step(member, "the front door, to a stranger" if PRIVATE else "open the strip")

        self.sign_in(member)
        if FULL:
            did = self.post_story(member)
            self.see_story(member, did)
            self.delete_story(member, did)
        else:
            self.open_create_form(member)
        self.sign_out(member)
        self.assert_clean()
        if FAKE_HATK:
            self.check_fake_hatk()

    def sign_in(self, member):
        d = member.driver
        d.find_element(By.CSS_SELECTOR, ".site-header a[href$='/login']").click()
        self.waiting(member, "the sign-in form", lambda: d.find_elements(By.ID, "handle"))
        self.step(member, "the sign-in form")
        d.find_element(By.ID, "handle").send_keys(HANDLE)
        d.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
        self.waiting(member, "the authorization page", lambda: d.current_url.startswith(SIGN_IN_ORIGIN + "/")
                     and d.find_elements(By.ID, "password"), message=f"the password page on {SIGN_IN_ORIGIN}")
        self.step(member, "the authorization page")
        d.find_element(By.ID, "password").send_keys(PASSWORD)
        d.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name=deny])").click()
        who = self.waiting(member, "home, signed in", lambda: d.current_url.rstrip("/") == BASE
                           and d.find_elements(By.CSS_SELECTOR, "[data-signed-in-as]"))
        self.assertEqual(who[0].text, "@" + HANDLE)
        cookies = {c["name"]: c for c in d.get_cookies()}
        session = cookies.get("__Host-gs_session" if SECURE else "gs_session")
        self.assertIsNotNone(session, f"no session cookie among {sorted(cookies)}")
        self.assertEqual(session["secure"], SECURE)
        self.assertTrue(session["httpOnly"])
        self.step(member, "home, signed in")

    def open_create_form(self, member):
        d = member.driver
        d.find_element(By.CSS_SELECTOR, ".site-header a[href$='/create']").click()
        self.waiting(member, "the create form", lambda: d.find_elements(By.ID, "photo"))
        self.step(member, "the create form")

    def post_story(self, member):
        d = member.driver
        d.find_element(By.CSS_SELECTOR, ".site-header a[href$='/create']").click()
        self.waiting(member, "the create form", lambda: d.find_elements(By.ID, "photo"))
        note = d.find_element(By.CSS_SELECTOR, "[data-location-note]").text
        d.find_element(By.ID, "photo").send_keys(PHOTO)
        self.waiting(member, "the preview", lambda: decoded(d, "[data-preview]"), message="the preview image decoded")
        # The form asks the server where the photo was taken; let that answer arrive before posting.
        self.waiting(member, "the photo's place", lambda: d.find_element(By.CSS_SELECTOR, "[data-location-note]").text != note)
        self.step(member, "the create form with its preview")
        d.find_element(By.CSS_SELECTOR, "form[data-create-form] button[type=submit]").click()
        self.waiting(member, "the new story", lambda: "/story/" in d.current_url, timeout=60)
        uri = self.waiting(member, "the new story's photo", lambda: decoded(d, "[data-viewer] img[data-story-item]")
                           and d.find_element(By.CSS_SELECTOR, "[data-viewer] img[data-story-item]").get_attribute("data-story-item"))
        self.story_url, self.story_uri = d.current_url, uri
        self.step(member, "the new story in the viewer")
        return uri.removeprefix("at://").split("/")[0]

    def see_story(self, member, did):
        d = member.driver
        d.get(BASE + "/")
        self.waiting(member, "your story", lambda: d.find_elements(By.CSS_SELECTOR, f"[data-view-your-story='{did}']"))
        d.find_element(By.CSS_SELECTOR, "[data-your-story] summary").click()
        d.find_element(By.CSS_SELECTOR, "a[data-view-your-story]").click()
        self.waiting(member, "your story in the viewer", lambda: decoded(d, f"[data-viewer] img[data-story-item='{self.story_uri}']"))
        self.step(member, "your story in the strip and the viewer")

        visitor = self.browser()
        v = visitor.driver
        if PRIVATE:
            # A stranger on the network: the front door, the story's own address sends them to sign in, and its photo
            # is refused. The member's own kiosk shows it.
            photo = d.find_element(By.CSS_SELECTOR, f"[data-viewer] img[data-story-item='{self.story_uri}']").get_attribute("src")
            v.get(BASE + "/")
            self.waiting(visitor, "the front door", lambda: v.find_elements(By.CSS_SELECTOR, "[data-front-door]"))
            self.assert_nothing_of_the_household(v, did)
            v.get(self.story_url)
            self.waiting(visitor, "the story's address asks to sign in", lambda: "/login" in v.current_url)
            # (The sign-in page keeps the address the stranger asked for, to return to it: its DID is theirs.)
            self.assert_nothing_of_the_household(v)
            v.get(photo)
            self.assertEqual(v.execute_script("return document.contentType"), "application/json", f"{photo} is no photo for a stranger")
            self.assertIn("AuthenticationRequired", v.page_source)
            # The refusal this step asked for is logged as a failed load (and Chromium asks a JSON document's origin for
            # /favicon.ico, which no page of ours links); anything else logged still counts.
            self.problems += [p for p in visitor.problems("the photo's address")
                              if not (photo in p and "401" in p) and "/favicon.ico" not in p]
            self.step(visitor, "nothing of the household for a stranger: its front door, the story and the photo")
            visitor, v = member, d
        else:
            v.get(BASE + "/")
            tile = self.waiting(visitor, "the strip of a visitor", lambda: v.find_elements(By.CSS_SELECTOR, f"[data-strip] a[data-story-author='{did}']"))
            self.step(visitor, "the new story in a visitor's strip")
            tile[0].click()
            self.waiting(visitor, "the visitor's viewer", lambda: decoded(v, f"[data-viewer] img[data-story-item='{self.story_uri}']"))
            self.step(visitor, "the new story in a visitor's viewer")

        v.get(BASE + "/kiosk")
        self.waiting(visitor, "the kiosk", lambda: v.execute_script(
            "const k = document.querySelector('[data-kiosk]'), i = k && k.querySelector('img[data-story-item]');"
            "return !!i && i.dataset.storyItem === arguments[0] && i.complete && i.naturalWidth > 0", self.story_uri),
            timeout=30, message="the new story decoded in the kiosk")
        self.step(visitor, "the new story in the kiosk")

    def assert_nothing_of_the_household(self, b, did=None):
        """A stranger's page holds no story, photo or member: no strip, no images, no handle or DID."""
        self.assertEqual(b.find_elements(By.CSS_SELECTOR, "[data-strip], [data-viewer], img"), [], "no strip, viewer or image")
        text = b.page_source
        for canary in [HANDLE, HANDLE.split(".")[0]] + ([did] if did else []):
            self.assertNotIn(canary, text, f"{canary} on a stranger's page")

    def delete_story(self, member, did):
        d = member.driver
        d.get(self.story_url)
        self.waiting(member, "the story page", lambda: decoded(d, "[data-viewer] img[data-story-item]"))
        d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-delete]").click()
        self.waiting(member, "the delete dialog", lambda: d.find_element(By.CSS_SELECTOR, "[data-delete-dialog]").get_attribute("open") is not None)
        d.find_element(By.CSS_SELECTOR, "[data-delete-dialog] button[type=submit]").click()
        self.waiting(member, "home after deleting", lambda: d.execute_script("return location.pathname") == "/"
                     and not d.find_elements(By.CSS_SELECTOR, f"[data-view-your-story='{did}']"))
        self.step(member, "the story deleted")

    def sign_out(self, member):
        d = member.driver
        d.find_element(By.CSS_SELECTOR, ".site-header [data-menu] summary").click()
        d.find_element(By.CSS_SELECTOR, ".site-header form[action$='/logout'] button").click()
        self.waiting(member, "signed out", lambda: d.find_elements(By.CSS_SELECTOR, ".site-header a[href$='/login']"))
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "[data-signed-in-as]"), [])
        d.get(BASE + "/create")
        self.waiting(member, "create asks to sign in", lambda: "/login" in d.current_url)
        self.step(member, "signed out")

    def check_fake_hatk(self):
        report = json.loads(urllib.request.urlopen(FAKE_HATK + "/_fake/report", timeout=5).read())
        print("  fake hatk report:", json.dumps(report))
        self.assertEqual(report["dpop_failures"], [], "hatk would have silently ignored these DPoP proofs")
        self.assertEqual(report["sign_ins"], 1)
        self.assertGreaterEqual(report["revoked"], 1, "signing out revoked no refresh token")

    def test_4_household_passes(self):
        """A household's other ways in, as people use them: a link that shows one story to a friend, a tablet paired
        as the kitchen's screen (until the owner removes it), and a grandparent invited as a guest."""
        if not (PRIVATE and FULL):
            return
        owner = self.browser()
        d = owner.driver
        d.get(BASE + "/")
        self.sign_in(owner)
        did = self.post_story(owner)
        self.share_link(owner)
        self.pair_and_remove_a_screen(owner)
        self.guest_watches(owner, did)
        self.delete_story(owner, did)
        self.assert_clean()

    def share_link(self, owner):
        d = owner.driver
        d.get(self.story_url)
        self.waiting(owner, "the share button", lambda: d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-share-link]").is_displayed())
        d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-share-link]").click()
        self.waiting(owner, "the share links page", lambda: d.find_elements(By.CSS_SELECTOR, "[data-make-share]"))
        d.find_element(By.CSS_SELECTOR, "[data-make-share]").click()
        link = self.waiting(owner, "a share link", lambda: d.find_elements(By.CSS_SELECTOR, "[data-share-url]")
                            and d.find_element(By.CSS_SELECTOR, "[data-share-url]").get_attribute("value"))
        self.assertTrue(link.startswith(BASE + "/s/"), link)
        self.step(owner, "a share link made")
        friend = self.browser()
        f = friend.driver
        f.get(link)
        self.waiting(friend, "the shared story's photo", lambda: decoded(f, "[data-shared-photo]"), message="the shared photo decoded")
        self.assertEqual(f.find_elements(By.CSS_SELECTOR, "[data-strip], [data-viewer]"), [], "one story, nothing else")
        self.step(friend, "a share link opened in a fresh browser")
        f.get(BASE + "/")
        self.waiting(friend, "the front door", lambda: f.find_elements(By.CSS_SELECTOR, "[data-front-door]"))
        self.step(friend, "the front door, to the friend with the link")

    def pair_and_remove_a_screen(self, owner):
        d = owner.driver
        # The screen re-reads its playlist every 5 seconds, so its next request comes soon after the removal.
        d.get(BASE + "/kiosk/settings?refresh=5")
        self.waiting(owner, "the kiosk settings", lambda: d.find_elements(By.ID, "screen-name"))
        d.find_element(By.ID, "screen-name").send_keys("Kitchen")
        d.find_element(By.CSS_SELECTOR, "[data-pair-screen] button[type=submit]").click()
        link = self.waiting(owner, "a pairing link", lambda: d.find_elements(By.CSS_SELECTOR, "[data-pairing-link]")
                            and d.find_element(By.CSS_SELECTOR, "[data-pairing-link]").get_attribute("value"))
        self.waiting(owner, "the pairing QR code", lambda: decoded(d, "[data-pairing-qr]"), message="the pairing QR code decoded")
        self.step(owner, "a pairing link and its QR code")

        screen = self.browser()
        s = screen.driver
        s.get(link)  # what scanning the code does
        self.waiting(screen, "the pairing page", lambda: s.find_elements(By.CSS_SELECTOR, "[data-pair-confirm]"))
        self.step(screen, "the pairing page on the tablet")
        s.find_element(By.CSS_SELECTOR, "[data-pair-confirm]").click()
        self.waiting(screen, "the paired kiosk", lambda: s.execute_script(
            "const k = document.querySelector('[data-kiosk]'), i = k && k.querySelector('img[data-story-item]');"
            "return !!i && i.dataset.storyItem === arguments[0] && i.complete && i.naturalWidth > 0", self.story_uri),
            timeout=30, message="the story decoded on the paired screen")
        self.assertEqual(s.find_elements(By.CSS_SELECTOR, "[data-kiosk-exit]"), [], "a screen has nowhere to exit to")
        self.step(screen, "the kiosk playing on the paired screen")

        d.get(BASE + "/admin")
        self.waiting(owner, "the screen in the admin page", lambda: d.find_elements(By.CSS_SELECTOR, "tr[data-screen='Kitchen']"))
        # Removing asks first: the disclosure says what happens, its button does it.
        d.find_element(By.CSS_SELECTOR, "tr[data-screen='Kitchen'] details summary").click()
        d.find_element(By.CSS_SELECTOR, "tr[data-screen='Kitchen'] button[type=submit]").click()
        self.waiting(owner, "the screen removed", lambda: d.find_elements(By.CSS_SELECTOR, ".notice")
                     and not d.find_elements(By.CSS_SELECTOR, "tr[data-screen='Kitchen']"))
        self.step(owner, "the screen removed")
        self.waiting(screen, "the screen refused at its next request", lambda: "Offline" in s.find_element(By.CSS_SELECTOR, "[data-kiosk-status]").text,
                     timeout=20)
        # The refusals this step waits for are logged as failed loads; anything else logged still counts.
        self.problems += [p for p in screen.problems("the removed screen") if not ("/api/kiosk" in p and "401" in p)]
        s.get(BASE + "/kiosk")
        self.waiting(screen, "the removed screen asks to sign in", lambda: "/login" in s.current_url)
        self.assert_nothing_of_the_household(s)
        self.step(screen, "the removed screen shows nothing")

    def guest_watches(self, owner, did):
        d = owner.driver
        d.get(BASE + "/invite")
        self.waiting(owner, "the invitation form", lambda: d.find_elements(By.CSS_SELECTOR, "input[name=role][value=guest]"))
        d.find_element(By.CSS_SELECTOR, "input[name=role][value=guest]").click()
        d.find_element(By.CSS_SELECTOR, "form[action$='/invite'] button[type=submit]").click()
        link = self.waiting(owner, "a guest's invitation", lambda: d.find_elements(By.CSS_SELECTOR, "[data-invite-role=guest]")
                            and d.find_element(By.CSS_SELECTOR, "input.invite-link").get_attribute("value"))
        self.step(owner, "an invitation for a guest")

        guest = self.browser()
        g = guest.driver
        g.get(link)
        self.waiting(guest, "the join form", lambda: g.find_elements(By.ID, "name"))
        domain = HANDLE.split(".", 1)[1]
        for field, value in [("name", "oma"), ("displayName", "Oma Ana"), ("password", "oma-watches-1"), ("confirm", "oma-watches-1")]:
            g.find_element(By.ID, field).send_keys(value)
        self.step(guest, "the join form for a guest")
        g.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        self.waiting(guest, "the sign-in form", lambda: g.find_elements(By.ID, "handle"))
        self.assertEqual(g.find_element(By.ID, "handle").get_attribute("value"), "oma." + domain)
        g.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
        self.waiting(guest, "the authorization page", lambda: g.find_elements(By.ID, "password"))
        g.find_element(By.ID, "password").send_keys("oma-watches-1")
        g.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name=deny])").click()
        tile = self.waiting(guest, "the guest's strip", lambda: g.find_elements(By.CSS_SELECTOR, f"[data-strip] a[data-story-author='{did}']"))
        self.assertEqual(g.find_elements(By.CSS_SELECTOR, "[data-your-story], .site-header a[href$='/create']"), [],
                         "a guest is offered no posting")
        self.step(guest, "the household's strip, to a guest")
        tile[0].click()
        self.waiting(guest, "the guest's viewer", lambda: decoded(g, f"[data-viewer] img[data-story-item='{self.story_uri}']"))
        self.step(guest, "a story in a guest's viewer")
        g.get(BASE + "/create")
        self.waiting(guest, "the create form refused", lambda: "guest" in g.find_element(By.TAG_NAME, "main").text)
        self.problems += [p for p in guest.problems("the create form, to a guest") if not ("/create" in p and "403" in p)]
        self.step(guest, "the create form refused to a guest")

    def test_2_hostile_host_headers(self):
        if not HOSTILE_HOST:
            return
        host, port = HOSTILE_HOST.rsplit(":", 1)
        hostile_paths = ["/", "/login", "/oauth-client-metadata.json", "/.well-known/oauth-authorization-server"]
        if not FAKE_HATK:
            # The embedded backend's reads answer only our own names too (issue 25, N5).
            hostile_paths.append("/xrpc/social.grain.unspecced.getStoryAuthors")
        for path in hostile_paths:
            for name in ["evil.example", f"evil.example:{port}"]:
                status, raw = raw_get(host, int(port), path, {"Host": name})
                self.assertTrue(400 <= status < 500, f"Host: {name} on {path} answered {status}:\n{raw[:600]}")
                self.assertNotIn("evil.example", raw, f"Host: {name} on {path} came back in the answer:\n{raw[:1200]}")
        # Forwarded headers from an address that is no trusted proxy change nothing.
        forged = {"Host": HOSTILE_HOST, "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https",
                  "X-Forwarded-For": "203.0.113.9"}
        for path in ["/", "/login", "/oauth-client-metadata.json", "/.well-known/oauth-authorization-server"]:
            status, raw = raw_get(host, int(port), path, forged)
            self.assertEqual(status, 200, f"{path} with forged X-Forwarded-* answered {status}:\n{raw[:600]}")
            self.assertNotIn("evil.example", raw, f"X-Forwarded-Host came back on {path}:\n{raw[:1200]}")
            self.assertNotIn(f"https://{HOSTILE_HOST}", raw, f"X-Forwarded-Proto was trusted on {path}:\n{raw[:1200]}")
            self.assertNotIn("Secure", raw.split("\r\n\r\n")[0], f"a Secure cookie over plain http on {path}")
        print(f"  ok: hostile Host and forged X-Forwarded-* headers at {HOSTILE_HOST}", flush=True)

    def test_3_other_names_lead_to_the_canonical_origin(self):
        if not OTHER_ORIGIN:
            return
        b = self.browser()
        b.driver.get(OTHER_ORIGIN + "/kiosk?refresh=30")
        # A household's kiosk then asks a stranger to sign in, on the canonical origin.
        arrived = (lambda: b.driver.current_url.startswith(BASE + "/login?next=")) if PRIVATE else \
            (lambda: b.driver.current_url == BASE + "/kiosk?refresh=30")
        self.waiting(b, "the canonical origin", arrived, message=f"{OTHER_ORIGIN} sending the browser to {BASE}")
        self.step(b, "the canonical origin")
        self.assert_clean()
        print(f"  ok: {OTHER_ORIGIN} leads to {BASE}", flush=True)


def raw_get(host, port, path, headers):
    """One HTTP/1.1 GET exactly as written: (status, the whole answer as text)."""
    lines = [f"GET {path} HTTP/1.1", *(f"{k}: {v}" for k, v in headers.items()), "Connection: close", "", ""]
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall("\r\n".join(lines).encode())
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    raw = b"".join(chunks).decode("utf-8", "replace")
    return int(raw.split(" ", 2)[1]), raw


if __name__ == "__main__":
    main("flows")
