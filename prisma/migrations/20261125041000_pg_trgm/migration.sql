-- Trigram matching for the lists' contains search (ILIKE '%term%'): pg_trgm ships with PostgreSQL (a trusted
-- extension: the database owner may create it) and with PGlite as a contrib extension it is opened with.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
