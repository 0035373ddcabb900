import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'

// gwctl as a user runs it: the CLI bundled from src/cli (as scripts/bundle.mjs bundles it, but from the sources, so a
// test never runs a stale dist/), spawned as its own process against the service over HTTP.

export interface CliRun { code: number | null; stdout: string; stderr: string }

export async function bundleGwctl(): Promise<{ file: string; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gwctl-'))
  const file = path.join(dir, 'gwctl.mjs')
  await build({
    entryPoints: [path.resolve(import.meta.dirname, '../../src/cli/gwctl.ts')],
    outfile: file, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning',
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  })
  return { file, dir }
}

export function runCli(file: string, args: string[], options: { env?: Record<string, string>; stdin?: string; cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.stdin ?? '')
  })
}
