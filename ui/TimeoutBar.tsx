// The time a dialog has left, as a shrinking bar and a count of seconds. It only shows the deadline the
// DialogStore enforces; with no deadline (escalation.timeoutSeconds 0) it says so and draws no bar.
import { Text } from 'ink';
import React, { useEffect, useState } from 'react';

export interface TimeoutBarProps {
  /** When the dialog ends unanswered (ms since the epoch); undefined = no limit. */
  readonly deadline: number | undefined;
  /** When the wait started, so the bar's full length is the whole wait. */
  readonly since: number;
  /** Cells in the bar. @default 30 */
  readonly width?: number;
  /** Redraw interval. @default 250 */
  readonly tickMs?: number;
  /** What happens at zero, after "left, then". @default 'refused' */
  readonly then?: string;
}

export function TimeoutBar({ deadline, since, width = 30, tickMs = 250, then = 'refused' }: TimeoutBarProps): React.ReactElement {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === undefined) return undefined;
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [deadline, tickMs]);

  if (deadline === undefined) return <Text dimColor>no time limit: waiting for your answer</Text>;
  const total = Math.max(1, deadline - since);
  const left = Math.max(0, deadline - now);
  const filled = Math.ceil((left / total) * width);
  const seconds = Math.ceil(left / 1000);
  const color = left / total > 0.5 ? 'green' : left / total > 0.2 ? 'yellow' : 'red';
  return (
    <Text>
      <Text color={color}>{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(width - filled)}</Text>
      <Text> {formatSeconds(seconds)} left, then {then}</Text>
    </Text>
  );
}

/** `42s`, `9m 05s`, `2h 00m`. */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}
