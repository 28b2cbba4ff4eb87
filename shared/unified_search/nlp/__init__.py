"""Query understanding: keywords, intent, expansion."""
