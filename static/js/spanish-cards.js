// The Spanish cards' picker of a Chinchón entry. The players' card fields are the
// form: typed without JavaScript, and what the server reads. The picker only taps
// cards into them and asks the server what the engine makes of them (each hand's
// least penalty), and fills that in as the penalty; the server evaluates the cards
// again when the hand is entered, so nothing here is trusted.
(function () {
  "use strict";
  var picker = document.getElementById("spanish-picker");
  var form = document.getElementById("game-entry");
  if (!picker || !form) return;
  picker.hidden = false;
  var targets = Array.prototype.slice.call(picker.querySelectorAll("[data-target]"));
  var cards = Array.prototype.slice.call(picker.querySelectorAll("[data-card]"));
  var target = targets.length ? targets[0].dataset.target : null;
  var asked = 0; // only the answer to the latest question is shown

  function field(side) { return form.elements.namedItem("cards_" + side); }

  function read(side) {
    var f = field(side);
    return f ? f.value.toUpperCase().split(/[\s,]+/).filter(Boolean) : [];
  }

  function render() {
    var owner = {};
    targets.forEach(function (t) {
      read(t.dataset.target).forEach(function (c) { owner[c] = t.dataset.target; });
      t.setAttribute("aria-pressed", String(t.dataset.target === target));
      var count = t.querySelector("[data-count]");
      if (count) count.textContent = String(read(t.dataset.target).length);
    });
    cards.forEach(function (b) {
      var who = owner[b.dataset.card];
      b.setAttribute("aria-pressed", String(who === target));
      b.disabled = who !== undefined && who !== target;
    });
  }

  var timer = null;
  function ask() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++asked;
      fetch(picker.dataset.previewUrl, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { Accept: "application/json" }
      })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) { if (data && mine === asked) show(data.sides || {}); })
        .catch(function () { /* offline: the server finds the penalty on entry */ });
    }, 250);
  }

  function show(sides) {
    targets.forEach(function (t) {
      var side = t.dataset.target;
      var out = document.getElementById("found-" + side);
      var found = sides[side];
      if (!out) return;
      out.hidden = !found;
      if (!found) return;
      if (found.message) {
        out.textContent = found.message;
        return;
      }
      var words = picker.dataset.penalty.replace("{n}", found.penalty);
      out.textContent = found.chinchon ? words + " · " + picker.dataset.chinchon : words;
      var penalty = form.elements.namedItem("penalty_" + side);
      if (penalty) penalty.value = found.penalty;
    });
  }

  targets.forEach(function (t) {
    t.addEventListener("click", function () { target = t.dataset.target; render(); });
  });
  cards.forEach(function (b) {
    b.addEventListener("click", function () {
      var f = field(target);
      if (!f) return;
      var list = read(target);
      var at = list.indexOf(b.dataset.card);
      if (at < 0) list.push(b.dataset.card); else list.splice(at, 1);
      f.value = list.join(" ");
      form.dataset.dirty = "1";
      render();
      ask();
    });
  });
  form.querySelectorAll("[data-spanish-cards]").forEach(function (f) {
    var side = f.name.replace("cards_", "");
    f.addEventListener("focus", function () { target = side; render(); });
    f.addEventListener("input", function () { render(); ask(); });
  });
  render();
})();
