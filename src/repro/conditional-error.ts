/**
 * A pasted error the words tie to another setup than the code's ("If `_functools` is not blocked, you get:"),
 * beside code whose own comment says the line does not raise (`functools.lru_cache()(1) # does not raise`): the
 * error is what the other setup does, the behaviour the reporter wants, and the claim is the comment's (the line
 * completes). Pure.
 */
import { NO_RAISE_COMMENT } from "./good-side-words.ts";

/** A lead that opens on a condition and introduces what one gets under it. */
const CONDITIONAL_LEAD =
  /^\s*(?:if|when|whenever|with|without|once|unless)\b[^:]{0,200}?,?\s*(?:you|we|i|one|it|this)\s+(?:get|gets|see|sees|got|raises?|throws?|fails?)\b[^:]{0,40}:\s*$/i;

/**
 * A condition that is the reporter's own run ("When I run this, I get:", "If I call `f(None)`, I get:", "When
 * running it, I see:"): the error is what the code does, the claim, never another setup's.
 */
const OWN_RUN =
  /^\s*(?:if|when|whenever|once)\s+(?:(?:i|we|you|one)\s+(?:then\s+)?)?(?:run|runs|running|ran|execute[sd]?|executing|tr(?:y|ies|ied|ying)|call(?:s|ed|ing)?|invoke[sd]?|invoking|use[sd]?|using|import(?:s|ed|ing)?|do|does|did|doing|launch(?:es|ed|ing)?|start(?:s|ed|ing)?|compil(?:e|es|ed|ing)|build(?:s|ing)?|built|test(?:s|ed|ing)?)\b/i;

export function conditionalLead(lead: string | null): boolean {
  if (lead === null) return false;
  const text = lead.replace(/[*_`]/g, "");
  return CONDITIONAL_LEAD.test(text) && !OWN_RUN.test(text);
}

/** The comment (its text) on a code line saying the line does not raise, or null. */
export function noRaiseComment(code: string): string | null {
  const m = NO_RAISE_COMMENT.exec(code);
  return m ? m[0].replace(/^(?:#|\/\/)\s*/, "").trim() : null;
}
