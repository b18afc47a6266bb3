// approval.classifier: model (ADR 0050). After the rules, a model rates each part safe | moderate | dangerous with a
// short reason. It can only raise a part's level, never lower it; a failure, a timeout or a verdict it cannot read counts
// as at least moderate. Verdicts are kept per session (exact part, line and directory; at most 256); fallbacks are not
// kept, so the next request asks again. The model's reason is untrusted text: shown escaped and labelled as the model's.
import { z } from 'zod';
import { visible } from '../core/visible.js';
import type { LanguageModel } from '../model/types.js';
import type { LineAnalysis } from './analyze.js';
import { CLASSIFIER_INSTRUCTIONS } from './model-classifier-prompt.js';
import { LEVELS, levelRank, maxLevel, type Level } from '../core/levels.js';
import type { PartVerdict } from './types.js';

import type { Config } from '../config/schema.js';

export const CACHE_LIMIT = 256;

/** `approval.classifier`, or the legacy `approval.useModel` when that is all the config says. */
export function classifierMode(approval: Config['approval']): 'rules' | 'model' {
  return approval.classifier ?? (approval.useModel === true ? 'model' : 'rules');
}
/** Longest model reason kept (escapes included). */
export const REASON_MAX_CHARS = 200;

export interface ModelJudgement {
  /** The model's level, or `moderate` when it gave none that could be used. */
  readonly level: Level;
  /** The model's reason made visible, or wisp's own words for why there is no verdict. */
  readonly reason: string;
  readonly source: 'model' | 'fallback';
  readonly cached: boolean;
}

/** What the audit's `classifier.verdict` carries about the model's part in a verdict. */
export interface ModelNote extends ModelJudgement {
  readonly model: string;
  /** True when the model's verdict raised the part above the rules' level. */
  readonly raised: boolean;
}

const Verdict = z.object({
  level: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(LEVELS)),
  reason: z.string().optional(),
});

/** The first `{…}` in the reply (models wrap JSON in prose or code fences), checked with zod; undefined if unusable. */
export function readVerdict(text: string): { level: Level; reason: string } | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const v = Verdict.safeParse(value);
  if (!v.success) return undefined;
  return { level: v.data.level, reason: v.data.reason?.trim() || '(no reason given)' };
}

export interface ModelClassifierOptions {
  readonly model: LanguageModel;
  readonly timeoutMs: number;
}

const notes = new WeakMap<PartVerdict, ModelNote>();

/** The model's note on a part the classifier reviewed, if any. */
export function modelNote(part: PartVerdict): ModelNote | undefined {
  return notes.get(part);
}

/** Extra fields for the `classifier.verdict` audit event of a part (none when the model did not review it). */
export function modelAuditFields(part: PartVerdict): Record<string, unknown> {
  const note = notes.get(part);
  if (!note) return {};
  return {
    sources: ['rules', 'model'],
    model: { id: note.model, level: note.level, reason: note.reason, source: note.source, cached: note.cached, raised: note.raised },
  };
}

/** The reason added to a part the model raised: labelled as the model's, its own words escaped and quoted. */
export function raisedReason(j: ModelJudgement, modelId: string): string {
  return j.source === 'model'
    ? `the classifier model (${modelId}) rated it ${j.level}; its reason, not wisp's: "${j.reason}"`
    : `the classifier model gave no usable verdict (${j.reason}), so it counts as at least moderate`;
}

export class ModelClassifier {
  private readonly model: LanguageModel;
  private readonly cache = new Map<string, { level: Level; reason: string }>();

  constructor(private readonly opts: ModelClassifierOptions) {
    // One conversation of its own, reused: each verdict sends the whole (two-message) prompt again.
    this.model = opts.model.fork();
  }

  get modelId(): string {
    return this.model.id;
  }

  /** Reviews every part the rules did not already rate dangerous; returns the analysis with raised parts. */
  async review(analysis: LineAnalysis, cwd: string, signal?: AbortSignal): Promise<LineAnalysis> {
    const parts: PartVerdict[] = [];
    for (const part of analysis.parts) {
      if (part.level === 'dangerous') {
        parts.push(part); // nothing to raise
        continue;
      }
      const j = await this.judge(part.text, analysis.command, cwd, signal);
      const level = maxLevel(part.level, j.level);
      const raised = levelRank(level) > levelRank(part.level);
      const next: PartVerdict = raised ? { ...part, level, knownSafe: false, reasons: [...part.reasons, raisedReason(j, this.model.id)] } : part;
      notes.set(next, { ...j, model: this.model.id, raised });
      parts.push(next);
    }
    const level = parts.reduce<Level>((acc, p) => maxLevel(acc, p.level), 'safe');
    return { ...analysis, parts, level };
  }

  async judge(command: string, line: string, directory: string, signal?: AbortSignal): Promise<ModelJudgement> {
    const key = JSON.stringify([directory, line, command]);
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key); // most recently used goes last
      this.cache.set(key, hit);
      return { ...hit, source: 'model', cached: true };
    }
    const fallback = (why: string): ModelJudgement => ({ level: 'moderate', reason: why, source: 'fallback', cached: false });
    if (signal?.aborted) return fallback('the request was cancelled');
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    // Raced, not only signalled: a backend that ignores the abort still cannot hold the gate past the timeout.
    const stopped = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${Math.round(this.opts.timeoutMs / 100) / 10} s`), this.opts.timeoutMs);
      onAbort = () => resolve('the request was cancelled');
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const call = this.model.generate(
      [
        { role: 'system', content: CLASSIFIER_INSTRUCTIONS },
        // The command is data: a JSON document, never spliced into the instructions.
        { role: 'user', content: JSON.stringify({ command, line, directory }) },
      ],
      { tools: [], signal: ac.signal },
    );
    let text: string;
    try {
      const got = await Promise.race([call.then((reply) => ({ reply })), stopped.then((why) => ({ why }))]);
      if ('why' in got) {
        ac.abort(new Error(got.why));
        call.catch(() => undefined); // settles later, unheard
        return fallback(got.why);
      }
      text = got.reply.text;
    } catch (err) {
      return fallback(`the model failed: ${visible(err instanceof Error ? err.message : String(err), { maxChars: REASON_MAX_CHARS })}`);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
    const verdict = readVerdict(text);
    if (!verdict) return fallback('its answer could not be read as a verdict');
    const judged = { level: verdict.level, reason: visible(verdict.reason, { maxChars: REASON_MAX_CHARS }) };
    this.cache.set(key, judged);
    if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    return { ...judged, source: 'model', cached: false };
  }
}
