/**
 * Browser-safe: the named weights of the recommendation scores (docs/decisions.md, Recommendations, "One module, named
 * weights"); `recommendations.ts` explains how they add up, and "For you" shows only what scores more than a nearby
 * place alone (`W_NEARBY`).
 */

/** An interest found among an internship's tags. */
export const W_INTEREST_TAG = 0.4;
/** An interest found in a listing's text. */
export const W_INTEREST_TEXT = 0.3;
/** A listing in the person's place: their city, or the state they gave. */
export const W_LOCATION = 0.3;
/** A listing elsewhere in the person's state, or remote or online (open wherever they are). */
export const W_NEARBY = 0.15;
/** What a match of the field of study counts, as a share of a match of an interest the person chose. */
export const W_FIELD_FACTOR = 0.5;
/** An opportunity of a type the person is interested in. */
export const W_OPPORTUNITY_TYPE = 0.4;
/** A toolkit about one of the person's struggles. */
export const W_STRUGGLE = 0.7;
/** A toolkit about one of the person's interests. */
export const W_TOOLKIT_INTEREST = 0.3;
