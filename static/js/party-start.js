// The start form of a party: only the chosen game's fields are shown. Each part
// that belongs to some games only (a game's fieldset, a seat only the larger
// tables have) lists them in data-games; a hidden part is disabled too, so its
// fields are not sent. Without script every part stays on the page, each game's
// headed by its name.
(function () {
  "use strict";
  var form = document.getElementById("party-form");
  if (!form) return;
  var parts = form.querySelectorAll("[data-games]");

  function show() {
    var checked = form.querySelector("input[name=game]:checked");
    if (!checked) return;
    parts.forEach(function (part) {
      var mine = part.dataset.games.split(" ").indexOf(checked.value) !== -1;
      part.hidden = !mine;
      if (part.tagName === "FIELDSET") {
        part.disabled = !mine;
      } else {
        part.querySelectorAll("input, select, textarea").forEach(function (field) {
          field.disabled = !mine;
        });
      }
    });
  }

  form.addEventListener("change", function (event) {
    if (event.target.name === "game") show();
  });
  show();
})();
