// The table page: follow the other phone's changes, never send a form twice from a
// double tap, and print the sheet.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var url = root.dataset.stateUrl;
  var version = root.dataset.version;
  var notice = document.getElementById("sheet-changed");

  // A reload would throw away a half-entered hand: then the page only says so.
  function busy() {
    var el = document.activeElement;
    var typing = el && (el.tagName === "INPUT" || el.tagName === "SELECT") && el.type !== "hidden";
    return typing || root.querySelector("form[data-dirty]") !== null;
  }

  // Always a GET of the seat's page: a page drawn after a refused POST must not be
  // sent again ("resubmit the form?").
  function show() { window.location.replace(root.dataset.pageUrl || window.location.pathname); }

  // The page's number goes back as the ETag it was: while nothing changed the
  // answer is an empty 304 (not "ok", so nothing happens).
  function poll() {
    var headers = { Accept: "application/json", "If-None-Match": '"' + version + '"' };
    fetch(url, { headers: headers, cache: "no-store" })
      .then(function (r) { return r.status === 200 ? r.json() : null; })
      .then(function (data) {
        if (!data || data.version === version) return;
        if (!busy()) show();
        else if (notice) notice.hidden = false;
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ });
  }
  if (window.KnockPush) window.KnockPush.follow(root.dataset.eventsUrl, poll, 3000);
  else setInterval(poll, 3000);

  root.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("change", function () { form.dataset.dirty = "1"; });
    form.addEventListener("submit", function () {
      form.querySelectorAll("[data-once]").forEach(function (b) {
        setTimeout(function () { b.disabled = true; }, 0);
      });
    });
  });

  root.querySelectorAll("[data-reload]").forEach(function (b) {
    b.addEventListener("click", show);
  });
  root.querySelectorAll("[data-print]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { window.print(); });
  });
})();
