/* The cut's cards one couple at a time: inside [data-reveal], each .cut-card shows in turn,
 * round after round (every data-reveal-seconds, or at once on Space / the right arrow).
 * Space and the arrow are the reveal's only when nothing that takes keys has the focus: in a
 * field they type, on a button or a link they press it, as anywhere else.
 * Without JavaScript every card shows at once.
 */
(function () {
  "use strict";
  var TAKES_KEYS = "input, textarea, select, button, a[href], summary, [contenteditable], " +
    "[role='button'], [role='textbox'], [tabindex]:not([tabindex='-1'])";

  function keysBelongElsewhere(event) {
    var target = event.target;
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return true;
    return Boolean(target && target.closest && target.closest(TAKES_KEYS));
  }

  function start(box) {
    var cards = box.querySelectorAll(".cut-card");
    var shown = 0;
    var i;
    if (!cards.length) return;
    for (i = 0; i < cards.length; i++) cards[i].classList.add("unseen");
    function next() {
      if (shown < cards.length) cards[shown++].classList.remove("unseen");
      else clearInterval(timer);
    }
    var seconds = parseFloat(box.getAttribute("data-reveal-seconds") || "2");
    var timer = setInterval(next, seconds * 1000);
    next();
    document.addEventListener("keydown", function (event) {
      if (event.key !== " " && event.key !== "ArrowRight") return;
      if (keysBelongElsewhere(event)) return;
      event.preventDefault();
      next();
    });
  }
  function init() {
    var boxes = document.querySelectorAll("[data-reveal]");
    if (!boxes.length) return;
    document.documentElement.classList.add("js-reveal");
    for (var i = 0; i < boxes.length; i++) start(boxes[i]);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
