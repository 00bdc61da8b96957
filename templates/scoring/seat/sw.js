{% load static %}// The seat pages' service worker, served as /table/sw.js so that it answers for
// the pages under /table/ and nowhere else (never /manage/). It keeps the page of
// each seat this phone opened, and the static files, so that a reload without
// network still shows the sheet as last known. Always the network first: a fresh
// page replaces the kept one. A phone may be shared (one phone per table, players
// changing), so it keeps only what its running seats need: a page is kept only
// when the server says so (the Knock-Offline-Copy header, sent while the party
// runs); any other answer of the server for that address — the finished or
// cancelled party, a 404 or the 410 of a replaced link — deletes the copy. When
// the worker starts, and whenever the phone opens another seat than the last, it
// asks the server about every other page it keeps and drops those that are gone.
// A page is kept under its own address, which holds the seat's token, and only
// ever answered from that address: someone opening another seat's link on the
// same phone gets that seat's page or nothing, never the first seat's. The polled
// number, the forms and everything else pass by untouched.
"use strict";

var CACHE = "knock-seat-2"; // a new name drops what older workers kept
var SEAT_PAGE = /^\/table\/[^/]+\/$/;
var STATIC = "{% get_static_prefix %}";

function kept(url) {
  if (url.origin !== self.location.origin) return false;
  return SEAT_PAGE.test(url.pathname) || url.pathname.indexOf(STATIC) === 0;
}

// The seat pages whose link this phone learned is gone (replaced, or unknown to the
// server): never kept again.
var gone = {};

// A page is kept without its query string; a static file by its whole address.
function keyOf(url) {
  return SEAT_PAGE.test(url.pathname) ? url.origin + url.pathname : url.href;
}

// Every change of the kept copies goes through one queue, in the order the answers
// came: a copy deleted because its link is gone is never put back by an answer from
// before, which arrived earlier but whose copy was still being written.
var writes = Promise.resolve();
function inTurn(change) {
  writes = writes.then(change, change);
  return writes;
}

function remember(url, response) {
  return inTurn(function () {
    return caches.open(CACHE).then(function (cache) {
      if (!SEAT_PAGE.test(url.pathname)) {
        if (response.ok) return cache.put(keyOf(url), response);
        return;
      }
      if (response.ok && response.headers.get("Knock-Offline-Copy") === "keep" && !gone[url.pathname]) {
        return cache.put(keyOf(url), response);
      }
      // A link the server does not know (404) or replaced (410) never comes back:
      // an answer to an earlier request, slower than this one, must not keep it.
      if (response.status === 404 || response.status === 410) gone[url.pathname] = true;
      // A server error or a refusal of the moment (429) says nothing about the seat.
      if (response.ok || gone[url.pathname]) return cache.delete(keyOf(url));
    });
  });
}

// Asks the server about each kept seat page but ``except`` and keeps only those it
// still says may be kept. Without network nothing changes.
function sweep(except) {
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (kept) {
        var url = new URL(kept.url);
        if (!SEAT_PAGE.test(url.pathname) || url.pathname === except) return;
        return fetch(url.href, { credentials: "same-origin", cache: "no-store" }).then(
          function (response) { return remember(url, response); },
          function () { /* no network: asked again next time */ }
        );
      }));
    });
  });
}

var lastSeat = null;

self.addEventListener("install", function () { self.skipWaiting(); });

// No clients.claim(): a page opened before the worker ran keeps going to the
// network; from its next load on, the worker answers for it.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return sweep(null); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (!kept(url)) return;
  if (SEAT_PAGE.test(url.pathname) && request.mode !== "navigate") return;
  event.respondWith(
    fetch(request).then(function (response) {
      var done = remember(url, response.clone());
      if (SEAT_PAGE.test(url.pathname) && url.pathname !== lastSeat) {
        // Another seat than the last on this phone: maybe another player.
        lastSeat = url.pathname;
        done = done.then(function () { return sweep(url.pathname); });
      }
      event.waitUntil(done);
      return response;
    }, function (error) {
      return caches.match(keyOf(url)).then(function (copy) { return copy || Promise.reject(error); });
    })
  );
});

// The first visit happens before the worker runs: the page then asks for itself and
// its files to be kept. Only its own address, never another seat's.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  var source = event.source && event.source.url ? new URL(event.source.url) : null;
  if (!source) return;
  if (data.forget && SEAT_PAGE.test(source.pathname)) {
    // The page learned that its link is gone: its copy goes, and only its own; an
    // answer still on its way from before (the page's own ask to be kept) must not
    // put it back.
    gone[source.pathname] = true;
    event.waitUntil(inTurn(function () {
      return caches.open(CACHE).then(function (cache) { return cache.delete(keyOf(source)); });
    }));
    return;
  }
  if (!Array.isArray(data.keep)) return;
  var urls = data.keep.map(function (u) { return new URL(u, source); }).filter(function (url) {
    if (!kept(url)) return false;
    return !SEAT_PAGE.test(url.pathname) || url.pathname === source.pathname;
  });
  event.waitUntil(Promise.all(urls.map(function (url) {
    return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
      return remember(url, response);
    }, function () { /* no network: the next visit keeps it */ });
  })));
});

// A notice pushed to this phone (the player's choice, on the player's own page):
// shown, and a tap opens its link (the seat, the standings).
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "Knock", {
    body: data.body || "",
    data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.openWindow(url));
});
