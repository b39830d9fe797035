// The story viewer. Pages work without it (every story has its own URL and links); this turns the strip into a
// dialog viewer and the story page into an app: timed progress, taps, holds, swipes, keys, seen marks, preloading.
// A clip plays in a <video> over its poster: its bar follows the clip's own time and it moves on when the clip ends.
(() => {
  "use strict";
  const $ = (root, hook) => root.querySelector(`[data-${hook}]`);
  const page = $(document, "page");
  const embedded = document.getElementById("viewer-data");
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const HOLD_MS = 200;

  // Clips start muted, as browsers require; a person's Sound choice holds for the rest of the visit.
  const soundKey = "grain-stories:sound";
  let soundOn = (() => { try { return sessionStorage.getItem(soundKey) === "on"; } catch { return false; } })();

  // A clip no longer current gives its memory and its decoder back.
  function letGo(video) {
    if (!video) return;
    video.pause();
    video.removeAttribute("src");
    video.load();
    video.remove();
  }

  // Seen marks: on the server for a signed-in visitor, in this browser for everyone else.
  const seenKey = "grain-stories:seen";
  const local = (() => {
    try { return JSON.parse(localStorage.getItem(seenKey)) || { uris: {}, authors: {} }; }
    catch { return { uris: {}, authors: {} }; }
  })();
  function saveLocal() {
    const horizon = Date.now() - 2 * 864e5;
    for (const [k, t] of Object.entries(local.uris)) if (t < horizon) delete local.uris[k];
    for (const [k, t] of Object.entries(local.authors)) if (t < horizon) delete local.authors[k];
    try { localStorage.setItem(seenKey, JSON.stringify(local)); } catch { /* private mode */ }
  }
  const authorSeenLocally = (did, latestAt) => (local.authors[did] || 0) >= Date.parse(latestAt);

  // A signed-in visitor's marks wait on the server and go up in batches; when the page hides (a tab switch, the
  // phone locked, or leaving after the viewer closed) the batch goes now. The token is the page's own, on <body>,
  // since the viewer that made the marks may be gone. The last mark rides along, in case its own request is slower.
  let unflushed = "";
  function flushSeen() {
    const csrf = document.body.dataset.csrf;
    if (!unflushed || !csrf) return;
    navigator.sendBeacon("/api/seen", new URLSearchParams({ uri: unflushed, flush: "1", csrf }));
    unflushed = "";
  }
  document.addEventListener("visibilitychange", () => { if (document.hidden) flushSeen(); });
  addEventListener("pagehide", flushSeen);

  // The strip: apply this browser's seen marks, then put authors with something new first.
  function sortStrip() {
    const list = $(document, "strip");
    if (!list) return;
    const items = [...list.querySelectorAll("[data-strip-item]")];
    for (const li of items) {
      const a = $(li, "story-author");
      const seen = a.dataset.seen === "true" || authorSeenLocally(a.dataset.storyAuthor, a.dataset.latestAt);
      a.dataset.seen = String(seen);
      a.querySelector(".ring").classList.toggle("ring--seen", seen);
      $(a, "seen-text").textContent = seen ? "seen" : "new story";
      a.setAttribute("aria-label", a.getAttribute("aria-label").replace(/, (new|seen)$/, seen ? ", seen" : ", new"));
    }
    const fresh = items.filter((li) => $(li, "story-author").dataset.seen !== "true");
    for (const li of fresh.concat(items.filter((li) => !fresh.includes(li)))) list.appendChild(li);
  }

  // Each author's stories, fetched once per page view (a press on a tile starts the fetch early).
  const cache = new Map();
  function storiesOf(did, from) {
    if (!cache.has(did)) {
      const query = from ? `?from=${encodeURIComponent(from)}` : "";
      cache.set(did, fetch(`/api/stories/${encodeURIComponent(did)}${query}`, { credentials: "same-origin" })
        .then((r) => (r.ok ? r.json() : null)).catch(() => null));
    }
    return cache.get(did);
  }

  // One viewer at a time, on a story page (`embedded`) or over the strip or a profile.
  let v = null;

  function createViewer(root, settings) {
    const el = (hook) => $(root, hook);
    const state = {
      root, settings, authors: settings.authors, authorIndex: 0, items: [], index: 0,
      elapsed: 0, last: null, loaded: false, userPaused: reducedMotion, held: false, closed: false, token: 0,
      preloaded: new Map(),
      // The clip playing now (a <video> in the stage), the next ones loading ahead (by story URI, never in the
      // page and never playing), and the clips this browser could not play, shown as photos instead.
      clip: null, clips: new Map(), failed: new Set(), buffering: false, starting: false, ready: null,
    };
    const photoSlot = el("stage");
    const fill = el("photo-fill");
    // Only a scripted viewer waits for its photo, and on phones its gestures replace the text links (app.css).
    root.classList.add("viewer--scripted");
    // The fill follows the photo, also when Show swaps in the real one.
    photoSlot.addEventListener("load", (e) => { if (e.target.matches("img[data-story-item]")) fill.src = e.target.currentSrc; }, true);
    const pauseButton = el("pause");
    const soundButton = el("sound");
    const playClip = el("play-clip");
    const duration = Number(root.dataset.duration) || 5000;
    // Open dialogs and menus hold playback; so does a story behind its warning.
    const dialogOpen = () => !!root.querySelector("dialog[open], details[open]");
    const wanted = () => !state.userPaused && !state.held && !document.hidden && !dialogOpen() && root.dataset.warned !== "true";
    // A clip paused by the person shows as paused even before it has data (a phone may load nothing until play);
    // one that is playing but waiting for data shows as loading, its bar still.
    const stateName = () => {
      if (state.clip && state.userPaused) return "paused";
      if (!state.loaded) return "loading";
      if (!wanted()) return "paused";
      return state.clip && state.buffering ? "loading" : "playing";
    };

    function setState() {
      root.dataset.state = stateName();
      pauseButton.hidden = false;
      pauseButton.setAttribute("aria-pressed", String(state.userPaused));
      pauseButton.setAttribute("aria-label", state.userPaused ? "Play stories" : "Pause stories");
      pauseButton.firstElementChild.textContent = state.userPaused ? "▶" : "❚❚";
      root.dataset.media = state.clip ? "video" : "photo";
      if (soundButton) {
        soundButton.hidden = !state.clip;
        soundButton.setAttribute("aria-pressed", String(state.clip ? !state.clip.muted : soundOn));
      }
      if (playClip) playClip.hidden = !(state.clip && state.userPaused);
    }

    // How far the current story is: a clip by its own clock, a photo by the time it has shown.
    function fraction() {
      const v = state.clip;
      if (!v) return Math.min(1, state.elapsed / duration);
      if (v.ended) return 1;
      const item = state.items[state.index];
      const length = Number.isFinite(v.duration) && v.duration > 0 ? v.duration : (item && item.durationMs || duration) / 1000;
      return Math.min(1, v.currentTime / length);
    }

    function render() {
      const p = fraction();
      const active = root.querySelector(".segment--active");
      if (!active) return;
      active.firstElementChild.style.setProperty("--p", p.toFixed(4));
      active.dataset.progress = p.toFixed(3);
    }

    let was = null;
    function frame(now) {
      if (state.closed) return;
      revealClip();
      syncClip();
      const name = stateName();
      if (name !== was) { was = name; setState(); }
      if (state.clip) {
        // The clip's own time drives its bar, and its end (an event) moves on.
        state.last = null;
        render();
      } else if (name === "playing") {
        if (state.last !== null) state.elapsed += now - state.last;
        state.last = now;
        render();
        if (state.elapsed >= duration) next();
      } else state.last = null;
      requestAnimationFrame(frame);
    }

    // Plays the clip when nothing holds it, pauses it when something does.
    function syncClip() {
      const v = state.clip;
      if (!v) return;
      if (wanted()) { if (v.paused && !v.ended && !state.starting) start(v); }
      else if (!v.paused) v.pause();
    }

    // play(), as the browser allows: with sound if chosen, else muted; where even that is refused, paused with the
    // play button showing (a person's tap then starts it).
    function start(v) {
      state.starting = true;
      const attempt = () => {
        const p = v.play();
        return p && typeof p.then === "function" ? p : Promise.resolve();
      };
      const done = () => { if (v === state.clip) state.starting = false; setState(); };
      const refused = (err) => {
        if (v !== state.clip) return;
        state.starting = false;
        if (err && err.name === "AbortError") return; // paused or moved on before it started
        if (err && err.name === "NotAllowedError" && !v.muted) {
          v.muted = true; // sound refused without a tap: muted, and the Sound button says so
          state.starting = true;
          attempt().then(done, refused);
        } else if (err && err.name === "NotAllowedError") {
          state.userPaused = true;
          state.last = null;
        } else failClip(v);
        setState();
      };
      attempt().then(done, refused);
    }

    // A clip this browser cannot play: its poster shows for a photo's time instead.
    function failClip(v) {
      if (v !== state.clip) return;
      const item = state.items[state.index];
      if (item) state.failed.add(item.uri);
      state.clip = null;
      letGo(v);
      state.elapsed = 0;
      state.last = null;
      const img = photoSlot.querySelector("img[data-story-item]");
      img.hidden = false;
      if (state.ready) photoReady(img, state.ready);
      setState();
    }

    // A warned clip plays only after Show (its photo came first, blurred).
    function revealClip() {
      const item = state.items[state.index];
      if (state.clip || !item || !item.video || root.dataset.warned === "true" || state.failed.has(item.uri)) return;
      const img = photoSlot.querySelector("img[data-story-item]");
      if (!img || img.dataset.storyItem !== item.uri) return;
      state.loaded = false;
      if (attachClip(item, img) && state.clip.readyState >= 2 && state.ready) state.ready();
    }

    // Puts `item`'s clip in the stage over its poster (the <img>), or takes any clip away for a photo. The clip is
    // the one the page came with, one loaded ahead, or a new one.
    function attachClip(item, img) {
      const old = photoSlot.querySelector("video.viewer__video");
      const want = !!item.video && root.dataset.warned !== "true" && !state.failed.has(item.uri);
      let v = null;
      if (old && want && old.dataset.storyVideo === item.uri) v = old;
      else letGo(old);
      state.clip = null;
      state.buffering = false;
      state.starting = false;
      if (!want) return null;
      if (!v) v = state.clips.get(item.uri) || clipOf(item, "auto");
      state.clips.delete(item.uri);
      v.controls = false;
      v.removeAttribute("controls");
      v.preload = "auto";
      v.muted = !soundOn;
      v.setAttribute("aria-label", img.alt);
      if (v.currentTime > 0) v.currentTime = 0;
      if (!v.isConnected) img.after(v);
      state.clip = v;
      return v;
    }

    // A <video> for `item`, loading as much as `preload` says; it joins the page only when its story shows.
    function clipOf(item, preload) {
      const v = document.createElement("video");
      v.className = "viewer__video";
      v.muted = true;
      v.playsInline = true;
      v.setAttribute("playsinline", "");
      v.preload = preload;
      v.width = item.width;
      v.height = item.height;
      v.poster = item.reveal || item.image;
      v.dataset.storyVideo = item.uri;
      v.src = item.video;
      return v;
    }

    // The next story's clip loads now, the one after only its metadata; every other clip is let go. A warned clip
    // is never fetched before Show.
    function preloadClips() {
      const keep = new Map();
      [[state.index + 1, "auto"], [state.index + 2, "metadata"]].forEach(([i, mode]) => {
        const item = state.items[i];
        if (!item || !item.video || item.warning || state.failed.has(item.uri)) return;
        const v = state.clips.get(item.uri) || clipOf(item, mode);
        if (mode === "auto") v.preload = "auto";
        keep.set(item.uri, v);
      });
      for (const [uri, v] of state.clips) if (!keep.has(uri)) letGo(v);
      state.clips = keep;
    }

    // The clip's events reach the stage on their way down (media events do not bubble).
    const onClip = (e) => {
      const v = e.target;
      if (v !== state.clip) return;
      if (e.type === "waiting") state.buffering = true;
      else if (e.type === "playing") state.buffering = false;
      else if (e.type === "ended") { if (!state.closed) next(); return; }
      else if (e.type === "error") { failClip(v); return; }
      if ((e.type === "loadeddata" || e.type === "playing") && !state.loaded && state.ready) state.ready();
    };
    for (const type of ["loadeddata", "playing", "waiting", "ended", "error"]) photoSlot.addEventListener(type, onClip, true);

    // Resolves a photo's wait: at once when it is already decoded, else when it is.
    function photoReady(img, ready) {
      if (img.complete && img.naturalWidth > 0) ready();
      else img.decode().then(ready, () => { if (img.complete) ready(); else img.addEventListener("load", ready, { once: true }); });
    }

    function toggleSound() {
      if (!state.clip) return;
      soundOn = state.clip.muted;
      try { sessionStorage.setItem(soundKey, soundOn ? "on" : "off"); } catch { /* private mode: for this page only */ }
      state.clip.muted = !soundOn;
      setState();
    }

    const authorData = (did) => storiesOf(did, settings.from);

    const isSeen = (item) => item.seen || local.uris[item.uri] !== undefined;
    const startIndex = (data) => { const i = data.items.findIndex((it) => !isSeen(it)); return i < 0 ? 0 : i; };

    function preload(url) {
      if (url && !state.preloaded.has(url)) state.preloaded.set(url, Object.assign(new Image(), { decoding: "async", src: url }));
    }

    function preloadAhead() {
      preloadClips();
      for (const item of state.items.slice(state.index + 1, state.index + 4)) preload(item.image);
      const nextDid = state.authors[state.authorIndex + 1];
      if (nextDid) authorData(nextDid).then((d) => d && d.items.length && preload(d.items[startIndex(d)].image));
    }

    function markSeen(item) {
      if (isSeen(item)) return;
      item.seen = true;
      const created = Date.parse(item.createdAt);
      local.uris[item.uri] = created;
      const did = state.author.did;
      local.authors[did] = Math.max(local.authors[did] || 0, created);
      if (settings.signedIn) {
        const body = new URLSearchParams({ uri: item.uri, csrf: root.dataset.csrf || "" });
        fetch("/api/seen", { method: "POST", body, credentials: "same-origin", keepalive: true }).catch(() => {});
        unflushed = item.uri;
      } else {
        saveLocal();
      }
    }

    function link(hook, href, hidden) {
      const a = el(hook);
      if (!a) return;
      a.href = href || "#";
      if (hidden !== undefined) a.hidden = hidden;
    }

    function segments() {
      el("segments").replaceChildren(...state.items.map((item, i) => {
        const li = document.createElement("li"), a = document.createElement("a"), fill = document.createElement("span");
        li.className = "progress__item";
        a.className = "segment segment--" + (i < state.index ? "done" : i === state.index ? "active" : "todo");
        a.href = item.href;
        a.dataset.segment = i;
        a.setAttribute("aria-label", item.label);
        if (i === state.index) { a.setAttribute("aria-current", "step"); a.dataset.progress = "0"; }
        fill.className = "segment__fill";
        a.append(fill);
        li.append(a);
        return li;
      }));
    }

    // Paints story `index` of the current author; the timer starts once its photo is decoded.
    function show(index, announce) {
      const item = state.items[index];
      Object.assign(state, { index, elapsed: 0, last: null, loaded: false });
      const token = ++state.token;
      const author = item.author || state.author;
      root.dataset.storyAuthor = author.did;
      root.setAttribute("aria-label", `Stories by ${author.name}`);
      el("author-name").textContent = author.name;
      el("author-link").href = author.href;
      const avatar = el("author-avatar");
      if (avatar.dataset.did !== author.did) {
        avatar.dataset.did = author.did;
        avatar.textContent = "";
        const face = author.avatar ? Object.assign(document.createElement("img"), { src: author.avatar, alt: "" })
          : Object.assign(document.createElement("span"), { textContent: author.initial });
        face.className = author.avatar ? "avatar" : "avatar avatar--initial";
        avatar.appendChild(face);
      }
      Object.assign(el("time"), { dateTime: item.createdAt, textContent: item.ago });
      el("place").textContent = item.place || "";
      const caption = el("caption");
      if (caption) {
        caption.textContent = item.caption || "";
        caption.hidden = !item.caption;
      }
      segments();
      const position = el("position");
      position.setAttribute("aria-live", announce ? "polite" : "off");
      position.textContent = `${item.label}, ${author.name}, ${item.ago}${item.expired ? " · this story has expired" : ""}`;
      const prevHref = index > 0 ? state.items[index - 1].href : settings.closeHref;
      const nextHref = index + 1 < state.items.length ? state.items[index + 1].href : settings.closeHref;
      for (const h of ["previous", "arrow-previous", "nav-previous"]) link(h, prevHref);
      for (const h of ["next", "arrow-next", "nav-next"]) link(h, nextHref);
      for (const h of ["close", "nav-close"]) link(h, settings.closeHref);
      link("previous-author", "/stories/" + (state.authors[state.authorIndex - 1] || ""), state.authorIndex < 1);
      link("next-author", "/stories/" + (state.authors[state.authorIndex + 1] || ""), state.authorIndex + 1 >= state.authors.length);
      if (settings.history) history.replaceState({ viewer: true }, "", item.href);

      let img = photoSlot.querySelector("img[data-story-item]");
      if (img.dataset.storyItem !== item.uri || !img.src) {
        const fresh = state.preloaded.get(item.image) || new Image();
        Object.assign(fresh, { className: "viewer__photo", width: item.width, height: item.height, alt: item.alt });
        fresh.dataset.storyItem = item.uri;
        if (!fresh.src) fresh.src = item.image;
        img.replaceWith(fresh);
        img = fresh;
      }
      fill.src = img.src;
      root.dispatchEvent(new CustomEvent("story:change", { detail: { item, author, img } }));
      // After story:change, which says whether the story is behind its warning (a warned clip waits for Show).
      const clip = attachClip(item, img);
      setState();
      render();
      const ready = () => {
        if (token !== state.token || state.closed) return;
        state.loaded = true;
        markSeen(item);
        setState();
        requestAnimationFrame(() => root.dispatchEvent(new CustomEvent("story:shown", { detail: { uri: item.uri, at: performance.now() } })));
      };
      state.ready = ready;
      if (clip) { if (clip.readyState >= 2) ready(); syncClip(); } // else its loadeddata or playing event says so
      else photoReady(img, ready);
      preloadAhead();
    }

    async function openAuthor(i, which) {
      const did = state.authors[i];
      const data = did && (await authorData(did));
      if (state.closed) return;
      const j = which === "last" ? i - 1 : i + 1; // skip authors with nothing to show
      if (!data || !data.items.length) return j >= 0 && j < state.authors.length ? openAuthor(j, which) : close();
      state.authorIndex = i;
      state.author = data.author;
      state.items = data.items;
      show(which === "last" ? data.items.length - 1 : typeof which === "number" ? which : startIndex(data), true);
    }

    function next() {
      if (state.index + 1 < state.items.length) return show(state.index + 1, true);
      if (state.authorIndex + 1 < state.authors.length) return openAuthor(state.authorIndex + 1);
      close();
    }

    function previous() {
      if (state.index > 0) return show(state.index - 1, true);
      if (state.authorIndex > 0) return openAuthor(state.authorIndex - 1, "last");
      show(0, true); // the very first story: start it again
    }

    function nextAuthor() { state.authorIndex + 1 < state.authors.length ? openAuthor(state.authorIndex + 1) : close(); }
    function previousAuthor() { if (state.authorIndex > 0) openAuthor(state.authorIndex - 1); }
    // A tap on Pause, Play, Space or K: the clip starts or stops within the tap, as browsers want for sound.
    function togglePause() { state.userPaused = !state.userPaused; state.last = null; syncClip(); setState(); }

    function close() {
      if (state.closed) return;
      state.closed = true;
      settings.onClose(state);
    }

    // Pointer: a tap acts on release; a hold of 200 ms pauses and hides the chrome until release;
    // a horizontal swipe changes author, a swipe down closes.
    let press = null;
    photoSlot.addEventListener("pointerdown", (e) => {
      if (e.button > 0 || e.target.closest("button")) return;
      press = { x: e.clientX, y: e.clientY, held: false, timer: setTimeout(() => {
        press.held = true; state.held = true; root.dataset.held = "true"; setState();
      }, HOLD_MS) };
    });
    const release = (e, cancelled) => {
      if (!press) return;
      clearTimeout(press.timer);
      const p = press;
      press = null;
      if (p.held) { state.held = false; delete root.dataset.held; state.last = null; setState(); }
      if (cancelled) return;
      const rect = photoSlot.getBoundingClientRect();
      const dx = e.clientX - p.x, dy = e.clientY - p.y;
      if (Math.abs(dx) > Math.max(40, rect.width * 0.2) && Math.abs(dx) > Math.abs(dy)) return dx < 0 ? nextAuthor() : previousAuthor();
      if (dy > Math.max(60, rect.height * 0.2) && dy > Math.abs(dx)) return close();
      if (p.held || Math.abs(dx) > 20 || Math.abs(dy) > 20) return;
      const go = e.clientX - rect.left < rect.width / 3 ? previous : next;
      if (e.pointerType !== "touch") return go();
      // On touch a second tap within 300 ms is a double tap (favourite), so a single tap waits for it.
      if (tap && e.timeStamp - tap.at < 300) {
        clearTimeout(tap.timer); tap = null;
        return root.dispatchEvent(new CustomEvent("story:doubletap", { detail: { x: e.clientX - rect.left, y: e.clientY - rect.top } }));
      }
      tap = { at: e.timeStamp, timer: setTimeout(() => { tap = null; go(); }, 300) };
    };
    let tap = null;
    // Moving more than a little is a swipe, not a hold.
    photoSlot.addEventListener("pointermove", (e) => {
      if (press && !press.held && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 12) clearTimeout(press.timer);
    });
    photoSlot.addEventListener("pointerup", (e) => release(e, false));
    photoSlot.addEventListener("pointercancel", (e) => release(e, true));
    photoSlot.addEventListener("contextmenu", (e) => e.preventDefault());
    // The zones are links for pages without scripts; with it, the pointer handlers above decide.
    photoSlot.addEventListener("click", (e) => { if (e.target.closest("a")) e.preventDefault(); });

    root.addEventListener("click", (e) => {
      const a = e.target.closest("a, button");
      if (!a || !root.contains(a)) return;
      const d = a.dataset;
      const act = (f) => { e.preventDefault(); f(); };
      if (d.segment !== undefined) act(() => show(Number(d.segment), true));
      else if ("arrowPrevious" in d || "navPrevious" in d) act(previous);
      else if ("arrowNext" in d || "navNext" in d) act(next);
      else if ("previousAuthor" in d) act(previousAuthor);
      else if ("nextAuthor" in d) act(nextAuthor);
      else if ("close" in d || "navClose" in d) act(close);
      else if ("pause" in d) act(togglePause);
      else if ("playClip" in d) act(() => { if (state.userPaused) togglePause(); });
      else if ("sound" in d) act(toggleSound);
    });
    // When a dialog closes, focus comes back to the viewer (the frame loop resumes playback).
    root.addEventListener("close", () => root.focus(), true);

    function onKey(e) {
      if (state.closed || dialogOpen()) return;
      const t = e.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      const k = e.key;
      if (k === "ArrowRight") { e.preventDefault(); e.shiftKey ? nextAuthor() : next(); }
      else if (k === "ArrowLeft") { e.preventDefault(); e.shiftKey ? previousAuthor() : previous(); }
      else if (k === "Escape") { e.preventDefault(); close(); }
      else if (k === " " || k === "k") {
        if (k === " " && t && t.tagName === "BUTTON") return; // Space presses a focused button
        e.preventDefault(); togglePause();
      } else if (k === "m" && state.clip) { e.preventDefault(); toggleSound(); }
      else if (k === "Tab") {
        // Focus stays in the dialog.
        const f = [...root.querySelectorAll("a[href]:not([hidden]):not([tabindex='-1']), button:not([hidden]), summary")].filter((n) => n.offsetParent !== null);
        if (!f.length) return;
        const i = f.indexOf(document.activeElement);
        if (e.shiftKey && i <= 0) { e.preventDefault(); f[f.length - 1].focus(); }
        else if (!e.shiftKey && i === f.length - 1) { e.preventDefault(); f[0].focus(); }
        else if (i < 0) { e.preventDefault(); f[0].focus(); }
      }
    }
    document.addEventListener("keydown", onKey);
    const onVisibility = () => { state.last = null; syncClip(); setState(); };
    document.addEventListener("visibilitychange", onVisibility);
    state.detach = () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("visibilitychange", onVisibility);
      letGo(state.clip);
      state.clip = null;
      for (const v of state.clips.values()) letGo(v);
      state.clips.clear();
    };
    state.openAuthor = openAuthor;
    state.show = show;
    state.start = () => { setState(); requestAnimationFrame(frame); };
    return state;
  }

  // A story page: the script takes over the server's markup and data; Close leaves for where we came from.
  if (embedded) {
    const data = JSON.parse(embedded.textContent);
    const root = $(document, "viewer");
    const authors = data.authors.length ? data.authors : [data.author.did];
    const s = createViewer(root, {
      authors, closeHref: data.closeHref, signedIn: data.signedIn, history: true,
      from: data.closeHref === "/" ? "" : data.closeHref,
      onClose: (st) => { st.detach(); location.replace(data.closeHref); },
    });
    cache.set(data.author.did, Promise.resolve({ author: data.author, items: data.items }));
    s.authorIndex = Math.max(0, authors.indexOf(data.author.did));
    s.author = data.author;
    s.items = data.items;
    s.start();
    s.show(data.index, false);
    root.focus();
    v = s;
    return;
  }

  if (!page) return;
  sortStrip();
  const shell = $(document, "viewer-shell");
  if (!shell) return;

  // The page Close returns to, as story links carry it ("" for home).
  const fromHere = () => (location.pathname === "/" && !location.search ? "" : location.pathname + location.search);

  // Over the strip or a profile: a dialog with its own history entry, so Back closes it.
  function openOverlay(did, opener) {
    if (v) return;
    const root = shell.content.firstElementChild.cloneNode(true);
    const layer = document.createElement("div");
    layer.className = "viewer-layer";
    layer.appendChild(root);
    document.body.appendChild(layer);
    page.inert = true;
    document.querySelector(".site-header")?.setAttribute("inert", "");
    const tiles = [...document.querySelectorAll("[data-strip] a[data-story-author]")].map((a) => a.dataset.storyAuthor);
    const authors = tiles.includes(did) ? tiles : [did];
    const here = location.pathname + location.search;
    history.pushState({ viewer: true }, "", location.href);
    const s = createViewer(root, {
      authors, closeHref: here, signedIn: page.dataset.signedIn === "true" || !!root.dataset.csrf, history: true,
      from: fromHere(),
      onClose: () => { if (history.state && history.state.viewer) history.back(); else teardown(); },
    });
    function teardown() {
      s.closed = true;
      s.detach();
      layer.remove();
      page.inert = false;
      document.querySelector(".site-header")?.removeAttribute("inert");
      window.removeEventListener("popstate", onPop);
      v = null;
      sortStrip();
      if (opener) opener.focus();
    }
    function onPop() { teardown(); }
    window.addEventListener("popstate", onPop);
    v = s;
    s.start();
    root.focus();
    s.openAuthor(authors.indexOf(did));
  }

  document.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button > 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest("a[data-story-author], a[data-view-your-story]");
    if (!a || a.closest("[data-viewer]")) return;
    e.preventDefault();
    const details = a.closest("details");
    if (details) details.open = false;
    openOverlay(a.dataset.storyAuthor || a.dataset.viewYourStory, details ? details.querySelector("summary") : a);
  });
  // Warm the first request while the finger is still down.
  document.addEventListener("pointerdown", (e) => {
    const a = e.target.closest && e.target.closest("a[data-story-author]");
    if (a && !v) storiesOf(a.dataset.storyAuthor, fromHere());
  });
})();
