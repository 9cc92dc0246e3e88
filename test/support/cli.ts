import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export type CliRun = {
  child: ChildProcessWithoutNullStreams;
  /** What it has written so far: each stream, and both as they came. */
  output: { stdout: string; stderr: string; text: string };
  /** Its exit code (null when a signal stopped it), once its output has all been read. */
  exited: Promise<number | null>;
};

/** The SDK's CLI (`qps`) in its own process, as a person runs it. */
export function startCli(args: string[], env: Record<string, string>): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'sdk/src/cli.ts'), ...args], { cwd: root, env: { ...process.env, ...env } });
  const output = { stdout: '', stderr: '', text: '' };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8');
    child[stream].on('data', (chunk: string) => {
      output[stream] += chunk;
      output.text += chunk;
    });
  }
  // 'close', not 'exit': the process may exit before its output has been read from the pipes.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, output, exited };
}
