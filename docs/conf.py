"""Sphinx's settings for Knock's guides (`make docs`): the pages stay Markdown (MyST)."""

project = "Knock"
author = "Knock's contributors"
copyright = "Knock's contributors"

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# Headings down to the third level get anchors, so a page can link to another's section
# (`developers.md#the-engines-contract`) and the build checks that the section exists.
myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]

html_theme = "furo"
html_title = "Knock"
html_static_path = []
html_show_sourcelink = False
html_copy_source = False

language = "en"
