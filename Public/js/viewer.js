// The viewer's progress bar: the active segment fills over the story's duration once its photo has
// loaded, then the Next link is followed. Every control is a plain link, so the page works without this.
(() => {
  "use strict";
  const viewer = document.querySelector("[data-viewer]");
  if (!viewer) return;
  const photo = viewer.querySelector("[data-story-item]");
  const active = viewer.querySelector(".segment--active");
  const fill = active && active.querySelector(".segment__fill");
  const pauseButton = viewer.querySelector("[data-pause]");
  const link = (name) => viewer.querySelector(`[data-${name}]`);
  const duration = Number(viewer.dataset.duration) || 5000;
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  let elapsed = 0;        // ms of playback so far; time, never frames, drives the bar
  let last = null;        // timestamp of the previous frame while playing
  let loaded = false;
  let userPaused = reducedMotion; // reduced motion: nothing advances by itself
  let done = false;

  const playing = () => loaded && !userPaused && !document.hidden && !done;

  function setState() {
    viewer.dataset.state = !loaded ? "loading" : playing() ? "playing" : "paused";
    if (pauseButton) {
      pauseButton.setAttribute("aria-pressed", String(userPaused));
      pauseButton.setAttribute("aria-label", userPaused ? "Play stories" : "Pause stories");
      pauseButton.firstElementChild.textContent = userPaused ? "▶" : "❚❚";
    }
  }

  function render() {
    const p = Math.min(1, elapsed / duration);
    if (fill) fill.style.setProperty("--p", p.toFixed(4));
    if (active) active.dataset.progress = p.toFixed(3);
  }

  function go(name) {
    const a = link(name);
    if (a) { done = true; window.location.assign(a.href); }
  }

  function frame(now) {
    if (playing()) {
      if (last !== null) elapsed += now - last;
      last = now;
      render();
      if (elapsed >= duration) { go("next"); return; }
    } else {
      last = null;
    }
    requestAnimationFrame(frame);
  }

  function togglePause() { userPaused = !userPaused; last = null; setState(); }

  if (pauseButton) {
    pauseButton.hidden = false;
    pauseButton.addEventListener("click", (e) => { e.preventDefault(); togglePause(); });
  }
  document.addEventListener("visibilitychange", () => { last = null; setState(); });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (e.key === "ArrowRight") { e.preventDefault(); go("next"); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); go("previous"); }
    else if (e.key === "Escape") { e.preventDefault(); go("close"); }
    else if (e.key === " ") { e.preventDefault(); togglePause(); }
  });

  const ready = () => { loaded = true; setState(); };
  if (photo && !(photo.complete && photo.naturalWidth > 0)) {
    photo.addEventListener("load", ready, { once: true });
    photo.addEventListener("error", ready, { once: true });
  } else {
    ready();
  }
  setState();
  render();
  requestAnimationFrame(frame);
})();
