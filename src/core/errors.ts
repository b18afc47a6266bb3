// Errors that carry the exit code the CLI should use (design.md §5: 1 runtime failure, 64 usage or invalid config).
export class WispError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 64 = 1,
  ) {
    super(message);
    this.name = 'WispError';
  }
}

export class UsageError extends WispError {
  constructor(message: string) {
    super(message, 64);
    this.name = 'UsageError';
  }
}

export class ConfigError extends WispError {
  constructor(message: string) {
    super(message, 64);
    this.name = 'ConfigError';
  }
}
