import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import tar from 'tar-fs';

/**
 * Which Chromium the browser tests drive, so `npm install && npm test` is all the set-up:
 * 1. `CHROMIUM_PATH`, when set;
 * 2. the system's (`/usr/bin/chromium`, Debian's package), when present;
 * 3. otherwise the Chromium inside the `@sparticuz/chromium` npm package: unpacked once into
 *    `node_modules/.cache/svc-sandbox-chromium/<version>/` with its bundled libraries (run with
 *    LD_LIBRARY_PATH) and fonts (a fontconfig file of ours). Its `--single-process` default
 *    flags are not used.
 */
export interface BrowserBinary {
  executablePath: string;
  /** environment for the browser process (the bundled one needs its libraries and fonts) */
  env?: Record<string, string>;
  source: 'CHROMIUM_PATH' | 'system' | 'bundled';
}

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const root = resolve(import.meta.dirname, '../..');

/** The flags every test browser starts with: headless, no sandbox (root in CI), nothing online. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function findChromium(options: { system?: boolean } = {}): Promise<BrowserBinary> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return { executablePath: fromEnv, source: 'CHROMIUM_PATH' };
  if ((options.system ?? true) && existsSync(SYSTEM_CHROMIUM))
    return { executablePath: SYSTEM_CHROMIUM, source: 'system' };
  return bundledChromium();
}

/** Unpacks (once; concurrent test workers wait for each other) and describes the bundled Chromium. */
export async function bundledChromium(): Promise<BrowserBinary> {
  // The package exports no package.json: find its folder from its entry point.
  let pkg = dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium'));
  const manifest = (folder: string) =>
    existsSync(join(folder, 'package.json'))
      ? (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
          name?: string;
          version?: string;
        })
      : {};
  // (build/cjs has a package.json of its own, without a name)
  while (manifest(pkg).name !== '@sparticuz/chromium' && dirname(pkg) !== pkg) pkg = dirname(pkg);
  const { version = 'unknown' } = manifest(pkg);
  const bin = join(pkg, 'bin');
  const dir = join(root, 'node_modules', '.cache', 'svc-sandbox-chromium', version);
  if (!existsSync(join(dir, 'ready'))) await unpack(bin, dir);
  // fonts.conf holds absolute paths: a checkout that moved (or shares node_modules through a
  // symlink) would point Chromium at fonts that are not there, and every page with text crashes.
  const conf = join(dir, 'fonts', 'fonts.conf');
  if (readFileSync(conf, 'utf8') !== fontsConf(dir)) {
    writeFileSync(`${conf}.${process.pid}.tmp`, fontsConf(dir));
    renameSync(`${conf}.${process.pid}.tmp`, conf);
  }
  const libraries = [join(dir, 'al2023', 'lib'), join(dir, 'swiftshader'), process.env.LD_LIBRARY_PATH]
    .filter(Boolean)
    .join(':');
  return {
    executablePath: join(dir, 'chromium'),
    env: { ...stringEnv(), LD_LIBRARY_PATH: libraries, FONTCONFIG_PATH: join(dir, 'fonts') },
    source: 'bundled',
  };
}

async function unpack(bin: string, dir: string): Promise<void> {
  // Unpacked beside the target, then renamed into place: a worker never sees half a browser.
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await pipeline(
    createReadStream(join(bin, 'chromium.br')),
    createBrotliDecompress(),
    createWriteStream(join(staging, 'chromium'), { mode: 0o755 }),
  );
  for (const archive of ['al2023', 'fonts', 'swiftshader']) {
    mkdirSync(join(staging, archive), { recursive: true });
    await pipeline(
      createReadStream(join(bin, `${archive}.tar.br`)),
      createBrotliDecompress(),
      tar.extract(join(staging, archive)),
    );
  }
  // The package's fonts.conf points at Lambda's paths; ours points at the unpacked fonts.
  writeFileSync(join(staging, 'fonts', 'fonts.conf'), fontsConf(dir));
  writeFileSync(join(staging, 'ready'), new Date().toISOString());
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another worker got there first: use its copy.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(dir, 'ready'))) throw error;
  }
}

/** Our fontconfig file for a Chromium unpacked at `dir`: its fonts and a font cache beside them. */
const fontsConf = (dir: string) =>
  `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`;

function stringEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}
