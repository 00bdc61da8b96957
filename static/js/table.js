// The table page: reload when the other phone changes the sheet, and never send
// a form twice from a double tap.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) return;
  var url = root.dataset.stateUrl;
  var version = root.dataset.version;

  function typing() {
    var el = document.activeElement;
    return el && (el.tagName === "INPUT" || el.tagName === "SELECT") && el.type !== "hidden";
  }

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.version !== version && !typing()) window.location.reload();
      })
      .catch(function () { /* offline for a moment: try again on the next tick */ });
  }
  setInterval(poll, 3000);

  document.querySelectorAll("form").forEach(function (form) {
    form.addEventListener("submit", function () {
      form.querySelectorAll("[data-once]").forEach(function (b) {
        setTimeout(function () { b.disabled = true; }, 0);
      });
    });
  });
})();
