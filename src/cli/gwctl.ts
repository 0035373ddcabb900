#!/usr/bin/env node
// gwctl's entry point (bundled into dist/gwctl.js; `npx gwctl` and `npm run gwctl --` run it): see main.ts.
import { main } from './main.js'

process.exitCode = await main(process.argv.slice(2), { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env })
