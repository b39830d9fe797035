// What a person does around a story in the viewer: content warnings (Show), favourites (heart, double tap),
// comments, reports, mute and block, delete. Every control is a link or a form that works without this script;
// here they answer in place. Open dialogs and menus pause the viewer, which watches for them.
(() => {
  "use strict";
  const $ = (root, hook) => root.querySelector(`[data-${hook}]`);
  const revealed = new Set(); // stories the person chose to see, for this page view
  const current = new WeakMap(); // viewer root -> { item, author, img }

  function say(root, text) { $(root, "social-status").textContent = text; }

  async function send(form, extra, action) {
    const body = new URLSearchParams(new FormData(form));
    for (const [k, v] of Object.entries(extra || {})) body.set(k, v);
    const r = await fetch(action || form.action, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.message || "It did not work; try again.");
    return data;
  }

  function favState(root, item) {
    const b = $(root, "fav");
    if (!b) return;
    b.setAttribute("aria-pressed", String(!!item.fav));
    b.setAttribute("aria-label", item.fav ? "Favourited; take back" : "Favourite");
    b.firstElementChild.textContent = item.fav ? "♥" : "♡";
    $(root, "fav-value").value = item.fav || "";
  }

  function warning(root, item, img) {
    const warned = !!item.warning && !revealed.has(item.uri);
    root.dataset.warned = String(warned);
    $(root, "warning").hidden = !warned;
    if (warned) {
      $(root, "warning-name").textContent = item.warning.name;
      $(root, "reveal").href = item.revealHref;
    } else if (item.reveal && img.src !== new URL(item.reveal, location.href).href) {
      img.src = item.reveal; // asked for only now: the photo was never fetched before Show
      img.alt = img.alt.replace(/^Hidden (photo|video) \([^)]*\), by /, (_, kind) => (kind === "video" ? "Video" : "Photo") + " by ");
    }
    img.classList.toggle("viewer__photo--blurred", warned);
  }

  // The viewer's events do not bubble: they are caught on the way down.
  document.addEventListener("story:change", (e) => {
    const root = e.target, { item, author, img } = e.detail;
    current.set(root, e.detail);
    const mine = !!item.deleteHref;
    const del = $(root, "delete"), form = $(root, "delete-form"), more = $(root, "more");
    del.hidden = !mine;
    if (mine) del.href = item.deleteHref;
    const share = $(root, "share-link");
    if (share) { share.hidden = !item.sharesHref; if (item.sharesHref) share.href = item.sharesHref; }
    if (form && mine) form.action = item.deleteHref;
    more.hidden = mine;
    more.open = false;
    $(root, 'report="story"').href = item.reportHref;
    $(root, 'report="author"').href = item.reportAuthorHref;
    for (const n of root.querySelectorAll("[data-more-name]")) n.textContent = author.name;
    const mute = $(root, 'relation="mute"'), block = $(root, 'relation="block"');
    if (mute) { mute.action = author.muteHref; block.action = author.blockHref; }
    warning(root, item, img);
    $(root, "actions").hidden = item.expired;
    // A view without counts (hatk's getStory) shows no number and no heart rather than a wrong one.
    const favForm = $(root, "fav-form");
    if (favForm) { favForm.action = item.favHref; favForm.hidden = !item.known; $(root, "return").value = item.href; }
    favState(root, item);
    const c = $(root, "comments");
    c.href = item.commentsHref;
    const count = $(root, "comment-count");
    count.hidden = !item.known;
    count.textContent = item.known ? item.commentCount : "";
    $(root, "comment-noun").textContent = item.commentCount === 1 ? " comment" : " comments";
    say(root, "");
  }, true);

  async function favourite(root, on) {
    const { item } = current.get(root) || {};
    const form = $(root, "fav-form");
    if (!item || !form || item.expired || !item.known || !!item.fav === on) return;
    const before = item.fav;
    item.fav = on ? "pending" : null; // optimistic; put back if the write fails
    favState(root, item);
    try {
      const data = await send(form, { fav: before || "" });
      item.fav = data.fav || null;
    } catch (err) {
      item.fav = before;
      say(root, "The favourite was not saved: " + err.message);
    }
    if (current.get(root)?.item === item) favState(root, item);
  }

  let heartTimer = 0;
  document.addEventListener("story:doubletap", (e) => {
    const root = e.target, heart = $(root, "heart");
    if ($(root, "actions").hidden || !$(root, "fav-form") || $(root, "fav-form").hidden) return;
    heart.style.left = `${e.detail.x - 48}px`;
    heart.style.top = `${e.detail.y - 60}px`;
    heart.removeAttribute("data-on");
    void heart.offsetWidth; // restart the animation
    heart.dataset.on = "";
    clearTimeout(heartTimer);
    heartTimer = setTimeout(() => heart.removeAttribute("data-on"), 900);
    favourite(root, true);
  }, true);

  // Comments: the thread a page at a time, the visitor's own with a Delete.
  function commentNode(c, root) {
    const li = document.createElement("li"), head = document.createElement("p"), who = document.createElement("a");
    const time = document.createElement("time"), text = document.createElement("p");
    li.className = "comment";
    head.className = "comment__head";
    who.href = c.profileHref;
    who.textContent = c.author;
    time.dateTime = c.createdAt;
    time.textContent = " " + c.ago;
    head.append(who, time);
    text.className = "comment__text";
    for (const s of c.segments) {
      if (!s.href) { text.append(s.text); continue; }
      const a = Object.assign(document.createElement("a"), { href: s.href, textContent: s.text });
      if (s.external) a.rel = "nofollow ugc noopener noreferrer";
      text.append(a);
    }
    if (c.muted) {
      // Someone the person muted: folded away, one tap to read.
      const fold = document.createElement("details"), label = document.createElement("summary");
      label.textContent = "A comment from someone you muted";
      fold.append(label, text);
      li.append(head, fold);
    } else li.append(head, text);
    if (c.deleteHref) {
      const b = Object.assign(document.createElement("button"), { type: "button", className: "link-button", textContent: "Delete" });
      b.addEventListener("click", async () => {
        const form = $(root, "comment-form");
        try {
          const body = new URLSearchParams({ uri: c.uri, csrf: form.elements.csrf.value });
          const r = await fetch(c.deleteHref, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
          if (!r.ok) throw new Error();
          li.remove();
          adjustCount(root, -1);
        } catch { b.textContent = "Not deleted; try again"; }
      });
      li.append(b);
    }
    return li;
  }

  function adjustCount(root, by) {
    const { item } = current.get(root) || {};
    if (!item || !item.known) return;
    item.commentCount = Math.max(0, item.commentCount + by);
    $(root, "comment-count").textContent = item.commentCount;
    $(root, "comment-noun").textContent = item.commentCount === 1 ? " comment" : " comments";
  }

  async function loadComments(root, url, append) {
    const list = $(root, "comment-list"), more = $(root, "comments-more");
    more.hidden = true;
    try {
      const r = await fetch(url, { credentials: "same-origin" });
      if (!r.ok) throw new Error();
      const data = await r.json();
      if (!append) list.textContent = "";
      for (const c of data.comments) list.append(commentNode(c, root));
      $(root, "comments-empty").hidden = list.children.length > 0;
      more.hidden = !data.more;
      more.dataset.url = data.more || "";
      const form = $(root, "comment-form");
      if (form) form.hidden = !data.open;
      $(root, "comments-closed").hidden = data.open;
    } catch {
      $(root, "comments-empty").hidden = false;
      $(root, "comments-empty").textContent = "The comments could not be loaded.";
    }
  }

  function openComments(root) {
    const { item } = current.get(root) || {};
    const dialog = $(root, "comments-dialog");
    if (!item || !dialog) return false;
    const form = $(root, "comment-form");
    if (form) form.action = item.commentsHref;
    dialog.showModal();
    loadComments(root, item.commentsData, false);
    return true;
  }

  function openReport(root, which) {
    const { item, author } = current.get(root) || {};
    const dialog = $(root, "report-dialog");
    if (!item || !dialog) return false;
    $(root, "report-story").value = which === "story" ? item.uri : "";
    $(root, "report-actor").value = which === "story" ? "" : author.did;
    $(root, "report-heading").textContent = which === "story" ? `Report this story by ${author.name}` : `Report ${author.name}`;
    $(root, "more").open = false;
    dialog.showModal();
    return true;
  }

  document.addEventListener("click", (e) => {
    const root = e.target.closest && e.target.closest("[data-viewer]");
    if (!root) return;
    const a = e.target.closest("a, button");
    if (!a) return;
    const d = a.dataset;
    const done = () => e.preventDefault();
    if ("delete" in d) { const dlg = $(root, "delete-dialog"); if (dlg) { done(); dlg.showModal(); } }
    else if ("deleteCancel" in d) $(root, "delete-dialog").close();
    else if ("sheetClose" in d) a.closest("dialog").close();
    else if ("reveal" in d) {
      done();
      const c = current.get(root);
      if (c) { revealed.add(c.item.uri); warning(root, c.item, c.img); }
    } else if ("comments" in d) { if (openComments(root)) done(); }
    else if (d.report) { if (openReport(root, d.report)) done(); }
    else if ("commentsMore" in d) loadComments(root, d.url, true);
  });

  document.addEventListener("submit", async (e) => {
    const form = e.target, root = form.closest("[data-viewer]");
    if (!root) return;
    const d = form.dataset;
    if ("favForm" in d) {
      e.preventDefault();
      favourite(root, !current.get(root)?.item.fav);
    } else if ("commentForm" in d) {
      e.preventDefault();
      try {
        await send(form);
        form.reset();
        adjustCount(root, 1);
        loadComments(root, current.get(root).item.commentsData, false);
      } catch (err) { $(root, "comments-empty").hidden = false; $(root, "comments-empty").textContent = err.message; }
    } else if ("reportForm" in d) {
      e.preventDefault();
      try {
        await send(form);
        form.reset();
        form.closest("dialog").close();
        notice(root, "Thank you: the report was sent. The household’s owner will look at it.");
      } catch (err) { say(root, "The report was not sent: " + err.message); form.closest("dialog").close(); }
    } else if (d.relation) {
      e.preventDefault();
      const name = current.get(root)?.author.name || "";
      try {
        await send(form);
        relationNotice(root, form, d.relation, name);
        $(root, "more").open = false;
        setTimeout(() => $(root, "next-author").click(), 1200); // their stories leave the walk
      } catch (err) { say(root, err.message); }
    }
  });

  // After a mute or block: a notice that stays while the viewer moves on (until dismissed), with Undo and the page
  // that lists them all.
  // A notice that stays while the viewer moves on, until the person dismisses it.
  function notice(root, sentence) {
    const box = $(root, "relation-notice");
    if (!box) { say(root, sentence); return; }
    box.hidden = false;
    $(root, "relation-undo").hidden = true;
    $(root, "relation-text").textContent = sentence;
    $(root, "relation-dismiss").onclick = () => { box.hidden = true; };
  }

  // The same notice after a mute or block, with Undo.
  function relationNotice(root, form, relation, name) {
    if (!$(root, "relation-notice")) return;
    notice(root, `${relation === "mute" ? "Muted" : "Blocked"} ${name}: their stories leave your walk.`);
    const text = $(root, "relation-text"), undo = $(root, "relation-undo");
    // The viewer points its forms at whichever author it shows next: the undo goes to this author's address.
    const action = form.action;
    undo.hidden = false;
    undo.onclick = async () => {
      undo.disabled = true;
      try {
        await send(form, { undo: "1" }, action);
        text.textContent = `${relation === "mute" ? "Unmuted" : "Unblocked"} ${name}: their stories come back when the page reloads.`;
        undo.hidden = true;
      } catch (err) { text.textContent = err.message; }
      undo.disabled = false;
    };
  }

  // Whatever a dialog had folded open closes with it (an open fold would keep the viewer paused).
  document.addEventListener("close", (e) => { for (const f of e.target.querySelectorAll("details[open]")) f.open = false; }, true);

  // An open menu closes with Escape, as dialogs do.
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const open = document.querySelector("[data-viewer] details[open]");
    if (open) { e.preventDefault(); e.stopImmediatePropagation(); open.open = false; }
  }, true);

})();
