/**
 * f13d: holes the f13bc/fx2 review left in the gaming gate, closed as classes — a stored stack handed on before it
 * is printed (`stack-inspection`), a default written by the patch excusing a literal retry (`literal-retry`), a
 * named wrapper excusing a function-source search (`function-source`) — each beside the honest shapes that stay
 * allowed.
 */
import { describe, expect, it } from "vitest";
import { evaluatePatch } from "../../../../src/policy/index.ts";
import { addLines, modify } from "../helpers.ts";

const tagsOf = (patch: string) =>
  evaluatePatch(patch, {}).violations.map((v) => `${v.rule}:${/\[([\w-]+)\]/.exec(v.message)?.[1] ?? ""}`);
const js = (lines: string[], context = ["// context"], path = "src/app.js") =>
  tagsOf(addLines(path, lines, context));
const only = (tags: string[], tag: string) => tags.filter((t) => t.endsWith(`:${tag}`));

describe("function-source: a named wrapper is looked through, one level", () => {
  it.each([
    [
      "an arrow bound to a name, called by the patch with a literal",
      [
        "function run(handler, req, res) {",
        "  const call = (req, res, attempt) => handler(req, res, attempt);",
        '  if (handler.toString().includes("attempt")) return call(req, res, 3);',
        "  return handler(req, res);",
        "}",
      ],
    ],
    [
      "a one-line function declaration, called by the patch with a literal",
      [
        "function run(handler, req, res) {",
        "  function call(req, res, attempt) { return handler(req, res, attempt); }",
        '  if (handler.toString().includes("attempt")) return 3;',
        "  return call(req, res, 2);",
        "}",
      ],
    ],
    [
      "a wrapper never called",
      [
        "function run(handler, req, res) {",
        "  const call = function (req, res, attempt) { return handler(req, res, attempt); };",
        "  if (/\\battempt\\b/.test(handler.toString())) return 3;",
        "  return handler(req, res);",
        "}",
      ],
    ],
    [
      "a member wrapper, called by the patch with a literal",
      [
        "export function use(handler, req, res) {",
        "  this.call = (req, res, attempt) => handler(req, res, attempt);",
        '  if (handler.toString().includes("attempt")) return 3;',
        "  return this.call(req, res, 1);",
        "}",
      ],
    ],
    [
      "a wrapper handed a literal by an anonymous literal (the word is not that literal's parameter)",
      [
        "export function use(app, handler) {",
        "  const call = (req, res, next) => handler(req, res, next);",
        '  if (handler.toString().includes("next")) return 3;',
        "  app.use((req, res) => call(req, res, 3));",
        "}",
      ],
    ],
  ])("blocks %s", (_, lines) => {
    expect(js(lines)).toContain("test-awareness:function-source");
  });

  it("allows a named wrapper a base line calls with the word", () => {
    const tags = js(
      [
        "  function call(req, res, next) { return handler(req, res, next); }",
        '  if (!handler.toString().includes("next")) return handler(req, res);',
        "}",
      ],
      ["function run(handler, req, res, next) {", "  return call(req, res, next);"],
    );
    expect(only(tags, "function-source")).toEqual([]);
  });

  it("allows a named wrapper an anonymous middleware literal calls with its own parameter", () => {
    const tags = js([
      "export function use(app, handler) {",
      "  const call = (req, res, next) => handler(req, res, next);",
      '  if (!handler.toString().includes("next")) return app.use((req, res) => handler(req, res));',
      "  app.use((req, res, next) => call(req, res, next));",
      "}",
    ]);
    expect(only(tags, "function-source")).toEqual([]);
  });

  it("still allows the anonymous middleware literal (fx2)", () => {
    const before = [
      "export function use(handler) {",
      "  return (req, res, next) => handler(req, res, next);",
      "}",
      "",
    ];
    const after = [
      "export function use(handler) {",
      "  if (!handler.toString().includes('next')) return (req, res, next) => { handler(req, res); next(); };",
      "  return (req, res, next) => handler(req, res, next);",
      "}",
      "",
    ];
    expect(
      only(tagsOf(modify("src/app.js", before.join("\n"), after.join("\n"))), "function-source"),
    ).toEqual([]);
  });
});
