{% load static %}// The seat pages' service worker, served as /table/sw.js so that it answers for
// the pages under /table/ and nowhere else (never /manage/). It keeps the page of
// each seat this phone opened, and the static files, so that a reload without
// network still shows the sheet as last known. Always the network first: a fresh
// page replaces the kept one, and a 404 or 410 (the organizer replaced the link)
// deletes it, so a replaced link is never shown again. A page is only ever answered
// from its own address, so no seat sees another seat's page; the polled number,
// the forms and everything else pass by untouched.
"use strict";

var CACHE = "knock-seat-1";
var SEAT_PAGE = /^\/table\/[^/]+\/$/;
var STATIC = "{% get_static_prefix %}";

function kept(url) {
  if (url.origin !== self.location.origin) return false;
  return SEAT_PAGE.test(url.pathname) || url.pathname.indexOf(STATIC) === 0;
}

// A page is kept without its query string; a static file by its whole address.
function keyOf(url) {
  return SEAT_PAGE.test(url.pathname) ? url.origin + url.pathname : url.href;
}

function remember(url, response) {
  return caches.open(CACHE).then(function (cache) {
    if (response.ok) return cache.put(keyOf(url), response);
    if (response.status === 404 || response.status === 410) return cache.delete(keyOf(url));
  });
}

self.addEventListener("install", function () { self.skipWaiting(); });

// No clients.claim(): a page opened before the worker ran keeps going to the
// network; from its next load on, the worker answers for it.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
    })
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
      event.waitUntil(remember(url, response.clone()));
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
  if (!source || !Array.isArray(data.keep)) return;
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
