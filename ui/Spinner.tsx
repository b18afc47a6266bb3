// A spinner while the model thinks, with how long it has been thinking.
import { Text } from 'ink';
import React, { useEffect, useState } from 'react';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface SpinnerProps {
  readonly label: string;
  /** @default 100 */
  readonly intervalMs?: number;
}

export function Spinner({ label, intervalMs = 100 }: SpinnerProps): React.ReactElement {
  const [started] = useState(() => Date.now());
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => f + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  const seconds = Math.floor((Date.now() - started) / 1000);
  return (
    <Text>
      <Text color="cyan">{FRAMES[frame % FRAMES.length]}</Text> {label}
      <Text dimColor>{seconds >= 2 ? ` ${seconds}s` : ''} · Esc interrupts</Text>
    </Text>
  );
}
