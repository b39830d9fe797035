"""Browser suite: the strip, viewer and kiosk in headless Chromium, driven through stable hooks.

Run by Tests/ServerTests/BrowserSuiteTests.swift against a live demo household (maya 4 stories, jonas 3,
ines 2; every photo shows STORY_MS). Environment: BASE_URL, CONTROL_URL (moves the server clock), WINDOW
("390x844"), DEMO_PHOTOS, STORY_MS; optional SCREENSHOT_DIR and METRICS_FILE.
"""
import json
import os
import statistics
import time
import unittest
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

BASE = os.environ.get("BASE_URL", "http://127.0.0.1:18090").rstrip("/")
CONTROL = os.environ.get("CONTROL_URL", "")
WIDTH, HEIGHT = (int(x) for x in os.environ.get("WINDOW", "390x844").split("x"))
D = int(os.environ.get("STORY_MS", "2000")) / 1000
PHOTOS = os.environ.get("DEMO_PHOTOS", ".build/demo-photos")
SHOTS = os.environ.get("SCREENSHOT_DIR")
METRICS = {}
SIZE = f"{WIDTH}x{HEIGHT}"

STATE_JS = """
const v = document.querySelector('[data-viewer]');
if (!v || !v.isConnected || (v.closest('template'))) return null;
const img = v.querySelector('img[data-story-item]');
const segs = [...v.querySelectorAll('[data-segment]')];
const act = v.querySelector('.segment--active');
return {author: v.dataset.storyAuthor, item: img && img.dataset.storyItem, index: segs.indexOf(act),
        count: segs.length, state: v.dataset.state, progress: act ? Number(act.dataset.progress) : null,
        held: v.dataset.held || null, url: location.pathname};
"""


def browser(js=True, reduced=False):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={WIDTH},{HEIGHT}", "--autoplay-policy=no-user-gesture-required",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding"]:
        options.add_argument(arg)
    if not js:
        options.add_argument("--blink-settings=scriptEnabled=false")
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(WIDTH, HEIGHT)
    if reduced:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    return driver


def wait(predicate, timeout=10.0, message="condition"):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        last = predicate()
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {message} (last: {last!r})")


def control(path):
    urllib.request.urlopen(urllib.request.Request(CONTROL + path, method="POST"), timeout=5).read()


class Base(unittest.TestCase):
    def setUp(self):
        self.drivers = []

    def tearDown(self):
        for d in self.drivers:
            d.quit()

    def open(self, path="/", **kwargs):
        d = browser(**kwargs)
        self.drivers.append(d)
        d.get(BASE + path)
        return d

    def state(self, d):
        return d.execute_script(STATE_JS)

    def strip(self, d):
        return [a.get_attribute("data-story-author") for a in d.find_elements(By.CSS_SELECTOR, "[data-strip] a[data-story-author]")]

    def assert_after_unseen(self, d, did):
        tiles = d.find_elements(By.CSS_SELECTOR, "[data-strip] a[data-story-author]")
        order = [(a.get_attribute("data-story-author"), a.get_attribute("data-seen")) for a in tiles]
        position = [a for a, _ in order].index(did)
        unseen = [i for i, (_, seen) in enumerate(order) if seen == "false"]
        self.assertTrue(all(i < position for i in unseen), f"{did} sorts after every unseen author: {order}")

    def open_author(self, d, did):
        d.find_element(By.CSS_SELECTOR, f'[data-strip] a[data-story-author="{did}"]').click()
        return wait(lambda: (s := self.state(d)) and s["author"] == did and s["state"] in ("playing", "paused") and s,
                    message=f"viewer on {did}")

    def playing(self, d):
        return wait(lambda: (s := self.state(d)) and s["state"] == "playing" and s, message="playing")

    def key(self, d, key):
        ActionChains(d).send_keys(key).perform()

    def click_at(self, d, fx, fy=0.5):
        stage = d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-stage]")
        r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", stage)
        ActionChains(d).move_to_element_with_offset(stage, int(r[2] * (fx - 0.5)), int(r[3] * (fy - 0.5))).click().perform()

    def swipe(self, d, x0, y0, x1, y1):
        stage = d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-stage]")
        r = d.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", stage)
        finger = PointerInput(POINTER_TOUCH, "finger")
        actions = ActionBuilder(d, mouse=finger, duration=30)
        actions.pointer_action.move_to_location(int(r[0] + r[2] * x0), int(r[1] + r[3] * y0))
        actions.pointer_action.pointer_down()
        for i in range(1, 6):
            f = i / 5
            actions.pointer_action.move_to_location(int(r[0] + r[2] * (x0 + (x1 - x0) * f)),
                                                    int(r[1] + r[3] * (y0 + (y1 - y0) * f)))
        actions.pointer_action.pointer_up()
        actions.perform()

    def sign_in(self, d, handle):
        d.get(BASE + "/login")
        d.find_element(By.ID, "handle").send_keys(handle)
        d.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
        wait(lambda: d.find_elements(By.ID, "password"), message="the sign-in page")
        d.find_element(By.ID, "password").send_keys(handle.split(".")[0] + "-stories")
        d.find_element(By.CSS_SELECTOR, "button[type=submit]:not([name=deny])").click()
        wait(lambda: d.current_url.rstrip("/") == BASE, message="back home signed in")

    def post_story(self, d, photo="rocket.jpg"):
        d.get(BASE + "/create")
        d.find_element(By.ID, "photo").send_keys(os.path.abspath(os.path.join(PHOTOS, photo)))
        d.find_element(By.CSS_SELECTOR, "form[data-create-form] button[type=submit]").click()
        wait(lambda: "/story/" in d.current_url, 30, "the posted story")

    def authors(self):
        d = self.open("/")
        dids = self.strip(d)
        counts = {did: len(json.loads(urllib.request.urlopen(f"{BASE}/api/stories/{did}").read())["items"]) for did in dids}
        return dids, counts


class StripAndNoScript(Base):
    def test_01_strip_and_viewer_work_without_javascript(self):
        d = self.open("/", js=False)
        links = d.find_elements(By.CSS_SELECTOR, "a[data-story-author]")
        self.assertGreaterEqual(len(links), 3)
        self.assertRegex(links[0].get_attribute("aria-label"), r", new$")
        links[0].click()
        self.assertRegex(d.current_url, r"/profile/did:[^/]+/story/[a-z0-9]+")
        img = d.find_element(By.CSS_SELECTOR, "img[data-story-item]")
        self.assertIn("Photo by", img.get_attribute("alt"))
        for hook in ["nav-next", "nav-previous", "nav-close"]:
            self.assertTrue(d.find_element(By.CSS_SELECTOR, f"a[data-{hook}]").get_attribute("href"))
        first = img.get_attribute("data-story-item")
        d.find_element(By.CSS_SELECTOR, "a[data-nav-next]").click()
        self.assertNotEqual(d.find_element(By.CSS_SELECTOR, "img[data-story-item]").get_attribute("data-story-item"), first)
        self.assertIn("Story 2 of", d.find_element(By.CSS_SELECTOR, "[data-position]").text)

    def test_02_signed_in_seen_state_recorded_without_javascript(self):
        d = self.open("/", js=False)
        self.sign_in(d, "ines.home.test")
        d.get(BASE + "/")
        maya = self.strip(d)[0]
        n = len(json.loads(urllib.request.urlopen(f"{BASE}/api/stories/{maya}").read())["items"])
        d.find_element(By.CSS_SELECTOR, f'a[data-story-author="{maya}"]').click()
        for _ in range(n - 1):
            d.find_element(By.CSS_SELECTOR, "a[data-nav-next]").click()
        d.get(BASE + "/")
        tile = d.find_element(By.CSS_SELECTOR, f'a[data-story-author="{maya}"]')
        self.assertEqual(tile.get_attribute("data-seen"), "true")
        self.assert_after_unseen(d, maya)
        self.assertRegex(tile.get_attribute("aria-label"), r", seen$")

    def test_03_create_form_posts_without_javascript(self):
        d = self.open("/", js=False)
        self.sign_in(d, "jonas.home.test")
        self.post_story(d, "chelsea.png")
        self.assertTrue(d.find_element(By.CSS_SELECTOR, "img[data-story-item]").get_attribute("data-story-item"))


class CreatePlaces(Base):
    REYKJAVIK = "3413829"

    def wait_for_places(self, d):
        # The first search maps the place table; in a debug build that can outlast the page deadline once.
        def found():
            d.get(BASE + "/create?place=reykjavik")
            return d.find_elements(By.CSS_SELECTOR, f'input[name=placeID][value="{self.REYKJAVIK}"]')
        wait(found, 90, "the place table to load")

    def post_with_place(self, d):
        d.find_element(By.CSS_SELECTOR, f'input[name=placeID][value="{self.REYKJAVIK}"]').click()
        d.find_element(By.CSS_SELECTOR, "form[data-create-form] button[type=submit]").click()
        try:
            wait(lambda: "/story/" in d.current_url, 30, "the posted story")
        except AssertionError:
            raise AssertionError(f"not posted: {d.current_url} {d.find_element(By.TAG_NAME, 'main').text[:400]!r}")
        place = d.find_element(By.CSS_SELECTOR, "[data-place]").get_attribute("textContent")
        self.assertIn("Reykjavík", place)

    def test_05_place_search_without_javascript(self):
        d = self.open("/", js=False)
        self.sign_in(d, "jonas.home.test")
        self.wait_for_places(d)
        d.get(BASE + "/create")
        d.find_element(By.ID, "place-query").send_keys("reykjav")
        d.find_element(By.CSS_SELECTOR, "input[type=submit][form=place-search]").click()
        wait(lambda: "place=reykjav" in d.current_url, 10, "the results step")
        self.assertEqual(d.find_element(By.ID, "place-query").get_attribute("value"), "reykjav")
        d.find_element(By.ID, "photo").send_keys(os.path.abspath(os.path.join(PHOTOS, "rocket.jpg")))
        self.post_with_place(d)

    def test_06_place_search_as_you_type_keeps_the_photo(self):
        d = self.open("/")
        self.sign_in(d, "ines.home.test")
        self.wait_for_places(d)
        d.get(BASE + "/create")
        self.assertEqual(d.find_element(By.ID, "camera").get_attribute("capture"), "environment")
        d.find_element(By.ID, "photo").send_keys(os.path.abspath(os.path.join(PHOTOS, "rocket.jpg")))
        d.find_element(By.ID, "place-query").send_keys("reykjav")
        selector = f'[data-place-results] input[name=placeID][value="{self.REYKJAVIK}"]'
        wait(lambda: d.find_elements(By.CSS_SELECTOR, selector), 15, "results as you type")
        d.find_element(By.ID, "place-query").send_keys(Keys.ENTER)  # searches (its own form), does not post
        time.sleep(0.5)
        self.assertTrue(d.current_url.endswith("/create"), "the page did not reload")
        self.assertTrue(d.find_element(By.ID, "photo").get_attribute("value"), "the chosen photo is still there")
        self.post_with_place(d)


class Viewer(Base):
    def test_10_progress_segments_and_auto_advance(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        a = dids[0]
        s = self.open_author(d, a)
        self.assertEqual(s["count"], counts[a])
        self.assertEqual(d.find_element(By.CSS_SELECTOR, "[data-viewer]").get_attribute("role"), "dialog")
        s = self.playing(d)
        start = time.time()
        samples = []
        while time.time() - start < D * 0.7:
            samples.append(self.state(d)["progress"])
            time.sleep(0.15)
        self.assertTrue(all(b > a_ for a_, b in zip(samples, samples[1:])), f"progress grows: {samples}")
        wait(lambda: self.state(d)["index"] == 1, D * 2, "the second story")
        elapsed = time.time() - start
        self.assertGreater(elapsed, D * 0.8 - 0.3)
        self.assertLess(elapsed, D * 1.2 + 0.5)
        segments = d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")
        self.assertEqual(segments[0].get_attribute("class"), "segment segment--done")
        self.assertEqual(segments[1].get_attribute("aria-label"), f"Story 2 of {counts[a]}")

    def test_11_timer_waits_for_the_photo(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        d.execute_cdp_cmd("Network.emulateNetworkConditions",
                          {"offline": False, "latency": 4000, "downloadThroughput": 2_000_000, "uploadThroughput": 2_000_000})
        self.key(d, Keys.SHIFT + Keys.ARROW_RIGHT)  # next author: their first photo may be preloaded
        wait(lambda: self.state(d)["author"] == dids[1], 15, "the next author")
        last = counts[dids[1]] - 1
        d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")[last].click()
        s = wait(lambda: (s := self.state(d)) and s["index"] == last and s, 5, "the last segment")
        time.sleep(1.5)
        s = self.state(d)
        self.assertEqual(s["state"], "loading")
        self.assertEqual(s["progress"], 0)
        self.assertEqual(s["index"], last)
        self.assertEqual(d.find_element(By.CSS_SELECTOR, ".viewer__spinner").value_of_css_property("opacity"), "1")
        d.execute_cdp_cmd("Network.emulateNetworkConditions",
                          {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        wait(lambda: self.state(d)["state"] == "playing", 15, "playing once loaded")

    def test_12_tap_zones_and_header_controls(self):
        dids, _ = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        self.click_at(d, 0.8)
        wait(lambda: self.state(d)["index"] == 1, 3, "forward on the right")
        self.click_at(d, 0.1)
        wait(lambda: self.state(d)["index"] == 0, 3, "back on the left third")
        self.click_at(d, 0.45)
        wait(lambda: self.state(d)["index"] == 1, 3, "forward in the middle")
        d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-pause]").click()
        self.assertEqual(self.state(d)["index"], 1)
        self.assertEqual(self.state(d)["state"], "paused")

    def test_13_hold_pauses_and_release_resumes_without_navigating(self):
        dids, _ = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        self.playing(d)
        stage = d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-stage]")
        w = stage.size["width"]
        ActionChains(d).move_to_element_with_offset(stage, int(w * 0.3), 0).click_and_hold().perform()
        time.sleep(0.5)
        s1 = self.state(d)
        time.sleep(0.4)
        s2 = self.state(d)
        self.assertEqual(s1["state"], "paused")
        self.assertEqual(s1["held"], "true")
        self.assertEqual(s1["progress"], s2["progress"])
        self.assertEqual(d.find_element(By.CSS_SELECTOR, "[data-viewer] .viewer__header").value_of_css_property("opacity"), "0")
        ActionChains(d).release().perform()
        s3 = self.playing(d)
        self.assertEqual(s3["index"], s1["index"])
        time.sleep(0.3)
        self.assertGreater(self.state(d)["progress"], s2["progress"])

    def test_14_pause_button_and_space(self):
        dids, _ = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        button = d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-pause]")
        self.assertTrue(button.is_displayed())
        button.click()
        self.assertEqual(button.get_attribute("aria-pressed"), "true")
        self.assertEqual(button.get_attribute("aria-label"), "Play stories")
        index = self.state(d)["index"]
        time.sleep(D * 1.2 + 0.3)
        self.assertEqual(self.state(d)["index"], index)
        d.execute_script("document.querySelector('[data-viewer]').focus()")
        self.key(d, Keys.SPACE)
        wait(lambda: self.state(d)["state"] == "playing", 2, "Space resumes")
        self.assertEqual(button.get_attribute("aria-pressed"), "false")
        self.key(d, Keys.SPACE)
        wait(lambda: self.state(d)["state"] == "paused", 2, "Space pauses")

    def test_15_keyboard_focus_and_escape(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        link = d.find_element(By.CSS_SELECTOR, f'[data-strip] a[data-story-author="{dids[0]}"]')
        d.execute_script("arguments[0].focus()", link)
        self.key(d, Keys.ENTER)
        wait(lambda: (s := self.state(d)) and s["author"] == dids[0], 5, "opened by keyboard")
        self.assertEqual(d.execute_script("return document.activeElement.getAttribute('role')"), "dialog")
        self.key(d, Keys.ARROW_RIGHT)
        wait(lambda: self.state(d)["index"] == 1, 3, "ArrowRight")
        self.key(d, Keys.ARROW_LEFT)
        wait(lambda: self.state(d)["index"] == 0, 3, "ArrowLeft")
        for _ in range(20):
            self.key(d, Keys.TAB)
            self.assertTrue(d.execute_script("return !!document.activeElement.closest('[role=dialog]')"), "focus stays in the dialog")
        self.key(d, Keys.ESCAPE)
        wait(lambda: self.state(d) is None, 3, "closed")
        self.assertEqual(d.execute_script("return document.activeElement.dataset.storyAuthor"), dids[0])
        self.assertEqual(d.execute_script("return location.pathname"), "/")

    def test_16_seen_resume_and_order_for_an_anonymous_visitor(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        a = dids[0]
        self.open_author(d, a)
        self.key(d, Keys.ARROW_RIGHT)
        wait(lambda: self.state(d)["index"] == 1 and self.state(d)["state"] == "playing", 3, "story 2 shown")
        self.key(d, Keys.ESCAPE)
        wait(lambda: self.state(d) is None, 3, "closed")
        s = self.open_author(d, a)
        self.assertEqual(s["index"], 2, "reopening resumes at the first unseen story")
        d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")[0].click()
        wait(lambda: self.state(d)["index"] == 0, 3, "a segment jumps back")
        d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")[counts[a] - 1].click()
        wait(lambda: self.state(d)["state"] == "playing" and self.state(d)["index"] == counts[a] - 1, 3, "the last story shown")
        self.key(d, Keys.ESCAPE)
        wait(lambda: self.state(d) is None, 3, "closed")
        self.assert_after_unseen(d, a)
        d.refresh()
        self.assert_after_unseen(d, a)  # this browser's marks survive a reload (localStorage)
        tile = d.find_element(By.CSS_SELECTOR, f'[data-strip] a[data-story-author="{a}"]')
        self.assertEqual(tile.get_attribute("data-seen"), "true")
        self.assertIn("ring--seen", tile.find_element(By.CSS_SELECTOR, ".ring").get_attribute("class"))

    def test_17_seen_on_the_server_for_a_signed_in_account_and_new_story_unseen(self):
        d = self.open("/")
        self.sign_in(d, "jonas.home.test")
        d.get(BASE + "/")
        data = json.loads(urllib.request.urlopen(f"{BASE}/api/stories/maya.home.test").read())
        maya, n = data["author"]["did"], len(data["items"])
        start = self.open_author(d, maya)["index"]
        self.key(d, " ")
        for i in range(start + 1, n):
            self.key(d, Keys.ARROW_RIGHT)
            wait(lambda: self.state(d)["index"] == i and self.state(d)["state"] == "paused", 3, f"story {i + 1}")
        time.sleep(0.3)
        self.key(d, Keys.ESCAPE)
        d.execute_script("localStorage.clear()")
        d.get(BASE + "/")
        tile = d.find_element(By.CSS_SELECTOR, f'[data-strip] a[data-story-author="{maya}"]')
        self.assertEqual(tile.get_attribute("data-seen"), "true", "seen comes from the server")
        self.assert_after_unseen(d, maya)
        poster = self.open("/")
        self.sign_in(poster, "maya.home.test")
        self.post_story(poster, "coffee.png")
        new_item = poster.find_element(By.CSS_SELECTOR, "img[data-story-item]").get_attribute("data-story-item")
        d.get(BASE + "/")
        self.assertEqual(d.find_element(By.CSS_SELECTOR, f'[data-strip] a[data-story-author="{maya}"]').get_attribute("data-seen"), "false")
        order = [(a.get_attribute("data-story-author"), a.get_attribute("data-seen"))
                 for a in d.find_elements(By.CSS_SELECTOR, "[data-strip] a[data-story-author]")]
        position = [a for a, _ in order].index(maya)
        self.assertTrue(all(i > position for i, (_, seen) in enumerate(order) if seen == "true"), f"new again sorts first: {order}")
        s = self.open_author(d, maya)
        self.assertEqual(s["item"], new_item, "opening starts at the new story")

    def test_18_author_flow_swipes_and_close_buttons(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        a, b = dids[0], dids[1]
        self.open_author(d, a)
        d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")[counts[a] - 1].click()
        wait(lambda: self.state(d)["author"] == b, D * 2 + 3, "the next author after the last story")
        self.assertEqual(self.state(d)["index"], 0)
        self.swipe(d, 0.8, 0.5, 0.15, 0.5)
        wait(lambda: self.state(d)["author"] == dids[2], 3, "a left swipe goes to the next author")
        self.swipe(d, 0.15, 0.5, 0.85, 0.5)
        wait(lambda: self.state(d)["author"] == b, 3, "a right swipe goes back an author")
        d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")[0].click()
        wait(lambda: self.state(d)["index"] == 0, 3, "the first story")
        self.key(d, Keys.ARROW_LEFT)
        wait(lambda: self.state(d)["author"] == a and self.state(d)["index"] == counts[a] - 1, 3, "back from a first story: the previous author's last")
        self.assertTrue(d.find_elements(By.CSS_SELECTOR, '[data-viewer] a[aria-label="Close stories"]'))
        self.swipe(d, 0.5, 0.2, 0.5, 0.85)
        wait(lambda: self.state(d) is None, 3, "a swipe down closes")

    def test_19_back_button_closes_and_the_end_returns_home(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        self.assertIn("/story/", d.current_url)
        d.back()
        wait(lambda: self.state(d) is None, 3, "Back closes the viewer")
        self.assertEqual(d.execute_script("return location.pathname"), "/")
        last = dids[-1]
        self.open_author(d, last)
        d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")[counts[last] - 1].click()
        wait(lambda: self.state(d) is None, D * 2 + 3, "closing after the last story of the last author")
        self.assertEqual(d.execute_script("return location.pathname"), "/")

    def test_20_preloads_ahead_but_not_everything(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        self.key(d, " ")
        time.sleep(1.0)
        data = {did: json.loads(urllib.request.urlopen(f"{BASE}/api/stories/{did}").read()) for did in dids}
        fetched = set(d.execute_script("return performance.getEntriesByType('resource').map(e => e.name)"))
        # Image URLs may be relative (the embedded household) or absolute (a remote hatk): compare them resolved.
        url = lambda image: urllib.parse.urljoin(BASE + "/", image)
        self.assertIn(url(data[dids[0]]["items"][1]["image"]), fetched)
        self.assertIn(url(data[dids[1]]["items"][0]["image"]), fetched)
        for item in data[dids[2]]["items"]:
            self.assertNotIn(url(item["image"]), fetched, "the third author's photos are not fetched yet")

    def test_21_hidden_tab_pauses(self):
        dids, _ = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        self.playing(d)
        time.sleep(0.3)
        d.execute_script("Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
                         "document.dispatchEvent(new Event('visibilitychange'))")
        p1 = self.state(d)
        self.assertEqual(p1["state"], "paused")
        time.sleep(D + 0.5)
        p2 = self.state(d)
        self.assertEqual(p2["index"], p1["index"])
        self.assertAlmostEqual(p2["progress"], p1["progress"], delta=0.05)
        d.execute_script("delete document.hidden; document.dispatchEvent(new Event('visibilitychange'))")
        self.playing(d)

    def test_22_reduced_motion_starts_paused_and_moves_by_hand(self):
        d = self.open("/", reduced=True)
        dids = self.strip(d)
        s = self.open_author(d, dids[0])
        self.assertEqual(s["state"], "paused")
        button = d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-pause]")
        self.assertTrue(button.is_displayed())
        self.assertEqual(button.get_attribute("aria-label"), "Play stories")
        time.sleep(D + 0.5)
        self.assertEqual(self.state(d)["index"], 0)
        self.key(d, Keys.ARROW_RIGHT)
        wait(lambda: self.state(d)["index"] == 1, 3, "ArrowRight")
        ok = d.execute_script("const i = document.querySelector('[data-viewer] img[data-story-item]'); const r = i.getBoundingClientRect();"
                              "return i.naturalWidth > 0 && r.width > 0 && r.bottom <= innerHeight + 1 && getComputedStyle(i).transitionDuration")
        self.assertEqual(ok, "0s")

    def test_23_dialog_accessibility(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        v = d.find_element(By.CSS_SELECTOR, "[data-viewer]")
        self.assertEqual(v.get_attribute("aria-modal"), "true")
        self.assertRegex(v.get_attribute("aria-label"), r"^Stories by .+")
        alt = d.find_element(By.CSS_SELECTOR, "[data-viewer] img[data-story-item]").get_attribute("alt")
        self.assertRegex(alt, r"^Photo by .+, (\d+ (hour|minute)s? ago|just now)")
        labels = [s.get_attribute("aria-label") for s in d.find_elements(By.CSS_SELECTOR, "[data-viewer] [data-segment]")]
        self.assertEqual(labels, [f"Story {i + 1} of {counts[dids[0]]}" for i in range(counts[dids[0]])])
        self.assertEqual(d.execute_script("return document.querySelector('[data-page]').inert"), True)

    def test_24_delete_dialog_pauses(self):
        d = self.open("/")
        self.sign_in(d, "ines.home.test")
        d.find_element(By.CSS_SELECTOR, "[data-your-story] summary").click()
        d.find_element(By.CSS_SELECTOR, "a[data-view-your-story]").click()
        self.playing(d)
        d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-delete]").click()
        wait(lambda: self.state(d)["state"] == "paused", 2, "paused under the dialog")
        self.assertTrue(d.find_element(By.CSS_SELECTOR, "[data-delete-dialog]").get_attribute("open") is not None)
        d.find_element(By.CSS_SELECTOR, "[data-delete-cancel]").click()
        self.playing(d)

    def test_25_your_story_tile(self):
        d = self.open("/")
        tile = d.find_element(By.CSS_SELECTOR, "a[data-your-story]")
        self.assertTrue(tile.get_attribute("href").endswith("/create"))
        self.sign_in(d, "maya.home.test")
        d.find_element(By.CSS_SELECTOR, "[data-your-story] summary").click()
        self.assertTrue(d.find_element(By.CSS_SELECTOR, "a[data-add-story]").get_attribute("href").endswith("/create"))
        d.find_element(By.CSS_SELECTOR, "a[data-view-your-story]").click()
        s = wait(lambda: self.state(d), 5, "own stories")
        self.assertNotIn(s["author"], self.strip(d), "one's own tile is not in the strip of others")

    def test_26_profile_ring_opens_the_viewer(self):
        dids, _ = self.authors()
        d = self.drivers[-1]
        d.get(BASE + "/profile/" + dids[1])
        ring = d.find_element(By.CSS_SELECTOR, ".profile a[data-story-author]")
        ring.click()
        wait(lambda: (s := self.state(d)) and s["author"] == dids[1], 5, "the viewer over the profile")
        self.key(d, Keys.ESCAPE)
        wait(lambda: self.state(d) is None, 3, "closed")
        self.assertEqual(d.execute_script("return document.activeElement.dataset.storyAuthor"), dids[1])
        self.assertTrue(d.execute_script("return location.pathname").startswith("/profile/"))

    def test_27_desktop_arrows(self):
        dids, _ = self.authors()
        d = self.drivers[-1]
        self.open_author(d, dids[0])
        arrow = d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-arrow-next]")
        if WIDTH >= 768:
            self.assertTrue(arrow.is_displayed())
            arrow.click()
            wait(lambda: self.state(d)["index"] == 1, 3, "the next arrow")
            d.find_element(By.CSS_SELECTOR, "[data-viewer] [data-arrow-previous]").click()
            wait(lambda: self.state(d)["index"] == 0, 3, "the previous arrow")
        else:
            self.assertFalse(arrow.is_displayed(), "no arrows on a phone")

    def test_28_story_page_deep_link_and_timings(self):
        dids, counts = self.authors()
        d = self.drivers[-1]
        taps, nexts = [], []
        for _ in range(3):
            d.get(BASE + "/")
            d.execute_script("localStorage.clear()")
            d.get(BASE + "/")
            d.execute_script("window.__m = {shown: []};"
                             "document.addEventListener('pointerdown', () => window.__m.tap = performance.now(), true);"
                             "document.addEventListener('keydown', () => window.__m.key = performance.now(), true);"
                             "document.addEventListener('story:shown', e => window.__m.shown.push(e.detail.at), true);")
            self.open_author(d, dids[0])
            wait(lambda: d.execute_script("return window.__m.shown.length") >= 1, 5, "painted")
            m = d.execute_script("return window.__m")
            taps.append(m["shown"][0] - m["tap"])
            self.key(d, " ")
            time.sleep(0.6)  # let preloading finish
            self.key(d, Keys.ARROW_RIGHT)
            wait(lambda: d.execute_script("return window.__m.shown.length") >= 2, 5, "next painted")
            m = d.execute_script("return window.__m")
            nexts.append(m["shown"][1] - m["key"])
        METRICS["tap_to_first_photo_ms"] = round(statistics.median(taps), 1)
        METRICS["next_to_preloaded_photo_ms"] = round(statistics.median(nexts), 1)
        self.assertLess(METRICS["tap_to_first_photo_ms"], 200)
        self.assertLess(METRICS["next_to_preloaded_photo_ms"], 50)
        resources = d.execute_script("return performance.getEntriesByType('resource').map(e => [e.name, e.initiatorType, e.encodedBodySize])")
        js = sum(size for name, kind, size in resources if name.endswith(".js"))
        css = sum(size for name, kind, size in resources if name.endswith(".css"))
        METRICS["viewer_js_bytes"], METRICS["viewer_css_bytes"] = js, css
        self.assertLess(js, 20_000)
        # A story's own URL opens the viewer directly; Close goes home.
        item = d.current_url
        d.get(item)
        s = wait(lambda: self.state(d), 5, "the story page")
        self.assertEqual(s["author"], dids[0])
        self.key(d, Keys.ESCAPE)
        wait(lambda: d.execute_script("return location.pathname") == "/", 5, "closed to home")


class Kiosk(Base):
    def kiosk_state(self, d):
        return d.execute_script("const k = document.querySelector('[data-kiosk]'); const i = k.querySelector('img[data-story-item]');"
                                "return {author: k.dataset.storyAuthor, item: i && i.dataset.storyItem, state: k.dataset.state,"
                                " online: k.dataset.online, wake: k.dataset.wakeLock};")

    def test_40_kiosk_loops_every_author(self):
        dids, counts = self.authors()
        handles = ",".join(json.loads(urllib.request.urlopen(f"{BASE}/api/stories/{did}").read())["author"]["handle"] for did in dids[1:])
        d = self.drivers[-1]
        d.get(f"{BASE}/kiosk?authors={handles}&refresh=2")
        seen = []
        end = time.time() + (counts[dids[1]] + counts[dids[2]] + 1.5) * D + 6
        while time.time() < end:
            a = self.kiosk_state(d)["author"]
            if not seen or seen[-1] != a:
                seen.append(a)
            time.sleep(0.1)
        self.assertEqual(seen[:3], [dids[1], dids[2], dids[1]], "the kiosk wraps around")
        self.assertNotIn(dids[0], seen, "only the listed authors")
        self.assertIn(self.kiosk_state(d)["wake"], ["held", "refused", "unsupported"])
        caption = d.find_element(By.CSS_SELECTOR, "[data-kiosk-caption]").text
        self.assertRegex(caption, r"\d+[mh]|now")
        self.key(d, Keys.SPACE)
        wait(lambda: self.kiosk_state(d)["state"] == "paused", 2, "Space pauses")
        item = self.kiosk_state(d)["item"]
        time.sleep(D * 1.5)
        self.assertEqual(self.kiosk_state(d)["item"], item)

    def test_41_kiosk_empty_offline_and_no_script(self):
        d = self.open("/kiosk?authors=nobody.example&refresh=2")
        wait(lambda: self.kiosk_state(d)["state"] == "empty", 5, "empty state")
        self.assertIn("No stories right now", d.find_element(By.CSS_SELECTOR, "[data-kiosk-empty]").text)
        d.get(BASE + "/kiosk?refresh=2")
        wait(lambda: self.kiosk_state(d)["state"] == "playing", 5, "playing")
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        wait(lambda: self.kiosk_state(d)["online"] == "false", 8, "noticing the network is gone")
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        wait(lambda: self.kiosk_state(d)["online"] == "true", 15, "coming back by itself")
        n = self.open("/kiosk", js=False)
        refresh = n.find_element(By.CSS_SELECTOR, "meta[http-equiv=refresh]").get_attribute("content")
        self.assertRegex(refresh, r"^\d+;url=/kiosk\?i=1")

    def test_49_kiosk_takes_new_stories_and_drops_expired_ones(self):
        d = self.open("/kiosk?refresh=2")
        wait(lambda: self.kiosk_state(d)["state"] == "playing", 5, "playing")
        slides = lambda: d.execute_script("return fetch('/api/kiosk').then(r => r.json())")["slides"]
        playlist = lambda: [s["item"]["uri"] for s in slides()]
        shown = lambda: self.kiosk_state(d)["item"]
        before = playlist()
        poster = self.open("/")
        self.sign_in(poster, "ines.home.test")
        self.post_story(poster, "camera.png")
        new_item = poster.find_element(By.CSS_SELECTOR, "img[data-story-item]").get_attribute("data-story-item")
        seen = set()
        wait(lambda: seen.add(shown()) or new_item in seen, len(before) * D + 10, "the new story in the loop")
        # Move the server clock so maya's oldest story (22.5 h) passes 24 h.
        oldest = min(slides(), key=lambda s: s["item"]["createdAt"])["item"]["uri"]
        control("/advance?hours=2")
        try:
            time.sleep(2.5)
            seen = set()
            end = time.time() + (len(before) + 1) * D + 2
            while time.time() < end:
                seen.add(shown())
                time.sleep(0.1)
            self.assertNotIn(oldest, seen, "an expired story leaves the loop")
            self.assertNotIn(oldest, playlist())
        finally:
            control("/advance?hours=-2")


class Screens(Base):
    def test_90_screenshots(self):
        if not SHOTS:
            return
        os.makedirs(SHOTS, exist_ok=True)
        d = self.open("/")
        d.save_screenshot(os.path.join(SHOTS, f"strip-{SIZE}.png"))
        self.open_author(d, self.strip(d)[0])
        self.key(d, " ")
        d.save_screenshot(os.path.join(SHOTS, f"viewer-{SIZE}.png"))
        self.sign_in(d, "maya.home.test")
        d.get(BASE + "/create")
        d.save_screenshot(os.path.join(SHOTS, f"create-{SIZE}.png"))
        d.get(BASE + "/kiosk")
        wait(lambda: d.execute_script("return document.querySelector('[data-kiosk]').dataset.state") == "playing", 5, "kiosk")
        time.sleep(0.8)
        d.save_screenshot(os.path.join(SHOTS, f"kiosk-{SIZE}.png"))


if __name__ == "__main__":
    program = unittest.main(exit=False, verbosity=2)
    for name, value in sorted(METRICS.items()):
        print(f"METRIC {SIZE} {name} {value}")
    if os.environ.get("METRICS_FILE"):
        with open(os.environ["METRICS_FILE"], "a") as f:
            f.write(json.dumps({"size": SIZE, **METRICS}) + "\n")
    raise SystemExit(0 if program.result.wasSuccessful() else 1)
