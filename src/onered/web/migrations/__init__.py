"""The web database's schema, step by step: ``NNNN_name.sql`` files applied in order by
``onered.web.db.Database.migrate`` (on SQLite and PostgreSQL alike)."""
