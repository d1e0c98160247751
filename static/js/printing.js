// The print page's progress bar: poll the document's status every second until it is done
// (then download it) or failed.
(function () {
  "use strict";
  var panel = document.querySelector("[data-status-url]");
  if (!panel) return;
  var bar = panel.querySelector("[data-role=bar]");
  var text = panel.querySelector("[data-role=status]");
  var link = panel.querySelector("[data-role=download]");
  function poll() {
    fetch(panel.dataset.statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (s) {
        if (s.pages_total) { bar.max = s.pages_total; bar.value = s.pages_done; }
        if (s.status === "done") {
          bar.max = 1; bar.value = 1;
          text.textContent = "Ready.";
          link.hidden = false;
          window.location.href = s.download_url;
        } else if (s.status === "failed") {
          text.textContent = s.error || "Failed.";
        } else {
          text.textContent = s.pages_total
            ? "Printing: " + s.pages_done + " of " + s.pages_total + " pages"
            : "Waiting for the printer…";
          setTimeout(poll, 1000);
        }
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  if (link.hidden) setTimeout(poll, 1000);
})();
