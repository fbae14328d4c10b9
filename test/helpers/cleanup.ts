// What a helper leaves to undo when a test ends (or its file), run by setup.ts's hooks for every test file.
// Hooks a helper registered on import would run for the first file of a worker only, since the cli project
// shares one module graph across its files (isolate: false in vitest.config.ts).

type Undo = () => Promise<void> | void;

/** The undo steps in the order they run: processes before the servers they talk to, folders last. */
export const ORDER = { processes: 0, terminals: 1, hostileServers: 2, testServers: 3, folders: 9 } as const;

const atTestEnd: { order: number; undo: Undo }[] = [];
const atFileEnd: { order: number; undo: Undo }[] = [];
let testRunning = false;

/** Whether a test is running now (else a beforeAll or afterAll of its file). */
export const inTest = (): boolean => testRunning;

/** Adds what a helper undoes after every test; called once, when the helper's module loads. */
export function afterEveryTest(order: number, undo: Undo): void {
  atTestEnd.push({ order, undo });
  atTestEnd.sort((a, b) => a.order - b.order);
}

/** Adds what a helper undoes when each test file ends. */
export function afterEveryFile(order: number, undo: Undo): void {
  atFileEnd.push({ order, undo });
  atFileEnd.sort((a, b) => a.order - b.order);
}

const runAll = async (steps: { undo: Undo }[]) => {
  for (const step of steps) await step.undo();
};

export function testStarts(): void {
  testRunning = true;
}

export async function testEnds(): Promise<void> {
  testRunning = false;
  await runAll(atTestEnd);
}

export const fileEnds = (): Promise<void> => runAll(atFileEnd);
