import type { Settings, SettingsPatch } from '../../contract/settings.js';
import type { KvRepo } from '../../db/kv.js';
import { ValidationError } from '../../errors.js';
import { DEFAULT_SETTINGS } from './defaults.js';

const KEY = 'settings';

/** One flat settings object; PATCH merges top-level keys. Cached: every request reads it. */
export class SettingsService {
  private current: Settings;

  constructor(private readonly kv: KvRepo) {
    this.current = this.load();
  }

  /** Reads the settings again from the store (a workspace import replaced them underneath). */
  reload(): Settings {
    this.current = this.load();
    return this.current;
  }

  private load(): Settings {
    return { ...DEFAULT_SETTINGS, ...this.kv.get<Partial<Settings>>(KEY) };
  }

  get(): Settings {
    return this.current;
  }

  patch(patch: SettingsPatch): Settings {
    const next: Settings = { ...this.current };
    for (const [key, value] of Object.entries(patch) as [keyof Settings, Settings[keyof Settings]][]) {
      if (value !== undefined) (next as Record<keyof Settings, unknown>)[key] = value;
    }
    validate(next);
    this.kv.set(KEY, next);
    this.current = next;
    return next;
  }

  reset(): Settings {
    this.kv.set(KEY, DEFAULT_SETTINGS);
    this.current = DEFAULT_SETTINGS;
    return this.current;
  }
}

/** Rules the schema cannot say: unique names, and min ≤ max where a max is set. */
function validate(settings: Settings): void {
  const chains = new Set<string>();
  settings.chains.forEach((chain, i) => {
    if (chains.has(chain.chain))
      throw new ValidationError(`chains[${i}].chain`, `duplicate chain ${chain.chain}`);
    chains.add(chain.chain);
    const tokens = new Set<string>();
    chain.tokens.forEach((token, j) => {
      const field = `chains[${i}].tokens[${j}]`;
      if (tokens.has(token.name)) throw new ValidationError(`${field}.name`, `duplicate token ${token.name}`);
      tokens.add(token.name);
      if (token.max !== 0 && token.min > token.max)
        throw new ValidationError(`${field}.min`, 'must not exceed max');
    });
  });
  const products = new Set<string>();
  settings.card_catalogue.forEach((product, i) => {
    if (products.has(product.id))
      throw new ValidationError(`card_catalogue[${i}].id`, 'duplicate product id');
    products.add(product.id);
  });
}
