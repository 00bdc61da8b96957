// The round page: its tables follow the phones by themselves. Every few seconds the
// tables are fetched again and put in place; when the round itself has changed
// (paired, closed, undone), the whole page is loaded again. A file of its own
// because the pages allow no inline script.
(function () {
  "use strict";
  var root = document.getElementById("round");
  if (!root) return;
  var url = root.dataset.pollUrl;
  var status = root.dataset.status;
  var untouched = root.dataset.untouched;
  var every = parseInt(root.dataset.pollMs, 10) || 4000;
  var target = document.getElementById("round-tables");

  // A half-open "no-show" choice would close under the organizer's hand.
  function tablesBusy() {
    return target !== null && target.querySelector("details[open]") !== null;
  }

  // A reload would also lose a swap being chosen.
  function pageBusy() {
    var el = document.activeElement;
    var swap = document.getElementById("swap-form");
    var picked = swap !== null && Array.prototype.some.call(
      swap.querySelectorAll("select"), function (s) { return s.value !== ""; });
    return tablesBusy() || picked || (el !== null && el.tagName === "SELECT");
  }

  // The organizer's own form (closing the round, say) is on its way: the round's
  // change it makes must not reload the page under it, which would cut the answer
  // off and land here again instead of where the form leads.
  var leaving = false;
  document.addEventListener("submit", function (event) { leaving = !event.defaultPrevented; });

  // The tables' numbers go back as the ETag they were: while nothing changed the
  // answer is an empty 304 (not "ok", so nothing happens).
  var etag = null;

  function poll() {
    var headers = { Accept: "text/html" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok || leaving) return null;
        var changed = r.headers.get("X-Round-Status") !== status ||
          r.headers.get("X-Round-Untouched") !== untouched;
        if (changed && !pageBusy()) {
          window.location.reload();
          return null;
        }
        // The number is kept only once its tables are in place: a change waiting
        // for a reload, or tables not put in while the organizer picks, keep
        // coming in full until the page has them.
        var fresh = changed ? null : r.headers.get("ETag");
        return r.text().then(function (html) { return { html: html, etag: fresh }; });
      })
      .then(function (answer) {
        if (answer && answer.html && target && !tablesBusy()) {
          target.innerHTML = answer.html;
          etag = answer.etag;
        }
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ });
  }
  if (status !== "pairing" && status !== "playing") return;
  if (window.KnockPush) window.KnockPush.follow(root.dataset.eventsUrl, poll, every);
  else setInterval(poll, every);
})();
