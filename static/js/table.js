// The table page: follow the other phone's changes, never send a form twice from a
// double tap, and print the sheet.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var url = root.dataset.stateUrl;
  var version = root.dataset.version;
  var notice = document.getElementById("sheet-changed");

  // A reload would throw away a half-entered hand, or cut off one on its way (its
  // own confirmation moves the party: the poll can hear of it before the answer
  // comes, and the queue would then send it again, answered "already stored"):
  // then the page only says so. Once the answer comes the page moves on anyway.
  var sending = false;
  function busy() {
    var el = document.activeElement;
    var typing = el && (el.tagName === "INPUT" || el.tagName === "SELECT") && el.type !== "hidden";
    return sending || typing || root.querySelector("form[data-dirty]") !== null;
  }

  // Always a GET of the seat's page: a page drawn after a refused POST must not be
  // sent again ("resubmit the form?").
  function show() { window.location.replace(root.dataset.pageUrl || window.location.pathname); }

  // The link is gone (replaced, or its party deleted): the phone's copy of this
  // page goes too, so nobody opens it offline later; the reload then says why.
  function forget() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ forget: true });
    if (!busy()) show();
  }

  // The page's number goes back as the ETag it was: while nothing changed the
  // answer is an empty 304 (not "ok", so nothing happens).
  function poll() {
    var headers = { Accept: "application/json", "If-None-Match": '"' + version + '"' };
    fetch(url, { headers: headers, cache: "no-store" })
      .then(function (r) {
        if (r.status === 404 || r.status === 410) forget();
        return r.status === 200 ? r.json() : null;
      })
      .then(function (data) {
        if (!data || data.version === version) return;
        if (!busy()) show();
        else if (notice) notice.hidden = false;
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ });
  }
  if (window.KnockPush) window.KnockPush.follow(root.dataset.eventsUrl, poll, 3000, { seat: version });
  else setInterval(poll, 3000);

  root.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("change", function () { form.dataset.dirty = "1"; });
    form.addEventListener("submit", function () {
      sending = true;
      form.querySelectorAll("[data-once]").forEach(function (b) {
        setTimeout(function () { b.disabled = true; }, 0);
      });
    });
  });

  // The quick entry shows only what the chosen ending asks for, worded for it
  // (big gin as gin). A part that does not apply is disabled too, so a number typed
  // before the ending changed is not sent with it. The server checks either way.
  var quick = document.getElementById("quick-entry");
  if (quick) {
    var fit = function () {
      var chosen = quick.querySelector("input[name=ending]:checked");
      var ending = chosen ? chosen.value : "";
      quick.querySelectorAll("[data-endings]").forEach(function (part) {
        var off = ending !== "" && part.dataset.endings.split(" ").indexOf(ending) < 0;
        part.hidden = off;
        part.querySelectorAll("input, select").forEach(function (i) { i.disabled = off; });
      });
      var key = ending === "big_gin" ? "gin" : ending || "knock";
      quick.querySelectorAll("[data-label-knock]").forEach(function (label) {
        var words = label.dataset["label" + key.charAt(0).toUpperCase() + key.slice(1)];
        if (words) label.textContent = words;
      });
    };
    quick.addEventListener("change", fit);
    fit();
  }

  root.querySelectorAll("[data-reload]").forEach(function (b) {
    b.addEventListener("click", show);
  });
  root.querySelectorAll("[data-print]").forEach(function (b) {
    b.hidden = false;
    b.addEventListener("click", function () { window.print(); });
  });
})();
