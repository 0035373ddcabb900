import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

/**
 * The extensions every PGlite of this project is opened with (service, test template, migration tools, studio,
 * bench): a migration runs CREATE EXTENSION for them, as on PostgreSQL, where they ship with the server.
 * pg_trgm backs the trigram indexes of the lists' contains search.
 */
export const pgliteExtensions = { pg_trgm }
