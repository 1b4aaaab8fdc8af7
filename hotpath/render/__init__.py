"""Stage 3, rendering: tables, charts and the headline; the report document, papermill, the overview, the docs' figures."""
