"""Offline text models shared by the knowledge base and the rerankers, loaded from packages."""
