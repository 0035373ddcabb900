#!/usr/bin/env node
// The package's `gwctl` bin: runs the bundled CLI (dist/gwctl.js, written by `npm run build`, which `npm install` runs).
import fs from 'node:fs'

const bundle = new URL('../dist/gwctl.js', import.meta.url)
if (!fs.existsSync(bundle)) {
  process.stderr.write('gwctl: dist/gwctl.js is missing; run `npm run build` first\n')
  process.exit(1)
}
await import(bundle.href)
