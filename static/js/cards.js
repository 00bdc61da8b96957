// The card picker on the seat page. The form's text fields hold the cards: they are
// all there is without JavaScript, and what the server reads. The picker only fills
// them in and asks the server what the rules engine makes of them; the server
// evaluates the cards again when the hand is entered, so nothing here is trusted.
(function () {
  "use strict";
  var form = document.getElementById("cards-entry");
  var picker = document.getElementById("card-picker");
  if (!form || !picker) return;

  var fields = {
    knocker: form.elements.namedItem("knocker_cards"),
    defender: form.elements.namedItem("defender_cards"),
    up: form.elements.namedItem("up_card")
  };
  var meldField = form.elements.namedItem("melds");
  var builder = document.getElementById("meld-builder");
  var meldCards = document.getElementById("meld-cards");
  var preview = document.getElementById("preview");
  var previewButton = document.getElementById("preview-hand");
  var SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  var LETTERS = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };
  var target = "knocker";
  var marked = []; // the knocker's cards marked for the next declared meld
  var asked = 0; // only the answer to the latest preview is shown

  function code(text) {
    var t = text.trim().toUpperCase();
    var suit = LETTERS[t.slice(-1)] || t.slice(-1);
    var rank = t.slice(0, -1);
    return (rank === "10" ? "T" : rank) + suit;
  }

  function read(text) {
    return (text || "").split(/[\s,]+/).filter(Boolean).map(code);
  }

  function hands() {
    return {
      knocker: read(fields.knocker.value),
      defender: read(fields.defender.value),
      up: fields.up ? read(fields.up.value).slice(0, 1) : []
    };
  }

  function melds() {
    return meldField.value.split(/[|;\n]/).map(read).filter(function (g) { return g.length; });
  }

  function cardSpan(c) {
    var span = document.createElement("span");
    var rank = c.slice(0, -1);
    var suit = c.slice(-1);
    span.className = "c" + (suit === "D" || suit === "H" ? " red" : "");
    span.textContent = (rank === "T" ? "10" : rank) + (SYMBOLS[suit] || suit);
    return span;
  }

  function render() {
    var now = hands();
    picker.querySelectorAll("[data-target]").forEach(function (b) {
      b.setAttribute("aria-pressed", b.dataset.target === target ? "true" : "false");
    });
    picker.querySelectorAll("[data-count]").forEach(function (span) {
      span.textContent = now[span.dataset.count].length;
    });
    picker.querySelectorAll("[data-card]").forEach(function (button) {
      var c = button.dataset.card;
      var owner = now.knocker.indexOf(c) >= 0 ? "knocker" : now.defender.indexOf(c) >= 0 ? "defender" : "";
      var isUp = now.up.indexOf(c) >= 0;
      // The up-card may have been picked up during play, so it can be in a hand too.
      var pressed = target === "up" ? isUp : owner === target;
      button.setAttribute("aria-pressed", pressed ? "true" : "false");
      button.dataset.in = owner;
      button.classList.toggle("up", isUp);
      button.disabled = target !== "up" && owner !== "" && owner !== target;
    });
    renderMeldCards(now.knocker);
  }

  function renderMeldCards(knocker) {
    var used = [].concat.apply([], melds());
    var free = knocker.filter(function (c) { return used.indexOf(c) < 0; });
    marked = marked.filter(function (c) { return free.indexOf(c) >= 0; });
    meldCards.textContent = "";
    free.forEach(function (c) {
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip";
      chip.dataset.meldCard = c;
      chip.setAttribute("aria-pressed", marked.indexOf(c) >= 0 ? "true" : "false");
      chip.appendChild(cardSpan(c));
      meldCards.appendChild(chip);
    });
  }

  function changed() {
    form.dataset.dirty = "1";
    preview.hidden = true;
    render();
    var now = hands();
    var complete = now.knocker.length >= 10 && now.defender.length >= 10;
    if (complete && (!fields.up || now.up.length)) ask();
  }

  function ask() {
    var mine = ++asked;
    previewButton.disabled = true;
    fetch(form.dataset.previewUrl, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin"
    })
      .then(function (r) {
        return r.json().then(function (data) { return { ok: r.ok, data: data }; });
      })
      .then(function (answer) { if (mine === asked) show(answer.ok, answer.data); })
      .catch(function () {
        if (mine === asked) show(false, { message: preview.dataset.offline });
      })
      .then(function () { previewButton.disabled = false; });
  }

  function show(ok, data) {
    preview.textContent = "";
    preview.hidden = false;
    preview.classList.toggle("error", !ok);
    if (!ok) {
      var p = document.createElement("p");
      p.textContent = data.message;
      preview.appendChild(p);
      return;
    }
    var list = document.createElement("dl");
    data.lines.forEach(function (line) {
      var dt = document.createElement("dt");
      var dd = document.createElement("dd");
      dt.textContent = line.label;
      (line.melds || []).forEach(function (meld) {
        var group = document.createElement("span");
        group.className = "meld";
        meld.forEach(function (c, i) {
          if (i) group.appendChild(document.createTextNode(" "));
          group.appendChild(cardSpan(c));
        });
        dd.appendChild(group);
      });
      (line.cards || []).forEach(function (c, i) {
        if (i) dd.appendChild(document.createTextNode(" "));
        dd.appendChild(cardSpan(c));
      });
      if (!dd.childNodes.length) dd.textContent = "–";
      if (line.points !== undefined) {
        var points = document.createElement("strong");
        points.textContent = " = " + line.points;
        dd.appendChild(points);
      }
      list.appendChild(dt);
      list.appendChild(dd);
    });
    preview.appendChild(list);
    var summary = document.createElement("p");
    summary.className = "summary";
    summary.id = "preview-summary";
    summary.textContent = data.summary;
    preview.appendChild(summary);
  }

  picker.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.target) {
      target = button.dataset.target;
      render();
      return;
    }
    var c = button.dataset.card;
    if (!c) return;
    var field = fields[target];
    var cards = read(field.value);
    var at = cards.indexOf(c);
    if (target === "up") cards = at >= 0 ? [] : [c];
    else if (at >= 0) cards.splice(at, 1);
    else cards.push(c);
    field.value = cards.join(" ");
    changed();
  });

  meldCards.addEventListener("click", function (event) {
    var chip = event.target.closest("[data-meld-card]");
    if (!chip) return;
    var c = chip.dataset.meldCard;
    var at = marked.indexOf(c);
    if (at >= 0) marked.splice(at, 1);
    else marked.push(c);
    render();
  });

  document.getElementById("make-meld").addEventListener("click", function () {
    if (!marked.length) return;
    meldField.value = melds().concat([marked]).map(function (g) { return g.join(" "); }).join(" | ");
    marked = [];
    changed();
  });

  document.getElementById("clear-melds").addEventListener("click", function () {
    meldField.value = "";
    marked = [];
    changed();
  });

  // Typed cards, a changed knocker or ruling: the preview no longer holds.
  form.addEventListener("input", changed);
  previewButton.addEventListener("click", ask);

  picker.hidden = false;
  builder.hidden = false;
  previewButton.hidden = false;
  render();
})();
