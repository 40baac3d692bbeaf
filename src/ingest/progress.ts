import { Presets, SingleBar } from 'cli-progress';

export interface ProgressSample {
  rows: number;
  /** Bytes of the input read, comparable to `size`. */
  bytes: number;
}

export interface ProgressOptions {
  label: string;
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  /** Bytes to read in all, when known: gives a percentage and an ETA. */
  size: number | undefined;
  sample: () => ProgressSample;
  /** Between two plain lines when the stream is not a terminal. */
  lineEveryMs?: number;
}

/**
 * Shows a load's progress on `stream`: a bar redrawn in place on a terminal (rows, rows/s, ETA),
 * otherwise a plain line now and then, so logs stay readable. Values are sampled on a timer, so
 * reading records costs nothing extra. Returns the function that stops it.
 */
export function startProgress(options: ProgressOptions): () => void {
  const started = performance.now();
  const rate = (rows: number) => Math.round(rows / Math.max((performance.now() - started) / 1000, 0.001));
  const size = options.size !== undefined && options.size > 0 ? options.size : undefined;

  if (options.stream.isTTY) {
    const bar = new SingleBar(
      {
        stream: options.stream,
        format:
          size === undefined
            ? `${options.label} {rows} rows | {rate} rows/s | {duration_formatted}`
            : `${options.label} {bar} {percentage}% | {rows} rows | {rate} rows/s | ETA {eta_formatted}`,
        hideCursor: true,
        etaBuffer: 50,
        fps: 5,
      },
      Presets.shades_classic,
    );
    bar.start(size ?? 1, 0, { rows: '0', rate: '0' });
    const timer = setInterval(() => {
      const { rows, bytes } = options.sample();
      bar.update(size === undefined ? 0 : Math.min(bytes, size), {
        rows: rows.toLocaleString('en-US'),
        rate: rate(rows).toLocaleString('en-US'),
      });
    }, 200);
    timer.unref();
    return () => {
      clearInterval(timer);
      const { rows, bytes } = options.sample();
      bar.update(size === undefined ? 0 : Math.min(bytes, size), {
        rows: rows.toLocaleString('en-US'),
        rate: rate(rows).toLocaleString('en-US'),
      });
      bar.stop();
    };
  }

  const timer = setInterval(() => {
    const { rows, bytes } = options.sample();
    const parts = [`${rows.toLocaleString('en-US')} rows`, `${rate(rows).toLocaleString('en-US')} rows/s`];
    if (size !== undefined && bytes > 0) {
      const elapsed = (performance.now() - started) / 1000;
      parts.push(`${Math.floor((100 * bytes) / size)}%`, `ETA ${formatSeconds(((size - bytes) * elapsed) / bytes)}`);
    }
    options.stream.write(`${options.label} ${parts.join(', ')}\n`);
  }, options.lineEveryMs ?? 10_000);
  timer.unref();
  return () => clearInterval(timer);
}

export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
