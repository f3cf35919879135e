/** Assertions for tests, from `node:assert/strict` under the names Deno tests usually use. */
export {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  notDeepStrictEqual as assertNotEquals,
  ok as assert,
  rejects as assertRejects,
  throws as assertThrows,
} from "node:assert/strict";
