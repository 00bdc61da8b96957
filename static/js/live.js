// The public tournament pages and the screen: each [data-live] part asks every few
// seconds whether it changed (204: no) and swaps in the new HTML without a reload;
// the screen shows its slides in turn; a round's clock counts down. A file of its
// own: the pages allow no inline script.
(function () {
  "use strict";
  var POLL = 3000;

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
        box.innerHTML = html;
        slides(box, true);
        tick();
      })
      .catch(function () { /* offline for a moment: the next tick tries again */ });
  }

  // The screen: one slide at a time, the next every data-cycle seconds.
  var shown = 0;
  function slides(box, keep) {
    var all = box.querySelectorAll("[data-slide]");
    if (!all.length || !box.dataset.cycle) return;
    if (!keep) shown = 0;
    shown = shown % all.length;
    all.forEach(function (s, i) { s.hidden = i !== shown; });
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

  document.querySelectorAll("[data-live]").forEach(function (box) {
    slides(box, false);
    setInterval(function () { poll(box); }, POLL);
    if (box.dataset.cycle) {
      setInterval(function () { shown += 1; slides(box, true); }, 1000 * Number(box.dataset.cycle));
    }
  });
  tick();
  setInterval(tick, 1000);
})();
