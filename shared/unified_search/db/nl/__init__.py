"""Natural language → query DSL: the builtin rules, no model needed."""
