/**
 * A small strict XML reader for checking reports (JUnit): elements, attributes, text, the five
 * predefined entities and numeric references. Anything not well-formed throws, so a test that
 * reads a report also proves it parses.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, at: number): string {
  return text.replace(/&([^;]*);?/g, (raw, entity: string) => {
    if (!raw.endsWith(';')) throw new Error(`bare & near offset ${at}`);
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    const value = ENTITIES[entity];
    if (value === undefined) throw new Error(`unknown entity &${entity}; near offset ${at}`);
    return value;
  });
}

export function parseXml(source: string): XmlElement {
  let i = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${i}: ${JSON.stringify(source.slice(i, i + 40))}`);
  };
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i]!)) i++;
  };
  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    i = end + 2;
  }
  skipSpace();

  const element = (): XmlElement => {
    if (source[i] !== '<') fail('expected <');
    i++;
    const name = NAME.exec(source.slice(i))?.[0] ?? fail('expected an element name');
    i += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = i;
      skipSpace();
      if (source.startsWith('/>', i)) {
        i += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (source[i] === '>') {
        i++;
        break;
      }
      if (i === before) fail('expected whitespace before an attribute');
      const attr = NAME.exec(source.slice(i))?.[0] ?? fail('expected an attribute name');
      i += attr.length;
      if (source[i] !== '=') fail('expected =');
      const quote = source[i + 1];
      if (quote !== '"' && quote !== "'") fail('expected a quoted value');
      const end = source.indexOf(quote!, i + 2);
      if (end < 0) fail('unterminated attribute value');
      const raw = source.slice(i + 2, end);
      if (raw.includes('<')) fail('< in an attribute value');
      if (attr in attributes) fail(`duplicate attribute ${attr}`);
      attributes[attr] = decode(raw, i);
      i = end + 1;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (i >= source.length) fail(`unclosed <${name}>`);
      if (source.startsWith('</', i)) {
        i += 2;
        if (!source.startsWith(name, i)) fail(`expected </${name}>`);
        i += name.length;
        skipSpace();
        if (source[i] !== '>') fail('expected >');
        i++;
        return { name, attributes, children, text };
      }
      if (source[i] === '<') children.push(element());
      else {
        const end = source.indexOf('<', i);
        if (end < 0) fail(`unclosed <${name}>`);
        const raw = source.slice(i, end);
        if (raw.includes('>') && raw.includes(']]>')) fail(']]> in text');
        text += decode(raw, i);
        i = end;
      }
    }
  };

  const root = element();
  skipSpace();
  if (i !== source.length) fail('content after the root element');
  return root;
}
