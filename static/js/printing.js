// The print page's progress bar: poll the document's status every second until it is done
// (then download it) or failed.
(function () {
  "use strict";
  // The words of the djangojs catalog (Django's JavaScriptCatalog, /jsi18n/, loaded first).
  var gettext = window.gettext || function (s) { return s; };
  var interpolate = window.interpolate || function (f, a) { return f.replace(/%s/g, function () { return a.shift(); }); };
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
          text.textContent = gettext("Ready.");
          link.hidden = false;
          window.location.href = s.download_url;
        } else if (s.status === "failed") {
          text.textContent = s.error || gettext("Failed.");
        } else {
          text.textContent = s.pages_total
            ? interpolate(gettext("Printing: %s of %s pages"), [s.pages_done, s.pages_total])
            : gettext("Waiting for the printer…");
          setTimeout(poll, 1000);
        }
      })
      .catch(function () { setTimeout(poll, 1000); });
  }
  if (link.hidden) setTimeout(poll, 1000);
})();
