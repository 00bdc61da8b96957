// The player's own page, "What you are told": this phone subscribes to push
// through the seat pages' service worker (/table/sw.js, which shows the
// messages), and the subscription is saved for the player.
(function () {
  "use strict";
  var section = document.getElementById("push");
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var status = document.getElementById("push-status");
  if (!section || !on || !section.dataset.key) return;

  function say(what) { status.textContent = status.dataset[what] || ""; }

  function keyBytes(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function send(body) {
    var csrf = document.querySelector("input[name=csrfmiddlewaretoken]");
    return fetch(section.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
    });
  }

  function registration() {
    return navigator.serviceWorker.register(section.dataset.worker).then(function () {
      return navigator.serviceWorker.getRegistration(section.dataset.worker);
    }).then(function (found) { return found || navigator.serviceWorker.ready; });
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    on.disabled = true;
    off.disabled = true;
    say("unsupported");
    return;
  }

  on.addEventListener("click", function () {
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { say("denied"); return; }
      return registration().then(function (worker) {
        return worker.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(section.dataset.key)
        });
      }).then(function (subscription) {
        return send(subscription.toJSON());
      }).then(function () { say("on"); });
    }).catch(function () { say("failed"); });
  });

  off.addEventListener("click", function () {
    registration().then(function (worker) {
      return worker.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return;
      return send({ endpoint: subscription.endpoint, off: true }).then(function () {
        return subscription.unsubscribe();
      });
    }).then(function () { say("off"); }).catch(function () { say("failed"); });
  });
})();
