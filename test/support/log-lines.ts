/** A pino destination that keeps the service's JSON log lines in an array a test can read. */
import { Writable } from 'node:stream';

export type LogLine = Record<string, unknown>;

export function sinkInto(lines: LogLine[]): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
}
