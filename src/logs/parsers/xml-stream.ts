/**
 * An XML report inside a log, read as it streams (JUnit XML, TRX): from the line where `startAt` finds the root
 * element, each line — and each further piece of an over-long line — is appended to `text`, and `scan`
 * consumes the elements that are complete. The parsers differ only in what they start at and what they scan.
 */
export interface XmlStream {
  /** The part of the document not consumed yet. */
  text: string;
  /** True from the root element until the document ends (`reset`, or a line `endsAt` matches). */
  inDoc: boolean;
  /** A log line: true when it belongs to the document (the parser claims it). */
  line(text: string, lineNo: number): boolean;
  /** The next piece of an over-long line the parser claimed (a report written without line breaks). */
  more(text: string, lineNo: number): void;
  /** The document is over: forget what is left of it. */
  reset(): void;
}

export function xmlStream(options: {
  /**
   * Where the root element starts on a line, or -1. Asked only about lines that hold a `<` (an element can start
   * nowhere else): every other line of a log is passed over without a call.
   */
  startAt: (text: string) => number;
  scan: (lineNo: number) => void;
  /** Seen with each line of the document before it is scanned. */
  onLine?: (text: string, lineNo: number) => void;
  /** A line that ends the document once scanned (`</TestRun>`). */
  endsAt?: (text: string) => boolean;
}): XmlStream {
  const doc: XmlStream = {
    text: "",
    inDoc: false,
    line(text, lineNo) {
      if (!doc.inDoc) {
        if (text.indexOf("<") === -1) return false;
        const at = options.startAt(text);
        if (at === -1) return false;
        doc.inDoc = true;
        doc.text = text.slice(at);
      } else doc.text += `\n${text}`;
      options.onLine?.(text, lineNo);
      options.scan(lineNo);
      if (options.endsAt?.(text)) doc.inDoc = false;
      return true;
    },
    more(text, lineNo) {
      if (!doc.inDoc) return;
      doc.text += text;
      options.scan(lineNo);
    },
    reset() {
      doc.inDoc = false;
      doc.text = "";
    },
  };
  return doc;
}

/** Most attribute assignments one element's tags may hold for fast-xml-parser to read it (wave 20). */
export const MAX_XML_ATTRIBUTES = 1024;

/**
 * Whether the tags of `element` hold more than MAX_XML_ATTRIBUTES attribute assignments. fast-xml-parser builds an
 * object key (and more) per attribute: a testcase of a million attributes, 11 MiB of a report a run left, took the
 * host 1.1 GiB. No test runner writes more than a few dozen; such an element is read by the bounded fallbacks, or
 * not at all. Linear in the element's length.
 */
export function overAttributed(element: string): boolean {
  let n = 0;
  const re = /=\s*["']/g;
  for (const tag of element.matchAll(/<[^<>]*>?/g)) {
    re.lastIndex = 0;
    while (re.exec(tag[0])) if (++n > MAX_XML_ATTRIBUTES) return true;
  }
  return false;
}

/** How a report's elements are read (fast-xml-parser): attributes kept unprefixed, values kept as written. */
export const REPORT_XML_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: "",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
} as const;
