/* Couples page (templates/drives/couple_list.html).

   Registering: the form is sent in the background and the page stays where it is, so the
   door can type the next couple at once: the names are cleared and the first name has the
   focus the moment Enter is pressed, and couples are sent one after the other, in the order
   typed. The number comes back in the flash, right above the names, and the list is
   replaced; a couple refused (the same two people already registered, a name too long) is
   shown above that flash with what to do, without taking the focus from whoever is typing. Without JavaScript the form posts
   and the page comes back (redirect), as before.

   The paid / checked-in / cookie-jar buttons change without reloading the page (the form
   still posts normally without JavaScript). The "paid" tick sends its row's way of payment
   (cash, card, e-transfer, other: the select before it, cash unless another is picked),
   which the night's money records on the entry fee's line. */
(function () {
  "use strict";
  // The words of the djangojs catalog (Django's JavaScriptCatalog, /jsi18n/, loaded first).
  var gettext = window.gettext || function (s) { return s; };
  if (!window.fetch) return;

  var form = document.querySelector("form.register");
  var first = form && form.querySelector("[name=player1]");
  var second = form && form.querySelector("[name=player2]");
  var problems = document.getElementById("register-problems");
  var flags = form ? Array.prototype.slice.call(form.querySelectorAll("input[type=checkbox]")) : [];
  var defaults = flags.map(function (box) { return box.defaultChecked; });
  var queue = Promise.resolve();

  function focusFirst() {
    if (first) first.focus({ preventScroll: Boolean(window.location.hash) });
  }

  // The door's banners (the number to write on the card, a couple not sent) go where the eyes
  // are: in the register box, right above the names; a question about a couple refused goes
  // above them (#register-problems), so it never hides under the last couple's banner.
  function messagesList() {
    var list = document.getElementById("register-flash");
    if (!list) {
      list = document.createElement("ul");
      list.className = "messages";
      list.id = "register-flash";
      if (problems) {
        problems.parentNode.insertBefore(list, problems.nextSibling);
      } else {
        var main = document.querySelector("main");
        main.insertBefore(list, main.firstChild);
      }
    }
    list.setAttribute("aria-live", "polite");
    return list;
  }

  function registered(data) {
    var item = document.createElement("li");
    item.className = "couple-flash success";
    item.innerHTML = data.flash; // rendered and escaped by the server
    var list = messagesList();
    list.replaceChildren(item);
    // The page's own banner (a couple registered without the script) is the last couple's
    // no more.
    document.querySelectorAll("main .messages .couple-flash").forEach(function (old) {
      if (old !== item) old.remove();
    });
    bringIntoView(list);
    var old = document.getElementById("couples-list");
    if (old && data.list) {
      var holder = document.createElement("div");
      holder.innerHTML = data.list;
      old.replaceWith(holder.firstElementChild);
    }
  }

  function refused(html) {
    if (!problems) return;
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var panel = holder.firstElementChild;
    problems.appendChild(panel);
    bringIntoView(panel);
  }

  // The names being typed stay in view, and what was put above them (a question, a banner)
  // too as far as there is room: the page scrolls, the focus stays where it is.
  function bringIntoView(panel) {
    if (!first) return;
    var names = first.getBoundingClientRect();
    var down = names.bottom + 8 - window.innerHeight;
    if (down <= 0) {
      var top = panel.getBoundingClientRect().top;
      down = top < 8 ? -Math.min(8 - top, -down) : 0;
    }
    if (down) window.scrollBy(0, down);
  }

  function offline(data) {
    var names = (data.get("player1") || "") + " & " + (data.get("player2") || "");
    var text = (form && form.dataset.textOffline) || gettext("Not registered (no connection):");
    var item = document.createElement("li");
    item.className = "error";
    item.textContent = text + " " + names;
    messagesList().appendChild(item);
    if (first && !first.value && !second.value) {
      first.value = data.get("player1") || "";
      second.value = data.get("player2") || "";
    }
  }

  function send(data) {
    queue = queue.then(function () {
      return fetch(form.action, {
        method: "POST",
        body: data,
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        keepalive: true // a couple sent just before a click on a link is still registered
      }).then(function (response) {
        return response.json().then(function (body) {
          if (response.ok) registered(body);
          else if (body.problem) refused(body.problem);
          else offline(data);
        });
      }).catch(function () {
        offline(data);
      });
    });
  }

  function clearForm() {
    first.value = "";
    second.value = "";
    // The players chosen in the type-ahead (static/js/players.js) go with the names.
    form.querySelectorAll("[name=player1_id], [name=player2_id]").forEach(function (box) {
      box.value = "";
    });
    flags.forEach(function (box, i) { box.checked = defaults[i]; });
    var way = form.querySelector("select[name=paid_way]");
    if (way) way.selectedIndex = 0; // cash again for the next couple
    form.querySelectorAll(".form-errors, .duplicate-question, .errorlist").forEach(function (node) {
      node.remove();
    });
    form.querySelectorAll(".has-error").forEach(function (node) {
      node.classList.remove("has-error");
    });
  }

  if (form && first && second) {
    document.addEventListener("submit", function (event) {
      var sent = event.target;
      if (sent !== form && !sent.classList.contains("register-problem")) return;
      event.preventDefault();
      var data = new FormData(sent);
      var button = event.submitter;
      if (button && button.name) data.append(button.name, button.value);
      if (sent === form) {
        clearForm();
        focusFirst();
      } else {
        sent.closest("div.register-problem").remove();
        focusFirst();
      }
      send(data);
    });

    document.addEventListener("click", function (event) {
      var button = event.target.closest(".register-problem button[data-action]");
      if (!button) return;
      var panel = button.closest("div.register-problem");
      var hidden = panel.querySelector("form");
      if (button.dataset.action === "restore") {
        first.value = hidden.elements.player1.value;
        second.value = hidden.elements.player2.value;
        ["player1_id", "player2_id"].forEach(function (name) {
          if (form.elements[name] && hidden.elements[name]) {
            form.elements[name].value = hidden.elements[name].value;
          }
        });
        flags.forEach(function (box) { box.checked = Boolean(hidden.elements[box.name]); });
      }
      panel.remove();
      focusFirst();
    });

    // Back on this page (a link, or the browser's back button and its page cache): the
    // door's next couple is typed here.
    // A link to a row (#couple-12) moves the focus to that row's place once the page has
    // loaded (the browser's fragment navigation): the first name takes it back after that.
    focusFirst();
    window.addEventListener("load", function () { window.setTimeout(focusFirst, 0); });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) focusFirst();
    });
  }

  // The toggles of the list (the list is replaced after each couple: listen on the document).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("#couple-actions button.toggle");
    if (!button || button.getAttribute("aria-busy") === "true") return;
    event.preventDefault();
    var actions = button.form;
    var parts = button.value.split(":");
    var body = new FormData();
    body.append("csrfmiddlewaretoken", actions.querySelector("[name=csrfmiddlewaretoken]").value);
    body.append("set", button.value);
    // The row's way of payment (cash unless another is picked) goes with the "paid" tick.
    var way = button.parentNode.querySelector("select.pay-way");
    if (way && parts[0] === "paid") body.append("way", way.value);
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
        if (way && parts[0] === "paid") {
          way.hidden = on;
          if (!on) way.selectedIndex = 0; // unticked: cash again for the next tick
        }
      });
    }).catch(function (error) {
      window.alert(error.message);
    }).finally(function () {
      button.removeAttribute("aria-busy");
    });
  });
})();
