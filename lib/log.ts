/** JSON-lines logger on stdout (`LOG_LEVEL`; docs/decisions.md, Running). */

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
/** A log level name. */
export type LogLevel = keyof typeof LEVELS;

/** Writes one JSON object per line: `{time, level, msg, ...fields}`. */
export interface Logger {
  /** True when records of `level` are written (so a caller can skip building their fields). */
  enabled(level: LogLevel): boolean;
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** A logger that drops records below `level`; `write` defaults to `console.log`. */
export function createLogger(level: LogLevel, write: (line: string) => void = console.log): Logger {
  const at = (name: LogLevel) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (LEVELS[name] < LEVELS[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: name, msg, ...fields }));
  };
  return {
    enabled: (name) => LEVELS[name] >= LEVELS[level],
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
}
