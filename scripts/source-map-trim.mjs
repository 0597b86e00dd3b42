// Source maps of the built server limited to our own sources (scripts/build-server.mjs): the bundled npm
// packages' code keeps no mapping. Node's --enable-source-maps parses each map as its module loads; the
// packages were 570 of 815 sources and most of the app chunk's 2.7 MB map (~0.3 s of CPU per start).
// The format is the Source Map specification's (ECMA-426: "mappings": lines by ';', segments by ',', each
// segment 1, 4 or 5 base64 VLQ fields, all but the generated column relative to the previous segment).

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE_OF = new Map([...DIGITS].map((digit, value) => [digit, value]));

/** The VLQ fields of one segment. */
function decodeSegment(text) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const digit of text) {
    const bits = VALUE_OF.get(digit);
    if (bits === undefined) throw new Error(`not a source map digit: ${digit}`);
    value += (bits & 31) << shift;
    if (bits & 32) {
      shift += 5;
    } else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return fields;
}

function encodeField(field) {
  let value = field < 0 ? (-field << 1) | 1 : field << 1;
  let text = '';
  do {
    let bits = value & 31;
    value >>>= 5;
    if (value > 0) bits |= 32;
    text += DIGITS[bits];
  } while (value > 0);
  return text;
}

/**
 * `map` with only the mappings into sources `keep` accepts; the generated code of the others maps to
 * nothing (a one-field segment where it starts), and their sources and names leave the lists.
 */
export function trimSourceMap(map, keep) {
  const sources = [];
  const sourcesIndex = new Map();
  const names = [];
  const namesIndex = new Map();
  const indexOf = (list, index, value) => {
    if (!index.has(value)) {
      index.set(value, list.length);
      list.push(value);
    }
    return index.get(value);
  };
  // Absolute values read so far (in), and those written so far (out): both files count relatively.
  const read = { source: 0, line: 0, column: 0, name: 0 };
  const written = { source: 0, line: 0, column: 0, name: 0 };
  // Whether the last segment written maps somewhere: a lookup in a later line without segments finds it.
  let mapped = false;
  const lines = map.mappings.split(';').map((line) => {
    let column = 0;
    let writtenColumn = 0;
    const out = [];
    const emit = (fields) => {
      const relative = [fields[0] - writtenColumn];
      writtenColumn = fields[0];
      if (fields.length >= 4) {
        relative.push(fields[1] - written.source, fields[2] - written.line, fields[3] - written.column);
        [written.source, written.line, written.column] = [fields[1], fields[2], fields[3]];
      }
      if (fields.length === 5) {
        relative.push(fields[4] - written.name);
        written.name = fields[4];
      }
      out.push(relative.map(encodeField).join(''));
    };
    for (const segment of line ? line.split(',') : []) {
      const fields = decodeSegment(segment);
      column += fields[0];
      if (fields.length < 4) {
        if (mapped) emit([column]);
        mapped = false;
        continue;
      }
      read.source += fields[1];
      read.line += fields[2];
      read.column += fields[3];
      if (fields.length === 5) read.name += fields[4];
      const source = map.sources[read.source];
      if (!keep(source)) {
        if (mapped) emit([column]);
        mapped = false;
        continue;
      }
      const kept = [column, indexOf(sources, sourcesIndex, source), read.line, read.column];
      if (fields.length === 5) kept.push(indexOf(names, namesIndex, map.names[read.name]));
      emit(kept);
      mapped = true;
    }
    return out.join(',');
  });
  return { ...map, sources, names, mappings: lines.join(';') };
}
