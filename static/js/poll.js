/* Live regions that refresh themselves, without a framework.
 *
 * An element with data-poll-url is fetched again every data-poll-every seconds; the answer is
 * the same element, newer, and replaces it when it changed (its data-version differs, or its
 * text when it has none). Polling waits while the tab is hidden, while the user types (and
 * for a moment after), while a text field or list inside the region has the focus or a
 * <details> in it is open, and while a page script holds it (data-poll-hold). Each swap fires
 * "live:updated" on the document with detail {element, previous}. A [data-poll-status]
 * inside the region says when it was last updated, or that the connection is down (in the
 * words of the region's data-text-updated and data-text-offline, translated by the page).
 * Each poll sends back the last answer's ETag (If-None-Match): a 304 means nothing changed.
 * A [data-poll-paused] inside the region (a polite live region) says, while the focus in it
 * or an open <details> holds it, that it waits and resumes when the user leaves it; empty
 * otherwise.
 *
 * A region marked data-poll-patch also says which version it shows (X-Poll-Have: its
 * data-version). The server may then answer with only what changed: the region, newer, whose
 * [data-patch-rows] container holds only the rows (elements with an id) that changed, and
 * whose data-patch-of names the version they apply to. The region's own rows are put in that
 * container, the changed ones replaced, and the whole swapped in as any answer. A patch that
 * does not fit (another version, a row not there) is not applied: the next poll, at once,
 * asks for the whole region.
 *
 * A region with data-events-url is told of changes instead (Server-Sent Events; the server's
 * config/events.py): while its stream is open it asks for itself only when told ("changed"),
 * when the stream opens again after a break ("ready": to catch up), and every two minutes to be
 * safe; never twice within its data-poll-every (the desk and the projector hear of every
 * result: during the rush they ask once an interval, as they polled). Regions of one page
 * share a stream by its address. A change of the whole night (told with the drive's topic,
 * whatever else comes with it) reaches every phone at once: each waits a moment drawn at random within its
 * interval (data-poll-spread), so that they do not all ask in the same instant. While the
 * stream is broken (the Wi-Fi lost, the server restarting; the browser opens it again by
 * itself) or has said nothing for a minute, the region polls as above; a server that tells
 * no changes (204) leaves it polling.
 *
 * window.Live.refresh(element) polls at once (after the desk enters a result, say).
 * Without JavaScript the pages work the same, they just do not refresh by themselves.
 */
(function () {
  "use strict";
  // The words of the djangojs catalog (Django's JavaScriptCatalog, /jsi18n/, loaded first).
  var gettext = window.gettext || function (s) { return s; };

  var TYPING_PAUSE = 1500;
  var MAX_DELAY = 30000;
  // While a region's stream is open: a poll now and then all the same, and the stream given
  // up when silent this long (the server says "ping" every 20 s).
  var SAFETY_POLL = 120000;
  var STREAM_SILENT = 65000;
  var streams = {};
  var lastKey = 0;
  var regions = {};

  function markTyping() { lastKey = Date.now(); }
  document.addEventListener("keydown", markTyping, true);
  document.addEventListener("input", markTyping, true);

  function isTextControl(node) {
    if (!node || !node.tagName) return false;
    if (node.tagName === "TEXTAREA" || node.tagName === "SELECT") return true;
    if (node.tagName !== "INPUT") return false;
    return !/^(hidden|submit|button|checkbox|radio)$/.test(node.type);
  }

  function focusVisible(node) {
    try { return node.matches(":focus-visible"); } catch (e) { return false; }
  }

  // The user is working in the region: the focus in it (a text field, or reached by the
  // keyboard) or a <details> of it open.
  function heldByUser(el) {
    var active = document.activeElement;
    if (active && active !== document.body && el.contains(active)) {
      if (isTextControl(active) || focusVisible(active)) return true;
    }
    return !!el.querySelector("details[open]");
  }

  function busy(el) {
    if (document.hidden) return true;
    if (el.hasAttribute("data-poll-hold")) return true;
    if (Date.now() - lastKey < TYPING_PAUSE) return true;
    return heldByUser(el);
  }

  // The region's [data-poll-paused] says whether the user holds it (see above).
  function sayPaused(el) {
    var note = el.querySelector("[data-poll-paused]");
    if (!note) return;
    var text = heldByUser(el)
      ? gettext("Paused while you type — resumes when you leave the grid") : "";
    if (note.textContent !== text) note.textContent = text;
  }

  function sayPausedEverywhere() {
    Object.keys(regions).forEach(function (id) { sayPaused(regions[id].el); });
  }
  document.addEventListener("focusin", sayPausedEverywhere);
  // After a focusout the focus is nowhere for a moment: look once it has landed.
  document.addEventListener("focusout", function () { setTimeout(sayPausedEverywhere, 0); });
  document.addEventListener("toggle", sayPausedEverywhere, true);

  function clock() {
    var d = new Date();
    return [d.getHours(), d.getMinutes(), d.getSeconds()]
      .map(function (n) { return (n < 10 ? "0" : "") + n; }).join(":");
  }

  function say(el, text, offline) {
    var note = el.querySelector("[data-poll-status]");
    if (!note) return;
    note.textContent = text;
    note.classList.toggle("offline", !!offline);
  }

  function changed(oldEl, newEl) {
    var a = oldEl.getAttribute("data-version");
    var b = newEl.getAttribute("data-version");
    if (a !== null && b !== null) return a !== b;
    return oldEl.innerHTML !== newEl.innerHTML;
  }

  // The region ``fresh`` with the rows of ``old`` in its [data-patch-rows], those it brings
  // replacing theirs; null when the patch is not for ``old`` (see above). ``old`` loses its
  // rows container (it is about to be replaced).
  function patched(old, fresh) {
    if (fresh.getAttribute("data-patch-of") !== old.getAttribute("data-version")) return null;
    var slot = fresh.querySelector("[data-patch-rows]");
    var rows = old.querySelector("[data-patch-rows]");
    if (!slot || !rows) return null;
    var pairs = [];
    for (var i = 0; i < slot.children.length; i++) {
      var row = slot.children[i];
      var mine = row.id ? document.getElementById(row.id) : null;
      if (!mine || mine.parentNode !== rows) return null;
      pairs.push([mine, row]);
    }
    pairs.forEach(function (pair) { pair[0].replaceWith(pair[1]); });
    slot.replaceWith(rows);
    fresh.removeAttribute("data-patch-of");
    return fresh;
  }

  function swap(state, fresh, focusId) {
    var old = state.el;
    old.replaceWith(fresh);
    state.el = fresh;
    if (focusId) {
      var again = document.getElementById(focusId);
      if (again) again.focus();
    }
    document.dispatchEvent(
      new CustomEvent("live:updated", { detail: { element: fresh, previous: old } })
    );
  }

  function schedule(state, delay) {
    clearTimeout(state.timer);
    state.timer = setTimeout(function () { poll(state, false); }, delay);
  }

  // The next poll after an answer: the region's interval, or the safety poll while its
  // stream tells it of changes; sooner when the region shows something that ends by itself
  // (data-poll-until, a moment in seconds since 1970: a table's Undo, open for a while).
  function scheduleNext(state) {
    var stream = state.stream;
    var delay = stream && stream.live ? SAFETY_POLL : state.every;
    var until = parseInt(state.el.getAttribute("data-poll-until") || "0", 10) * 1000;
    if (until) delay = Math.min(delay, Math.max(until - Date.now() + 500, 1000));
    schedule(state, delay);
  }

  // Told of a change: ask after ``wait``, and not sooner than one interval after the last
  // ask (the desk and the projector hear of every result: during the rush they ask once per
  // interval, as they polled, and at once when the hall is quiet).
  function askSoon(state, wait) {
    schedule(state, Math.max(wait, state.asked + state.every - Date.now(), 0));
  }

  function openStream(url) {
    var stream = streams[url];
    if (!stream) {
      stream = streams[url] = { url: url, source: null, live: false, opened: 0, seen: 0, states: [] };
    }
    if (stream.source) return stream;
    var source = stream.source = new EventSource(url);
    source.addEventListener("ready", function () {
      stream.live = true;
      stream.seen = Date.now();
      stream.opened += 1;
      stream.states.forEach(function (state) {
        // Opened again after a break: what changed meanwhile. The first time, the page is new.
        if (stream.opened > 1) schedule(state, Math.random() * state.every);
        else scheduleNext(state);
      });
    });
    source.addEventListener("ping", function () { stream.seen = Date.now(); });
    source.addEventListener("changed", function (event) {
      stream.seen = Date.now();
      var topics = String(event.data || "").split(" ");
      // The night's structure among them (every page hears of it at once, an advance with
      // its tables' and couples' own changes): spread the phones out.
      var wide = topics.some(function (t) { return t === "*" || t.indexOf("drive:") === 0; });
      stream.states.forEach(function (state) {
        if (state.inFlight) { state.again = true; return; }
        askSoon(state, wide && state.el.getAttribute("data-poll-spread") !== null
          ? Math.random() * state.every : 0);
      });
    });
    source.addEventListener("error", function () {
      // Broken: the browser opens it again by itself (CONNECTING); refused (a 204 or an
      // error answer) it stays closed. Either way the regions poll meanwhile.
      var was = stream.live;
      stream.live = false;
      if (source.readyState === EventSource.CLOSED) stream.source = null;
      if (was) stream.states.forEach(function (state) { schedule(state, state.every); });
    });
    return stream;
  }

  // A stream silent too long (a Wi-Fi that dropped it without a word): given up and opened
  // again; the regions poll meanwhile.
  setInterval(function () {
    Object.keys(streams).forEach(function (url) {
      var stream = streams[url];
      if (!stream.live || Date.now() - stream.seen < STREAM_SILENT) return;
      stream.live = false;
      if (stream.source) stream.source.close();
      stream.source = null;
      stream.states.forEach(function (state) { schedule(state, state.every); });
      openStream(url);
    });
  }, 10000);

  function poll(state, forced) {
    var el = state.el;
    if (!document.documentElement.contains(el)) {
      // A page script replaced the region itself: follow the new one.
      var again = el.id ? document.getElementById(el.id) : null;
      if (!again) return;
      state.el = el = again;
    }
    if (!forced && busy(el)) { schedule(state, 500); return; }
    if (state.inFlight) { state.again = true; return; }
    state.inFlight = true;
    state.again = false;
    state.asked = Date.now();
    var url = el.getAttribute("data-poll-url");
    var headers = { "X-Requested-With": "fetch", "Accept": "text/html" };
    // The last answer's ETag: the server says 304 (no body, nothing rendered) while nothing
    // changed. Sent by hand, with the browser's cache left out, so every poll asks the server.
    if (state.etag && state.url === url) headers["If-None-Match"] = state.etag;
    if (el.hasAttribute("data-poll-patch") && !state.whole && el.getAttribute("data-version")) {
      headers["X-Poll-Have"] = el.getAttribute("data-version");
    }
    fetch(url, {
      credentials: "same-origin",
      cache: "no-store",
      headers: headers
    }).then(function (response) {
      if (response.redirected || response.status === 410) {
        // Logged out, or the night was closed: the whole page has something else to say.
        window.location.reload();
        return null;
      }
      if (response.status === 304) return false;
      if (!response.ok) throw new Error("HTTP " + response.status);
      state.etag = response.headers.get("ETag");
      state.url = url;
      return response.text();
    }).then(function (html) {
      state.inFlight = false;
      if (html === null) return;
      if (html === false) {
        state.failures = 0;
        say(state.el, (state.el.getAttribute("data-text-updated") || gettext("Updated")) + " " + clock());
        if (state.again) askSoon(state, 0); else scheduleNext(state);
        return;
      }
      var holder = document.createElement("template");
      holder.innerHTML = html.trim();
      var fresh = holder.content.firstElementChild;
      if (!fresh || fresh.id !== state.el.id) throw new Error("unexpected answer");
      state.failures = 0;
      if (changed(state.el, fresh)) {
        var active = document.activeElement;
        var focusId = active && state.el.contains(active) ? active.id : "";
        if (fresh.hasAttribute("data-patch-of")) {
          fresh = patched(state.el, fresh);
          if (!fresh) {
            // Not for what the page shows: ask for the whole region, now.
            state.etag = null;
            state.whole = true;
            schedule(state, 0);
            return;
          }
        }
        swap(state, fresh, focusId);
      }
      state.whole = false;
      say(state.el, (state.el.getAttribute("data-text-updated") || gettext("Updated")) + " " + clock());
      if (state.again) askSoon(state, 0); else scheduleNext(state);
    }).catch(function () {
      state.inFlight = false;
      state.failures += 1;
      say(state.el, state.el.getAttribute("data-text-offline") || gettext("No connection — retrying…"), true);
      schedule(state, Math.min(state.every * Math.pow(2, state.failures), MAX_DELAY));
    });
  }

  function start(el) {
    var every = parseFloat(el.getAttribute("data-poll-every") || "5") * 1000;
    var state = {
      el: el, every: every, timer: null, failures: 0, inFlight: false, etag: null, url: null,
      whole: false, again: false, stream: null, asked: 0
    };
    regions[el.id] = state;
    var events = el.getAttribute("data-events-url");
    if (events && window.EventSource) {
      state.stream = openStream(events);
      state.stream.states.push(state);
    }
    schedule(state, every);
  }

  window.Live = {
    refresh: function (el) {
      var state = el && regions[el.id];
      if (state) poll(state, true);
    }
  };

  function init() {
    var found = document.querySelectorAll("[data-poll-url]");
    for (var i = 0; i < found.length; i++) {
      if (found[i].id) start(found[i]);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
