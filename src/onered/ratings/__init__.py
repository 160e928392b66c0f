"""Ratings: Glicko-2 (Glickman 2013) and handicap starts from ratings. Standard library
only; the web's store (``onered.web.ratings``) keeps a rating per player and target and
feeds it every finished match (the readings: docs/ratings.md)."""
