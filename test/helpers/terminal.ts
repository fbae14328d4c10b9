import { execa } from 'execa';
import { expect } from 'vitest';
import { afterEveryTest, ORDER } from './cleanup.js';

// A real pseudo-terminal: a shell in tmux at a given size, as a person has it. Each terminal has a tmux
// server of its own (-L), so the shell gets this test's environment.

const sockets: string[] = [];
afterEveryTest(ORDER.terminals, async () => {
  for (const s of sockets.splice(0)) await execa('tmux', ['-L', s, 'kill-server'], { reject: false });
});

let seq = 0;

/** The shell to start (bash without its start-up files unless said) and the folder it starts in. */
export interface TerminalOptions {
  shell?: string[];
  cwd?: string;
}

export async function terminal(columns: number, env: Record<string, string>, rows = 60, options: TerminalOptions = {}) {
  const socket = `clinadmin-term-${process.pid}-${++seq}`;
  sockets.push(socket);
  // Readline's own key bindings, not the developer's ~/.inputrc (vi mode binds no Ctrl-L).
  const shellEnv = { ...process.env, ...env, TERM: 'xterm-256color', PS1: '$ ', INPUTRC: '/dev/null' };
  // A person at a terminal: no COLUMNS to override it, and not a CI job (where clinadmin never prompts).
  for (const key of ['COLUMNS', 'CI']) delete (shellEnv as Record<string, string | undefined>)[key];
  const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { env: shellEnv, extendEnv: false });
  const { shell = ['bash', '--norc', '--noprofile'], cwd } = options;
  const where = cwd ? ['-c', cwd] : [];
  await tmux('-f', '/dev/null', 'new-session', '-d', ...where, '-x', String(columns), '-y', String(rows), ...shell);
  const screen = async () => (await tmux('capture-pane', '-p')).stdout;
  /**
   * Resolves once the shell shows a fresh prompt on its last line (PS1, which zsh reads from the environment
   * too). Keys sent sooner are echoed by the terminal ahead of it, and the prompt and line drawn again
   * after them: on a busy machine, that row wraps or is misread.
   */
  const prompt = async () => {
    await expect.poll(async () => (await screen()).trimEnd().split('\n').at(-1), { timeout: 10_000 }).toBe('$');
  };
  /** The screen with its colors and attributes, as SGR escape sequences. */
  const styled = async () => (await tmux('capture-pane', '-p', '-e')).stdout;
  const type = (...keys: string[]) => tmux('send-keys', ...keys);
  /** The terminal's modes as tmux holds them: cursor shown, alternate screen on, keypad mode. */
  const modes = async () =>
    (
      await tmux(
        'display-message',
        '-p',
        'cursor=#{cursor_flag} alternate=#{alternate_on} keypad=#{keypad_cursor_flag}',
      )
    ).stdout;
  /** Lines the terminal wrapped onto the next row, as tmux records them: a line wider than the terminal. */
  const wrapped = async () => {
    const rows = (await tmux('capture-pane', '-p')).stdout.split('\n');
    const joined = (await tmux('capture-pane', '-p', '-J')).stdout.split('\n');
    return rows.length - joined.length;
  };
  /** Sets the terminal's size, as a person resizing the window (the program gets SIGWINCH). */
  const resize = (x: number, y: number) => tmux('resize-window', '-x', String(x), '-y', String(y));
  /**
   * Clears the screen to the prompt with the shell's own key (readline's clear-screen, Ctrl-L), so nothing
   * the next command draws is mistaken for what was there before. Not `clear`: keys typed while a command
   * runs are echoed by the terminal ahead of the prompt, and its row wraps or is misread.
   */
  const clear = async () => {
    await type('C-l');
    await expect.poll(async () => (await screen()).trim(), { timeout: 10_000 }).toBe('$');
  };
  /**
   * Ctrl-C at the shell's line: abandons it, and resolves once the shell shows a fresh prompt. A key sent
   * sooner can be read before the shell acts on the signal, and then goes to the abandoned line.
   */
  const interrupt = async () => {
    await type('C-c');
    await prompt();
  };
  // The shell's start-up may print first (a locale it cannot set): the prompt, then a screen of it alone.
  await prompt();
  await clear();
  let marks = 0;
  return {
    screen,
    /** The window title as the terminal holds it (an OSC 0 or 2 sequence sets it). */
    title: async () => (await tmux('display-message', '-p', '#{pane_title}')).stdout,
    styled,
    type,
    resize,
    modes,
    wrapped,
    prompt,
    clear,
    interrupt,
    /** The exit status of the last command, read before anything else runs. */
    async status(): Promise<number> {
      const mark = `status_${++marks}=`;
      await prompt();
      await type('-l', `echo ${mark}$?`);
      await type('Enter');
      await expect.poll(screen, { timeout: 10_000 }).toMatch(new RegExp(`^${mark}\\d+$`, 'm'));
      return Number(new RegExp(`^${mark}(\\d+)$`, 'm').exec(await screen())![1]);
    },
    /**
     * Clears the screen, runs a command line, and resolves with what it drew (the lines between the
     * markers printed before and after it), exactly as the terminal shows them.
     */
    async run(line: string): Promise<string[]> {
      const n = ++marks;
      await clear();
      // The markers are typed quoted, so the command line never holds them as printed: a long command line
      // wraps anywhere (a temporary folder's path), and no row of it is ever taken for a marker.
      const [begin, done] = [`__begin_${n}__`, `__done_${n}__`];
      await type('-l', `echo __begin_"${n}"__; ${line}; echo __done_"${n}"__`);
      await type('Enter');
      await expect.poll(screen, { timeout: 30_000 }).toMatch(new RegExp(`^${done}$`, 'm'));
      const lines = (await screen()).split('\n');
      return lines.slice(lines.indexOf(begin) + 1, lines.indexOf(done));
    },
  };
}
