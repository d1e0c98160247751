/* The table page on a phone: tap who won, and the result reaches the desk even on a flaky
 * hall Wi-Fi.
 *
 * A tap becomes a submission {winner, points, confirm_unusual, key} with a key made here,
 * kept in localStorage until the server answers it, and sent to the JSON API
 * (PUT /api/v1/drives/<slug>/games/<n>/tables/<t>/result, Authorization: Bearer <the table's
 * token>). No answer (no network, a timeout, a 5xx): "No connection — retrying…", and the
 * SAME submission with the SAME key goes again after 1, 2, 4, 8 then every 15 seconds, and
 * at once when the phone says it is back online, so the server stores it once whatever
 * happens. A page reloaded meanwhile picks the submission up again. 2xx: "Saved ✓"; 409
 * result_conflict: the desk already has another winner, or the same one with another score;
 * other 4xx: the server's words (an unusual score opens the tick box). The page (poll.js) then refreshes, and after the advance it shows the next game.
 * Without JavaScript the same form posts to the page with its own key.
 */
(function () {
  "use strict";
  // The words of the djangojs catalog (Django's JavaScriptCatalog, /jsi18n/, loaded first).
  var gettext = window.gettext || function (s) { return s; };

  var DELAYS = [1000, 2000, 4000, 8000, 15000];
  var TIMEOUT = 10000;
  var STALE = 6 * 3600 * 1000;
  var page = document.querySelector(".table-page");
  if (!page) return;
  var token = page.getAttribute("data-token");
  var text = page.dataset;
  var status = document.getElementById("table-status");
  var storeKey = "fortyfives:table:" + token;
  var pending = load();
  var attempt = 0;
  var timer = null;
  var inFlight = false;
  var lastButton = null;

  function region() { return document.getElementById("table-live"); }

  function show(level, message) {
    status.className = "status status-" + level;
    status.textContent = message;
  }

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(storeKey) || "null");
      return saved && Date.now() - saved.at < STALE ? saved : null;
    } catch (e) { return null; }
  }

  function save(submission) {
    try {
      if (submission) window.localStorage.setItem(storeKey, JSON.stringify(submission));
      else window.localStorage.removeItem(storeKey);
    } catch (e) { /* private browsing: the submission lives in this page only */ }
  }

  function newKey() {
    var c = window.crypto;
    if (c && c.randomUUID) return c.randomUUID();
    var bytes = new Uint8Array(16);
    if (c && c.getRandomValues) c.getRandomValues(bytes);
    else for (var i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function hold(on) {
    var r = region();
    if (!r) return;
    if (on) r.setAttribute("data-poll-hold", "1");
    else r.removeAttribute("data-poll-hold");
  }

  function setButtons(disabled) {
    var r = region();
    if (!r) return;
    var buttons = r.querySelectorAll("button.win");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = disabled;
  }

  function retryLater() {
    attempt += 1;
    show("offline", text.textOffline || gettext("No connection — retrying…"));
    var delay = DELAYS[Math.min(attempt - 1, DELAYS.length - 1)];
    clearTimeout(timer);
    timer = setTimeout(send, delay + Math.floor(Math.random() * 500));
  }

  function send() {
    if (!pending || inFlight) return;
    clearTimeout(timer);
    inFlight = true;
    hold(true);
    setButtons(true);
    if (!attempt) {
      show("busy", text.textSending || gettext("Sending…"));
      if (status.scrollIntoView) status.scrollIntoView({ block: "nearest" });
    }
    var controller = window.AbortController ? new AbortController() : null;
    var timeout = setTimeout(function () { if (controller) controller.abort(); }, TIMEOUT);
    fetch(pending.url, {
      method: "PUT",
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Authorization": "Bearer " + token
      },
      body: JSON.stringify(pending.body),
      // The phone's device cookie goes along: the tap is this phone's own to undo.
      credentials: "same-origin",
      cache: "no-store",
      signal: controller ? controller.signal : undefined
    }).then(function (response) {
      clearTimeout(timeout);
      if (response.status >= 500 || response.status === 429 || response.status === 408) {
        throw new Error("HTTP " + response.status);
      }
      return response.json().catch(function () { return {}; }).then(function (body) {
        return { status: response.status, body: body };
      });
    }).then(function (answer) {
      inFlight = false;
      finish(answer);
    }).catch(function () {
      clearTimeout(timeout);
      inFlight = false;
      retryLater();
    });
  }

  function finish(answer) {
    var done = pending;
    pending = null;
    attempt = 0;
    save(null);
    hold(false);
    setButtons(false);
    var body = answer.body || {};
    if (answer.status === 200 || answer.status === 201) {
      var message = (text.textSaved || gettext("Saved ✓ Couple {n} won."))
        .replace("{n}", body.winner || done.body.winner);
      if (body.state === "pending") message += " " + (text.textPending || "");
      show("success", message);
    } else if (answer.status === 409 && body.code === "result_conflict") {
      var samePair = body.differs && body.differs.indexOf("winner") < 0;
      var conflict = samePair ? text.textConflictPoints : text.textConflict;
      show("error", (conflict || gettext("Couple {n} was already entered as the winner."))
        .replace("{n}", body.winner || "?"));
    } else {
      show("error", body.message || ("HTTP " + answer.status));
      if (body.code === "unusual_score") openOther(true);
    }
    if (window.Live && region()) window.Live.refresh(region());
  }

  function pointsOf(form) {
    var choice = form.querySelector("#points-choice");
    var value = choice ? choice.value : "other";
    if (value === "") return null;
    if (value !== "other") {
      var parts = value.split("-");
      return [parseInt(parts[0], 10), parseInt(parts[1], 10)];
    }
    var w = form.querySelector("#points-winner").value.trim();
    var l = form.querySelector("#points-loser").value.trim();
    if (!w && !l && !choice) return null;  // auction: no score given
    if (!/^-?\d+$/.test(w) || !/^-?\d+$/.test(l)) return undefined;
    return [parseInt(w, 10), parseInt(l, 10)];
  }

  function openOther(attention) {
    var other = document.getElementById("other-points");
    var choice = document.getElementById("points-choice");
    if (!other) return;
    if (choice) choice.value = "other";
    other.hidden = false;
    var tick = document.getElementById("confirm-unusual");
    if (attention && tick) {
      tick.parentNode.classList.add("attention");
      tick.focus();
    }
  }

  function syncOther() {
    var other = document.getElementById("other-points");
    var choice = document.getElementById("points-choice");
    if (other && choice) other.hidden = choice.value !== "other";
  }

  document.addEventListener("change", function (event) {
    if (event.target.id === "points-choice") {
      syncOther();
      if (event.target.value === "other") document.getElementById("points-winner").focus();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.win") : null;
    if (button) lastButton = button;
  }, true);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "table-entry") return;
    event.preventDefault();
    if (pending) return;  // one result at a time: the one on its way goes first
    var button = event.submitter || lastButton;
    if (!button || !button.value) return;
    var points = pointsOf(form);
    if (points === undefined) {
      show("error", text.textBadPoints || gettext("Type both scores."));
      return;
    }
    var body = {
      winner: parseInt(button.value, 10),
      key: newKey(),
      confirm_unusual: !!(form.querySelector("#confirm-unusual") || {}).checked
    };
    if (points) body.points = points;
    pending = { url: form.getAttribute("data-api-url"), body: body, at: Date.now() };
    save(pending);
    attempt = 0;
    send();
  });

  document.addEventListener("live:updated", function (event) {
    var fresh = event.detail.element;
    if (fresh.id !== "table-live") return;
    syncOther();
    var game = fresh.getAttribute("data-game");
    if (game && game !== event.detail.previous.getAttribute("data-game")) {
      show("info", (text.textNewGame || gettext("Game {n}")).replace("{n}", game));
    }
  });

  /* The table calls the desk: POST /api/v1/drives/<slug>/games/<n>/tables/<t>/call with the
   * table's token and the reason (the one picked and the players' words). The call then shows
   * in the live region (open, then "on my way" once the desk answers), and the call's form
   * stays hidden while it does. No answer: the phone says so, and the players press again
   * (a second call of the same table is refused, 409 call_open, so none is counted twice). */
  var callForm = document.getElementById("call-desk");
  var callSection = callForm ? callForm.closest("section") : null;

  function syncCall() {
    var r = region();
    if (callSection && r) callSection.hidden = !!r.querySelector("[data-call-state]");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "call-desk") return;
    event.preventDefault();
    var r = region();
    var game = (r && r.getAttribute("data-game")) || form.elements.game.value;
    var url = form.getAttribute("data-api-url").replace("/games/0/", "/games/" + game + "/");
    var words = [form.elements.reason_choice.value, form.elements.reason.value]
      .map(function (part) { return part.trim(); })
      .filter(function (part) { return part; });
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    show("busy", text.textSending || gettext("Sending…"));
    fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Authorization": "Bearer " + token
      },
      body: JSON.stringify(words.length ? { reason: words.join(" — ") } : {}),
      credentials: "same-origin",
      cache: "no-store"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        button.disabled = false;
        if (response.status === 201) {
          form.reset();
          show("success", form.getAttribute("data-text-called"));
        } else {
          show("error", body.message || ("HTTP " + response.status));
        }
        if (window.Live && region()) window.Live.refresh(region());
      });
    }).catch(function () {
      button.disabled = false;
      show("offline", text.textOffline || gettext("No connection — retrying…"));
    });
  });

  document.addEventListener("live:updated", function (event) {
    if (event.detail.element.id === "table-live") syncCall();
  });

  window.addEventListener("online", function () { if (pending && !inFlight) send(); });

  syncCall();

  syncOther();
  if (pending) send();  // a submission from before a reload, not yet answered
})();
