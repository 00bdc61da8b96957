// The table page without network. An entry or confirmation made while the network
// is gone waits on the phone (localStorage: it survives a reload), with the form's
// idempotency key and the version a confirmation names, and goes out by itself when
// the network is back: on loading the page, on the "online" event, when the phone
// wakes, and on a timer from 1 to 30 seconds. The server stores a key once, so a
// submission sent again after a lost answer is never stored twice; a hand that
// changed meanwhile is refused by the server as always, and the page then shows it.
// A key means one request: the server refuses it with another hand or entry
// (shown as the page's message), so once a submission holds the page's key, the
// page's forms take a new one for the next.
// The service worker (/table/sw.js) keeps the page for a reload without network.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var page = root.dataset.pageUrl;
  var store = "knock-outbox:" + page; // each seat its own queue
  var banner = document.getElementById("outbox");
  var offline = document.getElementById("offline-sheet");
  var FORMS = ["quick-entry", "cards-entry", "confirm-hand", "game-entry"];

  function load() {
    try { return JSON.parse(window.localStorage.getItem(store)) || []; } catch (e) { return []; }
  }

  function save(list) {
    if (list.length) window.localStorage.setItem(store, JSON.stringify(list));
    else window.localStorage.removeItem(store);
    count(list);
  }

  function count(list) {
    if (!banner) return;
    banner.hidden = list.length === 0;
    var words = list.length === 1 ? banner.dataset.one : banner.dataset.many.replace("{n}", list.length);
    banner.querySelector("[data-count]").textContent = words;
  }

  function cut(key) {
    save(load().filter(function (e) { return e.key !== key; }));
  }

  // One waiting submission per form and hand, and per key: a later one replaces it
  // (nothing of it went out yet, and the player changed his mind).
  function put(entry) {
    var list = load().filter(function (e) {
      return e.key !== entry.key && !(e.action === entry.action && e.number === entry.number);
    });
    list.push(entry);
    save(list);
  }

  // The next submission from this page (a correction, the next hand while the
  // network is gone) goes with a key of its own.
  function renew() {
    var key = window.crypto && window.crypto.randomUUID
      ? window.crypto.randomUUID().replace(/-/g, "")
      : Date.now().toString(16) + Math.random().toString(16).slice(2);
    root.querySelectorAll('input[name="key"]').forEach(function (input) { input.value = key; });
  }

  function disconnected(yes) {
    if (offline) offline.hidden = !yes;
  }

  // "sent": the server answered with the redirect to the seat's page, where its
  // message waits; "refused": it will not take this (sending again would not
  // help); "later": no network, or the server is in trouble.
  function send(entry) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); });
    return fetch(entry.action, { method: "POST", body: body, redirect: "manual", credentials: "same-origin" })
      .then(function (r) {
        disconnected(false);
        if (r.type === "opaqueredirect" || (r.status >= 300 && r.status < 400)) return "sent";
        if (r.status >= 400 && r.status < 500 && r.status !== 408 && r.status !== 429) return "refused";
        return "later";
      }, function () {
        disconnected(true);
        return "later";
      });
  }

  var draining = false;
  var timer = null;
  var delay = 1000;

  function later() {
    if (timer) return;
    timer = setTimeout(function () { timer = null; drain(); }, delay);
    delay = Math.min(delay * 2, 30000);
  }

  // Oldest first, one at a time; then the seat's page, with what the server said.
  function drain() {
    if (draining || !load().length) return;
    draining = true;
    var sent = false;
    (function next() {
      var list = load();
      if (!list.length) {
        draining = false;
        delay = 1000;
        if (sent) window.location.replace(page);
        return;
      }
      var entry = list[0];
      send(entry).then(function (outcome) {
        if (outcome === "later") {
          draining = false;
          later();
          return;
        }
        if (outcome === "refused") {
          // Its reason was on a page nobody saw: the page says so after the reload.
          window.localStorage.setItem(store + ":refused", "1");
        }
        cut(entry.key);
        sent = true;
        next();
      });
    })();
  }

  FORMS.forEach(function (id) {
    var form = document.getElementById(id);
    if (!form) return;
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return;
      event.preventDefault();
      var data = new FormData(form);
      var entry = {
        action: form.action,
        number: data.get("number"),
        key: data.get("key"),
        fields: Array.from(data.entries()),
      };
      // Kept before anything goes out: a reload or a dead battery loses nothing.
      put(entry);
      renew();
      // One sender at a time: were the queue going out now (the page's first
      // check, the network back), the same key would go twice and its second
      // answer ("already stored") would hide the first. The queue takes it along.
      if (draining) return;
      draining = true;
      send(entry).then(function (outcome) {
        draining = false;
        if (outcome === "later") {
          // The player looks at the button he tapped: the count goes where he sees it.
          if (banner) banner.scrollIntoView({ block: "center" });
          later();
          return;
        }
        cut(entry.key);
        if (outcome === "sent") {
          if (load().length) drain(); else window.location.replace(page);
        } else {
          // The server's answer as without script (a mistake shows the form again);
          // nothing was stored, so the same key may go again.
          form.submit();
        }
      });
    });
  });

  // The page, opened from the phone's copy, says that it may be old.
  function check(unreachable) {
    fetch(root.dataset.stateUrl, { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (r) { return r.text(); })
      .then(function () { disconnected(false); drain(); }, function () {
        disconnected(true);
        if (unreachable) unreachable();
      });
  }
  window.addEventListener("online", function () { check(); });
  window.addEventListener("offline", function () { disconnected(true); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") check();
  });
  count(load());
  var refused = document.getElementById("outbox-refused");
  if (refused && window.localStorage.getItem(store + ":refused")) {
    window.localStorage.removeItem(store + ":refused");
    refused.hidden = false;
  }
  check(function () {
    // A page from the phone's copy still carries the messages of its time: they
    // are not news any more.
    document.querySelectorAll(".messages").forEach(function (m) { m.hidden = true; });
  });

  if ("serviceWorker" in navigator && root.dataset.worker) {
    navigator.serviceWorker.register(root.dataset.worker).then(function () {
      if (navigator.serviceWorker.controller) return;
      return navigator.serviceWorker.ready.then(function (registration) {
        var files = Array.prototype.map.call(
          document.querySelectorAll("script[src], link[rel=stylesheet], link[rel=icon]"),
          function (el) { return el.src || el.href; }
        );
        registration.active.postMessage({ keep: [page].concat(files) });
      });
    }).catch(function () { /* no worker (a private window): the page works as before */ });
  }
})();
