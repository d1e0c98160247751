/* The projector's list ([data-pages]) fits the window: columns across, read down each column,
 * in the largest type at which every couple is on one screen (numbers never under 5% of the
 * screen's height). Only a list too long for that is cut into screens, turned every
 * data-page-seconds. poll.js brings a fresh list every few seconds: the same game keeps
 * its screen, a new game starts again at the first screen with the new tables highlighted.
 * Arrow keys turn the screens by hand, F toggles full screen. Without JavaScript the whole
 * list shows, and scrolls.
 */
(function () {
  "use strict";
  // The words of the djangojs catalog (Django's JavaScriptCatalog, /jsi18n/, loaded first).
  var gettext = window.gettext || function (s) { return s; };

  var page = 0;
  var pages = 1;
  var timer = null;

  function region() { return document.getElementById("projector-live"); }

  // The smallest type the list may take: numbers at 5% of the screen's height, read from
  // the back of the hall. Above it, the list takes the largest type at which every couple fits
  // on one screen; only a list too long even at the smallest type is cut into screens.
  var SMALLEST = 0.05;

  function measure(list, items, room) {
    var style = getComputedStyle(list);
    var columns = style.gridTemplateColumns.split(" ").filter(Boolean).length || 1;
    var gap = parseFloat(style.rowGap) || 0;
    var rowHeight = items[0].getBoundingClientRect().height + gap;
    var rows = Math.max(1, Math.floor((room + gap) / rowHeight));
    return { columns: columns, rows: rows, perPage: rows * columns };
  }

  function layout() {
    var r = region();
    var list = r && r.querySelector("[data-pages]");
    var pager = r && r.querySelector("[data-pager]");
    if (!list) { pages = 1; if (pager) pager.textContent = ""; return; }
    var items = list.children;
    var i;
    for (i = 0; i < items.length; i++) items[i].hidden = false;
    list.style.gridAutoFlow = "row";
    list.style.gridTemplateRows = "";
    list.style.fontSize = "";
    if (!items.length) return;
    var foot = r.querySelector(".proj-foot");
    var room = window.innerHeight - list.getBoundingClientRect().top -
      (foot ? foot.getBoundingClientRect().height : 0) - 8;
    var largest = parseFloat(getComputedStyle(list).fontSize);
    var smallest = Math.min(largest, SMALLEST * window.innerHeight);
    var size = largest;
    var fit = measure(list, items, room);
    while (fit.perPage < items.length && size > smallest) {
      size = Math.max(smallest, size - 2);
      list.style.fontSize = size + "px";
      fit = measure(list, items, room);
    }
    pages = Math.max(1, Math.ceil(items.length / fit.perPage));
    if (page >= pages) page = 0;
    // Read down each column, as on a printed list.
    list.style.gridAutoFlow = "column";
    list.style.gridTemplateRows = "repeat(" +
      Math.min(fit.rows, Math.ceil(Math.min(fit.perPage, items.length) / fit.columns)) + ", auto)";
    for (i = 0; i < items.length; i++) {
      items[i].hidden = Math.floor(i / fit.perPage) !== page;
    }
    if (pager) {
      pager.textContent = pages > 1
        ? (r.getAttribute("data-text-page") || gettext("Page {n} of {total}"))
          .replace("{n}", page + 1).replace("{total}", pages)
        : "";
    }
  }

  function turn(step) {
    page = (page + step + pages) % pages;
    layout();
  }

  function restart() {
    clearInterval(timer);
    var r = region();
    var seconds = r ? parseFloat(r.getAttribute("data-page-seconds") || "8") : 8;
    timer = setInterval(function () { if (pages > 1) turn(1); }, seconds * 1000);
  }

  document.addEventListener("live:updated", function (event) {
    var fresh = event.detail.element;
    if (fresh.id !== "projector-live") return;
    var previous = event.detail.previous;
    if (fresh.getAttribute("data-game") !== previous.getAttribute("data-game")) {
      page = 0;
      fresh.classList.add("new-game");
      setTimeout(function () { fresh.classList.remove("new-game"); }, 6000);
      restart();
    }
    layout();
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight" || event.key === "PageDown" || event.key === " ") {
      event.preventDefault(); turn(1); restart();
    } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
      event.preventDefault(); turn(-1); restart();
    } else if (event.key === "f" || event.key === "F") {
      toggleFullscreen();
    }
  });

  function toggleFullscreen() {
    var root = document.documentElement;
    if (document.fullscreenElement) document.exitFullscreen();
    else if (root.requestFullscreen) root.requestFullscreen().catch(function () {});
  }

  var button = document.querySelector("[data-fullscreen]");
  if (button && document.documentElement.requestFullscreen) {
    button.hidden = false;
    button.addEventListener("click", toggleFullscreen);
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(layout, 200);
  });

  document.documentElement.classList.add("js-paging");
  layout();
  restart();
})();
