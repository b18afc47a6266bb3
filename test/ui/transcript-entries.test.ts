// The result line of a multi-part command names each part with its outcome (issue 14 point 5).
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../src/gate/parse.js';
import { entriesForEvent } from '../../ui/transcript-entries.js';

beforeAll(async () => {
  await initParser();
});

describe('entriesForEvent: gate lines', () => {
  it('names each part of a compound line with its outcome', () => {
    const [e] = entriesForEvent({ type: 'gate', tool: 'run_command', subject: 'ls && touch x', allowed: true, notes: ['safe by rules', 'approved (session)'] });
    expect(e).toMatchObject({ note: 'ls: safe by rules; touch x: approved (session)' });
  });

  it('says how many parts were not reached after a refusal', () => {
    const [e] = entriesForEvent({
      type: 'gate',
      tool: 'run_command',
      subject: 'ls && rm -rf build && echo done',
      allowed: false,
      notes: ['safe by rules', 'denied: declined by the person (wisp chat)'],
    });
    expect(e).toMatchObject({ note: 'ls: safe by rules; rm -rf build: denied: declined by the person (wisp chat); 1 more part not reached' });
  });

  it('leaves a policy refusal about the whole line, and a one-part line, as they are', () => {
    const [p] = entriesForEvent({ type: 'gate', tool: 'run_command', subject: 'ls && rm -rf /', allowed: false, notes: ['blocked by policy: rm of /'] });
    expect(p).toMatchObject({ note: 'blocked by policy: rm of /' });
    const [one] = entriesForEvent({ type: 'gate', tool: 'run_command', subject: 'ls -la', allowed: true, notes: ['safe by rules'] });
    expect(one).toMatchObject({ note: 'safe by rules' });
  });
});

describe('entriesForEvent: tool failures', () => {
  it('attack: a failed edit that is not a refusal gets a line of its own (before: no entry, the reply alone spoke)', () => {
    const [e] = entriesForEvent({ type: 'failed', tool: 'edit_file', error: 'find text not found in /p/a.txt' });
    expect(e).toEqual({ kind: 'failed', tool: 'edit_file', error: 'find text not found in /p/a.txt' });
  });
});
