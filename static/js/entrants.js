// The organizer's entrants: "tick all", and the check-in list follows the door by
// itself (players checking in on their phones). Every few seconds the rows and the
// count are fetched again and put in place, keeping what the organizer has ticked.
// A file of its own because the pages allow no inline script.
(function () {
  "use strict";
  var box = document.getElementById("check-in");
  var all = document.getElementById("tick-all");

  function ticks() {
    return document.querySelectorAll("#entrant-rows input[name=entrant]");
  }

  if (all) {
    all.hidden = false;  // without script the "Check in everyone" button does it
    all.addEventListener("change", function () {
      Array.prototype.forEach.call(ticks(), function (t) { t.checked = all.checked; });
    });
  }
  if (!box || !box.dataset.pollUrl) return;
  var url = box.dataset.pollUrl;
  var every = parseInt(box.dataset.pollMs, 10) || 4000;

  function swap(fresh, id) {
    var now = document.getElementById(id);
    var next = fresh.getElementById(id);
    if (now && next) now.innerHTML = next.innerHTML;
  }

  // The organizer's own form (starting the round, say) is on its way: the change
  // it makes must not reload the page under it and cut its answer off.
  var leaving = false;
  document.addEventListener("submit", function (event) { leaving = !event.defaultPrevented; });

  function poll() {
    fetch(url, { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok || leaving) return null;
        if (r.headers.get("X-Tournament-Status") !== "registration") {
          window.location.reload();
          return null;
        }
        return r.text();
      })
      .then(function (html) {
        if (!html) return;
        var ticked = {};
        Array.prototype.forEach.call(ticks(), function (t) { if (t.checked) ticked[t.value] = true; });
        var fresh = new DOMParser().parseFromString(html, "text/html");
        swap(fresh, "entrant-rows");
        swap(fresh, "check-in-summary");
        Array.prototype.forEach.call(ticks(), function (t) { t.checked = !!ticked[t.value]; });
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ });
  }
  setInterval(poll, every);
})();
