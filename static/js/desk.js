/* The desk grid, by keyboard: type the table, Enter (or Tab), the winning couple, Enter.
 *
 * Entries and the grid's buttons are posted with fetch (the answer is JSON: a line for the
 * scorer and a level), so the page never reloads: the answer shows in #desk-status, the
 * fields empty, the focus goes back to #desk-table, and the grid is fetched again at once.
 * Without JavaScript the same forms post and the page comes back with the same line.
 * While typing a table number, #desk-hint names its couples and its state from the grid.
 * A refused line never leaves a winner behind for another table: typing a table number
 * empties the winner and the points, and a refusal of the table or the winner empties them
 * too and selects the table (a refused score selects the points, an unusual one the tick).
 * The grid itself is refreshed by poll.js; when the next game starts, entries follow it.
 */
(function () {
  "use strict";
  // The words of the djangojs catalog (Django's JavaScriptCatalog, /jsi18n/, loaded first).
  var gettext = window.gettext || function (s) { return s; };

  var form = document.getElementById("desk-entry");
  var status = document.getElementById("desk-status");
  var tableInput = document.getElementById("desk-table");
  var winnerInput = document.getElementById("desk-winner");
  var pointsInput = document.getElementById("desk-points");
  var confirmBox = document.getElementById("desk-confirm");
  var gameInput = document.getElementById("desk-game");
  var hint = document.getElementById("desk-hint");
  var text = form ? form.dataset : {};
  var lastButton = null;
  var sending = false;

  function grid() { return document.getElementById("desk-grid"); }

  function show(level, message) {
    if (!status) return;
    status.className = "status status-" + level;
    status.textContent = message;
  }

  function send(formEl, button, done) {
    if (sending) return;
    sending = true;
    var data = new FormData(formEl);
    if (button && button.name) data.append(button.name, button.value);
    show("busy", text.textSending || gettext("Sending…"));
    // getAttribute: the forms have a field named "action", which hides the form's property.
    fetch(formEl.getAttribute("action") || window.location.pathname, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "X-Requested-With": "fetch" }
    }).then(function (response) {
      return response.json().catch(function () {
        return { ok: false, level: "error", message: "HTTP " + response.status };
      });
    }).then(function (answer) {
      sending = false;
      show(answer.level || (answer.ok ? "success" : "error"), answer.message || "");
      done(answer);
      if (window.Live && grid()) window.Live.refresh(grid());
    }).catch(function () {
      sending = false;
      show("error", text.textOffline || gettext("No connection: nothing was saved. Press Enter to try again."));
      done(null);
    });
  }

  function rowOf(number) {
    var g = grid();
    if (!g || !/^\d+$/.test(number)) return null;
    return g.querySelector('tr[data-table="' + number + '"]');
  }

  function updateHint() {
    if (!hint) return;
    var number = tableInput.value.trim();
    if (!number) { hint.textContent = text.textHint || ""; return; }
    var row = rowOf(number);
    if (!row) {
      hint.textContent = (text.textNoTable || gettext("No table {t} in this game.")).replace("{t}", number);
      return;
    }
    var couples = (row.getAttribute("data-couples") || "").split(" ").filter(Boolean);
    var result = row.querySelector(".result");
    var state = result ? result.textContent.replace(/\s+/g, " ").trim() : "";
    hint.textContent = (text.textTable || gettext("Table {t}: {couples}"))
      .replace("{t}", number)
      .replace("{couples}", couples.join(" v ")) + (state ? " — " + state : "");
  }

  // The rest of the line belongs to the table it was typed for: a new table number empties it,
  // so that Enter can never send a winner typed for another table (or refused at one).
  function clearAfterTable() {
    winnerInput.value = "";
    if (pointsInput) pointsInput.value = "";
    if (confirmBox) {
      confirmBox.checked = false;
      confirmBox.parentNode.classList.remove("attention");
    }
  }

  if (form) {
    tableInput.addEventListener("input", function () {
      clearAfterTable();
      updateHint();
    });
    tableInput.addEventListener("keydown", function (event) {
      // Enter after the table number goes on to the winner, unless both are typed already.
      if (event.key === "Enter" && tableInput.value.trim() && !winnerInput.value.trim()) {
        event.preventDefault();
        winnerInput.focus();
      }
    });

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!tableInput.value.trim()) { tableInput.focus(); return; }
      if (!winnerInput.value.trim()) { winnerInput.focus(); return; }
      send(form, null, function (answer) {
        var attention = confirmBox && confirmBox.parentNode;
        // Stored, replayed, or kept as a conflict for the grid to settle: the line is done.
        if (answer && (answer.ok || answer.status === 409)) {
          tableInput.value = "";
          winnerInput.value = "";
          if (pointsInput) pointsInput.value = "";
          if (confirmBox) confirmBox.checked = false;
          if (attention) attention.classList.remove("attention");
          updateHint();
          tableInput.focus();
        } else if (answer && answer.field === "confirm" && confirmBox) {
          attention.classList.add("attention");
          confirmBox.focus();
        } else if (answer && answer.field === "points" && pointsInput) {
          pointsInput.focus();  // the table and its winner were right: only the points go again
          pointsInput.select();
        } else if (answer) {
          // Refused for its table or its winner: the line starts again at the table, kept and
          // selected (Enter goes on to an empty winner, a digit types another table).
          clearAfterTable();
          updateHint();
          tableInput.focus();
          tableInput.select();
        } else {
          tableInput.focus();  // no answer (offline): the whole line stays for Enter to resend
          tableInput.select();
        }
      });
    });
  }

  // The grid's own forms (a couple's "won" button, settling a conflict): the same path.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[type=submit]") : null;
    if (button && button.form && button.form.classList.contains("row-form")) lastButton = button;
  }, true);
  document.addEventListener("submit", function (event) {
    var formEl = event.target;
    if (!formEl.classList || !formEl.classList.contains("row-form")) return;
    event.preventDefault();
    var button = event.submitter || lastButton;
    send(formEl, button, function (answer) {
      if (answer && answer.ok) {
        var details = formEl.closest("details");
        if (details) details.open = false;
      }
      if (tableInput) tableInput.focus();
    });
  });

  // The tables waiting for the desk: how long each has waited, counted here between polls
  // (the grid is drawn once for every desk until something changes).
  function countWaits() {
    var g = grid();
    if (!g) return;
    var waits = g.querySelectorAll(".call-waited[data-called-at]");
    var now = Date.now() / 1000;
    for (var i = 0; i < waits.length; i++) {
      var since = parseInt(waits[i].getAttribute("data-called-at"), 10);
      var minutes = Math.max(0, Math.floor((now - since) / 60));
      waits[i].textContent = (waits[i].getAttribute("data-text-waited") || "{m} min")
        .split("{m}").join(String(minutes))
        .split("{t}").join(waits[i].getAttribute("data-since") || "");
    }
  }
  setInterval(countWaits, 15000);
  document.addEventListener("live:updated", countWaits);
  countWaits();

  // A new game in the grid: entries go to it from now on.
  document.addEventListener("live:updated", function (event) {
    var fresh = event.detail.element;
    if (fresh.id !== "desk-grid") return;
    if (!form && fresh.getAttribute("data-in-play") === "1") {
      window.location.reload();  // the night has just started: bring in the entry line
      return;
    }
    var previous = event.detail.previous;
    var game = fresh.getAttribute("data-game");
    if (gameInput && fresh.getAttribute("data-in-play") === "1" && gameInput.value !== game) {
      gameInput.value = game;
      if (previous.getAttribute("data-game") !== game) {
        show("info", (text.textNewGame || gettext("Game {n} has started.")).split("{n}").join(game));
      }
    }
    updateHint();
  });
})();

/* A focused control is never under the sticky entry line (WCAG 2.4.11): the page's
 * scroll-padding-top (live.css) follows the line's height, which grows when its fields wrap
 * (a narrow window, zoom, larger text), so the browser scrolls a control reached by Tab or
 * Shift+Tab, or a "Missing: N" link's row, clear of it. */
(function () {
  "use strict";
  var entry = document.getElementById("desk-entry");
  if (!entry || !window.ResizeObserver) return;
  var root = document.documentElement;
  new ResizeObserver(function () {
    root.style.setProperty("--desk-entry-height", Math.ceil(entry.offsetHeight) + "px");
  }).observe(entry);
})();
