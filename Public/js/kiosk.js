// The kiosk: every active story in a loop, for a screen on the wall. It re-reads the playlist every
// minute, keeps the screen awake where the browser allows, and rides out the server going away.
// It runs on old wall tablets (Safari 12, Android 7-era Chrome 55 to 64): ES2017 syntax only, checked by `make test`
// with acorn --ecma2017 (no optional catch binding, which Chrome parses from 66 on, no object spread, no optional
// chaining, no ??), and every newer API is optional: image decode() (Chrome 64), pointer events (Safari 13), Wake Lock.
// A clip plays muted over its poster and the next story comes when it ends; one <video> at a time, the one before
// let go. A tablet that cannot play it (no H.264, an error, play() refused) shows the poster for a photo's time.
(() => {
  "use strict";
  const root = document.querySelector("[data-kiosk]");
  if (!root) return;
  const $ = (hook) => root.querySelector(`[data-${hook}]`);
  const duration = Number(root.dataset.duration) || 5000;
  const refreshMs = Number(root.dataset.refreshMs) || 60000;
  let slides = [];
  let index = -1;
  let paused = false;
  let timer = null;
  let failures = 0;
  let lock = null;
  let started = false;
  let token = 0; // which show() is current: a refresh may replace the playlist while a photo decodes
  let refreshTimer = null;
  let asleep = false;
  const DAY_MS = 24 * 3600 * 1000;
  const night = parseNight(root.dataset.night);
  const pairing = root.dataset.pair === "true";
  let clip = null; // the clip playing now
  let clipFallback = null; // what it falls back to
  let watchdog = null;
  const failed = new Set(); // clips this tablet could not play: their posters from now on
  const canPlayClips = (() => {
    try {
      const probe = document.createElement("video");
      return typeof probe.canPlayType === "function" && probe.canPlayType('video/mp4; codecs="avc1.640028, mp4a.40.2"') !== "";
    } catch (error) {
      return false;
    }
  })();

  // "22:00-07:00" as minutes after midnight; null when absent or malformed.
  function parseNight(text) {
    const m = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(text || "");
    if (!m) return null;
    const start = Number(m[1]) * 60 + Number(m[2]);
    const end = Number(m[3]) * 60 + Number(m[4]);
    return start === end ? null : { start, end };
  }

  // Whether the tablet's own clock is inside the night, which may run across midnight.
  function isNight(date) {
    if (!night) return false;
    const m = date.getHours() * 60 + date.getMinutes();
    return night.start < night.end ? m >= night.start && m < night.end : m >= night.start || m < night.end;
  }

  // Milliseconds until the night ends (the next time the clock reads its end).
  function untilMorning(date) {
    const end = new Date(date.getTime());
    end.setHours(Math.floor(night.end / 60), night.end % 60, 0, 0);
    if (end.getTime() <= date.getTime()) end.setDate(end.getDate() + 1);
    return end.getTime() - date.getTime();
  }

  // Night: the screen goes dark but for a dim clock, and nothing is fetched until morning, when the page
  // reloads itself (a fresh playlist, and a fresh page for the day).
  function sleep() {
    asleep = true;
    clearTimeout(timer);
    clearTimeout(refreshTimer);
    token += 1;
    releaseClips();
    root.dataset.state = "night";
    const old = root.querySelectorAll("img[data-story-item]");
    for (let i = 0; i < old.length; i++) old[i].remove();
    $("kiosk-backdrop").removeAttribute("src");
    $("kiosk-clock").hidden = false;
    startClock();
    setTimeout(reloadWhenReachable, untilMorning(new Date()));
  }

  // A reload while the server is away would leave the wall on the browser's error page for good: the page
  // is fetched first, and the reload waits until that works.
  function reloadWhenReachable() {
    fetch(location.href, { cache: "no-store" })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        location.reload();
      })
      .catch(() => setTimeout(reloadWhenReachable, Math.min(refreshMs, 60000)));
  }

  let clockTimer = null;
  function startClock() {
    tick();
    if (!clockTimer) clockTimer = setInterval(tick, 10000);
  }

  function tick() {
    const now = new Date();
    const pad = (n) => (n < 10 ? "0" : "") + n;
    $("kiosk-clock").textContent = pad(now.getHours()) + ":" + pad(now.getMinutes());
  }

  // A story past its 24 hours never shows, even while the network is away; memories are old on purpose.
  function stale(slide) {
    return !slide.memory && slide.item.createdAt && Date.now() - Date.parse(slide.item.createdAt) > DAY_MS;
  }

  // Clips never share the screen: one plays at a time.
  const portrait = (slide) => slide && !slide.item.video && slide.item.height > slide.item.width;

  // Whole minutes and hours with `| 0`, not Math.floor: once V8 optimizes this function, Math.floor hands back a
  // boxed double, and turning doubles into text made V8 grow its number-to-string cache from 1.5 KB to 49 KB for
  // the life of the page (the kiosk soak's heap snapshots, BENCHMARKS.md). The ages are far below 2^31.
  function ago(iso) {
    const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
    if (s < 60) return "now";
    if (s < 3600) return `${(s / 60) | 0}m`;
    return `${(s / 3600) | 0}h`;
  }

  function status(text) { $("kiosk-status").textContent = text; }

  function empty() {
    root.dataset.state = "empty";
    root.dataset.storyAuthor = "";
    $("kiosk-empty").hidden = false;
    $("kiosk-caption").hidden = true;
    releaseClips();
    const img = root.querySelector("img[data-story-item]");
    if (img) img.remove();
  }

  // Every <video> of the page stops, gives back its memory and decoder, and leaves (the page's own first one too).
  function releaseClips() {
    clearTimeout(watchdog);
    clip = null;
    clipFallback = null;
    const videos = root.querySelectorAll("video");
    for (let i = 0; i < videos.length; i++) {
      const v = videos[i];
      v.onended = v.onerror = null;
      v.pause();
      v.removeAttribute("src");
      v.load();
      v.remove();
    }
  }

  // play(), where the browser has it as a promise; a refusal (other than a pause cutting it short) falls back.
  function begin(v) {
    let started;
    try {
      started = v.play();
    } catch (error) {
      if (clipFallback) clipFallback();
      return;
    }
    if (started && typeof started.then === "function") {
      started.catch((error) => {
        if (v === clip && !(error && error.name === "AbortError") && clipFallback) clipFallback();
      });
    }
  }

  // A clip that stops moving for ten seconds while it should play (the network gone) gives way to the next story.
  function watch(v) {
    let last = -1;
    let still = 0;
    const look = () => {
      if (v !== clip) return;
      if (!paused && v.currentTime === last) still += 2000;
      else still = 0;
      last = v.currentTime;
      if (still >= 10000) { releaseClips(); advance(); return; }
      watchdog = setTimeout(look, 2000);
    };
    watchdog = setTimeout(look, 2000);
  }

  // The slide's clip over its poster (`img`, already on the screen), muted; the next story comes at its end.
  function playClip(slide, img) {
    const v = document.createElement("video");
    v.className = "kiosk__video";
    v.muted = true;
    v.setAttribute("muted", "");
    v.playsInline = true;
    v.setAttribute("playsinline", "");
    v.preload = "auto";
    v.poster = slide.image;
    v.width = slide.width;
    v.height = slide.height;
    v.setAttribute("aria-label", slide.alt);
    v.dataset.storyVideo = slide.uri;
    clip = v;
    clipFallback = () => {
      if (clip !== v) return;
      failed.add(slide.uri);
      releaseClips();
      root.dataset.media = "photo";
      schedule();
    };
    v.onended = () => { if (clip === v) advance(); };
    v.onerror = clipFallback;
    v.src = slide.video;
    img.parentNode.insertBefore(v, img.nextSibling);
    root.dataset.media = "video";
    if (!paused) begin(v);
    watch(v);
  }


  // Resolves once `img` has loaded (and decoded, where the browser can say so), rejects when it fails. Chrome before
  // 64 has no decode(), and Safari 11.1 to 12 rejects it for some images that did load (WebKit bug 188347), so a
  // refusal falls back to what the load itself said.
  function ready(img) {
    const loaded = () => new Promise((resolve, reject) => {
      const settle = (ok) => {
        img.onload = img.onerror = null;
        if (ok) resolve(); else reject(new Error("photo did not load"));
      };
      if (img.complete && img.src) { settle(img.naturalWidth > 0); return; }
      img.onload = () => settle(true);
      img.onerror = () => settle(false);
    });
    return typeof img.decode === "function" ? img.decode().catch(loaded) : loaded();
  }

  // A slide's photo, not yet on the screen.
  function photo(slide) {
    const img = new Image();
    img.className = "kiosk__photo";
    img.alt = slide.alt;
    img.width = slide.width;
    img.height = slide.height;
    img.dataset.storyItem = slide.uri;
    img.src = slide.image;
    return img;
  }

  function show(i) {
    clearTimeout(timer);
    releaseClips();
    if (isNight(new Date())) { sleep(); return; }
    const live = slides.filter((s) => !stale(s));
    if (!live.length) { empty(); timer = setTimeout(advance, duration); return; }
    index = (i + slides.length) % slides.length;
    while (stale(slides[index])) index = (index + 1) % slides.length;
    const current = slides[index];
    const { item: slide, author } = current;
    // On a landscape screen two portrait stories share it, side by side.
    const partnerIndex = (index + 1) % slides.length;
    const partner = pairing && window.innerWidth > window.innerHeight && slides.length > 1 && partnerIndex !== index
      && portrait(current) && portrait(slides[partnerIndex]) && !stale(slides[partnerIndex]) ? slides[partnerIndex] : null;
    const mine = ++token;
    const img = photo(slide);
    const second = partner ? photo(partner.item) : null;
    const painted = () => {
      if (mine !== token) return;
      const stage = root.querySelector(".kiosk__stage");
      const old = root.querySelectorAll("img[data-story-item]");
      for (let k = 0; k < old.length; k++) old[k].remove();
      if (second) stage.prepend(second);
      stage.prepend(img);
      stage.classList.toggle("kiosk__stage--pair", !!second);
      root.dataset.paired = second ? "true" : "false";
      if (second) index = partnerIndex;
      $("kiosk-backdrop").src = slide.image;
      const memory = $("kiosk-memory");
      memory.textContent = current.memory || "";
      memory.hidden = !current.memory;
      const qr = $("kiosk-qr");
      qr.hidden = !current.qr;
      if (current.qr) {
        // The first slide of a kiosk that started empty brings the code's image (an <img> needs a src to be valid).
        let code = qr.querySelector("img");
        if (!code) {
          code = document.createElement("img");
          code.alt = "QR code of this story's address";
          code.width = 96;
          code.height = 96;
          qr.insertBefore(code, qr.firstChild);
        }
        code.src = current.qr;
      }
      $("kiosk-empty").hidden = true;
      $("kiosk-caption").hidden = false;
      $("kiosk-name").textContent = author.name;
      $("kiosk-place").textContent = slide.place || "";
      const time = $("kiosk-time");
      time.dateTime = slide.createdAt;
      time.textContent = ago(slide.createdAt);
      const avatar = $("kiosk-avatar");
      avatar.textContent = "";
      const face = author.avatar ? Object.assign(new Image(), { src: author.avatar, alt: "" })
        : Object.assign(document.createElement("span"), { textContent: author.initial });
      face.className = author.avatar ? "avatar" : "avatar avatar--initial";
      avatar.appendChild(face);
      root.dataset.storyAuthor = author.did;
      root.dataset.state = paused ? "paused" : "playing";
      const next = slides[(index + 1) % slides.length];
      if (next) new Image().src = next.item.image;
      releaseClips();
      if (slide.video && canPlayClips && !second && !failed.has(slide.uri)) playClip(slide, img);
      else { root.dataset.media = "photo"; schedule(); }
    };
    Promise.all([ready(img), second ? ready(second) : null]).then(painted, () => {
      // The photo did not come: maybe the network is down. Try the next one a little later.
      if (mine !== token) return;
      root.dataset.online = "false";
      timer = setTimeout(advance, Math.min(duration, 2000));
    });
  }

  function schedule() {
    clearTimeout(timer);
    if (!paused && !clip) timer = setTimeout(advance, duration);
  }

  function advance() { show(index + 1); }

  // The playlist: new stories join, expired ones leave; the current story keeps its place when it can.
  async function refresh() {
    if (asleep) return;
    if (isNight(new Date())) { sleep(); return; }
    try {
      const response = await fetch(root.dataset.src, { cache: "no-store" });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      const current = slides[index] && slides[index].item.uri;
      const wasEmpty = !slides.length;
      slides = data.slides;
      index = Math.max(-1, slides.findIndex((s) => s.item.uri === current));
      failures = 0;
      root.dataset.online = "true";
      status("");
      if (!slides.length) empty();
      else if (!started || wasEmpty || index < 0) show(Math.max(index, 0));
      started = true;
    } catch (error) {
      failures += 1;
      root.dataset.online = "false";
      status("Offline — showing what is already here and trying again.");
    }
    if (!asleep) refreshTimer = setTimeout(refresh, failures ? Math.min(refreshMs, 5000 * failures) : refreshMs);
  }

  const pauseButton = $("pause");
  function togglePause() {
    paused = !paused;
    pauseButton.setAttribute("aria-pressed", String(paused));
    pauseButton.setAttribute("aria-label", paused ? "Play" : "Pause");
    pauseButton.firstElementChild.textContent = paused ? "▶" : "❚❚";
    if (slides.length) root.dataset.state = paused ? "paused" : "playing";
    if (clip) { if (paused) clip.pause(); else begin(clip); }
    else if (paused) clearTimeout(timer);
    else schedule();
  }
  pauseButton.hidden = false;
  pauseButton.addEventListener("click", togglePause);
  document.addEventListener("keydown", (e) => {
    if (e.key === " " || e.key === "Enter" || e.key === "k") {
      if (e.target && e.target.tagName === "A") return;
      if (e.target !== pauseButton) { e.preventDefault(); togglePause(); }
    } else if (e.key === "ArrowRight") advance();
    else if (e.key === "ArrowLeft") show(index - 1);
  });

  // The cursor and the controls show while the mouse moves or a finger touches, and hide again after three
  // seconds. Safari before 13 has no pointer events: mouse and touch events stand in.
  let idle = null;
  const stir = () => {
    root.dataset.awake = "true";
    clearTimeout(idle);
    idle = setTimeout(() => delete root.dataset.awake, 3000);
  };
  const stirs = "PointerEvent" in window ? ["pointermove", "pointerdown"] : ["mousemove", "touchstart"];
  for (let i = 0; i < stirs.length; i++) document.addEventListener(stirs[i], stir, { passive: true });

  // Screen Wake Lock: held while visible, taken again when the page comes back (browsers drop it).
  async function wake() {
    if (!("wakeLock" in navigator)) { root.dataset.wakeLock = "unsupported"; return; }
    if (document.hidden || lock) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      root.dataset.wakeLock = "held";
      lock.addEventListener("release", () => { lock = null; root.dataset.wakeLock = "released"; });
    } catch (error) {
      root.dataset.wakeLock = "refused";
    }
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) wake(); });

  // Start with the server's first slide (already in the page) while the playlist loads.
  const first = root.querySelector("img[data-story-item]");
  if (first) {
    slides = [{ item: { uri: first.dataset.storyItem } }];
    index = 0;
    root.dataset.state = "playing";
  }
  if (root.dataset.clock === "true") startClock();
  // A page that runs for weeks starts fresh once a day.
  setTimeout(reloadWhenReachable, DAY_MS);
  if (isNight(new Date())) sleep();
  else { wake(); refresh(); }
})();
