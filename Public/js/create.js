// The create form, improved: a preview of the chosen or taken photo, its place filled in from the photo's GPS
// (asked of the server with only the start of the file, where EXIF lives), the place search as you type, and an
// upload progress bar.
// Without this script the same form posts as it is.
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
  let previewURL = null;

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
    if (!file) { preview.hidden = true; return; }
    previewURL = URL.createObjectURL(file);
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

  form.addEventListener("submit", (event) => {
    if (!window.XMLHttpRequest) return;
    event.preventDefault();
    errorBox.hidden = true;
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    bar.hidden = false;
    request.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) { bar.value = Math.round((e.loaded / e.total) * 100); bar.textContent = bar.value + "%"; }
    });
    request.addEventListener("load", () => {
      if (request.status >= 200 && request.status < 300 && request.responseURL && !request.responseURL.endsWith("/create")) {
        window.location.assign(request.responseURL);
      } else {
        document.open(); document.write(request.responseText); document.close();
      }
    });
    request.addEventListener("error", () => {
      bar.hidden = true;
      errorBox.textContent = "The upload failed. Check your connection and try again.";
      errorBox.hidden = false;
    });
    request.send(new FormData(form));
  });
})();
