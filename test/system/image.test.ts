// Covers: scripts/build-image.mjs Containerfile
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN, clinadmin } from '../helpers/bin.js';
import { AGAIN, builtBeside, distBin } from '../helpers/dist-bin.js';
import { tempDir } from '../helpers/tmp.js';

// The OCI images npm run build:image writes, used as CI uses them: loaded into podman, run with the port
// published on 127.0.0.1, seeded from a mounted file with tokens from the environment, driven by the CLI on
// the host, stopped and started again on the same volume. .ci/run builds them once a run and names the folder
// in CLINADMIN_TEST_DIST_BIN (test/helpers/dist-bin.ts); without it, this file
// builds them. podman keeps its images and containers in a folder of this file's own, and runs them with runc
// and no default ulimits (crun refuses these machines' hybrid cgroup layout). The arm64 image's executable
// serves under qemu-user with the image's own root as its library root (binfmt is not available here).

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
const IMAGE = `localhost/clinadmin:${pkg.version}`;
const TOKEN = 'image-token-3c9e';
const SOURCE = 'https://example.org/clinadmin.git';

let out = '';
let own = false;
let done: () => Promise<unknown> = async () => undefined;
let podmanDir = '';
/** podman's run folder, in /tmp: it refuses one whose path is longer than 50 characters. */
let runDir = '';

async function podman(args: string[], options: { reject?: boolean } = {}) {
  // vfs: plain folders, no mounts left behind for the folder's removal to trip on.
  const storage = ['--root', join(podmanDir, 'root'), '--runroot', runDir, '--storage-driver', 'vfs'];
  return execa('podman', [...storage, ...args], {
    reject: options.reject ?? true,
    env: { CONTAINERS_CONF: join(podmanDir, 'containers.conf') },
    stdin: 'ignore',
  });
}

beforeAll(async () => {
  podmanDir = await mkdtemp(join(tmpdir(), 'clinadmin-podman-'));
  runDir = await mkdtemp('/tmp/clinadmin-podman-');
  await writeFile(
    join(podmanDir, 'containers.conf'),
    [
      '[containers]',
      'default_ulimits = []',
      '[engine]',
      'runtime = "runc"',
      'events_logger = "file"',
      `tmp_dir = "${join(podmanDir, 'tmp')}"`,
      '',
    ].join('\n'),
  );
  const built = await distBin([
    ['build-binary.mjs', []],
    ['build-image.mjs', ['--source', SOURCE]],
  ]);
  ({ out, done } = built);
  own = !built.given;
  await podman(['load', '--quiet', '--input', join(out, 'clinadmin-image-linux-amd64.tar')]);
}, 1_800_000);

afterAll(async () => {
  if (podmanDir) {
    await podman(['rm', '--all', '--force', '--time', '0'], { reject: false });
    await podman(['volume', 'rm', '--all', '--force'], { reject: false });
    await podman(['rmi', '--all', '--force'], { reject: false });
    await rm(podmanDir, { recursive: true, force: true });
    await rm(runDir, { recursive: true, force: true });
  }
  await done();
}, 120_000);

/** A port free on 127.0.0.1 now, for podman to publish. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until GET /healthz answers 200, or fails once the container has stopped or a minute has passed. */
async function healthy(url: string, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    const running = (await podman(['inspect', '--format', '{{.State.Running}}', name])).stdout;
    if (running !== 'true' || Date.now() > deadline) {
      throw new Error(`${name} never answered /healthz: ${(await podman(['logs', name], { reject: false })).stderr}`);
    }
    // Between two tries of the port, not before an assertion: the next try is the wait's own check.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The image's files as tar lists its one layer: mode, owner, name and where a link points. */
async function layerFiles(arch: string, dir: string) {
  await execa('tar', ['-xf', join(out, `clinadmin-image-linux-${arch}.tar`), '-C', dir]);
  const blob = (digest: string) => join(dir, 'blobs', 'sha256', digest.replace('sha256:', ''));
  const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'));
  const manifest = JSON.parse(await readFile(blob(index.manifests[0].digest), 'utf8'));
  expect(manifest.layers).toHaveLength(1);
  const layer = blob(manifest.layers[0].digest);
  const list = (await execa('tar', ['-tzvf', layer, '--numeric-owner'])).stdout.split('\n');
  const files = list.map((line) => {
    const [mode, owner, , , , ...rest] = line.split(/\s+/);
    const [name, link] = rest.join(' ').split(' -> ');
    return { mode, owner, name: name.replace(/^\.\//, '').replace(/\/$/, ''), link };
  });
  return { files: files.filter((f) => f.name !== '.' && f.name !== ''), layer };
}

describe('npm run build:image', () => {
  it('writes an OCI archive per architecture, listed in SHA256SUMS, that podman loads', async () => {
    const check = await execa('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, reject: false });
    expect(check.exitCode, check.stdout).toBe(0);
    expect(check.stdout).toContain('clinadmin-image-linux-amd64.tar: OK');
    expect(check.stdout).toContain('clinadmin-image-linux-arm64.tar: OK');
    await podman(['load', '--quiet', '--input', join(out, 'clinadmin-image-linux-arm64.tar')]);
    for (const arch of ['amd64', 'arm64']) {
      const [image] = JSON.parse((await podman(['image', 'inspect', IMAGE])).stdout);
      if (image.Architecture !== arch) {
        // Both archives name the same tag: each load takes it; the other is the one loaded last.
        await podman(['load', '--quiet', '--input', join(out, `clinadmin-image-linux-${arch}.tar`)]);
      }
      const [loaded] = JSON.parse((await podman(['image', 'inspect', IMAGE])).stdout);
      expect(loaded.Architecture).toBe(arch);
      expect(loaded.Os).toBe('linux');
      const config = loaded.Config;
      expect(config.User).toBe('65532:65532');
      expect(config.ExposedPorts).toEqual({ '4010/tcp': {} });
      expect(config.Entrypoint).toEqual(['/usr/bin/clinadmin']);
      expect(config.Cmd).toEqual([
        'serve',
        '--host',
        '0.0.0.0',
        '--port',
        '4010',
        '--data',
        '/data/clinadmin-data.json',
      ]);
      expect(config.Volumes).toEqual({ '/data': {} });
      const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout;
      expect(config.Labels).toMatchObject({
        'org.opencontainers.image.version': pkg.version,
        'org.opencontainers.image.licenses': 'MIT',
        'org.opencontainers.image.revision': head,
      });
      expect(config.Labels['org.opencontainers.image.source']).toMatch(own ? SOURCE : /\S/);
    }
    await podman(['load', '--quiet', '--input', join(out, 'clinadmin-image-linux-amd64.tar')]);
  }, 300_000);

  it('holds the executable, the libraries it links with their packages and copyright files, and no shell', async () => {
    for (const [arch, file] of [
      ['amd64', 'clinadmin-linux-x64'],
      ['arm64', 'clinadmin-linux-arm64'],
    ]) {
      const dir = await tempDir();
      const { files, layer } = await layerFiles(arch, dir);
      const names = files.map((f) => f.name);
      // What the executable asks the loader for (readelf, from binutils, is the other reader of ELF).
      const elf = (await execa('readelf', ['-d', '-l', join(out, file)])).stdout;
      const needed = [...elf.matchAll(/\(NEEDED\)\s+Shared library: \[(.+)\]/g)].map((m) => m[1]);
      const loader = /Requesting program interpreter: \/(.+)\]/.exec(elf)?.[1] ?? '';
      expect(names).toContain(loader);
      const sonames = names.filter((n) => /\.so(\.|$)/.test(n)).map((n) => n.split('/').pop());
      const loaderName = loader.split('/').pop();
      for (const lib of needed) expect(sonames, lib).toContain(lib);
      // Only those: each library file is a needed name, the loader, or the file a needed name links to.
      const links = new Map(files.filter((f) => f.link).map((f) => [f.name.split('/').pop(), f.link]));
      const allowed = new Set([...needed, loaderName]);
      for (const n of [...allowed]) if (links.get(n)) allowed.add(links.get(n)?.split('/').pop());
      expect(sonames.filter((n) => !allowed.has(n))).toEqual([]);
      // No shell, no package manager: the one program is clinadmin.
      const programs = files.filter((f) => f.mode.startsWith('-') && /x/.test(f.mode) && !/\.so/.test(f.name));
      expect(programs.map((f) => f.name)).toEqual(['usr/bin/clinadmin']);
      for (const n of ['bin/sh', 'usr/bin/dpkg', 'usr/bin/apt-get']) expect(names).not.toContain(n);
      // The executable is the one build:binary wrote, byte for byte.
      const tree = join(dir, 'root');
      await mkdir(tree);
      await execa('tar', ['-xzf', layer, '-C', tree]);
      const sha256 = async (f: string) =>
        createHash('sha256')
          .update(await readFile(f))
          .digest('hex');
      expect(await sha256(join(tree, 'usr/bin/clinadmin'))).toBe(await sha256(join(out, file)));
      // Each Debian package the libraries come from, with its version and copyright file.
      const packages = names.filter((n) => n.startsWith('var/lib/dpkg/status.d/')).map((n) => n.split('/').pop());
      expect(packages.sort()).toEqual(['gcc-12-base', 'libatomic1', 'libc6', 'libgcc-s1', 'libstdc++6']);
      for (const p of packages) {
        const control = await readFile(join(tree, 'var/lib/dpkg/status.d', p ?? ''), 'utf8');
        expect(control).toMatch(new RegExp(`^Package: ${p?.replace(/\+/g, '\\+')}$`, 'm'));
        expect(control).toMatch(new RegExp(`^Architecture: ${arch}$`, 'm'));
        expect(control).toMatch(/^Version: \S+$/m);
        expect(await readFile(join(tree, 'usr/share/doc', p ?? '', 'copyright'), 'utf8')).toMatch(/Copyright/i);
      }
      // Only the nonroot user owns anything: its home and /data.
      const owned = files.filter((f) => f.owner !== '0/0');
      expect(owned.map((f) => [f.name, f.owner])).toEqual([
        ['data', '65532/65532'],
        ['home/nonroot', '65532/65532'],
      ]);
    }
  }, 300_000);
});

/** A coverage file as coverages apply reads it, and the state serve --load starts from. */
const STATE = {
  contracts: [{ id: 'ctr_globex_2027', insured: 'org_lab', insurer: 'org_globex' }],
  insuranceCoverages: [{ contract: 'ctr_globex_2027', name: 'Copay', type: 'deduction', amount: 5 }],
};
const COVERAGES = [
  { contract: 'ctr_globex_2027', name: 'Copay', type: 'deduction', amount: 5 },
  { contract: 'ctr_globex_2027', name: 'Lipid panel', type: 'override', percentage: 70 },
];

describe('the image build', () => {
  it('makes the same archives from the same executables, in another folder: the same image digests', async () => {
    // The run's second build (.ci/run), or the same executables copied to a folder of another depth here.
    let again = join(out, AGAIN);
    if (own) {
      again = join(await tempDir(), AGAIN);
      await mkdir(again, { recursive: true });
      for (const f of ['clinadmin-linux-x64', 'clinadmin-linux-arm64']) await copyFile(join(out, f), join(again, f));
      const [image] = JSON.parse((await podman(['image', 'inspect', IMAGE])).stdout);
      const source = image.Config.Labels['org.opencontainers.image.source'];
      await builtBeside(again, '.', [['build-image.mjs', ['--source', source]]]);
    }
    const sums = async (d: string) =>
      (await readFile(join(d, 'SHA256SUMS'), 'utf8')).split('\n').filter((l) => l.includes('clinadmin-image-'));
    expect(await sums(again)).toEqual(await sums(out));
    expect(await sums(out)).toHaveLength(2);
  }, 600_000);
});

describe('the amd64 image as a CI service', () => {
  it('serves a mounted seed, is driven from the host, stops on SIGTERM and starts again on its volume', async () => {
    const dir = await tempDir();
    await chmod(dir, 0o755);
    await writeFile(join(dir, 'state.json'), JSON.stringify(STATE));
    await writeFile(join(dir, 'coverages.json'), JSON.stringify(COVERAGES));
    await podman(['volume', 'create', 'clinadmin-data']);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const tokens = `CLINADMIN_SERVE_TOKENS=${TOKEN}:acc_ci:admin`;
    const publish = ['--publish', `127.0.0.1:${port}:4010`, '--volume', 'clinadmin-data:/data', '--env', tokens];
    await podman([
      'run',
      '--detach',
      '--name',
      'first',
      ...publish,
      '--volume',
      `${join(dir, 'state.json')}:/seed/state.json:ro`,
      IMAGE,
      ...['serve', '--host', '0.0.0.0', '--port', '4010', '--data', '/data/clinadmin-data.json'],
      ...['--load', '/seed/state.json'],
    ]);
    await healthy(url, 'first');
    const env = { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
    const run = (args: string[]) => clinadmin(args, { env, cwd: dir });
    const names = async () => {
      const r = await run(['coverages', 'list', '-o', 'json']);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      return (JSON.parse(String(r.stdout)) as { name: string }[]).map((c) => c.name).sort();
    };
    expect(await names()).toEqual(['Copay']);

    // Seed, verify from the journal, reset to the loaded state.
    const seed = await run(['coverages', 'apply', 'coverages.json', '--prune', '--yes']);
    expect(seed.exitCode, String(seed.stderr)).toBe(0);
    const sent = await run([
      'sandbox',
      'requests',
      '--method',
      'POST',
      '--path',
      '/insurance-coverages*',
      '--expect',
      '1',
    ]);
    expect(sent.exitCode, String(sent.stdout)).toBe(0);
    expect(await names()).toEqual(['Copay', 'Lipid panel']);
    const reset = await run(['sandbox', 'reset']);
    expect(reset.exitCode, String(reset.stderr)).toBe(0);
    expect(await names()).toEqual(['Copay']);
    const again = await run(['coverages', 'apply', 'coverages.json', '--yes']);
    expect(again.exitCode, String(again.stderr)).toBe(0);

    // SIGTERM, and at most 3 s for it: past them podman kills the container, and its exit is then 137.
    await podman(['stop', '--time', '3', 'first']);
    const [stopped] = JSON.parse((await podman(['inspect', 'first'])).stdout);
    expect(stopped.State.ExitCode).toBe(0);
    expect((await podman(['logs', 'first'])).stderr).toMatch(
      /stopped; the data is saved in \/data\/clinadmin-data\.json$/,
    );
    // The data file is in the volume, written by the nonroot user.
    const [volume] = JSON.parse((await podman(['volume', 'inspect', 'clinadmin-data'])).stdout);
    expect((await stat(join(volume.Mountpoint, 'clinadmin-data.json'))).uid).toBe(65532);

    // The image's own command on the same volume: the data as it was at the stop.
    await podman(['run', '--detach', '--name', 'second', ...publish, IMAGE]);
    await healthy(url, 'second');
    expect(await names()).toEqual(['Copay', 'Lipid panel']);
    await podman(['stop', '--time', '3', 'second']);
    const [second] = JSON.parse((await podman(['inspect', 'second'])).stdout);
    expect(second.State.ExitCode).toBe(0);
  }, 300_000);

  it('refuses a bad seed with one line and a non-zero exit', async () => {
    const dir = await tempDir();
    const bad = [
      { id: 'cov_2', contract: 'ctr_a', insured: 'org_l', insurer: 'org_i', name: 'Bad', type: 'deduction' },
    ];
    bad[0] = { ...bad[0], amount: -1 } as (typeof bad)[0];
    await writeFile(join(dir, 'bad.json'), JSON.stringify(bad));
    const r = await podman(
      [
        'run',
        '--rm',
        '--volume',
        `${join(dir, 'bad.json')}:/seed/bad.json:ro`,
        IMAGE,
        ...['serve', '--host', '0.0.0.0', '--data', '/data/clinadmin-data.json', '--load', '/seed/bad.json'],
      ],
      { reject: false },
    );
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: /seed/bad.json: record 1 (id cov_2): amount: must not be negative; fix the file, then start again',
    );
  }, 120_000);
});

/** docs/ci.md's service jobs: GitHub Actions' and GitLab CI's, the first two yaml blocks of the section. */
async function documentedJobs() {
  const page = await readFile(join(root, 'docs', 'ci.md'), 'utf8');
  const section = page.split('## serve as a service container (the OCI image)')[1] ?? '';
  const [github, gitlab] = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]));
  const [publish] = parse([...section.matchAll(/```yaml\n([\s\S]*?)```/g)][2]?.[1] ?? '[]') as { run: string }[];
  return { github: github.jobs.rehearse, gitlab: gitlab.rehearse, publish: publish.run };
}

/**
 * Starts a documented service as the CI would, from the image the docs name (the loaded image, tagged so),
 * its environment and its port 4010, published on a free port of 127.0.0.1: the docs' own 4010 may be taken
 * by another run on this machine. Returns the URL the job's steps then reach it at.
 */
async function startService(name: string, image: string, env: Record<string, string>): Promise<string> {
  await podman(['tag', IMAGE, image]);
  const port = await freePort();
  const vars = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  await podman(['run', '--detach', '--name', name, '--publish', `127.0.0.1:${port}:4010`, ...vars, image]);
  return `http://127.0.0.1:${port}`;
}

/** Runs one documented shell step in bash -e as the CI does, the built CLI as `clinadmin` on PATH. */
async function step(script: string, cwd: string, env: Record<string, string>) {
  const bin = join(cwd, '.bin');
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, 'clinadmin'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(join(bin, 'clinadmin'), 0o755);
  const path = `${bin}:${process.env.PATH}`;
  const r = await execa('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd,
    env: { ...env, PATH: path, CLINADMIN_CONFIG_DIR: join(cwd, '.config'), NO_COLOR: '1' },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  expect(r.exitCode, `${script}\n${r.stdout}\n${r.stderr}`).toBe(0);
}

describe("docs/ci.md's service jobs", () => {
  it('GitHub Actions: the service starts empty, and the steps after the checkout wait on it and seed it', async () => {
    const { github } = await documentedJobs();
    const service = github.services.clinadmin;
    expect(service.ports).toEqual(['127.0.0.1:4010:4010']);
    const url = await startService('github', service.image, service.env);
    const work = await tempDir();
    await mkdir(join(work, 'seed'));
    await writeFile(join(work, 'seed', 'state.json'), JSON.stringify(STATE));
    // The job's URL, on the port the service was published on here.
    const env = {
      ...github.env,
      CLINADMIN_BASE_URL: github.env.CLINADMIN_BASE_URL.replace(':4010', `:${url.split(':')[2]}`),
    };
    const skipped: string[] = [];
    for (const s of github.steps as { uses?: string; run?: string }[]) {
      if (s.uses || /^npm /.test(s.run ?? '')) skipped.push(s.uses ?? (s.run ?? '').split('#')[0].trim());
      else await step(s.run ?? '', work, env);
    }
    expect(skipped).toEqual([
      'actions/checkout@v4',
      'actions/setup-node@v4',
      'npm install -g ./vendor/clinadmin-0.1.0.tgz',
      'npm test',
    ]);
    const cli = (args: string[]) => clinadmin(args, { env: { ...env, CLINADMIN_CONFIG_DIR: join(work, '.config') } });
    const list = await cli(['coverages', 'list', '-o', 'json']);
    expect(JSON.parse(String(list.stdout)).map((c: { name: string }) => c.name)).toEqual(['Copay']);
    const snapshots = await cli(['sandbox', 'snapshots', '-o', 'json']);
    expect(String(snapshots.stdout)).toContain('"seeded"');
    await podman(['rm', '--force', '--time', '0', 'github']);
    await podman(['rmi', service.image]);
  }, 300_000);

  it('GitLab CI: the job variables reach the service, and the script seeds it', async () => {
    const { gitlab } = await documentedJobs();
    const [service] = gitlab.services;
    expect(service.alias).toBe('clinadmin');
    const url = await startService('gitlab', service.name, gitlab.variables);
    const work = await tempDir();
    await mkdir(join(work, 'seed'));
    await writeFile(join(work, 'seed', 'state.json'), JSON.stringify(STATE));
    // The service's alias is its host name in GitLab; here, the port it was published on.
    expect(gitlab.variables.CLINADMIN_BASE_URL).toBe('http://clinadmin:4010');
    const env = { ...gitlab.variables, CLINADMIN_BASE_URL: url };
    const skipped: string[] = [];
    for (const line of gitlab.script as string[]) {
      if (/^npm /.test(line)) skipped.push(line);
      else await step(line, work, env);
    }
    expect(skipped).toEqual(['npm install -g ./vendor/clinadmin-0.1.0.tgz', 'npm test']);
    const list = await clinadmin(['coverages', 'list', '-o', 'json'], {
      env: { ...env, CLINADMIN_CONFIG_DIR: join(work, '.config') },
    });
    expect(JSON.parse(String(list.stdout)).map((c: { name: string }) => c.name)).toEqual(['Copay']);
    await podman(['rm', '--force', '--time', '0', 'gitlab']);
  }, 300_000);
});

describe("docs/ci.md's publishing step", () => {
  it('makes one image of both archives, an architecture each, ready to push', async () => {
    const { publish } = await documentedJobs();
    const lines = publish.trim().split('\n');
    // Each line is one podman command; the push to the registry is the release's, never a test's.
    expect(lines.every((l) => l.startsWith('podman manifest '))).toBe(true);
    const push = lines.filter((l) => l.startsWith('podman manifest push'));
    expect(push).toHaveLength(1);
    for (const line of lines.filter((l) => !push.includes(l))) {
      await podman(line.replace('dist-bin/', `${out}/`).split(' ').slice(1));
    }
    const list = push[0].split(' ')[4];
    const manifest = JSON.parse((await podman(['manifest', 'inspect', list])).stdout);
    const platforms = manifest.manifests.map((m: { platform: { os: string; architecture: string } }) => m.platform);
    expect(platforms).toEqual([
      { os: 'linux', architecture: 'amd64' },
      { os: 'linux', architecture: 'arm64' },
    ]);
    await podman(['manifest', 'rm', list]);
  }, 300_000);
});

describe('the arm64 image', () => {
  it('serves under qemu-user with the image as its library root', async () => {
    const dir = await tempDir();
    const { layer } = await layerFiles('arm64', dir);
    const tree = join(dir, 'root');
    await mkdir(tree);
    await execa('tar', ['-xzf', layer, '-C', tree]);
    const serve = execa(
      'qemu-aarch64-static',
      [
        ...['-L', tree, join(tree, 'usr/bin/clinadmin'), 'serve', '--port', '0'],
        ...['--data', join(dir, 'api.json'), '--token', `${TOKEN}:acc_ci:admin`],
      ],
      { reject: false, env: { HOME: dir, XDG_RUNTIME_DIR: dir }, extendEnv: false, stdin: 'ignore' },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let said = '';
        serve.stdout?.on('data', (d: Buffer) => {
          said += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(said);
          if (m) resolve(m[1]);
        });
        void serve.then((r) => reject(new Error(`serve exited ${r.exitCode}: ${r.stderr}`)));
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const env = { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(dir, 'config') };
      await writeFile(join(dir, 'coverages.json'), JSON.stringify(COVERAGES));
      await writeFile(join(dir, 'state.json'), JSON.stringify(STATE));
      const load = await clinadmin(['sandbox', 'load', 'state.json'], { env, cwd: dir });
      expect(load.exitCode, String(load.stderr)).toBe(0);
      const apply = await clinadmin(['coverages', 'apply', 'coverages.json', '--yes'], { env, cwd: dir });
      expect(apply.exitCode, String(apply.stderr)).toBe(0);
      const list = await clinadmin(['coverages', 'list', '-o', 'json'], { env, cwd: dir });
      expect((JSON.parse(String(list.stdout)) as { name: string }[]).map((c) => c.name).sort()).toEqual([
        'Copay',
        'Lipid panel',
      ]);
      serve.kill('SIGTERM');
      const done = await serve;
      expect(done.exitCode, done.stderr).toBe(0);
    } finally {
      serve.kill('SIGKILL');
      await serve;
    }
  }, 300_000);
});
