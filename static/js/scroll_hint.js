/* Tables wider than their box: say so. Each box that scrolls sideways (.table-scroll,
 * .grid-scroll, .table-container, or a table that is its own box on a narrow screen, see
 * site.css) gets data-scrolls = "start" | "middle" | "end" (where it is scrolled to; the CSS
 * fades the side with more columns) and, just above it, a hint "Swipe sideways for more
 * columns →" in the words of this script's data-text. A box that fits gets neither. Checked
 * on load, on resize, on scroll, and after a live region was refreshed (poll.js).
 * Without JavaScript the tables still scroll inside their boxes; only the hint is missing.
 */
(function () {
  "use strict";
  // The words of the djangojs catalog (Django's JavaScriptCatalog, /jsi18n/, loaded first).
  var gettext = window.gettext || function (s) { return s; };

  var me = document.currentScript;
  var TEXT = (me && me.getAttribute("data-text")) || gettext("Swipe sideways for more columns →");
  var BOXES = ".table-scroll, .grid-scroll, .table-container";

  function scrollsItself(el) {
    var overflow = window.getComputedStyle(el).overflowX;
    return overflow === "auto" || overflow === "scroll";
  }

  function boxes() {
    var found = Array.prototype.slice.call(document.querySelectorAll(BOXES));
    var tables = document.querySelectorAll("main table");
    for (var i = 0; i < tables.length; i++) {
      if (!tables[i].parentElement.closest(BOXES) && scrollsItself(tables[i])) found.push(tables[i]);
    }
    return found;
  }

  function hintOf(box) {
    var before = box.previousElementSibling;
    if (before && before.classList.contains("scroll-hint")) return before;
    var hint = document.createElement("p");
    hint.className = "scroll-hint";
    hint.setAttribute("aria-hidden", "true");
    hint.textContent = TEXT;
    box.parentNode.insertBefore(hint, box);
    return hint;
  }

  function mark(box) {
    var more = box.scrollWidth - box.clientWidth;
    if (more <= 1) {
      box.removeAttribute("data-scrolls");
      var old = box.previousElementSibling;
      if (old && old.classList.contains("scroll-hint")) old.hidden = true;
      return;
    }
    var left = Math.abs(box.scrollLeft);
    box.setAttribute("data-scrolls", left < 2 ? "start" : left >= more - 2 ? "end" : "middle");
    hintOf(box).hidden = false;
    if (!box.hasAttribute("data-scroll-watched")) {
      box.setAttribute("data-scroll-watched", "");
      // A keyboard reaches the hidden columns too: the box takes the focus, the arrows scroll it.
      if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
      box.addEventListener("scroll", function () { mark(box); }, { passive: true });
    }
  }

  function markAll() { boxes().forEach(mark); }

  var timer = null;
  function later() {
    clearTimeout(timer);
    timer = setTimeout(markAll, 100);
  }

  window.addEventListener("resize", later);
  document.addEventListener("live:updated", markAll);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markAll);
  else markAll();
  window.addEventListener("load", markAll);
})();
