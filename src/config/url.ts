// Server addresses in the config (ollama.baseURL, openai.baseURL): only http(s) with a host will ever work, so
// anything else is refused where it is written or read, not at the first model call.
import { z } from 'zod';

/** Why `text` cannot be a model server's address, or undefined when it can. */
export function httpUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `'${text}' is not a URL`;
  }
  // `localhost:11434` parses as scheme `localhost:`; say what was probably meant.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const bare = /^[A-Za-z0-9.-]+:\d+(\/|$)/.test(text);
    return bare ? `'${text}' has no scheme (did you mean http://${text}?)` : `'${text}' is a ${url.protocol} URL, not http or https`;
  }
  // WHATWG reads `http:///v1` as host `v1`; an address that names no host after `//` is refused as typed.
  if (url.hostname === '' || !/^https?:\/\/[^/?#\\]/i.test(text)) return `'${text}' names no host`;
  if (url.username !== '' || url.password !== '') return `'${text}' carries a user name or password (use OPENAI_API_KEY for a key)`;
  return undefined;
}

/** What an address key accepts, with an example for that server. */
export function acceptedUrl(example = 'http://127.0.0.1:11434'): string {
  return `an http:// or https:// address with a host, e.g. ${example}`;
}

/** The schema of a server address: the same check, one message naming what is accepted. */
export const httpUrl = z.string().superRefine((s, ctx) => {
  const problem = httpUrlProblem(s);
  if (problem) ctx.addIssue({ code: 'custom', message: `${problem}; write ${acceptedUrl()}` });
});
