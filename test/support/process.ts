import { spawn, type ChildProcess } from 'node:child_process'
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

/** Runs src/main.ts as `npm start` would, in its own process, with only the given environment. */
export function spawnService(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
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
