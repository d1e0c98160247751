/* "Large print" on the phone pages (a table's page, a couple's page): a button the player taps
 * to make every word larger, remembered on this phone (localStorage) for every page of the
 * night and the nights after. Loaded in the page's head (not deferred) so that the page is
 * drawn at once in the size chosen.
 *
 * It also marks a page read in larger text (html.big-text), whether by this choice, by the
 * phone's own text size setting or by a screen short for its text (a small phone, the page
 * zoomed in: fewer than SHORT lines of the browser's text fit its height), so that live.css
 * tightens what surrounds the main action ("Who won?", the couple's table) and keeps it on
 * the first screen. The screen's height is followed as it changes (turned, zoomed).
 * Without JavaScript the button stays hidden and the phone's own text size still applies.
 */
(function () {
  "use strict";

  var KEY = "fortyfives.largePrint";
  var root = document.documentElement;
  // The site's own type is 112.5% of the browser's default: past about 130% of that, the
  // reader has asked for larger text.
  var BIG = 18 * 1.3;
  // A screen this short for the browser's text (a 320×568 phone at 200% text, or zoomed in
  // to 200%) gets the tight layout whatever the text size.
  var SHORT = window.matchMedia ? window.matchMedia("(max-height: 36em)") : null;

  function stored() {
    try { return window.localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function store(on) {
    try {
      if (on) window.localStorage.setItem(KEY, "1");
      else window.localStorage.removeItem(KEY);
    } catch (e) { /* private mode: the choice lasts for this page only */ }
  }

  function apply(on) {
    root.classList.toggle("large-print", on);
    var big = parseFloat(getComputedStyle(root).fontSize) >= BIG;
    root.classList.toggle("big-text", big || (SHORT !== null && SHORT.matches));
    var buttons = document.querySelectorAll("[data-large-print]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", on ? "true" : "false");
    }
  }

  apply(stored());
  if (SHORT !== null && SHORT.addEventListener) {
    SHORT.addEventListener("change", function () { apply(stored()); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    apply(stored());
    var buttons = document.querySelectorAll("[data-large-print]");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener("click", function () {
        var on = !root.classList.contains("large-print");
        store(on);
        apply(on);
      });
    }
  });
})();
