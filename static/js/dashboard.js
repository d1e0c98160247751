/* Dashboard while the night runs: every 10 seconds, ask the API how the game in play stands
   (and every 5 seconds which tables wait for the desk).
   When results have come in, reload the page, unless someone is typing in one of its forms:
   then only say so, with a link. Without JavaScript the page is simply reloaded by hand. */
(function () {
  "use strict";
  var night = document.getElementById("night");
  if (!night || night.dataset.state !== "running" || !window.fetch) return;
  var edited = false;
  document.addEventListener("input", function () { edited = true; });
  var shown = [night.dataset.game, night.dataset.reported, night.dataset.conflicts, night.dataset.pending].join("/");
  // Something changed: reload, unless someone is typing (then say so, with a link).
  function changed() {
    var focused = document.activeElement && /INPUT|TEXTAREA|SELECT/.test(document.activeElement.tagName);
    if (!edited && !focused) {
      window.location.reload();
    } else {
      var note = night.querySelector(".refresh");
      if (note) note.hidden = false;
    }
  }
  function check() {
    fetch(night.dataset.api, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data || !data.game) return;
        var g = data.game;
        var now = [g.number, g.reported, g.conflicts.length, g.pending.length].join("/");
        if (now === shown && data.state === night.dataset.state) return;
        changed();
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }
  // The tables waiting for the desk: a new call, or one answered or closed elsewhere, reloads
  // the page as a new result does.
  var callsShown = (night.dataset.calls || "").trim();
  function checkCalls() {
    fetch(night.dataset.callsApi, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (calls) {
        if (!calls) return;
        var now = calls.map(function (c) { return c.id + ":" + c.state; }).join(" ");
        if (now === callsShown) return;
        changed();
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }
  window.setInterval(check, 10000);
  if (night.dataset.callsApi) window.setInterval(checkCalls, 5000);
})();
