"""Knowledge base search over Chroma collections."""
