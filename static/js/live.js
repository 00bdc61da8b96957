// The public tournament pages and the screen: each [data-live] part asks, when the
// page's live stream says so (static/js/push.js) or else every few seconds,
// whether it changed (204: no) and swaps in the new HTML without a reload; a part
// the stream's event carried (by its data-part name) is swapped in without asking,
// whole or as the lines that changed since the text this page holds;
// the screen shows its slides in turn; a round's clock counts down. A file of its
// own: the pages allow no inline script.
(function () {
  "use strict";
  var POLL = 3000;
  // Each part's text as the server last sent it, and its version: what the
  // carried edits apply to (the page's own HTML, as the browser reads it back,
  // is not the same text).
  var kept = new WeakMap();

  function poll(box) {
    var url = box.dataset.live;
    var sep = url.indexOf("?") < 0 ? "?" : "&";
    fetch(url + sep + "v=" + encodeURIComponent(box.dataset.version || ""), {
      headers: { Accept: "text/html" }, cache: "no-store"
    })
      .then(function (r) {
        if (r.status !== 200) return null;
        box.dataset.version = r.headers.get("X-Board-Version") || "";
        return r.text();
      })
      .then(function (html) {
        if (html === null) return;
        kept.set(box, { version: box.dataset.version, text: html });
        show(box, html);
      })
      .catch(function () { /* offline for a moment: the next tick tries again */ });
  }

  function show(box, html) {
    if (box.dataset.cycle) {
      screen(box, html);
    } else {
      box.innerHTML = html;
      tick();
    }
  }

  // The screen: one slide at a time. The server sends each group (the standings,
  // the round's tables) whole; here it is split into slides, and a slide into
  // columns, measured on this screen: every row fits inside it, whatever its size.
  // A slide stays as long as its rows take to read (data-cycle seconds at least).
  // ?slide=k holds slide k; the arrow keys (or Page Up/Down) step through them.
  var shown = 0;
  var timer = null;
  var held = Number(new URLSearchParams(location.search).get("slide")) || 0;
  var source = new WeakMap();

  function bottomLimit(box) {
    return document.documentElement.clientHeight - parseFloat(getComputedStyle(box).paddingBottom);
  }

  function columnsFor(group, box) {
    var em = parseFloat(getComputedStyle(box).fontSize);
    var gap = 1.2 * em;
    var want = Number(group.dataset.columnEm || 0) * em;
    if (!want) return 1;
    return Math.max(1, Math.min(3, Math.floor((box.clientWidth + gap) / (want + gap))));
  }

  // Splits one group into slides inserted before it, and removes the group.
  function split(group, box) {
    var table = group.querySelector("table");
    if (!table || !table.tBodies.length) return;
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var limit = bottomLimit(box);
    var made = [];

    function newSlide(columns) {
      made.forEach(function (s) { s.hidden = true; });
      var slide = group.cloneNode(false);
      slide.removeAttribute("data-group");
      slide.removeAttribute("data-column-em");
      slide.hidden = false;
      Array.prototype.forEach.call(group.children, function (child) {
        if (child !== table) slide.appendChild(child.cloneNode(true));
      });
      var grid = document.createElement("div");
      grid.className = "slide-columns columns-" + columns;
      slide.appendChild(grid);
      box.insertBefore(slide, group);
      made.push(slide);
      return grid;
    }
    function newColumn(grid) {
      var column = table.cloneNode(false);
      Array.prototype.forEach.call(table.children, function (child) {
        if (child.tagName !== "TBODY") column.appendChild(child.cloneNode(true));
      });
      var body = document.createElement("tbody");
      column.appendChild(body);
      grid.appendChild(column);
      return body;
    }
    function fits(row) { return row.getBoundingClientRect().bottom <= limit; }

    group.hidden = true;
    // All on one slide in one column, when they fit: full width reads best.
    var body = newColumn(newSlide(1));
    rows.forEach(function (row) { body.appendChild(row); });
    if (!rows.length || fits(rows[rows.length - 1])) {
      made[0].hidden = true;
      group.remove();
      return;
    }
    made.pop().remove();
    var columns = columnsFor(group, box);
    var grid = newSlide(columns);
    var column = 1;
    body = newColumn(grid);
    rows.forEach(function (row) {
      body.appendChild(row);
      if (fits(row) || body.rows.length === 1) return;
      if (column < columns) {
        column += 1;
      } else {
        grid = newSlide(columns);
        column = 1;
      }
      body = newColumn(grid);
      body.appendChild(row);
    });
    made.forEach(function (slide, i) {
      slide.hidden = true;
      var page = slide.querySelector("[data-page]");
      if (page && made.length > 1) page.textContent = (i + 1) + "/" + made.length;
    });
    group.remove();
  }

  function paginate(box) {
    if (!source.has(box)) source.set(box, box.innerHTML);
    box.querySelectorAll("[data-group]").forEach(function (group) { split(group, box); });
  }

  function slides(box, keep) {
    var all = box.querySelectorAll("[data-slide]");
    if (!all.length || !box.dataset.cycle) return;
    if (!keep) shown = held ? held - 1 : 0;
    shown = ((shown % all.length) + all.length) % all.length;
    all.forEach(function (s, i) { s.hidden = i !== shown; });
    box.dataset.shown = String(shown + 1);
    box.dataset.slides = String(all.length);
    var rows = all[shown].querySelectorAll("tbody tr").length;
    var seconds = Math.round(Math.min(20, Math.max(Number(box.dataset.cycle), 3 + 0.3 * rows)));
    box.dataset.seconds = String(seconds);
    clearTimeout(timer);
    if (held) return;
    timer = setTimeout(function () { shown += 1; slides(box, true); }, 1000 * seconds);
  }

  function screen(box, html) {
    if (html !== undefined) source.set(box, html);
    box.innerHTML = source.get(box);
    tick();  // the clock first: it shares the heading's line, and so the height left
    paginate(box);
    slides(box, true);
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var deadline = document.querySelector("[data-deadline]");
    var targets = document.querySelectorAll("[data-deadline-show], span[data-deadline]:not([hidden])");
    var clock = document.querySelector(".screen-clock");
    if (!deadline) { if (clock) clock.hidden = true; return; }
    var left = Math.max(0, Math.round((new Date(deadline.dataset.deadline) - Date.now()) / 1000));
    var text = Math.floor(left / 60) + ":" + two(left % 60);
    targets.forEach(function (t) { t.textContent = text; });
    if (clock) clock.hidden = false;
  }

  tick();
  var boxes = document.querySelectorAll("[data-live]");

  // The lines start to end (not included) of the text replaced by new lines, in
  // order: live/events.py works them out (and applies them the same way).
  function patched(text, edits) {
    var lines = text.split("\n");
    var made = [];
    var at = 0;
    edits.forEach(function (edit) {
      made = made.concat(lines.slice(at, edit[0]), edit[2]);
      at = edit[1];
    });
    return made.concat(lines.slice(at)).join("\n");
  }

  function carriedText(box, news) {
    var name = box.dataset.part;
    if (news.parts && news.parts[name] !== undefined) return news.parts[name];
    var change = news.changes && news.changes[name];
    var mine = kept.get(box);
    if (!change || !mine || mine.version !== change.from) return undefined;
    return patched(mine.text, change.edits);
  }

  // One stream for the page, whatever its parts: each shows what the news carried
  // for it, or asks (a room of pages spreads its asks over a quarter of a second).
  var refresh = function (news) {
    boxes.forEach(function (box) {
      var text = news && carriedText(box, news);
      if (text === undefined) {
        setTimeout(poll, news ? Math.random() * 250 : 0, box);
        return;
      }
      box.dataset.version = news.shown;
      kept.set(box, { version: news.shown, text: text });
      show(box, text);
    });
  };
  if (boxes.length && window.KnockPush) {
    // The stored board's number the page was drawn at (its version's first
    // field): a first stream whose hello finds it still there spares the asks.
    var drawn = (boxes[0].dataset.version || "").split("-")[0];
    window.KnockPush.follow(boxes[0].dataset.events, refresh, POLL, drawn ? { board: drawn } : null);
  } else if (boxes.length) {
    setInterval(refresh, POLL);
  }
  boxes.forEach(function (box) {
    if (!box.dataset.cycle) return;
    paginate(box);
    slides(box, false);
    // A new size (a window moved to the projector, a zoom) splits the rows again.
    var resized = null;
    window.addEventListener("resize", function () {
      clearTimeout(resized);
      resized = setTimeout(function () { screen(box); }, 200);
    });
    document.addEventListener("keydown", function (event) {
      var step = { ArrowRight: 1, PageDown: 1, ArrowLeft: -1, PageUp: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      shown += step;
      slides(box, true);
    });
  });
  setInterval(tick, 1000);
})();
