/**
 * The words that put a report's text on the good or wanted side — what the reporter expects, what should happen,
 * what worked in another version, what is correct — kept in one place. Each list is the one its reader was written
 * with (the readers differ in what they are shown: a sentence, a clause after a value, a heading, a lead, a label's
 * neighbours, a code comment); they are not merged, so each reader's behaviour stays as it was. Pure.
 */

// ---- want-around.ts

/** A sentence stating the wanted behaviour. */
export const WANT_SENTENCE =
  /\b(?:should|ought\s+to|is\s+supposed\s+to|(?:it|this|that)\s+(?:would|will)\s+be\s+(?:good|nice|great|better|helpful|useful|ideal|preferable)|(?:i|we)(?:['’]d|\s+would)\s+(?:like|prefer|expect|want)|(?:i|we)\s+(?:want|expect|expected|was\s+expecting|were\s+expecting|hope|wish)|desired|expected)\b/i;

// ---- prose-call.ts

/** Words before the verb that make the line the expected side, or a line about something else. */
export const EXPECTED_SIDE =
  /\b(?:should|shall|expect(?:ed|s|ing)?|want(?:ed)?|ought|would|correct(?:ly)?|right|fine|works?|worked|properly|desired|intended|instead)\b/i;

/** Words after the value that mark the line as a working case ("// Output as expected", "which is correct"). */
export const GOOD_AFTER_VALUE = /\b(?:as expected|is expected|correct(?:ly)?|fine|ok|right|works?)\b/i;

/** The value's own clause marking the call as the working one ("returns `true` as it should, but …"). */
export const GOOD_VALUE_CLAUSE =
  /^\s*,?\s*(?:as\s+(?:it\s+|they\s+)?(?:should|expected|intended|documented)|as\s+it\s+is\s+(?:supposed|meant)\s+to|(?:which|that)\s+is\s+(?:right|correct|fine|expected|ok))\b/i;

/** A heading that names the expected side ("### Expected behavior", "**Expected result:**"). */
export const EXPECTED_HEADING = /\b(?:expect(?:ed|ation|s)?|should|desired|intended|wanted|correct|ideal)\b/i;

// ---- reference-lead.ts

/** The clause calls what follows right. */
export const GOOD_LEAD_CLAUSE =
  /\b(?:correct(?:ly)?|rightly|properly|as expected|expected|as it should|works?|worked|working|fine|should|ought to|is supposed to|used to|the right (?:output|result|behaviou?r|answer|order|value)|(?:i|we)(?:['’]d|\s+would)\s+(?:prefer|like)|(?:i|we)(?:['’]d|\s+would)?\s+expect|(?:i|we)\s+(?:was|were)\s+expecting|what\s+(?:i|we)\s+(?:want|wanted|expect|expected|would\s+like)|desired)\b/i;

// ---- version-verdict.ts

/**
 * Words right before a label that put it on the good side: "behaves like 3.11", "worked in 4.1", "fixed in 2.0",
 * "in 3.11 but not in 3.10", "unlike 3.10".
 */
export const GOOD_BEFORE =
  /\b(?:behaves? like|behave as|like|as (?:in|on|with)|matches|same as|correct(?:ly)? (?:in|on)|works? (?:in|on|with)|worked (?:in|on|with)|fine (?:in|on|with)|fixed in|(?:and |as |so )did|(?:but |and )?not (?:in|on|with|under)|unlike)\s+(?:in\s+|on\s+)?$/i;

/**
 * Words right after a label that say it behaved as it should, in the past of a regression: "3.13.0 did raise
 * it", "3.10 used to return 1", "3.12 worked", "3.9 was fine", "whereas 4.1 did", "with 1.2.4 this worked".
 */
export const GOOD_AFTER_LABEL =
  /^\s*(?:(?:and|or)\s+(?:earlier|older|before|below)\s+)?(?:(?:it|this|that)\s+)?(?:(?:still|correctly|properly)\s+)?(?:did(?!\s*(?:n[o']?t|not))\b|used to\b|worked\b|works (?:fine|correctly|as expected)\b|was (?:fine|correct|ok)\b|behaved\b|(?:correctly\s+)?raised\b)/i;

/** Words introducing one transcript as the good side ("behaves as expected", "works fine", "correct", "used to"). */
export const GOOD_LEAD_WORDS =
  /\b(?:(?:behaves?|works?|worked|working|is|as)\s+(?:as\s+)?expected|expected\s+(?:behaviou?r|result|output)|works?(?:\s+fine|\s+correctly)?|correct(?:ly)?|fine|good|did (?:raise|throw|work|return)|used to|worked|(?:and |as |so )did)\b/;

// ---- conditional-error.ts

/** A code comment saying its line completes without an error. */
export const NO_RAISE_COMMENT =
  /(?:#|\/\/)\s*(?:(?:does\s*n['’]?o?t|doesn['’]t|never|no\s+longer)\s+(?:raise|throw|fail|error)s?|no\s+(?:error|exception)s?(?:\s+(?:raised|thrown))?|(?:runs|passes|works)\s+(?:fine|silently|without\s+(?:an?\s+)?(?:error|exception)))\s*[.!]?\s*$/im;
