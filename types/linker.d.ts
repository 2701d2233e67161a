// The linker's worker client (docs/assets/javascripts/linker-client.js), as the widget (linker.js) and the browser
// tests see it: window.codex.linker.
export {};
declare global {
  /** A game as the worker lists it when ready (codex.api: GameInfo). */
  type LinkerGame = { id: string; name: CodexLabel };
  /** The worker's answer to one request (codex.api.Codex.handle): the result, and the game that answered. */
  type LinkerAnswer = { result: any; game: string | null };
  type LinkerPending = {
    resolve: (answer: LinkerAnswer) => void;
    reject: (error: Error) => void;
    timer: ReturnType<typeof setTimeout> | null;
  };
  /** Whoever shows the worker's state (a widget): told of every change while alive() holds. */
  type LinkerWatcher = { alive: () => boolean; onState: () => void };
  type LinkerState = {
    worker: Worker | null;
    phase: "idle" | "loading" | "ready" | "failed";
    message: string;
    games: LinkerGame[] | null;
    nextId: number;
    pending: Map<number, LinkerPending>;
    watchers: Set<LinkerWatcher>;
    manifest: Promise<{ games: LinkerGame[] }> | null;
    /** where the worker's start-up time went (benchmarks/linker.py, startup.py read them) */
    marks?: Record<string, number | string> | null;
    /** the bytes of the memory snapshot saved for the next start (0: none) */
    snapshot?: number;
    error?: string;
  };
  interface LinkerClient {
    urls: { worker: string; manifest: string };
    state: LinkerState;
    start(): void;
    ask(op: string, payload: Record<string, unknown>): Promise<LinkerAnswer>;
    request(op: string, payload: Record<string, unknown>): Promise<any>;
    manifest(): Promise<{ games: LinkerGame[] }>;
    watch(watcher: LinkerWatcher): void;
    /** how long a request may wait for its answer before the worker is restarted */
    timeoutMs: number;
    restarts: number;
    /** set by linker.js's first copy */
    widget?: boolean;
  }
}
