// Live push: a page keeps one open stream (Server-Sent Events, scoring/push.py) and
// is told when what it shows has moved; it then asks as its poll does. While the
// stream is silent — not there yet, broken, held back by a proxy that buffers, or
// a browser without EventSource — the page polls as before, by itself.
// <html data-push="live"> while the stream speaks, "poll" otherwise.
(function () {
  "use strict";

  function follow(url, refresh, every) {
    var heard = 0;
    var grace = 0;
    var settle = 0;
    var asked = 0;
    var soon = null;
    var later = null;

    function live() { return heard !== 0 && Date.now() - heard < grace; }
    function mark() { document.documentElement.dataset.push = live() ? "live" : "poll"; }
    function hear() { heard = Date.now(); mark(); }

    mark();
    setInterval(function () {
      mark();
      if (!live()) refresh();
    }, every);
    if (!url || !window.EventSource) return;

    var source = null;
    function connect() {
      source = new EventSource(url);
      source.addEventListener("hello", function (event) {
        var data = JSON.parse(event.data);
        // A ping comes every data.ping seconds: one missed by more than a few
        // seconds means the stream no longer speaks, and polling takes over.
        grace = (Number(data.ping) + 5) * 1000;
        settle = Number(data.settle) * 1000;
        hear();
        refresh();  // what moved while there was no stream
      });
      source.addEventListener("ping", hear);
      source.addEventListener("moved", function () {
        hear();
        // A room of phones hears the same event: their requests are spread over a
        // quarter of a second.
        if (!settle) {
          clearTimeout(soon);
          soon = setTimeout(refresh, Math.random() * 250);
          return;
        }
        // A board that shows changes at most every `settle` seconds is asked at
        // most once in that time: at a championship a hand is confirmed somewhere
        // every moment, and two hundred spectators asking after each would cost
        // more than their poll. The first news after a quiet spell is asked at
        // once; the rest wait for one more ask when the board can have moved.
        // (The public tournament pages need none: their stream speaks only after
        // a new board is stored, at most every few seconds.)
        if (later !== null) return;
        var since = Date.now() - asked;
        var spread = Math.random() * 250;
        if (since >= settle) {
          asked = Date.now() + spread;
          soon = setTimeout(refresh, spread);
          since = -spread;
        }
        later = setTimeout(function () {
          later = null;
          asked = Date.now();
          refresh();
        }, settle - since + Math.random() * 1000);
      });
      source.addEventListener("error", function () {
        // The browser tries again by itself (unless the server said 204 or 404:
        // then the page polls for good); meanwhile the poll runs.
        heard = 0;
        mark();
      });
    }
    connect();
    // A tab in the background gives its stream up (a browser holds six
    // connections per site over HTTP/1.1, and a phone in a pocket needs none) and
    // polls as before; shown again, it opens a new one.
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        source.close();
        heard = 0;
        mark();
      } else if (source.readyState === EventSource.CLOSED) {
        connect();
      }
    });
  }

  window.KnockPush = { follow: follow };
})();
