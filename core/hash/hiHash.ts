/**
 * The hash of Havok Script's `0x…hi` literals, which is not StringHash (./stringHash.ts).
 *
 * Found on the retail layer scripts, which pair each literal with its event's name on their
 * `__eventmap` lines (`parent.__eventmap[0xad5130eahi] = {func = parent.BeSentry, name =
 * "BeSentry"}`): the literal is `h = h * 919 + (c - 0x40)` over the name's characters, from
 * `h = 0`, wrapping at 32 bits, case kept. It matches all 95 such pairs of the four scripts of
 * `Patch_00.arch06` (57 distinct names; `core/hash/tests/hiHash.test.ts` checks every one on the
 * real bytes). StringHash of `BeSentry` is 0x7D6FB0AA: the same multiplier, but StringHash's table
 * folds case (a = A = 1), where this rule gives `A` 1 and `a` 33.
 *
 * Those names hold letters only. For other ASCII characters the rule is extended as written
 * (digits and `_` below 0x40 give negative terms, wrapping), which no real pair confirms:
 * `HI_HASH_VERIFIED` says what was checked. Characters above 0x7F are refused (whether the engine
 * hashes UTF-8 bytes or signed chars is unknown).
 */

/** The rule, as the hover and the README state it. */
export const HI_HASH_RULE = 'h = h × 919 + (c − 0x40) over the name’s characters, from 0, wrapping at 32 bits, case kept';

/** Where the rule comes from and how far it is checked. */
export const HI_HASH_VERIFIED =
  'matches all 95 `__eventmap` pairs (literal, event name) of the four retail layer scripts of Patch_00.arch06; their names hold letters only';

/** The `hi` hash of a name, or undefined when it holds a character above 0x7F (see the top comment). */
export function hiHash(name: string): number | undefined {
  let h = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c > 0x7f) return undefined;
    h = (Math.imul(h, 919) + (c - 0x40)) >>> 0;
  }
  return h;
}

/** Whether a name is one the rule was checked on (letters only), not an extension of it. */
export const hiHashVerifiedFor = (name: string): boolean => /^[A-Za-z]+$/.test(name);
