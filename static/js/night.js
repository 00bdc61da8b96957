// The night page: fetch the tables every few seconds and put them in place, with the
// page's title (open disputes first, so a tab in the background still tells).
(function () {
  "use strict";
  var root = document.getElementById("night");
  if (!root) return;
  var url = root.dataset.tablesUrl;

  function refresh() {
    fetch(url, { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("night-tables");
        var current = document.getElementById("night-tables");
        if (!fresh || !current) return;
        // Folded sections the organizer opened stay open.
        var open = {};
        current.querySelectorAll("details[open]").forEach(function (d) {
          open[d.closest("[id]") ? d.closest("[id]").id + d.className : d.className] = true;
        });
        fresh.querySelectorAll("details").forEach(function (d) {
          var key = d.closest("[id]") ? d.closest("[id]").id + d.className : d.className;
          if (open[key]) d.open = true;
        });
        current.replaceWith(document.importNode(fresh, true));
        if (fresh.dataset.title) document.title = fresh.dataset.title;
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ });
  }
  if (window.KnockPush) window.KnockPush.follow(root.dataset.eventsUrl, refresh, 3000);
  else setInterval(refresh, 3000);
})();
