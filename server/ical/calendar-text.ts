// Splits an iCalendar file into its VTIMEZONE and VEVENT components before any of them is parsed,
// so that one broken event is skipped on its own instead of failing the whole calendar, and so
// that a truncated download is told apart from a complete one.

export class CalendarFormatError extends Error {}

/** A calendar that could not be read (not iCalendar, too complex, too slow): the sync records why. */
export class CalendarReadError extends Error {}

export interface CalendarBlocks {
  /** Each VTIMEZONE component, BEGIN to END, as text. */
  timezones: string[];
  /** Each VEVENT component, BEGIN to END (with its VALARMs), as text. */
  events: string[];
  /** VEVENTs whose BEGIN/END lines do not nest; counted, never parsed. */
  malformedEvents: number;
}

interface OpenBlock {
  type: 'VEVENT' | 'VTIMEZONE';
  lines: string[];
  malformed: boolean;
}

/** Logical lines: CRLF, LF or CR line ends; folded lines (RFC 5545 §3.1) joined back. */
function unfoldedLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r\n|\n|\r/)) {
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && out.length > 0) {
      out[out.length - 1] += raw.slice(1);
    } else {
      out.push(raw);
    }
  }
  return out;
}

function marker(line: string): { kind: 'BEGIN' | 'END'; name: string } | undefined {
  const upper = line.trimEnd().toUpperCase();
  if (upper.startsWith('BEGIN:')) return { kind: 'BEGIN', name: upper.slice(6).trim() };
  if (upper.startsWith('END:')) return { kind: 'END', name: upper.slice(4).trim() };
  return undefined;
}

/**
 * Throws CalendarFormatError when the text is not iCalendar (it must open with BEGIN:VCALENDAR)
 * or ends before its calendar is closed (a truncated download must not replace a good copy).
 */
export function splitCalendar(input: string): CalendarBlocks {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const blocks: CalendarBlocks = { timezones: [], events: [], malformedEvents: 0 };
  const stack: string[] = [];
  let seenCalendar = false;
  let open: OpenBlock | undefined;

  const close = (block: OpenBlock) => {
    if (block.malformed) {
      if (block.type === 'VEVENT') blocks.malformedEvents++;
      return;
    }
    (block.type === 'VEVENT' ? blocks.events : blocks.timezones).push(block.lines.join('\r\n'));
  };

  for (const line of unfoldedLines(text)) {
    const m = marker(line);
    if (stack.length === 0) {
      if (m?.kind === 'BEGIN' && m.name === 'VCALENDAR') {
        stack.push('VCALENDAR');
        seenCalendar = true;
      } else if (!seenCalendar && line.trim() !== '') {
        throw new CalendarFormatError('The response is not an iCalendar file (it does not start with BEGIN:VCALENDAR)');
      }
      continue;
    }
    if (m?.kind === 'BEGIN') {
      if (stack.length === 1 && (m.name === 'VEVENT' || m.name === 'VTIMEZONE')) {
        open = { type: m.name, lines: [], malformed: false };
      }
      stack.push(m.name);
      open?.lines.push(line);
      continue;
    }
    if (m?.kind === 'END') {
      const at = stack.lastIndexOf(m.name);
      if (at === -1) {
        if (open) open.malformed = true; // a stray END inside an event
        continue;
      }
      if (at !== stack.length - 1 && open) open.malformed = true; // closes over unclosed components
      open?.lines.push(line);
      stack.length = at;
      if (open && stack.length <= 1) {
        close(open);
        open = undefined;
      }
      continue;
    }
    open?.lines.push(line);
  }

  if (!seenCalendar) throw new CalendarFormatError('The response is empty, not an iCalendar file');
  if (stack.length > 0) throw new CalendarFormatError('The calendar is truncated: it ends before END:VCALENDAR');
  return blocks;
}
