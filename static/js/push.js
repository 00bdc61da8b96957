// Live push: a page keeps one open stream (Server-Sent Events, live/streams.py) and
// is told when what it shows has moved; it then asks as its poll does, or shows
// what the event carried (refresh is handed the event's data then). While the
// stream is silent — broken, held back by a proxy that buffers, not there ten
// seconds after the page was drawn, or a browser without EventSource — the page
// polls as before, by itself.
// <html data-push="live"> while the stream speaks, "poll" otherwise.
//
// A stream that ends is opened again. When it ends as streams do (after its ten
// minutes, a worker's death, the network), the browser reconnects by itself. When
// the browser gives it up — any answer but a 200 stream: the proxy's 502 or 503
// while `live` restarts, a 404 — or when it stops speaking, the page opens
// a new one itself, after a wait that doubles with each failure (one to two
// seconds, then two to four, … up to a minute), drawn at random within its step
// so that a room of pages cut at once does not come back in the same second. A
// stream's hello starts the count again.
(function () {
  "use strict";

  var FIRST_WAIT = 1000;  // until a hello says otherwise (its `reopen`, seconds)
  var LONGEST_WAIT = 60000;
  // A page just drawn shows what is current, and its stream's hello will say
  // whether anything moved meanwhile: so while that first stream is on its way it
  // does not poll, for this long at most, or until the stream fails. When a
  // championship starts, a thousand phones open their pages within seconds; the
  // polls of those whose stream is still opening would queue behind the pages.
  var QUIET = 10000;

  // `shown`: by the name of each counter the stream follows, the number the page
  // was drawn at (optional). A hello that finds every one still there spares the
  // page its ask.
  function follow(url, refresh, every, shown) {
    var heard = 0;
    var grace = 0;
    var settle = 0;
    var asked = 0;
    var soon = null;
    var later = null;
    var source = null;
    var first = FIRST_WAIT;
    var failures = 0;
    var reopen = null;
    var quiet = url && window.EventSource ? Date.now() + QUIET : 0;
    // The id of the last event heard: the browser sends it (Last-Event-ID) when
    // it reconnects by itself; a stream the page opens anew names it in its
    // address, so that it resumes all the same.
    var lastId = "";

    function live() { return heard !== 0 && Date.now() - heard < grace; }
    function mark() { document.documentElement.dataset.push = live() ? "live" : "poll"; }
    function hear(event) {
      heard = Date.now();
      if (event && event.lastEventId) lastId = event.lastEventId;
      mark();
    }
    function seen(versions) {
      return !!shown && !!versions && Object.keys(shown).every(function (name) {
        return versions[name] === shown[name];
      });
    }

    // The stream is gone: the page polls, and opens a new one after its wait.
    // EventSource hides the status that ended it, so any refusal is tried again,
    // a 204 too; with the wait grown to a minute that is one answer a minute
    // beside a poll every few seconds, and a page whose stream was away for long
    // (a `live` down for minutes) finds it again by itself. Only a server that
    // says it holds no streams ("poll", below) is not asked again.
    function lost() {
      if (source) source.close();
      heard = 0;
      mark();
      clearTimeout(reopen);
      reopen = null;
      if (document.hidden) return;  // opened again when shown
      var step = Math.min(first * Math.pow(2, failures), LONGEST_WAIT / 2);
      failures += 1;
      reopen = setTimeout(connect, step * (1 + Math.random()));
    }

    mark();
    setInterval(function () {
      // Heard once and silent past its grace (a connection dead without a word,
      // a server that lost its Redis and waits for it): the page stops waiting
      // for this stream.
      if (source && heard !== 0 && !live()) lost();
      mark();
      if (!live() && Date.now() >= quiet) refresh();
    }, every);
    if (!url || !window.EventSource) return;

    function connect() {
      reopen = null;
      var sep = url.indexOf("?") < 0 ? "?" : "&";
      source = new EventSource(lastId ? url + sep + "last-event-id=" + encodeURIComponent(lastId) : url);
      source.addEventListener("hello", function (event) {
        var data = JSON.parse(event.data);
        // A ping comes every data.ping seconds: one missed by more than a few
        // seconds means the stream no longer speaks, and polling takes over.
        grace = (Number(data.ping) + 5) * 1000;
        settle = Number(data.settle) * 1000;
        if (data.reopen) first = Number(data.reopen) * 1000;
        failures = 0;
        hear(event);
        // What moved while there was no stream: a stream the browser reopened with
        // the id of the last event heard (Last-Event-ID) tells it itself, as the
        // events that follow ("resumed"); any other, the page asks.
        if (!data.resumed && !seen(data.versions)) refresh();
      });
      source.addEventListener("ping", hear);
      // A server that holds no streams (runserver, gunicorn's sync workers, the
      // tests' live server) never will: the page polls for good.
      source.addEventListener("poll", function () {
        quiet = 0;
        source.close();
        heard = 0;
        mark();
      });
      source.addEventListener("moved", function (event) {
        hear(event);
        // What the event carries (the parts the page shows) is shown at once; the
        // page asks only for what it did not carry.
        var data = JSON.parse(event.data);
        if (data.parts) {
          clearTimeout(soon);
          refresh(data);
          return;
        }
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
        quiet = 0;
        heard = 0;
        mark();
        // CONNECTING: the browser tries again by itself, after the stream's
        // `retry`; meanwhile the poll runs. CLOSED: it gave the stream up.
        if (source.readyState === EventSource.CLOSED) lost();
      });
    }
    connect();
    // A tab in the background gives its stream up (a browser holds six
    // connections per site over HTTP/1.1, and a phone in a pocket needs none) and
    // polls as before; shown again, it opens a new one at once.
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        quiet = 0;
        source.close();
        clearTimeout(reopen);
        reopen = null;
        heard = 0;
        mark();
      } else if (source.readyState === EventSource.CLOSED) {
        clearTimeout(reopen);
        connect();
      }
    });
  }

  window.KnockPush = { follow: follow };
})();
