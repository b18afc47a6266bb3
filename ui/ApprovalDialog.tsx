// The approval dialog (design.md §2 `terminal` row, §10): an authored headline, the command in a labelled block made
// visible, the line it is part of (which part of how many, highlighted; whitespace runs collapsed and flagged), the
// directory, level and reasons, what the answer is remembered as, and one key per answer. A command too long to show
// is approved only after it has been seen whole (`v`). Focus starts on "no", so Enter alone refuses (peers.md §7: default focus on deny).
import { Box, Text, useStdout, type Key } from 'ink';
import { useKeys } from './use-keys.js';
import React, { useMemo, useRef, useState } from 'react';
import { hasHidden, hasLongRun, visible } from '../src/core/visible.js';
import type { ApprovalRequest } from '../src/escalation/types.js';
import type { Scope } from '../src/core/scopes.js';
import { DECLINED_IN_CHAT } from './terminal-channel.js';
import type { DialogRequest, DialogResult } from './dialog-store.js';
import { DialogFrame } from './DialogFrame.js';
import { KeyRhythm } from './key-rhythm.js';
import { commandView, wholeText } from './command-view.js';
import { blockRows, ScrollBlock } from './ScrollBlock.js';
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
  readonly onStrayKey?: (input: string, key: Key, paste?: boolean) => void;
  /** approval.persistDays, for the hints. @default 30 */
  readonly persistDays?: number;
}

const BROAD: ReadonlySet<Choice> = new Set(['project', 'always']);
const NO_INDEX = CHOICES.indexOf('no');

export function ApprovalDialog({ request, onAnswer, rhythm, onStrayKey, persistDays = 30 }: ApprovalDialogProps): React.ReactElement {
  const [ownRhythm] = useState(() => rhythm ?? new KeyRhythm());
  const guard = useKeyGuard(rhythm ?? ownRhythm);
  // The focus lives in a ref too: keys that arrive together (→ then Enter) are handled before React re-renders.
  const focusRef = useRef<number>(NO_INDEX);
  const [focus, setFocusState] = useState<number>(focusRef.current);
  const setFocus = (next: number) => {
    focusRef.current = Math.min(CHOICES.length - 1, Math.max(0, next));
    setFocusState(focusRef.current);
  };
  // True while the keys are a run of focus moves that began deliberately.
  const movingRef = useRef(false);
  // A key taken as typing leaves the person's intent unknown (an `a` then a quick `n` meant no): what Enter takes
  // goes back to no, so a later Enter never confirms a choice made before keys the dialog did not take (ADR 0102).
  const [reset, setReset] = useState(false);
  const stray = (input: string, key: Key, paste?: boolean) => {
    if (focusRef.current !== NO_INDEX) {
      setFocus(NO_INDEX);
      setReset(true);
    }
    onStrayKey?.(input, key, paste);
  };
  const r: ApprovalRequest = request.request;
  const dangerous = r.level === 'dangerous';
  const view = useMemo(() => commandView(r.command, r.line), [r.command, r.line]);
  const whole = useMemo(() => (view.cut ? wholeText(r.command, r.line) : ''), [view.cut, r.command, r.line]);
  const { stdout } = useStdout();
  const textWidth = Math.max(20, (stdout.columns || 80) - 8);
  const viewHeight = Math.max(5, (stdout.rows || 24) - 10);
  // The viewer (v): open or not, where it is scrolled to, and whether its last row has been on screen.
  // In a ref as well: the key handler is re-bound only after React's effects run, and a key may come before that.
  const viewingRef = useRef(false);
  const [viewing, setViewingState] = useState(false);
  const setViewing = (v: boolean) => {
    viewingRef.current = v;
    setViewingState(v);
  };
  const [offset, setOffsetState] = useState(0);
  const offsetRef = useRef(0);
  const seenRef = useRef(false);
  const [mustView, setMustView] = useState(false);
  const scrollTo = (next: number) => {
    const total = blockRows(whole, textWidth).length;
    offsetRef.current = Math.max(0, Math.min(next, Math.max(0, total - viewHeight)));
    if (offsetRef.current + viewHeight >= total) seenRef.current = true;
    setOffsetState(offsetRef.current);
  };

  const choose = (choice: Choice) => {
    // A command that was cut is approved only once it has been seen whole; refusing needs no such thing.
    if (choice !== 'no' && view.cut && !seenRef.current) return setMustView(true);
    onAnswer(choice === 'no' ? { kind: 'declined', reason: DECLINED_IN_CHAT } : { kind: 'approved', scope: choice });
  };

  useKeys((input, key, together, paste) => {
    if (key.ctrl) return; // Ctrl+C and friends belong to the App
    if (viewingRef.current) {
      // Reading answers nothing: scrolling and going back need no pause (they still count as keys).
      (rhythm ?? ownRhythm).typed();
      movingRef.current = false;
      if (key.escape || input === 'v' || input === 'q') return setViewing(false);
      const page = Math.max(1, viewHeight - 1);
      if (key.upArrow) return scrollTo(offsetRef.current - 1);
      if (key.downArrow) return scrollTo(offsetRef.current + 1);
      if (key.pageUp) return scrollTo(offsetRef.current - page);
      if (key.pageDown || input === ' ') return scrollTo(offsetRef.current + page);
      return;
    }
    // Moving the focus answers nothing, but it chooses what a later Enter answers: arrows of an edit in the input
    // line that straddled the opening must not move it (ADR 0094). So the first move needs a pause, like an answer;
    // the moves right after an accepted one go on without (a run of ← is one deliberate act).
    const move = key.leftArrow || (key.tab && key.shift) ? -1 : key.rightArrow || key.tab ? 1 : 0;
    if (move !== 0) {
      const go = movingRef.current && !together ? ((rhythm ?? ownRhythm).typed(), true) : guard.judge() && !together;
      movingRef.current = go;
      if (!go) return stray(input, key, paste);
      setReset(false);
      return setFocus(focusRef.current + move);
    }
    movingRef.current = false;
    // A chunk of several characters is a paste or keys typed together: never an answer.
    const deliberate = guard.judge() && input.length <= 1 && !together;
    if (!deliberate) return stray(input, key, paste);
    setReset(false);
    if (key.return) return choose(CHOICES[focusRef.current]!);
    if (key.escape) return choose('no');
    if (input.toLowerCase() === 'v' && view.cut) {
      setMustView(false);
      setViewing(true);
      return scrollTo(offsetRef.current);
    }
    const choice = KEYS[input.toLowerCase()];
    if (choice === undefined) return;
    // project and always are stored beyond this chat: the key only highlights them; Enter (a second, different
    // key, after another pause) confirms the scope spelled out under the choices.
    if (BROAD.has(choice)) {
      if (view.cut && !seenRef.current) return setMustView(true);
      return setFocus(CHOICES.indexOf(choice));
    }
    choose(choice);
  });

  const focused = CHOICES[focus]!;
  // Without colour (NO_COLOR) inverse video is gone too, so the part is marked in the text itself.
  const plain = (process.env.NO_COLOR ?? '') !== '';
  const headline = r.ask ?? APPROVAL_HEADLINE;
  if (viewing) {
    return (
      <DialogFrame request={request} title="⚠ approve a command? — the whole command" then="refused" holding={guard.holding}>
        <ScrollBlock label="Command, whole:" text={whole} width={textWidth} height={viewHeight} offset={offset} scrollKeys="↑/↓ PgUp/PgDn" />
        <Text dimColor>↑/↓ PgUp/PgDn scroll · Esc or v back to the answers</Text>
      </DialogFrame>
    );
  }
  return (
    <DialogFrame request={request} title="⚠ approve a command?" then="refused" holding={guard.holding}>
      <Text bold>{visible(headline, { maxChars: 200 })}</Text>
      <Text dimColor>{view.part ? `Command (part ${view.part.index} of ${view.part.count} of the line):` : 'Command:'}</Text>
      <Box paddingLeft={2}>
        <Text color="cyan">{view.command}</Text>
      </Box>
      {r.line !== r.command ? (
        <>
          <Text dimColor>
            {view.part ? `The whole line, part ${view.part.index} ${plain ? 'between » and «' : 'highlighted'}:` : 'Part of the line:'}
          </Text>
          <Box paddingLeft={2}>
            <Text>
              {view.line.map((seg, i) =>
                seg.mark ? (
                  <Text key={i} inverse bold>
                    {plain ? `»${seg.text}«` : seg.text}
                  </Text>
                ) : (
                  <Text key={i} color="white">
                    {seg.text}
                  </Text>
                ),
              )}
            </Text>
          </Box>
        </>
      ) : null}
      {hasLongRun(r.command) || hasLongRun(r.line) ? (
        <Text color="red">It holds long runs of blank characters, shown as ⟨N spaces⟩ (⟨ in the text itself as &lt;U+27E8&gt;).</Text>
      ) : null}
      {view.cut ? (
        <Text color={seenRef.current ? 'green' : 'red'} bold>
          {seenRef.current
            ? 'Too long to show here; you have seen it whole (v shows it again).'
            : 'Too long to show here: press v to see it whole. It cannot be approved before you have.'}
        </Text>
      ) : null}
      {mustView ? <Text color="red">First see the whole command: press v.</Text> : null}
      {hasHidden(r.command) || hasHidden(r.line) ? (
        <Text color="red">
          It holds control or invisible characters, shown as \x.. or &lt;U+....&gt; (backslashes doubled). Refuse unless you
          expected them.
        </Text>
      ) : null}
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
      {reset ? <Text color="magenta">A key was taken as typing, so the choice went back to no: choose again after a pause.</Text> : null}
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
