// The approval dialog (design.md §2 `terminal` row, §10): an authored headline, the command in a labelled block made
// visible, the line it is part of, the directory, level and reasons, what the answer is remembered as, and one key
// per answer. Focus starts on "no", so Enter alone refuses (peers.md §7: default focus on deny).
import { Box, Text, useInput, type Key } from 'ink';
import React, { useRef, useState } from 'react';
import { hasHidden, visible } from '../src/display/visible.js';
import type { ApprovalRequest, Scope } from '../src/escalation/types.js';
import { DECLINED_IN_CHAT } from './terminal-channel.js';
import type { DialogRequest, DialogResult } from './dialog-store.js';
import { DialogFrame } from './DialogFrame.js';
import { KeyRhythm } from './key-rhythm.js';
import { Labelled } from './Labelled.js';
import { useKeyGuard } from './use-key-guard.js';

/** wisp's own headline, used when no operator rule authored one. */
export const APPROVAL_HEADLINE = 'wisp needs your approval to run this command';

type Choice = Scope | 'no';
const CHOICES: readonly Choice[] = ['once', 'session', 'project', 'always', 'no'];
const KEYS: Readonly<Record<string, Choice>> = { y: 'once', s: 'session', p: 'project', a: 'always', n: 'no' };

export interface ApprovalDialogProps {
  readonly request: DialogRequest & { readonly verb: 'approval' };
  readonly onAnswer: (result: DialogResult) => void;
  /** Judges whether a key came after a pause (ui/key-rhythm.ts). @default a fresh KeyRhythm (500 ms) */
  readonly rhythm?: KeyRhythm;
  /** Keys refused as typing are handed back here (the App puts them in the input line). */
  readonly onStrayKey?: (input: string, key: Key) => void;
  /** approval.persistDays, for the hints. @default 30 */
  readonly persistDays?: number;
}

const BROAD: ReadonlySet<Choice> = new Set(['project', 'always']);

export function ApprovalDialog({ request, onAnswer, rhythm, onStrayKey, persistDays = 30 }: ApprovalDialogProps): React.ReactElement {
  const [ownRhythm] = useState(() => rhythm ?? new KeyRhythm());
  const guard = useKeyGuard(rhythm ?? ownRhythm);
  // The focus lives in a ref too: keys that arrive together (→ then Enter) are handled before React re-renders.
  const focusRef = useRef<number>(CHOICES.length - 1);
  const [focus, setFocusState] = useState<number>(focusRef.current);
  const setFocus = (next: number) => {
    focusRef.current = Math.min(CHOICES.length - 1, Math.max(0, next));
    setFocusState(focusRef.current);
  };
  const r: ApprovalRequest = request.request;
  const dangerous = r.level === 'dangerous';

  const choose = (choice: Choice) => {
    onAnswer(choice === 'no' ? { kind: 'declined', reason: DECLINED_IN_CHAT } : { kind: 'approved', scope: choice });
  };

  useInput((input, key) => {
    if (key.ctrl) return; // Ctrl+C and friends belong to the App
    // Moving the focus answers nothing, so it needs no pause (it still counts as a key for the next one).
    const move = key.leftArrow || (key.tab && key.shift) ? -1 : key.rightArrow || key.tab ? 1 : 0;
    if (move !== 0) {
      (rhythm ?? ownRhythm).typed();
      return setFocus(focusRef.current + move);
    }
    // A chunk of several characters is a paste or keys typed together: never an answer.
    const deliberate = guard.judge() && input.length <= 1;
    if (!deliberate) return onStrayKey?.(input, key);
    if (key.return) return choose(CHOICES[focusRef.current]!);
    if (key.escape) return choose('no');
    const choice = KEYS[input.toLowerCase()];
    if (choice === undefined) return;
    // project and always are stored beyond this chat: the key only highlights them; Enter (a second, different
    // key, after another pause) confirms the scope spelled out under the choices.
    if (BROAD.has(choice)) return setFocus(CHOICES.indexOf(choice));
    choose(choice);
  });

  const focused = CHOICES[focus]!;
  const headline = r.ask ?? APPROVAL_HEADLINE;
  return (
    <DialogFrame request={request} title="⚠ approve a command?" then="refused" holding={guard.holding}>
      <Text bold>{visible(headline, { maxChars: 200 })}</Text>
      <Labelled label="Command:" text={r.command} />
      {hasHidden(r.command) || hasHidden(r.line) ? (
        <Text color="red">
          It holds control or invisible characters, shown as \x.. or &lt;U+....&gt; (backslashes doubled). Refuse unless you
          expected them.
        </Text>
      ) : null}
      {r.line !== r.command ? <Labelled label="Part of the line:" text={r.line} color="white" /> : null}
      <Text>
        <Text dimColor>Directory: </Text>
        {visible(r.directory, { maxChars: 300 })}
      </Text>
      <Text>
        <Text dimColor>Level: </Text>
        <Text color={dangerous ? 'red' : 'yellow'} bold>
          {r.level}
        </Text>
      </Text>
      {r.reasons.map((reason, i) => (
        <Text key={i}>  - {visible(reason, { maxChars: 200 })}</Text>
      ))}
      <Text>
        <Text dimColor>Remembered as: </Text>
        {visible(r.pattern, { maxChars: 300 })}
      </Text>
      <Box marginTop={1} flexWrap="wrap">
        {CHOICES.map((choice, i) => (
          <Box key={choice} marginRight={2}>
            <Text inverse={i === focus}>
              {i === focus ? '▸' : ' '}
              {hint(choice, dangerous, persistDays)}
            </Text>
          </Box>
        ))}
      </Box>
      {BROAD.has(focused) ? (
        <Text color="yellow" bold>
          Enter to confirm: {scopeWords(focused, dangerous, persistDays, r)}
        </Text>
      ) : null}
      <Text dimColor>
        {BROAD.has(focused) ? 'Enter confirms · ←/→ move · n or Esc no' : 'Enter alone is no · ←/→ move · Esc no'} · keys count after a ½ s pause
      </Text>
      {request.source.kind === 'queue' ? (
        <Text dimColor>once and session apply to the asking process; project and always are stored for every wisp face.</Text>
      ) : null}
      {dangerous ? (
        <Text color="red">A dangerous command is never remembered beyond this session: p and a keep it for this session only.</Text>
      ) : null}
    </DialogFrame>
  );
}

function hint(choice: Choice, dangerous: boolean, days: number): string {
  switch (choice) {
    case 'once':
      return '[y] once';
    case 'session':
      return '[s] session';
    case 'project':
      return dangerous ? '[p] project (session only)' : `[p] project ${days}d`;
    case 'always':
      return dangerous ? '[a] always (session only)' : `[a] always ${days}d`;
    case 'no':
      return '[n] no';
  }
}

/** The scope of a broad answer, spelled out in full before it is confirmed. */
function scopeWords(choice: Choice, dangerous: boolean, days: number, r: ApprovalRequest): string {
  const pattern = visible(r.pattern, { maxChars: 120 });
  if (dangerous) return `approve ${pattern} for this session only (a dangerous command is never stored)`;
  if (choice === 'always') return `approve ${pattern} in ANY directory, stored for ${days} days`;
  return `approve ${pattern} in ${visible(r.directory, { maxChars: 120 })} (this project), stored for ${days} days`;
}
