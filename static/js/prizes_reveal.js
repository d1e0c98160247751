/* The cut's cards one couple at a time: inside [data-reveal], each .cut-card shows in turn,
 * round after round (every data-reveal-seconds, or at once on Space / the right arrow).
 * Without JavaScript every card shows at once.
 */
(function () {
  "use strict";
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
      if (event.key === " " || event.key === "ArrowRight") { event.preventDefault(); next(); }
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
