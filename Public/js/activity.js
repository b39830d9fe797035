// The activity page marks what it shows as seen as it opens, with the page's own form (a GET changes nothing on
// the server). Without this script the form's button does it.
(() => {
  "use strict";
  const form = document.querySelector("[data-activity-seen]");
  if (!form) return;
  const body = new URLSearchParams(new FormData(form));
  fetch(form.action, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => { if (r.ok) form.hidden = true; })
    .catch(() => {}); // still new next time; the button stays
})();
