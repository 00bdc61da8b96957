// The API's docs page: Swagger UI draws a list of servers with no name for a screen
// reader; it is named once it is there (Swagger UI draws the page after loading).
(function () {
  "use strict";
  function name() {
    var servers = document.getElementById("servers");
    if (servers && !servers.hasAttribute("aria-label")) {
      servers.setAttribute("aria-label", "Server");
    }
  }
  new MutationObserver(name).observe(document.body, { childList: true, subtree: true });
  name();
})();
