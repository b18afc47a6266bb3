// The terminal's width, kept current across resizes, for components that fit their lines to it.
import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export function useColumns(): number {
  const { stdout } = useStdout();
  const [cols, setCols] = useState(() => stdout.columns || 80);
  useEffect(() => {
    const onResize = () => setCols(stdout.columns || 80);
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return cols;
}
