// HTTP plumbing shared by the ollama and openai backends: one POST with plain `fetch`, a silence timer, the caller's
// abort signal, streamed lines, and the mapping of transport failures onto ModelError. Backends map HTTP statuses
// and bodies themselves (they know their servers' words).
import { z } from 'zod';
import { ModelError } from './types.js';

/** What the error messages need to know about the backend that is talking. */
export interface Peer {
  /** Who is at the other end, as a person would say it: `Ollama`, `the OpenAI-compatible server`. */
  readonly label: string;
  /** The config key holding the silence bound, named in timeout hints. */
  readonly timeoutKey: string;
  /** What to do when nothing listens at the URL. */
  readonly unreachableHint: string;
}

export interface WireRequest {
  readonly peer: Peer;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  /** The longest silence allowed: before the response starts, and between two chunks of it. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** Undici's own timeouts and the socket errors that mean "nobody there". */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const UNDICI_TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Longest line accepted from a stream before the reply is called malformed (a runaway body without newlines). */
const MAX_LINE_CHARS = 32 * 1024 * 1024;

/**
 * One exchange with a server. `open()` sends the request and resolves with the response once its head arrived;
 * `lines()` then yields the body line by line. The silence timer runs from `open()` until `close()`.
 */
export class Exchange {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private reason: 'timeout' | 'aborted' | undefined;
  private started = false;
  private readonly onCallerAbort = (): void => this.stop('aborted');

  constructor(private readonly req: WireRequest) {}

  async open(): Promise<Response> {
    const { req } = this;
    if (req.signal?.aborted) throw aborted(req.signal);
    req.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.kick();
    try {
      return await fetch(req.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...req.headers },
        body: JSON.stringify(req.body),
        signal: this.controller.signal,
      });
    } catch (err) {
      throw this.failure(err);
    } finally {
      this.started = true;
    }
  }

  /** The body as lines (without their `\n` / `\r\n`), each read resetting the silence timer. */
  async *lines(res: Response): AsyncGenerator<string> {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let finished = false;
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw this.failure(err);
        }
        this.kick();
        if (chunk.done) {
          finished = true;
          buffer += decoder.decode();
          if (buffer.length > 0) yield stripCR(buffer);
          return;
        }
        buffer += decoder.decode(chunk.value, { stream: true });
        let nl = buffer.indexOf('\n');
        while (nl >= 0) {
          const line = stripCR(buffer.slice(0, nl));
          buffer = buffer.slice(nl + 1);
          yield line;
          nl = buffer.indexOf('\n');
        }
        if (buffer.length > MAX_LINE_CHARS) {
          throw new ModelError(
            'bad-reply',
            `${this.req.peer.label} at ${this.req.url} sent a line longer than ${MAX_LINE_CHARS} characters`,
            'Check that the configured base URL points at the right server',
          );
        }
      }
    } finally {
      if (!finished) await reader.cancel().catch(() => undefined);
    }
  }

  /** The whole body as text, under the same timer (error bodies, non-streamed replies). */
  async text(res: Response, limit = 1024 * 1024): Promise<string> {
    let out = '';
    for await (const line of this.lines(res)) {
      out += (out ? '\n' : '') + line;
      if (out.length > limit) return out.slice(0, limit);
    }
    return out;
  }

  /** Ends the exchange: stops the timer, detaches from the caller's signal, drops the connection if still open. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.req.signal?.removeEventListener('abort', this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  /** Restarts the silence timer. */
  private kick(): void {
    if (this.reason) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop('timeout'), this.req.timeoutMs);
    this.timer.unref?.();
  }

  private stop(reason: 'timeout' | 'aborted'): void {
    if (this.reason) return;
    this.reason = reason;
    if (this.timer) clearTimeout(this.timer);
    this.controller.abort();
  }

  /** Turns whatever fetch or the body reader threw into a ModelError. */
  private failure(err: unknown): ModelError {
    if (err instanceof ModelError) return err;
    const { peer, url, timeoutMs } = this.req;
    if (this.reason === 'aborted' || (this.req.signal?.aborted ?? false)) return aborted(this.req.signal, err);
    const seconds = formatSeconds(timeoutMs);
    const timeoutHint =
      `A model that is loading, or too big for this machine, can be that slow: raise ${peer.timeoutKey} ` +
      `(wisp config set ${peer.timeoutKey} 300) or choose a smaller model`;
    if (this.reason === 'timeout') {
      const what = this.started
        ? `${peer.label} at ${url} stopped sending in the middle of the reply: ` +
          `nothing for ${seconds} (${peer.timeoutKey})`
        : `${peer.label} at ${url} did not answer within ${seconds} (${peer.timeoutKey})`;
      return new ModelError('timeout', what, timeoutHint, { cause: err });
    }
    const code = errorCode(err);
    if (code && UNDICI_TIMEOUT_CODES.has(code)) {
      return new ModelError(
        'timeout',
        `${peer.label} at ${url} sent nothing for 300 s, the longest Node's fetch waits (${code})`,
        timeoutHint,
        { cause: err },
      );
    }
    const detail = describe(err);
    if (!this.started) {
      return new ModelError('unreachable', `Cannot reach ${peer.label} at ${url} (${detail})`, peer.unreachableHint, {
        cause: err,
      });
    }
    if (code && UNREACHABLE_CODES.has(code)) {
      return new ModelError(
        'server',
        `The connection to ${peer.label} at ${url} broke in the middle of the reply (${detail})`,
        'The server may have stopped or run out of memory: check its log, then try again',
        { cause: err },
      );
    }
    const what = `Reading the reply from ${peer.label} at ${url} failed (${detail})`;
    return new ModelError('server', what, "Try again; if it keeps failing, check the server's log", { cause: err });
  }
}

export function aborted(signal: AbortSignal | undefined, cause?: unknown): ModelError {
  const reason: unknown = signal?.reason;
  const why = reason instanceof Error && reason.name !== 'AbortError' ? `: ${reason.message}` : '';
  return new ModelError('aborted', `The model call was cancelled${why}`, '', { cause: cause ?? reason });
}

function stripCR(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

/** The error code of a fetch failure: `fetch failed` hides it in `cause` (sometimes one level deeper). */
export function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e !== null && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(err: unknown): string {
  const code = errorCode(err);
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  let e: unknown = err;
  // `TypeError: fetch failed` says nothing; its cause says what went wrong.
  while (e instanceof Error && e.message === 'fetch failed' && e.cause !== undefined) e = e.cause;
  const message = e instanceof Error ? e.message : String(e);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** The error text in a failed response's body, in the shapes servers use; else the body itself, shortened. */
const ErrorBody = z.union([
  z.object({ error: z.string() }).transform((b) => b.error),
  z.object({ error: z.object({ message: z.string() }) }).transform((b) => b.error.message),
  z.object({ message: z.string() }).transform((b) => b.message),
  z.object({ detail: z.string() }).transform((b) => b.detail),
]);

export function errorMessageOf(body: string): string {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(body));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: fall through to the text itself
  }
  const text = body.replace(/\s+/g, ' ').trim();
  if (!text) return '(empty body)';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** A short excerpt of a line that could not be read, for bad-reply messages. */
export function excerpt(line: string, max = 120): string {
  const flat = line.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

/** zod issues as `path: message; path: message`. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => {
      const path = i.path
        .map((p, n) => (typeof p === 'number' ? `[${p}]` : n === 0 ? String(p) : `.${String(p)}`))
        .join('');
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

/** Arguments text → parsed JSON; empty text means no arguments (`{}`); invalid JSON stays the raw string. */
export function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function joinURL(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
