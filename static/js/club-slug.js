// The new club's form: the address of its pages follows the name as it is typed
// ("Café Pik" → "cafe-pik") until the person edits the address. The server
// checks it and offers a free one when it is taken. A name already there when
// the script starts (typed before it ran, or put back by the browser) counts too.
(function () {
  "use strict";
  var name = document.getElementById("id_name");
  var slug = document.getElementById("id_slug");
  if (!name || !slug) return;
  var own = slug.value !== "";
  function slugify(text) {
    return text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9\s-]/g, "")
      .trim()
      .replace(/[\s-]+/g, "-")
      .slice(0, 56);
  }
  slug.addEventListener("input", function () {
    own = slug.value !== "";
  });
  function follow() {
    if (!own) slug.value = slugify(name.value);
  }
  name.addEventListener("input", follow);
  if (name.value) follow();
})();
