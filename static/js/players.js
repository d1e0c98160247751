/* The door's type-ahead (templates/drives/couple_list.html): each of the two names offers
   the club's players whose name has a word starting with what was typed (GET
   /api/v1/clubs/<club>/players?q=…: accents and case ignored), as an ARIA combobox with its
   listbox. Arrow keys move through the players, Enter chooses the one marked (Enter with none
   marked registers the couple as before), Escape closes the list. Choosing one puts its name in
   the box and its id in the hidden field beside it (player1_id, player2_id), so the couple is
   linked to that very player (two Mary MacDonalds); typing again forgets the id. Without the
   script the boxes work as always: a name is matched to the club's players by the server. */
(function () {
  "use strict";
  var form = document.querySelector("form.register[data-players-url]");
  if (!form || !window.fetch) return;
  var url = form.dataset.playersUrl;
  var status = document.createElement("div");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  form.appendChild(status);

  function words(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, name) { return values[name]; });
  }

  function combobox(input, hidden, n) {
    var list = document.createElement("ul");
    list.id = "players-" + n;
    list.className = "players-list";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", form.dataset.textPlayers || "Players");
    list.hidden = true;
    input.parentNode.classList.add("has-players");
    input.insertAdjacentElement("afterend", list);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", list.id);
    var players = [];
    var active = -1;
    var timer = null;
    var asking = null;

    function close() {
      list.hidden = true;
      list.replaceChildren();
      players = [];
      active = -1;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
    }

    function mark(index) {
      active = index;
      Array.prototype.forEach.call(list.children, function (item, i) {
        item.setAttribute("aria-selected", i === index ? "true" : "false");
      });
      if (index < 0) {
        input.removeAttribute("aria-activedescendant");
      } else {
        input.setAttribute("aria-activedescendant", list.children[index].id);
        list.children[index].scrollIntoView({ block: "nearest" });
      }
    }

    function choose(index) {
      var player = players[index];
      input.value = player.name;
      hidden.value = String(player.id);
      close();
    }

    // "2026-11-28" as the page's language writes a day ("28 Nov 2026", "28 nov. 2026").
    function dayOf(iso) {
      var parts = iso.split("-").map(Number);
      var day = new Date(parts[0], parts[1] - 1, parts[2]);
      try {
        return day.toLocaleDateString(document.documentElement.lang || undefined,
          { day: "numeric", month: "short", year: "numeric" });
      } catch (error) {
        return iso;
      }
    }

    function show(found) {
      players = found;
      list.replaceChildren();
      found.forEach(function (player, i) {
        var item = document.createElement("li");
        item.id = list.id + "-" + i;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        item.dataset.player = String(player.id);
        var name = document.createElement("span");
        name.textContent = player.name;
        var about = document.createElement("span");
        about.className = "hint";
        about.textContent = player.last_night
          ? words(form.dataset.textPlayed || "{nights} · {day}",
            { nights: player.nights, day: dayOf(player.last_night) })
          : (form.dataset.textNew || "");
        item.append(name, " ", about);
        item.addEventListener("mousedown", function (event) {
          event.preventDefault(); // the box keeps the focus
          choose(i);
        });
        list.appendChild(item);
      });
      active = -1;
      list.hidden = found.length === 0;
      input.setAttribute("aria-expanded", found.length ? "true" : "false");
      // On a phone the list opens below the fold: bring it into view, the box as near as fits.
      if (found.length && list.scrollIntoView) list.scrollIntoView({ block: "nearest" });
      status.textContent = found.length
        ? words(form.dataset.textFound || "{count}", { count: found.length })
        : "";
    }

    function ask() {
      var typed = input.value.trim();
      if (asking) asking.abort();
      if (!typed) { close(); return; }
      asking = window.AbortController ? new AbortController() : null;
      fetch(url + "?q=" + encodeURIComponent(typed), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: asking ? asking.signal : undefined
      }).then(function (response) {
        return response.ok ? response.json() : [];
      }).then(function (found) {
        if (document.activeElement === input && input.value.trim() === typed) show(found);
      }).catch(function () { /* offline or replaced by the next letter: no list */ });
    }

    input.addEventListener("input", function () {
      hidden.value = ""; // a name typed again is no longer the player chosen
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, 120);
    });
    input.addEventListener("keydown", function (event) {
      var open = !list.hidden && players.length > 0;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!open) { ask(); return; }
        event.preventDefault();
        // Down from the last player, or up from the first, goes back to what was typed.
        var next = active + (event.key === "ArrowDown" ? 1 : -1);
        if (next >= players.length) next = -1;
        if (next < -1) next = players.length - 1;
        mark(next);
      } else if (event.key === "Enter" && open && active >= 0) {
        event.preventDefault(); // chooses; the next Enter registers
        choose(active);
      } else if (event.key === "Escape" && open) {
        event.preventDefault();
        close();
      } else if (event.key === "Tab") {
        close();
      }
    });
    input.addEventListener("blur", function () { window.setTimeout(close, 0); });
  }

  [1, 2].forEach(function (n) {
    var input = form.querySelector("[name=player" + n + "]");
    var hidden = form.querySelector("[name=player" + n + "_id]");
    if (input && hidden) combobox(input, hidden, n);
  });
})();
