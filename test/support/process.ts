import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const repo = path.resolve(import.meta.dirname, '../..')

export interface ServiceProcess {
  child: ChildProcess
  /** everything the process printed so far */
  output(): string
  /** resolves with the URL from the start-up log line */
  listening: Promise<string>
  exited: Promise<number | null>
}

/**
 * Runs the service in its own process with only the given environment (and an embedded database at the test services'
 * 16 MB of shared buffers unless it says otherwise): src/main.ts through tsx, or with
 * `compiled` the package's own start script on the build in dist/ (see ensureBuilt), exactly as `npm start` runs it, or
 * with `nodeArgs` node with those arguments (a profile of the unbundled build: `--cpu-prof`, dist/main.js).
 */
export function spawnService(env: Record<string, string>, opts: { compiled?: boolean; nodeArgs?: string[] } = {}): ServiceProcess {
  const [command, args] = opts.nodeArgs ? [process.execPath, opts.nodeArgs]
    : opts.compiled ? ['sh', ['-c', `exec ${startScript()}`]] : [process.execPath, ['--import', 'tsx', 'src/main.ts']]
  const child = spawn(command, args, {
    cwd: repo,
    // an embedded database's shared buffers as the in-process test services have them (test/support/app.ts)
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', EMBEDDED_PG_SHARED_BUFFERS_MB: '16', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/[^"\s]+)/.exec(out)
      if (match) {
        clearInterval(timer)
        resolve(match[1])
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(timer)
      reject(new Error(`service exited with ${code}: ${out}`))
    })
  })
  listening.catch(() => undefined)
  return { child, output: () => out, listening, exited }
}

const startScript = () => (JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs)
  }
  return newest
}

/**
 * `npm install` builds dist/ (postinstall); a checkout whose sources changed since, or that never ran the
 * install's scripts, is rebuilt here so that a test of the start script runs the current code.
 */
export function ensureBuilt() {
  const main = path.join(repo, 'dist/bundle.js')
  if (fs.existsSync(main) && fs.statSync(main).mtimeMs >= newestMtime(path.join(repo, 'src'))) return
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' })
}
