// The night page: fetch the tables every few seconds and put them in place, with the
// page's title (open disputes first, so a tab in the background still tells).
(function () {
  "use strict";
  var root = document.getElementById("night");
  if (!root) return;
  var url = root.dataset.tablesUrl;

  // The tables' number goes back as the ETag it was: while nothing changed the
  // answer is an empty 304 (not "ok", so nothing happens).
  var etag = null;

  function refresh() {
    var headers = { Accept: "text/html" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) return null;
        var fresh = r.headers.get("ETag");
        return r.text().then(function (html) { return { html: html, etag: fresh }; });
      })
      .then(function (answer) {
        if (!answer) return;
        var html = answer.html;
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
        etag = answer.etag;  // only once its tables are in place
        if (fresh.dataset.title) document.title = fresh.dataset.title;
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ });
  }
  if (window.KnockPush) window.KnockPush.follow(root.dataset.eventsUrl, refresh, 3000);
  else setInterval(refresh, 3000);
})();
