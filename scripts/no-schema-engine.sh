#!/bin/sh
# Stands in for Prisma's native schema engine so the CLI never downloads it (offline machines).
# Migrations are created with the wasm engine (npm run db:migration) and applied by src/platform/db.
if [ "$1" = "--version" ]; then echo "schema-engine-cli 0.0.0-offline-stub"; exit 0; fi
echo "Native Prisma schema engine unavailable offline; use 'npm run db:migration -- <name>' instead." >&2; exit 1
