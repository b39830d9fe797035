// The create form, improved: a preview of the chosen or taken photo, its place filled in from the photo's GPS
// (asked of the server with only the start of the file, where EXIF lives), the place search as you type, and an
// upload progress bar. A clip gets a preview and a slider choosing where its story starts, and after the upload
// the server's progress in processing it.
// Without this script the same form posts as it is (a clip's start then comes from the number field).
(() => {
  "use strict";
  const form = document.querySelector("[data-create-form]");
  if (!form) return;
  const input = form.querySelector("#photo");
  // The preview's <img> is made here: the page has none until a photo is chosen (an <img> needs a src to be valid).
  const preview = document.createElement("img");
  preview.className = "create-preview";
  preview.alt = "Preview of the chosen photo";
  preview.hidden = true;
  preview.dataset.preview = "";
  form.querySelector("[data-preview-slot]").replaceWith(preview);
  const location = form.querySelector("[data-location]");
  const useLocation = form.querySelector("[data-use-location]");
  const note = form.querySelector("[data-location-note]");
  const drop = form.querySelector("[data-drop-location]");
  const bar = form.querySelector("[data-progress-bar]");
  const errorBox = form.querySelector("[data-upload-error]");
  const csrf = form.querySelector("input[name=csrf]").value;
  const statusLine = form.querySelector("[data-upload-status]");
  let previewURL = null;

  // Clips, where the server takes them: a preview, and a slider over the clip choosing where its story starts (the
  // number field of the page without scripts, kept filled in, is what posts).
  const clips = form.dataset.clips === "true";
  const maxClipBytes = Number(form.dataset.maxVideoMb || 0) * 1000 * 1000;
  const clipSeconds = Number(form.dataset.clipSeconds) || 15;
  const startBox = form.querySelector("[data-clip-start]");
  const startField = form.querySelector("[data-start]");
  let chosenClip = false;
  let clipTooBig = "";
  const clipPreview = document.createElement("video");
  const clipWindow = document.createElement("div");
  const range = document.createElement("input");
  const windowText = document.createElement("output");
  if (clips && startBox && startField) {
    clipPreview.className = "create-preview create-preview--clip";
    clipPreview.muted = true;
    clipPreview.playsInline = true;
    clipPreview.setAttribute("playsinline", "");
    clipPreview.controls = true;
    clipPreview.preload = "metadata";
    clipPreview.setAttribute("aria-label", "Preview of the chosen clip");
    clipPreview.dataset.clipPreview = "";
    clipPreview.hidden = true;
    clipWindow.className = "clip-window";
    clipWindow.dataset.clipWindow = "";
    clipWindow.hidden = true;
    const label = document.createElement("label");
    label.htmlFor = "start-range";
    label.textContent = "Where the story starts";
    Object.assign(range, { id: "start-range", type: "range", min: "0", max: "0", step: "0.1", value: "0" });
    range.dataset.startRange = "";
    windowText.htmlFor = "start-range";
    windowText.dataset.startWindow = "";
    clipWindow.append(label, range, windowText);
    startBox.before(clipPreview, clipWindow);
    startBox.hidden = true; // shown again only for a clip this browser cannot preview
  }

  // "0:07".
  const clock = (seconds) => {
    const s = Math.max(0, Math.floor(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };

  const isClip = (file) => !!file && (/^video\//.test(file.type) || /\.(mp4|m4v|mov|webm|3gp|mkv)$/i.test(file.name));

  // The story's window over the clip, as the slider says: the start field follows, and the preview shows it.
  function chooseStart(seek) {
    const start = Number(range.value) || 0;
    const length = clipPreview.duration;
    startField.value = start > 0 ? start.toFixed(1) : "";
    const end = Number.isFinite(length) ? Math.min(length, start + clipSeconds) : start + clipSeconds;
    windowText.textContent = Number.isFinite(length) && length <= clipSeconds
      ? "The whole clip (" + clock(length) + ") is the story."
      : "The story plays " + clock(start) + " to " + clock(end) + ".";
    if (seek && Number.isFinite(length)) clipPreview.currentTime = start;
  }
  range.addEventListener("input", () => chooseStart(true));
  clipPreview.addEventListener("loadedmetadata", () => {
    const length = clipPreview.duration;
    const latest = Number.isFinite(length) ? Math.max(0, Math.floor((length - clipSeconds) * 10) / 10) : 0;
    range.max = String(latest);
    range.value = "0";
    range.disabled = latest <= 0;
    clipWindow.hidden = false;
    startBox.hidden = true;
    chooseStart(false);
  });
  // The preview plays only the story's part, over and over.
  clipPreview.addEventListener("timeupdate", () => {
    const start = Number(range.value) || 0;
    if (clipPreview.currentTime > start + clipSeconds || clipPreview.currentTime < start - 0.5) clipPreview.currentTime = start;
  });
  // A clip this browser cannot open (a phone's HEVC on a computer, say): the number field instead.
  clipPreview.addEventListener("error", () => {
    if (!chosenClip) return;
    clipPreview.hidden = true;
    clipWindow.hidden = true;
    startBox.hidden = false;
  });

  function resetClip() {
    chosenClip = false;
    clipTooBig = "";
    if (!clips || !startField) return;
    clipPreview.pause();
    clipPreview.removeAttribute("src");
    clipPreview.load();
    clipPreview.hidden = true;
    clipWindow.hidden = true;
    startBox.hidden = true;
    startField.value = "";
  }

  const camera = form.querySelector("#camera");
  const searchForm = document.querySelector("[data-place-search]");
  const query = form.querySelector("[data-place-query]");
  const results = form.querySelector("[data-place-results]");

  // The place search, without reloading the page (which would lose the chosen photo): results as radio buttons,
  // built with textContent so a place name is never parsed as HTML.
  if (searchForm && query && results) {
    let timer = null;
    let asked = 0;
    const show = (places, text) => {
      const chosen = form.querySelector("input[name=placeID]:checked");
      const keep = chosen && chosen.value ? chosen.closest("label") : null;
      results.replaceChildren();
      const note = (words) => { const p = document.createElement("p"); p.className = "muted"; p.textContent = words; results.append(p); };
      const option = (value, name, detail, checked) => {
        const label = document.createElement("label");
        label.className = "check";
        const radio = document.createElement("input");
        radio.type = "radio"; radio.name = "placeID"; radio.value = value; radio.checked = checked;
        label.append(radio, " " + name + " ");
        if (detail) { const span = document.createElement("span"); span.className = "muted"; span.textContent = detail; label.append(span); }
        results.append(label);
      };
      if (!places.length) note("No place matches “" + text + "”. Try another spelling, or a bigger place nearby.");
      else option("", "None of these: use the photo’s own place", "", !keep);
      if (keep && !places.some((p) => String(p.id) === keep.querySelector("input").value)) results.append(keep);
      for (const place of places) option(String(place.id), place.name, place.detail, keep !== null && String(place.id) === keep.querySelector("input").value);
    };
    const search = async () => {
      const text = query.value.trim();
      if (text.length < 2) return;
      const mine = ++asked;
      try {
        const near = form.dataset.area ? "&near=" + encodeURIComponent(form.dataset.area) : "";
        const answer = await fetch("/api/places?q=" + encodeURIComponent(text) + near, { credentials: "same-origin" });
        if (!answer.ok || mine !== asked) return;
        const data = await answer.json();
        if (mine === asked && data.available) show(data.places, text);
      } catch (_) { /* the Find place button still works without this */ }
    };
    searchForm.addEventListener("submit", (event) => { event.preventDefault(); clearTimeout(timer); search(); });
    // Through Nominatim's public server the search waits for Find place or Enter: its usage policy forbids
    // searching on every keystroke.
    if (query.dataset.asYouType !== "false") {
      query.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(search, 250); });
    }
  }

  // Whichever of "Choose photo" and "Take photo" was used last is the photo: the other is cleared.
  const picked = async (chosen, other) => {
    if (other && chosen.files && chosen.files.length) other.value = "";
    const file = chosen.files && chosen.files[0];
    if (previewURL) URL.revokeObjectURL(previewURL);
    previewURL = null;
    errorBox.hidden = true;
    resetClip();
    if (!file) { preview.hidden = true; return; }
    previewURL = URL.createObjectURL(file);
    if (clips && startField && isClip(file)) {
      // A clip: its own preview; the place search and the form still work, the photo inspection is for photos.
      chosenClip = true;
      preview.hidden = true;
      preview.removeAttribute("src");
      if (maxClipBytes && file.size > maxClipBytes) {
        clipTooBig = "This clip is " + Math.ceil(file.size / 1e6) + " MB; at most " + Math.round(maxClipBytes / 1e6)
          + " MB can be posted. Choose a shorter clip, or trim it on the phone first.";
        errorBox.textContent = clipTooBig;
        errorBox.hidden = false;
      }
      clipPreview.src = previewURL;
      clipPreview.hidden = false;
      return;
    }
    preview.src = previewURL;
    preview.hidden = false;
    const body = new FormData();
    body.append("csrf", csrf);
    body.append("photo", file.slice(0, 1024 * 1024), "head");
    try {
      const answer = await fetch("/api/inspect", { method: "POST", body, credentials: "same-origin" });
      if (!answer.ok) return;
      const info = await answer.json();
      // The photo's rough area (an H3 resolution-5 cell, never its position) ranks nearby places first.
      if (info.area) form.dataset.area = info.area; else delete form.dataset.area;
      if (info.located) {
        if (!location.value && info.place) location.value = info.place;
        note.textContent = info.place ? "From the photo: " + info.place + ". Edit the name or remove the location." : "The photo has a location.";
        drop.hidden = false;
      } else {
        note.textContent = "This photo has no location.";
        drop.hidden = true;
      }
    } catch (_) { /* the server still reads the location when posting */ }
  };
  input.addEventListener("change", () => picked(input, camera));
  if (camera) camera.addEventListener("change", () => picked(camera, input));

  drop.addEventListener("click", () => {
    useLocation.checked = false;
    location.value = "";
    note.textContent = "The story will be posted without a location.";
    drop.hidden = true;
  });

  // The bar and the words beside it; a fraction of null makes the bar say "busy" without a number.
  function progress(phase, fraction, words) {
    form.dataset.phase = phase;
    bar.hidden = false;
    if (fraction === null) { bar.removeAttribute("value"); bar.textContent = ""; }
    else { bar.value = Math.round(fraction * 100); bar.textContent = bar.value + "%"; }
    statusLine.hidden = false;
    statusLine.textContent = words;
  }

  // A token naming this upload, for asking the server how far it is with the clip.
  function token() {
    const bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // After the upload, every half second: waiting for its turn, then processing, then done (the answer follows).
  function watchProcessing(name) {
    let stopped = false;
    let timer = null;
    const ask = async () => {
      if (stopped) return;
      try {
        const answer = await fetch("/create/progress?token=" + encodeURIComponent(name), { credentials: "same-origin", cache: "no-store" });
        const state = answer.ok ? await answer.json() : null;
        if (stopped) return;
        if (state && state.phase === "waiting") progress("waiting", null, "Uploaded. Waiting for the clip’s turn…");
        else if (state && state.phase === "processing") {
          const f = Math.max(0, Math.min(1, Number(state.fraction) || 0));
          progress("processing", f, "Preparing the clip… " + Math.round(f * 100) + "%");
        } else if (state && state.phase === "done") progress("done", 1, "Posting…");
      } catch (_) { /* the post's own answer still comes */ }
      if (!stopped) timer = setTimeout(ask, 500);
    };
    // The server learns the token with the request, so the first question waits for the upload to arrive.
    timer = setTimeout(ask, 500);
    return () => { stopped = true; clearTimeout(timer); };
  }

  form.addEventListener("submit", (event) => {
    if (!window.XMLHttpRequest) return;
    event.preventDefault();
    if (clipTooBig) { errorBox.textContent = clipTooBig; errorBox.hidden = false; return; }
    errorBox.hidden = true;
    const body = new FormData(form);
    const clip = chosenClip;
    let stopWatching = () => {};
    let name = "";
    // A photo posts exactly as it always did; a clip adds where it starts and the token of its progress.
    if (!clip) body.delete("start");
    else { name = token(); body.set("progress", name); }
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    progress("uploading", 0, clip ? "Uploading the clip… 0%" : "Uploading… 0%");
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) progress("uploading", e.loaded / e.total, (clip ? "Uploading the clip… " : "Uploading… ") + Math.round((e.loaded / e.total) * 100) + "%");
    });
    request.upload.addEventListener("load", () => {
      if (clip) { progress("waiting", null, "Uploaded. Preparing the clip…"); stopWatching = watchProcessing(name); }
      else progress("posting", 1, "Posting…");
    });
    request.addEventListener("load", () => {
      stopWatching();
      if (request.status >= 200 && request.status < 300 && request.responseURL && !request.responseURL.endsWith("/create")) {
        window.location.assign(request.responseURL);
      } else {
        document.open(); document.write(request.responseText); document.close();
      }
    });
    request.addEventListener("error", () => {
      stopWatching();
      bar.hidden = true;
      statusLine.hidden = true;
      delete form.dataset.phase;
      errorBox.textContent = "The upload failed. Check your connection and try again.";
      errorBox.hidden = false;
    });
    request.send(body);
  });
})();
