// The kiosk: every active story in a loop, for a screen on the wall. It re-reads the playlist every
// minute, keeps the screen awake where the browser allows, and rides out the server going away.
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

  function ago(iso) {
    const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
    if (s < 60) return "now";
    if (s < 3600) return `${Math.floor(s / 60)}m`;
    return `${Math.floor(s / 3600)}h`;
  }

  function status(text) { $("kiosk-status").textContent = text; }

  function empty() {
    root.dataset.state = "empty";
    root.dataset.storyAuthor = "";
    $("kiosk-empty").hidden = false;
    $("kiosk-caption").hidden = true;
    const img = root.querySelector("img[data-story-item]");
    if (img) img.remove();
  }

  // Shows slide `i` once its photo is ready; a photo that fails is skipped.
  function show(i) {
    clearTimeout(timer);
    if (!slides.length) { empty(); timer = setTimeout(advance, duration); return; }
    index = (i + slides.length) % slides.length;
    const { item: slide, author } = slides[index];
    const mine = ++token;
    const img = new Image();
    img.className = "kiosk__photo";
    img.alt = slide.alt;
    img.width = slide.width;
    img.height = slide.height;
    img.dataset.storyItem = slide.uri;
    img.src = slide.image;
    const painted = () => {
      if (mine !== token) return;
      const old = root.querySelector("img[data-story-item]");
      if (old) old.replaceWith(img); else root.querySelector(".kiosk__stage").prepend(img);
      $("kiosk-backdrop").style.backgroundImage = `url("${slide.image.replace(/"/g, "%22")}")`;
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
      schedule();
    };
    img.decode().then(painted, () => {
      // The photo did not come: maybe the network is down. Try the next one a little later.
      if (mine !== token) return;
      root.dataset.online = "false";
      timer = setTimeout(advance, Math.min(duration, 2000));
    });
  }

  function schedule() {
    clearTimeout(timer);
    if (!paused) timer = setTimeout(advance, duration);
  }

  function advance() { show(index + 1); }

  // The playlist: new stories join, expired ones leave; the current story keeps its place when it can.
  async function refresh() {
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
    } catch {
      failures += 1;
      root.dataset.online = "false";
      status("Offline — showing what is already here and trying again.");
    }
    setTimeout(refresh, failures ? Math.min(refreshMs, 5000 * failures) : refreshMs);
  }

  const pauseButton = $("pause");
  function togglePause() {
    paused = !paused;
    pauseButton.setAttribute("aria-pressed", String(paused));
    pauseButton.setAttribute("aria-label", paused ? "Play" : "Pause");
    pauseButton.firstElementChild.textContent = paused ? "▶" : "❚❚";
    if (slides.length) root.dataset.state = paused ? "paused" : "playing";
    paused ? clearTimeout(timer) : schedule();
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

  // The cursor and the controls show while the mouse moves, and hide again after three seconds.
  let idle = null;
  document.addEventListener("pointermove", () => {
    root.dataset.awake = "true";
    clearTimeout(idle);
    idle = setTimeout(() => delete root.dataset.awake, 3000);
  });

  // Screen Wake Lock: held while visible, taken again when the page comes back (browsers drop it).
  async function wake() {
    if (!("wakeLock" in navigator)) { root.dataset.wakeLock = "unsupported"; return; }
    if (document.hidden || lock) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      root.dataset.wakeLock = "held";
      lock.addEventListener("release", () => { lock = null; root.dataset.wakeLock = "released"; });
    } catch {
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
  wake();
  refresh();
})();
