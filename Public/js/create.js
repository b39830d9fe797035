// The create form, improved: a preview of the chosen photo, its place filled in from the photo's GPS
// (asked of the server with only the start of the file, where EXIF lives), and an upload progress bar.
// Without this script the same form posts as it is.
(() => {
  "use strict";
  const form = document.querySelector("[data-create-form]");
  if (!form) return;
  const input = form.querySelector("#photo");
  const preview = form.querySelector("[data-preview]");
  const location = form.querySelector("[data-location]");
  const useLocation = form.querySelector("[data-use-location]");
  const note = form.querySelector("[data-location-note]");
  const drop = form.querySelector("[data-drop-location]");
  const bar = form.querySelector("[data-progress-bar]");
  const errorBox = form.querySelector("[data-upload-error]");
  const csrf = form.querySelector("input[name=csrf]").value;
  let previewURL = null;

  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
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
      if (info.located) {
        if (!location.value && info.place) location.value = info.place;
        note.textContent = info.place ? "From the photo: " + info.place + ". Edit the name or remove the location." : "The photo has a location.";
        drop.hidden = false;
      } else {
        note.textContent = "This photo has no location.";
        drop.hidden = true;
      }
    } catch (_) { /* the server still reads the location when posting */ }
  });

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
