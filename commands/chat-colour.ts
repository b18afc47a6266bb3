// NO_COLOR (https://no-color.org): set to any non-empty value, it turns colour off. Ink colours through chalk,
// which decides its level once, when first imported, from the environment (FORCE_COLOR among others), and does
// not read NO_COLOR itself. So the chat's modules are loaded with FORCE_COLOR=0 when NO_COLOR asks for it, and the
// variable is put back as it was at once: the commands the chat runs see the environment the person set.

export function colourOff(env: NodeJS.ProcessEnv): boolean {
  return (env.NO_COLOR ?? '') !== '';
}

/** Runs `load` (the first import of Ink) with colour decided by NO_COLOR. */
export async function loadWithColourDecided<T>(env: NodeJS.ProcessEnv, load: () => Promise<T>): Promise<T> {
  if (!colourOff(env)) return load();
  const had = Object.hasOwn(env, 'FORCE_COLOR');
  const before = env.FORCE_COLOR;
  env.FORCE_COLOR = '0';
  try {
    return await load();
  } finally {
    if (had) env.FORCE_COLOR = before;
    else delete env.FORCE_COLOR;
  }
}
