// The new club's form: the address of its pages follows the name as it is typed
// ("Café Pik" → "cafe-pik") until the person edits the address himself. The
// server checks it and offers a free one when it is taken.
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
  name.addEventListener("input", function () {
    if (!own) slug.value = slugify(name.value);
  });
})();
