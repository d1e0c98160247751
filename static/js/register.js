/* Couples page: the paid / checked-in / cookie-jar buttons change without reloading the page
   (the form still posts normally without JavaScript). */
(function () {
  "use strict";
  var form = document.getElementById("couple-actions");
  if (!form || !window.fetch) return;
  form.addEventListener("click", function (event) {
    var button = event.target.closest("button.toggle");
    if (!button || button.getAttribute("aria-busy") === "true") return;
    event.preventDefault();
    var parts = button.value.split(":");
    var body = new FormData();
    body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
    body.append("set", button.value);
    button.setAttribute("aria-busy", "true");
    fetch(button.getAttribute("formaction"), {
      method: "POST",
      body: body,
      headers: { Accept: "application/json" },
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().then(function (data) {
        if (!response.ok) throw new Error(data.message || response.statusText);
        var on = data.value === true;
        var label = on ? button.dataset.on : button.dataset.off;
        button.textContent = label;
        button.classList.toggle("on", on);
        button.classList.toggle("off", !on);
        button.value = parts[0] + ":" + (on ? "0" : "1");
        var rowLabel = button.getAttribute("aria-label") || "";
        button.setAttribute("aria-label", rowLabel.split(":")[0] + ": " + label);
      });
    }).catch(function (error) {
      window.alert(error.message);
    }).finally(function () {
      button.removeAttribute("aria-busy");
    });
  });
})();
